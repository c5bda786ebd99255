"""The corpus's cases that need the agent's tools (``langchain_graalvm.cli.attacks.TOOL_ATTACKS``), through the eval
tool of a real Deep Agent, in both guests, run synchronously (``invoke``: host calls on the package's own loop and
tool threads) and asynchronously (``ainvoke``: on the agent's loop). Each case's turn runs the attack, ``1+1`` and
its follow-ups, and the eval tool never raises."""

from __future__ import annotations

import asyncio
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


def _check(attack: corpus.Attack, envelopes: list[str]) -> None:
    failures = corpus.run_attack_on_envelopes(attack, envelopes)
    assert not failures, f"{attack.id}: " + "; ".join(failures) + "\n" + "\n".join(envelopes)


@pytest.mark.parametrize("attack", corpus.TOOL_ATTACKS, ids=lambda a: f"{a.language}:{a.id}")
def test_tool_attack_is_contained_sync(attack: corpus.Attack) -> None:
    state = _agent(attack.language).invoke(turn(*corpus.turn_cells(attack)), thread())
    _check(attack, results_of(state))


@pytest.mark.parametrize("attack", corpus.TOOL_ATTACKS, ids=lambda a: f"{a.language}:{a.id}")
def test_tool_attack_is_contained_async(attack: corpus.Attack) -> None:
    state = asyncio.run(_agent(attack.language).ainvoke(turn(*corpus.turn_cells(attack)), thread()))
    _check(attack, results_of(state))


def test_both_guests_are_attacked() -> None:
    assert {a.language for a in corpus.TOOL_ATTACKS} == {"js", "python"}
