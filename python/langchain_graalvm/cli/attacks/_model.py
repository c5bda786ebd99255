"""The corpus's shape: categories, :class:`Attack`, the outcome grammar and :func:`run_attack` that checks one."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, Protocol

HOST_ESCAPE = "host-escape"
BRIDGE_ABUSE = "bridge-abuse"
EXHAUSTION = "exhaustion"
STATE = "state"
TIMING = "timing"

CATEGORIES = (HOST_ESCAPE, BRIDGE_ABUSE, EXHAUSTION, STATE, TIMING)


@dataclasses.dataclass(frozen=True)
class Attack:
    """One hostile cell and the outcome the model must get for it.

    Attributes:
        id: a short unique name.
        category: one of :data:`CATEGORIES`.
        code: the hostile cell.
        expected: the outcome, in the grammar described in the module docstring.
        description: what the attack tries.
        setup: cells run first, in the same interpreter; each must succeed.
        before: ``(code, expected)`` cells run after ``setup`` and before the attack, in the same interpreter, each
            with its own outcome (an eval that was stopped, say), so that the attack meets an interpreter that has
            been through them.
        follow: ``(code, expected)`` checks run after the attack and the ``1+1`` check, in the same interpreter.
        timeout: seconds allowed per eval (1 s for cases that must be stopped, 5 s for the rest by default).
        memory_limit: bytes the eval may keep.
        language: the guest the cells are written for: ``"js"`` (JavaScript) or ``"python"`` (GraalPy).
    """

    id: str
    category: str
    code: str
    expected: str
    description: str
    setup: tuple[str, ...] = ()
    before: tuple[tuple[str, str], ...] = ()
    follow: tuple[tuple[str, str], ...] = ()
    timeout: float = 1.0
    memory_limit: int = 32 * 1024 * 1024
    language: str = "js"

    @property
    def prelude(self) -> tuple[str, ...]:
        """The cells run before the attack, in order: ``setup``, then ``before``."""
        return (*self.setup, *(code for code, _ in self.before))


class Outcome(Protocol):
    """The part of an eval outcome the corpus checks."""

    @property
    def status(self) -> str: ...

    @property
    def value(self) -> str | None: ...

    @property
    def error_type(self) -> str | None: ...

    @property
    def state_reset(self) -> bool: ...


# For the memory bombs: the memory limit must stop them, and the timeout only bounds a run in which it does not. On a
# loaded machine (load 10 to 25 on 2 cores) a bomb was seen to fill less than its limit within 30 s.
BOMB_TIMEOUT = 300.0


def make(id: str, category: str, code: str, expected: str, description: str, **kw: Any) -> Attack:  # noqa: A002
    # Cases that must be stopped get a short limit; the rest a generous one, since the machine may be slow.
    kw.setdefault("timeout", 1.0 if expected in ("timeout", "reset", "limit") else 5.0)
    return Attack(id=id, category=category, code=code, expected=expected, description=description, **kw)


def third_try(id: str, category: str, code: str, expected: str, description: str, **kw: Any) -> Attack:  # noqa: A002
    """An attack whose cell has already run twice in the same interpreter, each time with ``expected``: what the
    first tries leave behind (a refused allocation still in the heap, say) must not let the third through."""
    return make(id, category, code, expected, description, before=((code, expected),) * 2, **kw)


POLLUTED_RENDER = (("const m = new Map(); m.set(1, 'x'); [1, {a: 2}, m]", 'value:[1, {a: 2}, Map(1) {1 => "x"}]'),)
"""A follow-up showing that results still render faithfully after the builtins were tampered with."""

def _check_expected(expected: str, outcome: Outcome) -> str | None:
    kind, _, text = expected.partition(":")
    got = f"status={outcome.status} type={outcome.error_type} reset={outcome.state_reset} value={outcome.value!r:.200}"
    if kind == "value":
        if outcome.status != "ok" or (text and outcome.value != text):
            return f"expected value {text!r}, got {got}"
        return None
    if kind == "error":
        if outcome.status != "error" or (text and outcome.error_type != text):
            return f"expected error {text or '(any type)'}, got {got}"
        return None
    if kind == "timeout":
        return None if outcome.status == "timeout" else f"expected a timeout, got {got}"
    if kind == "limit":
        return None if outcome.status == "limit" and outcome.state_reset else f"expected a memory limit, got {got}"
    if kind == "reset":
        return None if outcome.status != "ok" and outcome.state_reset else f"expected a reset, got {got}"
    raise ValueError(f"unknown expected outcome {expected!r}")


def run_attack(attack: Attack, evaluate: Callable[[str], Outcome]) -> list[str]:
    """Runs ``attack`` through ``evaluate`` (one interpreter's eval); returns the failed checks (empty: contained)."""
    failures: list[str] = []
    for cell in attack.setup:
        out = evaluate(cell)
        if out.status != "ok":
            return [f"setup cell failed: {cell!r}: status={out.status} type={out.error_type}"]
    for code, expected in attack.before:
        problem = _check_expected(expected, evaluate(code))
        if problem:
            return [f"cell before the attack {code!r}: {problem}"]
    outcome = evaluate(attack.code)
    problem = _check_expected(attack.expected, outcome)
    if problem:
        failures.append(problem)
    after = evaluate("1+1")
    if after.status != "ok" or after.value != "2":
        failures.append(f"1+1 afterwards gave status={after.status} value={after.value!r} type={after.error_type}")
    for code, expected in attack.follow:
        problem = _check_expected(expected, evaluate(code))
        if problem:
            failures.append(f"follow-up {code!r}: {problem}")
    return failures


@dataclasses.dataclass(frozen=True)
class EnvelopeOutcome:
    """An outcome read back from the envelope text a model sees (for sandboxes reached only through a tool)."""

    status: str
    value: str | None
    error_type: str | None
    state_reset: bool
    text: str


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def outcome_from_envelope(text: str) -> EnvelopeOutcome:
    """Reads status, value, error type and reset from an eval tool's envelope (``<result>``/``<error>``)."""
    body = text.rsplit("</stdout>\n", 1)[-1]
    match = re.fullmatch(r'<error type="([^"]*)">(.*)</error>', body, re.S)
    if match:
        etype = _unescape(match.group(1))
        status = {"Timeout": "timeout", "OutOfMemory": "limit"}.get(etype, "error")
        reset = "all globals from earlier calls are gone" in match.group(2)
        return EnvelopeOutcome(status, None, etype, reset, text)
    match = re.fullmatch(r"<result>(.*)</result>", body, re.S)
    if match:
        return EnvelopeOutcome("ok", _unescape(match.group(1)), None, False, text)
    return EnvelopeOutcome("invalid", None, None, False, text)


def turn_cells(attack: Attack) -> list[str]:
    """Every cell :func:`run_attack` evaluates, in order: the prelude, the attack, ``1+1`` and the follow-ups; the
    cells of one agent turn that runs the case through an eval tool."""
    return [*attack.prelude, attack.code, "1+1", *(code for code, _ in attack.follow)]


def run_attack_on_envelopes(attack: Attack, envelopes: list[str]) -> list[str]:
    """:func:`run_attack` over the envelopes a model saw for :func:`turn_cells` (one eval tool call per cell)."""
    cells = turn_cells(attack)
    if len(envelopes) != len(cells):
        return [f"{len(envelopes)} envelopes for {len(cells)} cells: {envelopes}"]
    outcomes = [outcome_from_envelope(text) for text in envelopes]
    invalid = [outcome.text for outcome in outcomes if outcome.status == "invalid"]
    if invalid:
        return [f"not an eval envelope: {invalid[0]!r}"]
    replay = iter(zip(cells, outcomes, strict=True))

    def evaluate(code: str) -> EnvelopeOutcome:
        cell, outcome = next(replay)
        if cell != code:
            raise AssertionError(f"the turn ran {cell!r} where the case evaluates {code!r}")
        return outcome

    return run_attack(attack, evaluate)
