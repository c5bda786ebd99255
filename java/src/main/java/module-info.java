/**
 * A strictly sandboxed GraalVM Polyglot interpreter for code a language model writes: a {@code GuestInterpreter}
 * per conversation, JavaScript (GraalJS) or Python (GraalPy), under the CONSTRAINED sandbox policy. The
 * LangChain4j adapters need {@code langchain4j-core} at run time; nothing else of this module does.
 *
 * <p>The jar also works on the class path, as the Python package loads it; this descriptor applies when it is on
 * the module path.
 */
module io.github.langchaingraalvm.sandbox {
    // Source and the proxies appear in this module's API.
    requires transitive org.graalvm.polyglot;
    // The watchdog reads heap usage and collection notifications.
    requires java.management;
    requires jdk.management;
    // The LangChain4j adapters only (io.github.langchaingraalvm.sandbox.langchain4j), whose API extends its types.
    // langchain4j-core declares no module name, so this is the name its jar's file name gives it.
    requires static transitive langchain4j.core;

    // The unwind guard (guest.UnwindGuard) marks Truffle's exception profiles through its runtime's listener. Optional:
    // it is installed only where the JVM opens that package (UnwindGuard.JVM_OPTIONS), and the build exports it.
    requires static org.graalvm.truffle;
    requires static org.graalvm.truffle.runtime;
    requires static org.graalvm.truffle.compiler;

    // The worker's protocol (io.github.langchaingraalvm.sandbox.worker). msgpack-core declares no module name
    // either: this is the one its jar's file name gives it.
    requires msgpack.core;
    // The local server checks its clients' user (SO_PEERCRED on a Unix-domain socket).
    requires jdk.net;

    exports io.github.langchaingraalvm.sandbox;
    exports io.github.langchaingraalvm.sandbox.worker;
    exports io.github.langchaingraalvm.sandbox.langchain4j;
}
