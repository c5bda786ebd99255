"""The attack corpus through the middleware's eval tool, as a model reaches it: one agent turn runs the set-up,
the attack, ``1+1`` and the follow-ups, each as an eval tool call, and the envelopes are checked. Snapshots an
attacker rewrote in the checkpointer are refused before any of their code runs."""

from __future__ import annotations

import json
import logging
import zlib
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.agents import _snapshot_state as snap
from langchain_graalvm.cli import attacks as corpus
from tests.support.scripted import SEPARATOR, build_agent, results_of, thread, turn

# Exhaustion cases are the interpreter's business (tests/attacks/test_corpus.py); through the tool, the cases
# that aim at the host, its bridges, the clock and the state.
THROUGH_TOOL = [a for a in corpus.ATTACKS if a.category != corpus.EXHAUSTION and SEPARATOR not in a.code]
_agents: dict[tuple[str, float, int], Any] = {}


def _agent(attack: corpus.Attack) -> Any:
    key = (attack.language, attack.timeout, attack.memory_limit)
    if key not in _agents:
        mw = CodeInterpreterMiddleware(
            language=attack.language, timeout=attack.timeout, memory_limit=attack.memory_limit
        )
        _agents[key] = build_agent(mw, checkpointer=InMemorySaver())
    return _agents[key]


@pytest.mark.parametrize("attack", THROUGH_TOOL, ids=lambda a: f"{a.category}:{a.id}")
def test_attack_through_the_eval_tool_is_contained(attack: corpus.Attack, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm.middleware"):
        envelopes = results_of(_agent(attack).invoke(turn(*corpus.turn_cells(attack)), thread()))
    # The turn ends with a snapshot of the globals, taken with whatever the attack left behind in the builtins.
    assert "snapshot" not in caplog.text.lower(), caplog.text
    failures = corpus.run_attack_on_envelopes(attack, envelopes)
    assert not failures, f"{attack.id}: " + "; ".join(failures)


def test_every_category_but_exhaustion_goes_through_the_tool() -> None:
    assert {a.category for a in THROUGH_TOOL} == set(corpus.CATEGORIES) - {corpus.EXHAUSTION}
    assert len(THROUGH_TOOL) >= 80


# ------------------------------------------------------------------------------------------ stored snapshots


def _store(agent: Any, config: dict[str, Any], payload: bytes, body: bytes | None = None, **extra: Any) -> None:
    """Writes a snapshot record into the checkpointer, as an attacker with write access to it could."""
    record = (snap.RECORD_FORMAT, "full", zlib.crc32(payload), payload if body is None else body)
    agent.update_state(config, {snap.SNAPSHOT_KEY: record, **extra})


INJECTED = json.dumps(
    {"v": 1, "g": ["f", [0]], "h": [["F", "(function () { globalThis.pwned = 1 })()", 0, "f", 0, "f"]], "s": []}
).encode()


def test_injected_snapshot_is_refused_unrun_when_signing_is_on(caplog: pytest.LogCaptureFixture) -> None:
    agent = build_agent(CodeInterpreterMiddleware(snapshot_signing_key="k"), checkpointer=InMemorySaver())
    config = thread()
    agent.invoke(turn("var kept = 1"), config)
    _store(agent, config, INJECTED)
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm.middleware"):
        out = results_of(agent.invoke(turn("[typeof pwned, typeof f, typeof kept, 1 + 1]"), config))
    assert out == ['<result>["undefined", "undefined", "undefined", 2]</result>']
    assert "HMAC verification failed" in caplog.text


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("flipped-byte", lambda p: p[:10] + bytes([p[10] ^ 0x20]) + p[11:]),
        ("truncated", lambda p: p[: len(p) // 2]),
        ("other-payload", lambda p: b'{"v":1,"g":["kept",2],"h":[],"s":[]}'),
    ],
)
def test_record_that_fails_its_checksum_is_discarded(name: str, body: Any, caplog: pytest.LogCaptureFixture) -> None:
    agent = build_agent(CodeInterpreterMiddleware(), checkpointer=InMemorySaver())
    config = thread()
    agent.invoke(turn("var kept = 1"), config)
    payload = agent.get_state(config).values[snap.SNAPSHOT_KEY]
    _store(agent, config, payload, body=body(payload))
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm.middleware"):
        out = results_of(agent.invoke(turn("[typeof kept, 1 + 1]"), config))
    assert out == ['<result>["undefined", 2]</result>'], name
    assert "could not be replayed" in caplog.text
    # The next turn's snapshot is a full record again: the chain heals.
    agent.invoke(turn("var healed = 2"), config)
    assert results_of(agent.invoke(turn("healed"), config)) == ["<result>2</result>"]


def test_snapshot_from_another_thread_is_refused_with_signing() -> None:
    mw = CodeInterpreterMiddleware(snapshot_signing_key="k")
    agent = build_agent(mw, checkpointer=InMemorySaver())
    mine, theirs = thread(), thread()
    agent.invoke(turn("var owner = 'mine'"), mine)
    agent.invoke(turn("var owner = 'theirs'"), theirs)
    stolen = agent.get_state(theirs).values
    _store(agent, mine, stolen[snap.SNAPSHOT_KEY], **{snap.SIGNATURE_KEY: stolen[snap.SIGNATURE_KEY]})
    assert results_of(agent.invoke(turn("typeof owner"), mine)) == ["<result>undefined</result>"]

