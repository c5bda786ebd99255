"""Fuzzing the eval tool with random JavaScript from a small grammar, random text and random bytes.

Every call must return an envelope (never raise), within its timeout plus a generous grace, and the interpreter
must answer ``1+1`` afterwards. CI runs a small budget; set ``LANGCHAIN_GRAALVM_FUZZ_EXAMPLES`` (say 2000) for a
long run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.cli import attacks as corpus
from langchain_graalvm.agents import _snapshot_state as snap

EXAMPLES = int(os.environ.get("LANGCHAIN_GRAALVM_FUZZ_EXAMPLES", "60"))
TIMEOUT = 0.5
# Bounded, not timed: a stop takes the timeout, the interrupt grace and, for a guest that ignores the interrupt,
# a forced close; the machine is shared and noisy, so the bound is loose. It catches hangs, not slowness.
BOUND_S = TIMEOUT + 30.0

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=os.environ.get("LANGCHAIN_GRAALVM_FUZZ_RANDOM") is None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)

NAMES = ["a", "b", "o", "xs", "f", "p", "globalThis", "Object.prototype", "Array.prototype", "console", "JSON"]
ATOMS = [
    "0", "1", "-0", "1e308", "NaN", "2n ** 64n", "'s'", "'<&>'", "'\\u{1F600}'", "'\\uD800'", "null", "undefined",
    "true", "[]", "{}", "[1, [2, [3]]]", "{k: 1, get g() { return 1 }}", "new Map([[1, 2]])", "new Set([1])",
    "Symbol('q')", "Symbol.iterator", "/a+/g", "new Date(0)", "new Error('e')", "new Uint8Array(4)",
    "new Proxy({}, {})", "new Proxy({}, { get() { throw 1 } })", "Promise.resolve(1)", "Promise.reject(2)",
    "function () { return 1 }", "() => a", "class {}", "'x'.repeat(1000)", "Array(5)", "globalThis", "this",
]
CALLEES = [
    "Math.max", "JSON.stringify", "JSON.parse", "Object.keys", "String", "Number", "Array.from", "Object.freeze",
    "Reflect.ownKeys", "Object.getPrototypeOf", "console.log", "Promise.all", "structuredClone", "eval",
    "Function", "BigInt", "Symbol", "encodeURIComponent", "parseInt", "Object.entries",
]
BINARY = ["+", "-", "*", "/", "%", "**", "==", "===", "<", "&&", "||", "??", "in", "instanceof", ",", "&", "<<"]


def expressions() -> st.SearchStrategy[str]:
    leaves = st.one_of(st.sampled_from(ATOMS), st.sampled_from(NAMES), st.integers(-(2**53), 2**53).map(str))

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(CALLEES), st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.lists(inner, max_size=4).map(lambda xs: f"[{', '.join(xs)}]"),
            st.tuples(st.sampled_from(["k", "then", "toString", "__proto__", "0", "length"]), inner).map(
                lambda t: f"({{{t[0]}: {t[1]}}})"
            ),
            st.tuples(inner, st.sampled_from(["length", "then", "constructor", "0", "__proto__", "x"])).map(
                lambda t: f"{t[0]}?.[{t[1]!r}]"
            ),
            inner.map(lambda e: f"(typeof {e})"),
            inner.map(lambda e: f"(await {e})"),
            inner.map(lambda e: f"(() => {e})()"),
            inner.map(lambda e: f"new Proxy({{}}, {{ get: () => {e} }})"),
        )

    return st.recursive(leaves, extend, max_leaves=12)


def statements() -> st.SearchStrategy[str]:
    expr = expressions()
    name = st.sampled_from(["a", "b", "o", "xs", "f", "p"])
    simple = st.one_of(
        st.tuples(st.sampled_from(["var", "let", "const"]), name, expr).map(lambda t: f"{t[0]} {t[1]} = {t[2]};"),
        st.tuples(st.sampled_from(NAMES), expr).map(lambda t: f"{t[0]} = {t[1]};"),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(["then", "toString", "0", "x"]), expr).map(
            lambda t: f"try {{ {t[0]}[{t[1]!r}] = {t[2]}; }} catch (e) {{}}"
        ),
        expr.map(lambda e: f"{e};"),
        expr.map(lambda e: f"throw {e};"),
        expr.map(lambda e: f"console.log({e});"),
        expr.map(lambda e: f"function f() {{ return {e}; }}"),
        st.just("while (true) {}"),
        st.just("for (let i = 0; i < 1000; i++) {}"),
        st.just("try { while (true) {} } finally { 1 }"),
        st.just("queueMicrotask(() => {});"),
        st.just("delete Object.prototype.then;"),
    )

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(expr, inner, inner).map(lambda t: f"if ({t[0]}) {{ {t[1]} }} else {{ {t[2]} }}"),
            st.tuples(inner, inner).map(lambda t: f"try {{ {t[0]} }} catch (e) {{ {t[1]} }}"),
            st.tuples(inner, inner).map(lambda t: f"try {{ {t[0]} }} finally {{ {t[1]} }}"),
            inner.map(lambda s: f"for (let i = 0; i < 3; i++) {{ {s} }}"),
            inner.map(lambda s: f"(async () => {{ {s} }})();"),
            st.lists(inner, min_size=1, max_size=4).map(" ".join),
        )

    return st.recursive(simple, extend, max_leaves=6)


PROGRAMS = st.tuples(statements(), st.one_of(st.just(""), expressions())).map(lambda t: f"{t[0]}\n{t[1]}")
RAW = st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("utf-8", "replace")))


@pytest.fixture(scope="module")
def tool() -> Iterator[CodeInterpreterMiddleware]:
    mw = CodeInterpreterMiddleware(timeout=TIMEOUT, memory_limit=32 * 1024 * 1024)
    yield mw
    mw.close()


_STATE = {snap.SLOT_KEY: "gvm_fuzz"}
calls = {"programs": 0, "raw": 0}


def _check(mw: CodeInterpreterMiddleware, code: str) -> None:
    started = time.monotonic()
    text = mw._run(_STATE, code)  # the eval tool's body, minus the LangChain wrapper
    elapsed = time.monotonic() - started
    assert isinstance(text, str)
    outcome = corpus.outcome_from_envelope(text)
    assert outcome.status != "invalid", (code, text)
    assert elapsed < BOUND_S, (code, elapsed)
    assert mw._run(_STATE, "1+1") == "<result>2</result>", code


@FUZZ
@given(code=PROGRAMS)
def test_random_programs_always_get_an_envelope(tool: CodeInterpreterMiddleware, code: str) -> None:
    calls["programs"] += 1
    _check(tool, code)


@FUZZ
@given(code=RAW)
def test_random_text_and_bytes_always_get_an_envelope(tool: CodeInterpreterMiddleware, code: str) -> None:
    calls["raw"] += 1
    _check(tool, code)


def test_fuzz_ran_its_budget() -> None:
    # Runs after the two fuzz tests in file order: hypothesis really generated and ran the examples.
    assert calls["programs"] >= min(EXAMPLES, 20) and calls["raw"] >= min(EXAMPLES, 20), calls
