package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import org.junit.jupiter.api.Test;

/** A Python value's kind and plain form read from its repr. */
class PythonReprTest {
    @Test
    void pythonReprs() {
        assertEquals(new PythonRepr.Plain(EvalOutcome.ValueKind.EMPTY, null), PythonRepr.fromPythonRepr("None", false));
        assertEquals("true", PythonRepr.fromPythonRepr("True", false).text());
        assertEquals("-12", PythonRepr.fromPythonRepr("-12", false).text());
        assertEquals("1.0E21", PythonRepr.fromPythonRepr("1e+21", false).text());
        assertEquals("0.5", PythonRepr.fromPythonRepr("0.5", false).text());
        assertEquals("Infinity", PythonRepr.fromPythonRepr("inf", false).text());
        assertEquals("it's", PythonRepr.fromPythonRepr("\"it's\"", false).text());
        assertEquals("a'b\n\t\\ é \u0001 \uD83D\uDE00",
                PythonRepr.fromPythonRepr("'a\\'b\\n\\t\\\\ é \\x01 \\U0001f600'", false).text());
        assertEquals(new PythonRepr.Plain(EvalOutcome.ValueKind.OTHER, "[1, 2]"), PythonRepr.fromPythonRepr("[1, 2]", false));
        assertEquals(new PythonRepr.Plain(EvalOutcome.ValueKind.OTHER, "'ab"), PythonRepr.fromPythonRepr("'ab", true));
        assertEquals(EvalOutcome.ValueKind.OTHER, PythonRepr.fromPythonRepr("'a' 'b'", false).kind());
    }
}
