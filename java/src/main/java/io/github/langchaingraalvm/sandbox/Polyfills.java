package io.github.langchaingraalvm.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The polyfill groups of {@code polyfills.js} (core-js, generated from {@code java/polyfills/entry.cjs}): built-ins
 * GraalJS lacks at the newest ECMAScript level {@link org.graalvm.polyglot.SandboxPolicy#CONSTRAINED} accepts. A
 * context loads the bundle and runs a group only before the first cell (or snapshot restore) whose text names one
 * of the group's trigger words, so a context whose code names none of them never pays for it. A group installs
 * its built-ins eagerly, with the descriptors the specification gives them.
 *
 * <p>The trigger is a filter on text: code that reaches a built-in without naming it (a computed key) finds it
 * only after some cell or restored value named it. A {@code using} declaration names its stack class after the
 * cell compiler has rewritten it.
 */
final class Polyfills {
    /**
     * One group: its name in the bundle, the words that need it, and the built-ins it adds for the snapshot codec.
     * {@code trigger} alone needs the group; so do all of {@code together} when each occurs somewhere in the text.
     */
    record Group(String name, Pattern trigger, List<Pattern> together, List<String> paths, List<String> residues) {
        /** Whether {@code text} needs this group: one linear scan per pattern, whatever the text. */
        boolean neededBy(CharSequence text) {
            if (trigger.matcher(text).find()) {
                return true;
            }
            if (together.isEmpty()) {
                return false;
            }
            for (Pattern p : together) {
                if (!p.matcher(text).find()) {
                    return false;
                }
            }
            return true;
        }
    }

    static final List<Group> GROUPS = List.of(
            group("disposable", "\\b(?:DisposableStack|AsyncDisposableStack|SuppressedError)\\b"
                    + "|\\bSymbol\\s*\\.\\s*(?:dispose|asyncDispose)\\b",
                    List.of("DisposableStack", "AsyncDisposableStack", "SuppressedError"),
                    List.of("DisposableStack", "AsyncDisposableStack")),
            group("fromAsync", "\\bfromAsync\\b", List.of("Array.fromAsync"), List.of()),
            // Array.prototype.concat is everywhere: Iterator.concat is needed only where Iterator is named too. Two
            // plain scans, not a look-ahead, which would rescan the rest of the text at every "Iterator".
            new Group("iteratorSequencing", Pattern.compile("\\bzip(?:Keyed)?\\b"),
                    List.of(Pattern.compile("\\bIterator\\b"), Pattern.compile("\\bconcat\\b")),
                    List.of("Iterator.concat", "Iterator.zip", "Iterator.zipKeyed"), List.of()),
            group("base64", "\\b(?:fromBase64|toBase64|fromHex|toHex|setFromBase64|setFromHex)\\b",
                    List.of("Uint8Array.fromBase64", "Uint8Array.fromHex", "Uint8Array.prototype.setFromBase64",
                            "Uint8Array.prototype.setFromHex", "Uint8Array.prototype.toBase64",
                            "Uint8Array.prototype.toHex"),
                    List.of()),
            group("getOrInsert", "\\bgetOrInsert(?:Computed)?\\b",
                    List.of("Map.prototype.getOrInsert", "Map.prototype.getOrInsertComputed",
                            "WeakMap.prototype.getOrInsert", "WeakMap.prototype.getOrInsertComputed"),
                    List.of()),
            group("rawJSON", "\\b(?:rawJSON|isRawJSON)\\b", List.of("JSON.rawJSON", "JSON.isRawJSON"), List.of()),
            group("sumPrecise", "\\bsumPrecise\\b", List.of("Math.sumPrecise"), List.of()));

    /** The bundle's resource name (relative to this package). */
    static final String RESOURCE = "polyfills.js";

    private Polyfills() {}

    private static Group group(String name, String trigger, List<String> paths, List<String> residues) {
        return new Group(name, Pattern.compile(trigger), List.of(), paths, residues);
    }

    /** The groups {@code text} needs that are not in {@code installed}, in table order. */
    static List<Group> needed(CharSequence text, Set<String> installed) {
        List<Group> out = new ArrayList<>();
        for (Group g : GROUPS) {
            if (!installed.contains(g.name()) && g.neededBy(text)) {
                out.add(g);
            }
        }
        return out;
    }
}
