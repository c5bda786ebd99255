package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PolyfillsTest {
    /** The first group a process installs parses the bundle too, seconds on a loaded machine, in the cell's time. */
    private static JavaScriptGuest open(boolean snapshots) {
        return new JavaScriptGuest(SharedEngines.get(),
                SandboxOptions.builder().timeout(Duration.ofSeconds(60)).snapshots(snapshots).build());
    }

    @Test
    void aContextWhoseCellsNameNoTriggerNeverLoadsTheBundle() {
        try (JavaScriptGuest js = open(true)) {
            for (String cell : List.of("let a = [1, 2].concat([3])", "class Stack { dispose() {} }",
                    "const s = new Set([1]); await Promise.resolve(s.size)", "a.map((x) => x * 2).join()",
                    "JSON.stringify({using: 1})", "[...new Map([[1, 2]]).entries()]")) {
                assertEquals(EvalOutcome.Status.OK, js.eval(cell).status(), cell);
            }
            js.restore(js.snapshot(1 << 20));
            assertEquals(EvalOutcome.Status.OK, js.eval("a.length").status());
            assertEquals(0, js.polyfillBundleLoads());
            assertEquals(Set.of(), js.installedPolyfills());
        }
    }

    @Test
    void aCellInstallsOnlyTheGroupsItNamesAndTheBundleLoadsOncePerContext() {
        try (JavaScriptGuest js = open(false)) {
            assertEquals("<result>2</result>", js.eval("new Map().getOrInsert('k', 2)").envelope());
            assertEquals(Set.of("getOrInsert"), js.installedPolyfills());
            assertEquals("<result>true</result>", js.eval("{ using s = new DisposableStack(); s.disposed === false }")
                    .envelope());
            assertEquals(Set.of("getOrInsert", "disposable"), js.installedPolyfills());
            assertEquals(1, js.polyfillBundleLoads());
        }
    }

    @Test
    void everyGroupOfTheBundleHasTriggersAndEveryTableGroupIsInTheBundle() {
        String bundle = CellCompiler.resource(Polyfills.RESOURCE);
        Matcher m = Pattern.compile("(?m)^//   (\\w+): ").matcher(bundle);
        List<String> inBundle = new java.util.ArrayList<>();
        while (m.find()) {
            inBundle.add(m.group(1));
        }
        assertEquals(Polyfills.GROUPS.stream().map(Polyfills.Group::name).toList(), inBundle);
        for (Polyfills.Group g : Polyfills.GROUPS) {
            for (String path : g.paths()) {
                String last = path.substring(path.lastIndexOf('.') + 1);
                assertTrue(g.neededBy(path) || g.neededBy(last), path);
            }
        }
    }

    @Test
    void concatAloneIsArrayConcatAndNeedsNoGroup() {
        assertEquals(List.of(), Polyfills.needed("[1].concat([2])", Set.of()));
        assertEquals(List.of("iteratorSequencing"),
                Polyfills.needed("Iterator.concat(a, b)", Set.of()).stream().map(Polyfills.Group::name).toList());
        assertEquals(List.of("iteratorSequencing"), Polyfills.needed("const c = 'concat';\nIterator", Set.of()).stream()
                .map(Polyfills.Group::name).toList());
    }

    @Test
    void triggersScanLongTextInLinearTime() {
        // A look-ahead trigger rescanned the rest of the text at every occurrence of a word: quadratic on this text.
        String text = "Iterator ".repeat(200_000);
        long start = System.nanoTime();
        assertEquals(List.of(), Polyfills.needed(text, Set.of()));
        assertTrue(System.nanoTime() - start < 30_000_000_000L, "the scan of 1.8 MB took over 30 s");
    }

    @Test
    void everyTextATriggerMatchesContainsOneOfItsNeedles() {
        // The needles let a scan skip a pattern: that is sound only if no match can do without them.
        List<String> texts = new java.util.ArrayList<>(List.of("Symbol.dispose", "Symbol . asyncDispose",
                "new SuppressedError(a, b)", "isRawJSON(x)", "zipKeyed", "x.toHex()", "setFromBase64"));
        for (Polyfills.Group g : Polyfills.GROUPS) {
            for (String path : g.paths()) {
                texts.add(path);
                texts.add(path.substring(path.lastIndexOf('.') + 1));
            }
        }
        for (Polyfills.Group g : Polyfills.GROUPS) {
            List<Polyfills.Words> all = new java.util.ArrayList<>(g.together());
            all.add(g.trigger());
            for (Polyfills.Words w : all) {
                for (String text : texts) {
                    if (w.pattern().matcher(text).find()) {
                        assertTrue(w.needles().stream().anyMatch(text::contains), g.name() + ": " + text);
                        assertTrue(w.foundIn(text), g.name() + ": " + text);
                    }
                }
            }
        }
    }
}
