package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EngineWarmUpTest {
    @Test
    void everyCellOfTheCorpusRunsWithoutError() {
        List<String> cells = EngineWarmUp.cells();
        assertTrue(cells.size() >= 10, "the corpus has " + cells.size() + " cells");
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(30)).memoryLimitBytes(0).build();
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(options)) {
            for (int round = 0; round < 2; round++) {
                for (String cell : cells) {
                    EvalOutcome o = js.eval(cell.replace("$K", Integer.toString(round)));
                    assertEquals(EvalOutcome.Status.OK, o.status(), cell + "\n" + o.envelope());
                }
            }
        }
    }

    @Test
    void theWarmUpStopsAtOnceWhenARealEvalIsRunning() {
        assertEquals(0, EngineWarmUp.run(SharedEngines.get(), () -> true));
    }

    @Test
    void theWarmUpStopsBetweenCellsOnceARealEvalStarts() {
        AtomicInteger asked = new AtomicInteger();
        int ran = EngineWarmUp.run(SharedEngines.get(), () -> asked.incrementAndGet() > 3);
        assertEquals(3, ran);
    }

    @Test
    void theGuestResourcesParseWithTheGuestsOptionsAheadOfAnyContext() {
        // The warm-up thread parses them while a fresh process builds its first context; a resource that does not
        // parse with the guests' options would fail here rather than in every context.
        JavaScriptGuest.parseGuestResources(SharedEngines.get().javaScriptEngine());
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(
                SandboxOptions.builder().snapshots(true).timeout(Duration.ofSeconds(30)).build())) {
            assertEquals("<result>3</result>", js.eval("1 + 2").envelope());
        }
    }
}
