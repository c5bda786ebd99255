package io.github.langchaingraalvm.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The sandbox in a JVM where a Java agent retransformed {@code java.lang.Object}, as Mockito's inline mock maker
 * does for its first spy or mock, with assertions on (Surefire's default). HotSpot then counts every class as
 * redefined, the JDK drops its cached annotation instances, and GraalPy's identity check of its builtins'
 * {@code @Builtin} annotations failed with an AssertionError in every context of the shared Python engine built
 * after that (see {@code Engines.pythonEngine()}).
 */
class RetransformedObjectTest {
    static class Greeter {
        String greet(String name) {
            return "hello " + name;
        }
    }

    private static final String FIB = "def f(n):\n    return n if n <= 1 else f(n - 1) + f(n - 2)\nf(10)";

    private static void pythonWorks() {
        try (GuestInterpreter py = Sandbox.shared().newPythonInterpreter(SandboxOptions.defaults())) {
            EvalOutcome out = py.eval(FIB);
            assertEquals("<result>55</result>", out.envelope(), out + "\n" + out.errorStack());
            assertEquals("<result>'[1, 2]'</result>", py.eval("import json\njson.dumps([1, 2])").envelope());
        }
    }

    private static void javaScriptWorks() {
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
            assertEquals("<result>[2, 4]</result>", js.eval("[1, 2].map((x) => x * 2)").envelope());
        }
    }

    @Test
    void pythonRunsAfterAMockitoSpy() {
        pythonWorks(); // the shared Python engine exists before the spy
        Greeter greeter = spy(new Greeter());
        assertEquals("hello x", greeter.greet("x"));
        verify(greeter).greet("x");
        pythonWorks();
        javaScriptWorks();
    }

    @Test
    void pythonRunsAfterAnAgentRetransformedObject() throws Exception {
        pythonWorks();
        // Whatever Mockito did before in this JVM, this retransforms java.lang.Object once more.
        retransform(Object.class);
        pythonWorks();
        javaScriptWorks();
        retransform(Object.class, String.class);
        pythonWorks();
    }

    /**
     * Retransforms {@code classes} through Byte Buddy's agent (Mockito's), called through reflection: the sandbox
     * module these tests are compiled into does not read java.instrument, and Byte Buddy's annotations warn.
     */
    private static void retransform(Class<?>... classes) throws Exception {
        Object instrumentation = Class.forName("net.bytebuddy.agent.ByteBuddyAgent").getMethod("install").invoke(null);
        Method retransform = Class.forName("java.lang.instrument.Instrumentation")
                .getMethod("retransformClasses", Class[].class);
        retransform.invoke(instrumentation, (Object) classes);
    }
}
