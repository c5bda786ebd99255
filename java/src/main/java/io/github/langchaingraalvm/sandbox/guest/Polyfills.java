package io.github.langchaingraalvm.sandbox.guest;

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
     * Words to look for: {@code pattern} can match only text that contains one of {@code needles}, so a text without
     * any of them is passed over by plain substring searches, without running the pattern over it. Restores and
     * cells carrying data (a snapshot of 10,000 records is 0.5 MB) are scanned for every group.
     */
    record Words(List<String> needles, Pattern pattern) {
        boolean foundIn(String text) {
            for (String needle : needles) {
                if (text.contains(needle)) {
                    return pattern.matcher(text).find();
                }
            }
            return false;
        }
    }

    /**
     * One group: its name in the bundle, the words that need it, and the built-ins it adds for the snapshot codec.
     * {@code trigger} alone needs the group; so do all of {@code together} when each occurs somewhere in the text.
     */
    record Group(String name, Words trigger, List<Words> together, List<String> paths, List<String> residues) {
        /** Whether {@code text} needs this group: one linear scan per pattern, whatever the text. */
        boolean neededBy(CharSequence text) {
            String s = text.toString();
            if (trigger.foundIn(s)) {
                return true;
            }
            if (together.isEmpty()) {
                return false;
            }
            for (Words w : together) {
                if (!w.foundIn(s)) {
                    return false;
                }
            }
            return true;
        }
    }

    static final List<Group> GROUPS = List.of(
            group("disposable", List.of("ispos", "SuppressedError"),
                    "\\b(?:DisposableStack|AsyncDisposableStack|SuppressedError)\\b"
                    + "|\\bSymbol\\s*\\.\\s*(?:dispose|asyncDispose)\\b",
                    List.of("DisposableStack", "AsyncDisposableStack", "SuppressedError"),
                    List.of("DisposableStack", "AsyncDisposableStack")),
            group("fromAsync", List.of("fromAsync"), "\\bfromAsync\\b", List.of("Array.fromAsync"), List.of()),
            // Array.prototype.concat is everywhere: Iterator.concat is needed only where Iterator is named too. Two
            // plain scans, not a look-ahead, which would rescan the rest of the text at every "Iterator".
            new Group("iteratorSequencing", words(List.of("zip"), "\\bzip(?:Keyed)?\\b"),
                    List.of(words(List.of("Iterator"), "\\bIterator\\b"), words(List.of("concat"), "\\bconcat\\b")),
                    List.of("Iterator.concat", "Iterator.zip", "Iterator.zipKeyed"), List.of()),
            group("base64", List.of("Base64", "Hex"),
                    "\\b(?:fromBase64|toBase64|fromHex|toHex|setFromBase64|setFromHex)\\b",
                    List.of("Uint8Array.fromBase64", "Uint8Array.fromHex", "Uint8Array.prototype.setFromBase64",
                            "Uint8Array.prototype.setFromHex", "Uint8Array.prototype.toBase64",
                            "Uint8Array.prototype.toHex"),
                    List.of()),
            group("getOrInsert", List.of("getOrInsert"), "\\bgetOrInsert(?:Computed)?\\b",
                    List.of("Map.prototype.getOrInsert", "Map.prototype.getOrInsertComputed",
                            "WeakMap.prototype.getOrInsert", "WeakMap.prototype.getOrInsertComputed"),
                    List.of()),
            group("rawJSON", List.of("awJSON"), "\\b(?:rawJSON|isRawJSON)\\b", List.of("JSON.rawJSON", "JSON.isRawJSON"),
                    List.of()),
            group("sumPrecise", List.of("sumPrecise"), "\\bsumPrecise\\b", List.of("Math.sumPrecise"), List.of()));

    /** The bundle's resource name (relative to this package). */
    static final String RESOURCE = "polyfills.js";

    private Polyfills() {}

    private static Words words(List<String> needles, String pattern) {
        return new Words(needles, Pattern.compile(pattern));
    }

    private static Group group(String name, List<String> needles, String trigger, List<String> paths,
            List<String> residues) {
        return new Group(name, words(needles, trigger), List.of(), paths, residues);
    }

    /** The groups {@code text} needs that are not in {@code installed}, in table order. */
    static List<Group> needed(CharSequence text, Set<String> installed) {
        List<Group> out = new ArrayList<>();
        String s = text.toString();
        for (Group g : GROUPS) {
            if (!installed.contains(g.name()) && g.neededBy(s)) {
                out.add(g);
            }
        }
        return out;
    }
}
