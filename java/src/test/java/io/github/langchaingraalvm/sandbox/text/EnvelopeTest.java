package io.github.langchaingraalvm.sandbox.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EnvelopeTest {
    @Test
    void shortTextIsUnchanged() {
        assertEquals("abc", Envelope.truncate("abc", 10));
    }

    @Test
    void longTextKeepsRoomForTheMarker() {
        String text = "x".repeat(5000);
        assertEquals("x".repeat(79) + "\u2026 [truncated 4921 chars]", Envelope.truncate(text, 100));
    }

    @Test
    void incompleteRenderingSaysTheCountIsALowerBound() {
        assertEquals("x".repeat(79) + "\u2026 [truncated 21+ chars]", Envelope.truncate("x".repeat(100), 100, true));
    }

    @Test
    void escapesMarkup() {
        assertEquals("&lt;a&gt; &amp; b", Envelope.escape("<a> & b"));
    }
}
