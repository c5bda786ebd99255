package io.github.langchaingraalvm.sandbox.langchain4j;

import io.github.langchaingraalvm.sandbox.EvalOutcome;

/** What the engines and tools of this package return for one run of code. */
public enum ResultFormat {
    /**
     * The default: plain text, the form LangChain4j's own GraalVM engines return ({@link EvalOutcome#plainText()}):
     * console output first, then the value ({@code hello\n42}); an error, a timeout or a limit as
     * {@code Type: message}, where LangChain4j's engines throw.
     */
    LANGCHAIN4J,
    /**
     * The sandbox's envelope ({@link EvalOutcome#envelope()}): {@code <stdout>...</stdout>}, then
     * {@code <result>...</result>} or {@code <error type="...">...</error>}, XML-escaped.
     */
    ENVELOPE;

    /** {@code outcome} in this format. */
    public String format(EvalOutcome outcome) {
        return this == ENVELOPE ? outcome.envelope() : outcome.plainText();
    }
}
