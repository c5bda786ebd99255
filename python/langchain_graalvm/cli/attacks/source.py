"""Source attacks: huge and deeply nested cells, in each guest, that must be answered without stalling the process.

A parser recurses once or more per level of nesting, and a cell compiler or a TypeScript stripper parses the cell
before the engine does. Each case here is checked before any of that: past ``max_code_bytes`` (1 MiB) a cell gets
``CodeTooLarge``, past ``max_nesting`` (1000 levels) ``CodeTooDeep``, and a cell within both limits runs, or is
stopped at its timeout with its globals kept. Sizes go from 10 KB to 5 MB; the nesting kinds are brackets,
parentheses, object literals, template substitutions, regular expression groups, unary and binary operator chains
and arrow functions, and ``JSON.parse`` / ``json.loads`` of nested text (a runtime error, not a parse one).
"""

from __future__ import annotations

import dataclasses

KB = 1000
MB = 1000 * KB


@dataclasses.dataclass(frozen=True)
class SourceAttack:
    """One huge or deep cell and its expected outcome.

    Attributes:
        id: a short unique name.
        language: ``"js"``, ``"ts"`` (JavaScript with TypeScript syntax) or ``"python"``.
        code: the cell.
        expected: ``error:TYPE`` (that error, globals kept), ``value:TEXT`` (that value), ``value-or-timeout:TEXT``
            (that value, or a Timeout that keeps the globals: the parse of a cell near the size limit may outlast
            the timeout on a slow machine), or ``error-or-timeout:TYPE``.
        description: what the case tries.
        timeout: seconds for this case, or None for the runner's. A builtin that does not poll for interrupts
            (``JSON.parse``) is closed by force when the timeout falls inside it, so those cases get time to finish.
    """

    id: str
    language: str
    code: str
    expected: str
    description: str
    timeout: float | None = None

    @property
    def guest(self) -> str:
        """The interpreter's language: TypeScript runs in the JavaScript guest."""
        return "python" if self.language == "python" else "js"


def _deep(n: int) -> list[SourceAttack]:
    js = [
        ("plus", "1 + " * n + "1", "a chain of binary operators"),
        ("parens", "(" * n + "1" + ")" * n, "nested parentheses"),
        ("brackets", "[" * n + "]" * n, "nested array literals"),
        ("objects", "x = " + "{a:" * n + "1" + "}" * n, "nested object literals"),
        ("template", "`${" * n + "1" + "}`" * n, "nested template substitutions"),
        ("regexp", "/" + "(" * n + "a" + ")" * n + "/.test('a')", "nested regular expression groups"),
        ("unary", "!" * (n + 10) + "1", "a chain of unary operators"),
        ("arrows", "f = " + "a => " * n + "1", "nested arrow functions"),
    ]
    ts = [
        ("ts-parens", "let v: number = " + "(" * n + "1" + ")" * n + "; v", "TypeScript with nested parentheses"),
        ("ts-plus", "let v: number = " + "1 + " * n + "1; v", "TypeScript with a long operator chain"),
    ]
    py = [
        ("py-plus", "1 + " * n + "1", "a chain of binary operators"),
        ("py-parens", "(" * n + "1" + ")" * n, "nested parentheses"),
        ("py-lists", "[" * n + "]" * n, "nested list displays"),
        ("py-dicts", "x = " + "{'a':" * n + "1" + "}" * n, "nested dict displays"),
        ("py-not", "not " * n + "1", "a chain of unary operators"),
    ]
    return [
        *(SourceAttack(f"deep-{k}-{n}", "js", c, "error:CodeTooDeep", d) for k, c, d in js),
        *(SourceAttack(f"deep-{k}-{n}", "ts", c, "error:CodeTooDeep", d) for k, c, d in ts),
        *(SourceAttack(f"deep-{k}-{n}", "python", c, "error:CodeTooDeep", d) for k, c, d in py),
    ]


def _flat_js(size: int) -> str:
    count = (size - 20) // 2
    return "[" + "1," * count + "1].length"


def _flat_py(size: int) -> str:
    count = (size - 20) // 2
    return "len([" + "1," * count + "1])"


def _sized(size: int, label: str) -> list[SourceAttack]:
    big = size > 1024 * 1024
    count = (size - 20) // 2 + 1
    js_value = "error:CodeTooLarge" if big else f"value-or-timeout:{count}"
    return [
        SourceAttack(f"size-{label}-js", "js", _flat_js(size), js_value, f"a {label} array literal"),
        SourceAttack(
            f"size-{label}-let",
            "js",
            "let big = " + _flat_js(size) + "; big",
            js_value,
            f"a {label} cell the cell compiler rewrites",
        ),
        SourceAttack(
            f"size-{label}-ts",
            "ts",
            "let big: number = " + _flat_js(size) + "; big",
            js_value,
            f"a {label} TypeScript cell",
        ),
        SourceAttack(
            f"size-{label}-py",
            "python",
            _flat_py(size),
            "error:CodeTooLarge" if big else f"value-or-timeout:{count}",
            f"a {label} list display",
        ),
        SourceAttack(
            f"size-{label}-chain",
            "js",
            "1 + " * (size // 4) + "1",
            "error:CodeTooLarge" if big else "error:CodeTooDeep",
            f"a {label} expression of one operator chain",
        ),
    ]


SOURCE_ATTACKS: tuple[SourceAttack, ...] = (
    *_deep(1001),
    *_deep(100_000),
    *_sized(10 * KB, "10KB"),
    *_sized(100 * KB, "100KB"),
    *_sized(1 * MB, "1MB"),
    *_sized(5 * MB, "5MB"),
    SourceAttack(
        "json-parse-deep",
        "js",
        "try { JSON.parse('['.repeat(1e5) + ']'.repeat(1e5)); 'contained' }"
        " catch (e) { e instanceof RangeError ? 'contained' : String(e) }",
        "value:contained",
        "JSON.parse of text nested 100,000 deep: parsed, or a RangeError the guest catches (how deep the"
        " engine's JSON parser goes depends on the stack its compiled code needs)",
        timeout=60.0,
    ),
    SourceAttack(
        "json-loads-deep",
        "python",
        "import json\njson.loads('[' * 100000 + ']' * 100000)",
        "error-or-timeout:RecursionError",
        "json.loads of text nested 100,000 deep",
        timeout=60.0,
    ),
)
"""Every source case, deep ones first; ids are unique."""


def check_source_outcome(attack: SourceAttack, status: str, value: str | None, error_type: str | None,
                         state_reset: bool) -> str | None:
    """None when the outcome is the expected one, else what was wrong."""
    kind, _, text = attack.expected.partition(":")
    got = f"status={status} type={error_type} reset={state_reset} value={value!r:.100}"
    if state_reset:
        return f"the interpreter lost its globals: {got}"
    if status == "timeout" and kind.endswith("-or-timeout"):
        return None
    if kind.startswith("value"):
        return None if status == "ok" and value == text else f"expected value {text!r}, got {got}"
    return None if status == "error" and error_type == text else f"expected error {text}, got {got}"
