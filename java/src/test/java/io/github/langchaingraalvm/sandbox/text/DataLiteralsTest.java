package io.github.langchaingraalvm.sandbox.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DataLiteralsTest {
    private static final String ROWS = "[" + "{\"id\": 1, name: 'a]b', \"ok\": true, \"v\": -1.5e3, \"n\": null},\n".repeat(40)
            + "]";

    @Test
    void aLargeDataLiteralIsSetAsideAndPutBackExactly() {
        String code = "const rows = " + ROWS + ";\nrows.length";
        DataLiterals.Elided e = DataLiterals.elide(code);
        assertNotNull(e);
        assertEquals(1, e.literals().size());
        assertEquals(ROWS, e.literals().get(0));
        assertTrue(e.code().length() < 200, e.code());
        assertEquals(code.lines().count(), e.code().lines().count(), "line breaks are kept");
        assertEquals(code, e.restore(e.code()));
    }

    @Test
    void codeInsideALiteralKeepsItInPlaceButDataBesideItIsStillTaken() {
        String withCall = "const xs = [" + "1, ".repeat(200) + "f(), 2];";
        assertNull(DataLiterals.elide(withCall));
        String nested = "const xs = [" + ROWS + ", g()];";
        DataLiterals.Elided e = DataLiterals.elide(nested);
        assertNotNull(e);
        assertEquals(ROWS, e.literals().get(0));
        assertTrue(e.code().contains("g()"));
    }

    @Test
    void stringsCommentsTemplatesAndMemberAccessAreNotLiterals() {
        String data = "1, ".repeat(200) + "2";
        assertNull(DataLiterals.elide("const s = '[" + data + "]';"));
        assertNull(DataLiterals.elide("// [" + data + "]\n1"));
        assertNull(DataLiterals.elide("/* [" + data + "] */ 1"));
        assertNull(DataLiterals.elide("const t = `${x}[" + data + "]`;"));
        assertNull(DataLiterals.elide("m[" + data + "]"));
        DataLiterals.Elided after = DataLiterals.elide("const t = `${`[`}`; const u = [" + data + "];");
        assertNotNull(after);
        assertEquals("[" + data + "]", after.literals().get(0));
    }

    @Test
    void anOutputMissingAPlaceholderIsNotRestored() {
        DataLiterals.Elided e = DataLiterals.elide("const rows = " + ROWS + ";");
        assertNotNull(e);
        assertNull(e.restore("const rows = [];"));
    }

    @Test
    void cellsWithLargeLiteralsRunAsWrittenAndKeepLineNumbers() {
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(
                SandboxOptions.builder().timeout(Duration.ofSeconds(60)).build())) {
            String big = "[" + "1,".repeat(20_000) + "2]";
            assertEquals("<result>20001</result>", js.eval("let big = " + big + ";\nbig.length").envelope());
            assertEquals("<result>20001</result>", js.eval("let big: number[] = " + big + ";\nbig.length").envelope());
            assertEquals("<result>3</result>", js.eval("const r = " + ROWS + ";\nr[0].v < 0 ? 3 : 4").envelope());
            EvalOutcome bad = js.eval("const q = " + ROWS + ";\nlet z = ;");
            assertEquals(EvalOutcome.Status.ERROR, bad.status());
            assertTrue(bad.envelope().contains("42:"), bad.envelope());
            assertFalse(bad.envelope().contains("\u0000"), bad.envelope());
        }
    }
}
