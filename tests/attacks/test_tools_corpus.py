"""The corpus's cases that need the agent's tools (``langchain_graalvm.cli.attacks.TOOL_ATTACKS``), through the eval
tool of a real Deep Agent, in both guests, run synchronously (``invoke``: host calls on the package's own loop and
tool threads) and asynchronously (``ainvoke``: on the agent's loop). Each case's turn runs the attack, ``1+1`` and
its follow-ups, and the eval tool never raises."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.cli import attacks as corpus
from tests.support.scripted import build_agent, results_of, thread, turn

_agents: dict[str, Any] = {}


def _agent(language: str) -> Any:
    if language not in _agents:
        mw = CodeInterpreterMiddleware(
            language=language,
            ptc=[t.name for t in corpus.HOSTILE_TOOLS],
            max_ptc_calls=corpus.TOOL_BUDGET,
            timeout=60.0,
            # An eval that loses a call waits for it until this cap: short, so such a failure shows quickly.
            max_wall_time=20.0,
        )
        _agents[language] = build_agent(mw, tools=list(corpus.HOSTILE_TOOLS))
    return _agents[language]


def _check(attack: corpus.Attack, envelopes: list[str], cells: list[str]) -> None:
    assert len(envelopes) == len(cells), envelopes
    outcomes: Iterator[corpus.EnvelopeOutcome] = map(corpus.outcome_from_envelope, envelopes)
    replay = iter(zip(cells, outcomes, strict=True))

    def evaluate(code: str) -> corpus.EnvelopeOutcome:
        cell, outcome = next(replay)
        assert cell == code
        assert outcome.status != "invalid", outcome.text
        return outcome

    failures = corpus.run_attack(attack, evaluate)
    assert not failures, f"{attack.id}: " + "; ".join(failures) + "\n" + "\n".join(envelopes)


def _cells(attack: corpus.Attack) -> list[str]:
    return [*attack.setup, attack.code, "1+1", *(code for code, _ in attack.follow)]


@pytest.mark.parametrize("attack", corpus.TOOL_ATTACKS, ids=lambda a: f"{a.language}:{a.id}")
def test_tool_attack_is_contained_sync(attack: corpus.Attack) -> None:
    cells = _cells(attack)
    _check(attack, results_of(_agent(attack.language).invoke(turn(*cells), thread())), cells)


@pytest.mark.parametrize("attack", corpus.TOOL_ATTACKS, ids=lambda a: f"{a.language}:{a.id}")
def test_tool_attack_is_contained_async(attack: corpus.Attack) -> None:
    cells = _cells(attack)
    state = asyncio.run(_agent(attack.language).ainvoke(turn(*cells), thread()))
    _check(attack, results_of(state), cells)


def test_both_guests_are_attacked() -> None:
    assert {a.language for a in corpus.TOOL_ATTACKS} == {"js", "python"}
