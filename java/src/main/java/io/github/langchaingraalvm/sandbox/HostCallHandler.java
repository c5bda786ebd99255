package io.github.langchaingraalvm.sandbox;

/**
 * Receives the host calls the guest makes during one eval: a {@code tools.<name>(input)} call or a
 * {@code task(...)} dispatch. The guest gets a pending Promise at once; the handler does the work elsewhere and
 * settles it later with {@link GuestInterpreter#completeHostCall(long, boolean, String)}.
 *
 * <p>Called on the interpreter's guest thread while the guest runs, so it must return quickly and never wait for
 * the guest. An exception thrown from it rejects the call's Promise with a {@code HostError}.
 */
@FunctionalInterface
public interface HostCallHandler {
    /**
     * Starts one host call.
     *
     * @param callId the id to complete the call with; unique within the interpreter
     * @param kind {@code "tool"} or {@code "task"}
     * @param name the name the guest used: the tool's camelCase name, or {@code "task"}
     * @param inputJson the call's input as JSON. Integers beyond 2^53 arrive as {@code {"\u0000bigint": "digits"}},
     *     typed-array bytes as {@code {"\u0000bytes": [..]}} and non-finite numbers as
     *     {@code {"\u0000number": "NaN"}}
     */
    void start(long callId, String kind, String name, String inputJson);

    /**
     * Called on the guest thread when the guest has nothing left to run until a host call settles: it waits on
     * open calls and every result handed to it so far has been taken. Calls started before this one were all
     * passed to {@link #start} first. Does nothing unless a handler needs to know (e.g. to ask a human about the
     * calls waiting together, all at once).
     *
     * @param settled how many results the host has handed this eval so far (through
     *     {@link GuestInterpreter#completeHostCall} or {@link GuestInterpreter#completeHostCalls}); when it equals
     *     the number of results the host has sent, the guest waits on the calls the host has not answered yet
     */
    default void waiting(long settled) {
    }

    /**
     * Receives what the guest prints while the eval runs, when the eval's {@link HostBridge#streamOutput()} is true:
     * each JavaScript {@code console} line with its {@code "\n"}, each write to Python's {@code sys.stdout} or
     * {@code sys.stderr}, in the order the guest wrote them. The eval's outcome keeps its console output as it
     * would without streaming.
     *
     * <p>Called on the guest thread, so it must return quickly (hand the text to another thread to do more). An
     * exception it throws is dropped: the text is lost and the eval goes on. At most
     * {@link SandboxOptions#maxStreamedChars()} characters of one eval arrive, then one notice
     * ({@code "\n[output past 1000000 characters is not streamed]\n"}) and nothing more for that eval. Nothing
     * arrives once the eval has returned.
     *
     * <pre>{@code
     * HostCallHandler handler = new HostCallHandler() {
     *     public void start(long callId, String kind, String name, String inputJson) { ... }
     *
     *     public void output(String stream, String text) {
     *         (stream.equals("stderr") ? System.err : System.out).print(text);
     *     }
     * };
     * }</pre>
     *
     * @param stream {@code "stdout"} (JavaScript's {@code console.log}, {@code info}, {@code debug} and
     *     {@code trace}, Python's {@code sys.stdout}) or {@code "stderr"} ({@code console.warn} and {@code error},
     *     Python's {@code sys.stderr})
     * @param text what the guest wrote
     */
    default void output(String stream, String text) {
    }
}
