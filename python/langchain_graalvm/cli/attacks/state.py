"""State: what one cell leaves for the next, and what a reset clears."""

from __future__ import annotations

from ._model import BOMB_TIMEOUT, STATE, Attack, make

STATE_ATTACKS: tuple[Attack, ...] = (
    make(
        "builtin-redefinition-kept",
        STATE,
        "Math.max = () => 42; Math.max(1, 2)",
        "value:42",
        "the model may change its own builtins; the host does not depend on them",
        follow=(("Math.max(1, 2)", "value:42"), ("[1, 2]", "value:[1, 2]")),
    ),
    make(
        "global-clobber",
        STATE,
        "for (const k of Object.getOwnPropertyNames(globalThis)) { try { delete globalThis[k] } catch (e) {} }; 'gone'",
        "value:gone",
        "deleting every deletable global leaves the interpreter usable",
        follow=(("[1, 'a']", 'value:[1, "a"]'),),
    ),
    make(
        "define-undeletable-global",
        STATE,
        "Object.defineProperty(globalThis, 'x', { value: 1, configurable: false }); Object.freeze(globalThis); x",
        "value:1",
        "a frozen global object",
        follow=(("var later = 2", "error:TypeError"), ("x + 1", "value:2")),
    ),
    make(
        "timeout-keeps-globals",
        STATE,
        "kept = 'changed'; while (true) {}",
        "timeout",
        "a timeout keeps globals, including changes made before it",
        setup=("var kept = 'original'",),
        follow=(("kept", "value:changed"),),
    ),
    make(
        "memory-limit-resets",
        STATE,
        "var hog = []; while (true) hog.push(new Array(1000).fill(0))",
        "limit",
        "a memory stop resets the interpreter",
        # The limit is the point, not the speed: in a fresh process the bomb meets it in 1 to 9 s, and after a
        # hundred attacks in the same JVM it once took over 30 s (guest code runs slower in a long-lived JVM).
        timeout=BOMB_TIMEOUT,
        setup=("var kept = 1",),
        follow=(("typeof kept", "value:undefined"),),
    ),
    make(
        "syntax-error-keeps-state",
        STATE,
        "var broken = ;",
        "error:SyntaxError",
        "a syntax error changes nothing",
        setup=("var kept = 'k'",),
        follow=(("kept", "value:k"),),
    ),
    make(
        "half-run-cell",
        STATE,
        "var first = 1; null.boom; var second = 2",
        "error:TypeError",
        "a cell that throws half-way keeps what ran",
        follow=(("[first, typeof second]", 'value:[1, "undefined"]'),),
    ),
)
