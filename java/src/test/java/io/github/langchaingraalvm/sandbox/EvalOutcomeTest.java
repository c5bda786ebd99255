package io.github.langchaingraalvm.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.langchaingraalvm.sandbox.text.Envelope;
import org.junit.jupiter.api.Test;

/** LangChain4j's form of an outcome ({@link EvalOutcome#plainText()}). */
class EvalOutcomeTest {
    private static EvalOutcome ok(String value, String stdout, EvalOutcome.ValueKind kind, String plain) {
        return new EvalOutcome(EvalOutcome.Status.OK, value, false, stdout, 0, null, null, null, false,
                0, 2000, kind, plain);
    }

    @Test
    void valueAfterOutput() {
        assertEquals("55", ok("55", "", EvalOutcome.ValueKind.PRIMITIVE, "55").plainText());
        assertEquals("hello\n42", ok("42", "hello\n\n", EvalOutcome.ValueKind.PRIMITIVE, "42").plainText());
        assertEquals("hello", ok("undefined", "hello\n", EvalOutcome.ValueKind.EMPTY, null).plainText());
        assertEquals("null", ok("undefined", "", EvalOutcome.ValueKind.EMPTY, null).plainText());
        assertEquals("hello\nnull", ok("null", "hello", EvalOutcome.ValueKind.PRIMITIVE, "null").plainText());
    }

    @Test
    void errorsAsText() {
        EvalOutcome e = new EvalOutcome(EvalOutcome.Status.ERROR, null, false, "out", 0, "TypeError",
                "bad", "    at f (cell:2:3)", false, 0, 2000);
        assertEquals("out\nTypeError: bad\n    at f (cell:2:3)", e.plainText());
        assertEquals(EvalOutcome.ValueKind.EMPTY, e.valueKind());
        assertNull(e.plainValue());
    }

    @Test
    void longValuesAreCutWithTheEnvelopesMarker() {
        String cut = ok("x".repeat(100), "", EvalOutcome.ValueKind.PRIMITIVE, "x".repeat(100)).plainText();
        assertEquals(100, ok("x".repeat(100), "", EvalOutcome.ValueKind.PRIMITIVE, "x".repeat(100)).plainValue()
                .length());
        assertEquals("x".repeat(100), cut);
        EvalOutcome small = new EvalOutcome(EvalOutcome.Status.OK, "y".repeat(100), false, "", 0, null,
                null, null, false, 0, 40, EvalOutcome.ValueKind.PRIMITIVE, "y".repeat(100));
        assertEquals(Envelope.truncate("y".repeat(100), 40), small.plainText());
    }
}
