"""Thread-mode snapshots: what survives a turn, how they are stored, signed, refused, dropped and healed."""

from __future__ import annotations

import logging
import random
import zlib
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.agents import _snapshot_state as snap
from langchain_graalvm.agents._delta import apply_delta, make_delta
from tests.support.scripted import build_agent, results_of, thread, turn

LOGGER = "langchain_graalvm.middleware"


def _agent(**kwargs: Any) -> Any:
    return build_agent(CodeInterpreterMiddleware(**kwargs), checkpointer=InMemorySaver())


def _snapshot_version(agent: Any, config: dict[str, Any]) -> Any:
    return agent.checkpointer.get_tuple(config).checkpoint["channel_versions"].get(snap.SNAPSHOT_KEY)


def _put_payload(agent: Any, config: dict[str, Any], payload: bytes, **extra: Any) -> None:
    """Replaces the stored snapshot as an attacker with write access to the checkpointer could."""
    record = (snap.RECORD_FORMAT, "full", zlib.crc32(payload), payload)
    agent.update_state(config, {snap.SNAPSHOT_KEY: record, **extra})


# --------------------------------------------------------------------------------------------- what survives


def test_functions_classes_and_data_survive_a_turn() -> None:
    agent, config = _agent(), thread()
    agent.invoke(
        turn(
            "class Account { constructor(public owner: string, public cents = 0) {} "
            "deposit(n: number) { this.cents += n; return this } }",
            "function fmt(a: Account) { return `${a.owner}: ${(a.cents / 100).toFixed(2)}` }",
            "const book = new Map([['ann', new Account('ann', 150)]]); const seen = new Set([1, 2]);",
            "var when = new Date(Date.UTC(2024, 1, 29)); var shared = {n: 1}; var alias = {a: shared, b: shared}",
        ),
        config,
    )
    out = results_of(
        agent.invoke(
            turn(
                "fmt(book.get('ann').deposit(250))",
                "book.get('ann') instanceof Account",
                "[seen.has(2), when.toISOString(), alias.a === alias.b]",
            ),
            config,
        )
    )
    assert out == [
        "<result>ann: 4.00</result>",
        "<result>true</result>",
        '<result>[true, "2024-02-29T00:00:00.000Z", true]</result>',
    ]
    # The deposit made in the second turn is itself kept for the third.
    assert results_of(agent.invoke(turn("book.get('ann').cents"), config)) == ["<result>400</result>"]


def test_unsaveable_values_become_residues_with_the_exact_message() -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var pending = new Promise(() => {}); var weak = new WeakMap(); var ok = 1"), config)
    out = results_of(agent.invoke(turn("ok", "pending", "weak", "pending = 5; pending"), config))
    assert out[0] == "<result>1</result>"
    assert out[1].startswith(
        "<error type=\"ReferenceError\">Value for 'pending' was not restored because it is not serializable "
        "(type: promise).\n"
    )
    assert out[2].startswith(
        "<error type=\"ReferenceError\">Value for 'weak' was not restored because it is not serializable "
        "(type: WeakMap).\n"
    )
    assert out[3] == "<result>5</result>"


def test_turns_without_a_change_do_not_rewrite_the_snapshot() -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var x = 1"), config)
    version = _snapshot_version(agent, config)
    assert version is not None
    agent.invoke({"messages": [("user", "no code this time")]}, config)
    assert _snapshot_version(agent, config) == version
    agent.invoke(turn("x + 1", "x = 1"), config)  # evals that leave the globals as they were
    assert _snapshot_version(agent, config) == version
    agent.invoke(turn("x = 2"), config)
    assert _snapshot_version(agent, config) != version
    assert results_of(agent.invoke(turn("x"), config)) == ["<result>2</result>"]


def test_successive_snapshots_are_stored_as_small_deltas() -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var rows = Array.from({length: 3000}, (_, i) => ({id: i, label: 'row ' + i}))"), config)
    agent.invoke(turn("var extra = 'a new global'"), config)
    records = [
        value
        for (*_, channel, value) in _all_writes(agent, config)
        if channel == snap.SNAPSHOT_KEY and value is not None
    ]
    assert [r[1] for r in records] == ["full+z", "delta"]
    full_size, delta_size = len(records[0][3]), len(records[1][3])
    assert delta_size < 200 < full_size
    assert results_of(agent.invoke(turn("rows[2999].label + ' / ' + extra"), config)) == [
        "<result>row 2999 / a new global</result>"
    ]


def _all_writes(agent: Any, config: dict[str, Any]) -> list[tuple[Any, ...]]:
    saver: InMemorySaver = agent.checkpointer
    thread_id = config["configurable"]["thread_id"]
    found = []
    for (tid, _ns, _cid), writes in saver.writes.items():
        if tid == thread_id:
            found.extend((task_id, channel, saver.serde.loads_typed(v)) for task_id, channel, v, _ in writes.values())
    return found


# --------------------------------------------------------------------------------------------- signing


def test_signed_snapshots_restore_and_a_tampered_payload_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    agent, config = _agent(snapshot_signing_key="s3cret"), thread()
    agent.invoke(turn("var secret = 'mine'"), config)
    values = agent.get_state(config).values
    assert len(values[snap.SIGNATURE_KEY]) == 32
    assert results_of(agent.invoke(turn("secret"), config)) == ["<result>mine</result>"]

    tampered = values[snap.SNAPSHOT_KEY].replace(b"mine", b"evil")
    _put_payload(agent, config, tampered)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        out = results_of(agent.invoke(turn("typeof secret"), config))
    assert out == ["<result>undefined</result>"]
    assert "HMAC verification failed" in caplog.text
    # The refused payload is gone; the turn stored (and signed) its own, empty, globals.
    after = agent.get_state(config).values
    assert b"evil" not in after[snap.SNAPSHOT_KEY] and b"secret" not in after[snap.SNAPSHOT_KEY]
    assert snap.signature_matches(b"s3cret", after[snap.SLOT_KEY], after[snap.SNAPSHOT_KEY], after[snap.SIGNATURE_KEY])


def test_a_signed_payload_moved_to_another_thread_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    agent = _agent(snapshot_signing_key=b"k" * 32)
    source, target = thread(), thread()
    agent.invoke(turn("var owner = 'source'"), source)
    agent.invoke(turn("var owner = 'target'"), target)
    stolen = agent.get_state(source).values
    _put_payload(agent, target, stolen[snap.SNAPSHOT_KEY], **{snap.SIGNATURE_KEY: stolen[snap.SIGNATURE_KEY]})
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        out = results_of(agent.invoke(turn("typeof owner"), target))
    assert out == ["<result>undefined</result>"]
    assert "HMAC verification failed" in caplog.text
    assert results_of(agent.invoke(turn("owner"), source)) == ["<result>source</result>"]


def test_an_unsigned_snapshot_is_refused_once_a_key_is_set(caplog: pytest.LogCaptureFixture) -> None:
    saver, config = InMemorySaver(), thread()
    build_agent(CodeInterpreterMiddleware(), checkpointer=saver).invoke(turn("var v = 1"), config)
    signed = build_agent(CodeInterpreterMiddleware(snapshot_signing_key="k"), checkpointer=saver)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert results_of(signed.invoke(turn("typeof v"), config)) == ["<result>undefined</result>"]
    assert "HMAC verification failed" in caplog.text


# --------------------------------------------------------------------------------------------- failures


def test_corrupt_payload_warns_and_starts_fresh(caplog: pytest.LogCaptureFixture) -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var lost = 1"), config)
    _put_payload(agent, config, b'{"v":1,"g":["lost",[7]],"h":[],"s":[]}')  # a reference to a missing entry
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        out = results_of(agent.invoke(turn("typeof lost", "var next = 2"), config))
    assert out == ["<result>undefined</result>", "<result>undefined</result>"]
    assert "Failed to restore GraalVM snapshot" in caplog.text
    # The turn's own snapshot replaced the corrupt one.
    assert results_of(agent.invoke(turn("next"), config)) == ["<result>2</result>"]


@pytest.mark.parametrize("payload", [b"\xff\xfe not utf-8", b"not json", b'{"v":99}', b""])
def test_garbage_payloads_never_crash_the_agent(payload: bytes, caplog: pytest.LogCaptureFixture) -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var a = 1"), config)
    _put_payload(agent, config, payload)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert results_of(agent.invoke(turn("typeof a"), config)) == ["<result>undefined</result>"]
    if payload:
        assert "Failed to restore GraalVM snapshot" in caplog.text


def test_unreadable_record_chain_warns_and_starts_fresh(caplog: pytest.LogCaptureFixture) -> None:
    agent, config = _agent(), thread()
    agent.invoke(turn("var a = 1"), config)
    agent.update_state(config, {snap.SNAPSHOT_KEY: ("someone-else/9", "full", 0, b"{}")})
    assert agent.get_state(config).values[snap.SNAPSHOT_KEY] == snap.UNREADABLE
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert results_of(agent.invoke(turn("typeof a", "var b = 2"), config)) == ["<result>undefined</result>"] * 2
    assert "could not be replayed" in caplog.text
    assert results_of(agent.invoke(turn("b"), config)) == ["<result>2</result>"]


def test_oversized_snapshot_is_dropped_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    agent, config = _agent(max_snapshot_bytes=2000), thread()
    agent.invoke(turn("var small = 1"), config)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        agent.invoke(turn("var big = 'x'.repeat(5000)"), config)
    assert "Dropping GraalVM snapshot" in caplog.text and "max_snapshot_bytes=2000" in caplog.text
    assert not agent.get_state(config).values.get(snap.SNAPSHOT_KEY)
    assert results_of(agent.invoke(turn("typeof small"), config)) == ["<result>undefined</result>"]


# --------------------------------------------------------------------------------------------- storage units


def _versions(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    text = bytearray(b'{"v":1,"g":[' + b",".join(b'"k%d",%d' % (i, i) for i in range(4000)) + b"]}")
    out = [bytes(text)]
    for _ in range(12):
        at = rng.randrange(len(text))
        match rng.randrange(3):
            case 0:
                text[at:at] = b"inserted %d" % rng.randrange(10**6)
            case 1:
                del text[at : at + rng.randrange(1, 400)]
            case _:
                text[at : at + 5] = b"EDIT!"
        out.append(bytes(text))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_delta_round_trips(seed: int) -> None:
    versions = _versions(seed)
    for old, new in zip(versions, versions[1:], strict=False):
        delta = make_delta(old, new)
        assert apply_delta(old, delta) == new
        assert len(delta) < 1200
    assert apply_delta(b"", make_delta(b"", b"abc")) == b"abc"
    assert apply_delta(b"abc", make_delta(b"abc", b"")) == b""


def test_replay_is_batching_invariant_and_checks_its_records() -> None:
    versions = _versions(7)
    records: list[Any] = []
    prior = b""
    for v in versions:
        records.append(snap.encode_record(v, prior))
        prior = v
    assert {r[1] for r in records[1:]} == {"delta"}
    assert snap.replay_records(b"", records) == versions[-1]
    for cut in (1, 5, 11):
        assert snap.replay_records(snap.replay_records(b"", records[:cut]), records[cut:]) == versions[-1]
    assert snap.replay_records(b"", [*records[:3], None]) == b""
    assert snap.replay_records(b"", [records[0], list(records[1])]) == versions[1]  # serializers give lists back
    # A delta on the wrong base, a bad checksum or an unknown record never yields a wrong payload.
    assert snap.replay_records(b"", records[2:4]) == snap.UNREADABLE
    broken = (*records[1][:2], records[1][2] ^ 1, records[1][3])
    assert snap.replay_records(b"", [records[0], broken]) == snap.UNREADABLE
    assert snap.replay_records(b"", [records[0], ("x", "full", 0, b"")]) == snap.UNREADABLE
    # A full record heals an unreadable chain.
    assert snap.replay_records(snap.UNREADABLE, [records[2], snap.encode_record(b"fresh", b"")]) == b"fresh"


def test_signature_is_bound_to_slot_and_payload() -> None:
    key = snap.signing_key("key")
    assert key == b"key"
    tag = snap.sign(key, "gvm_a", b"payload")
    assert snap.signature_matches(key, "gvm_a", b"payload", tag)
    assert not snap.signature_matches(key, "gvm_b", b"payload", tag)
    assert not snap.signature_matches(key, "gvm_a", b"payload!", tag)
    assert not snap.signature_matches(b"other", "gvm_a", b"payload", tag)
    assert not snap.signature_matches(key, "gvm_a", b"payload", None)
    # Length-prefixing keeps the slot/payload boundary unambiguous.
    assert snap.sign(key, "gvm_ab", b"c") != snap.sign(key, "gvm_a", b"bc")


# --------------------------------------------------------------------------------------------- keep_warm


def test_keep_warm_continues_in_the_live_interpreter_and_falls_back_to_the_snapshot() -> None:
    saver, config = InMemorySaver(), thread()
    mw = CodeInterpreterMiddleware(keep_warm=True)
    warm = build_agent(mw, checkpointer=saver)
    warm.invoke(turn("const next = (() => { let n = 0; return () => ++n })(); next()"), config)
    assert mw._registry.parked() == 1
    # In this process the closure keeps its private state; the snapshot is still written every turn.
    assert results_of(warm.invoke(turn("next()"), config)) == ["<result>2</result>"]
    # Another process (here: another middleware instance) continues from the snapshot, where it cannot.
    cold = build_agent(CodeInterpreterMiddleware(), checkpointer=saver)
    assert results_of(cold.invoke(turn("next()"), config))[0].startswith(
        '<error type="ReferenceError">n is not defined'
    )
    # The stored snapshot is no longer the one the parked interpreter wrote, so it is not reused.
    assert results_of(warm.invoke(turn("typeof n"), config)) == ["<result>undefined</result>"]
    assert results_of(warm.invoke(turn("next()"), config))[0].startswith('<error type="ReferenceError">')


def test_keep_warm_only_applies_to_thread_mode() -> None:
    assert CodeInterpreterMiddleware(keep_warm=True).keep_warm
    assert not CodeInterpreterMiddleware(keep_warm=True, mode="turn").keep_warm
    assert not CodeInterpreterMiddleware().keep_warm


# --------------------------------------------------------------------------------------------- polyfills


@pytest.mark.parametrize("keep_warm", [False, True])
def test_values_of_polyfilled_built_ins_survive_full_and_delta_snapshots(keep_warm: bool) -> None:
    # The first cell of a process that installs a polyfill group parses the bundle: seconds on a loaded machine.
    saver, config = InMemorySaver(), thread()
    agent = build_agent(CodeInterpreterMiddleware(keep_warm=keep_warm, timeout=60.0), checkpointer=saver)
    agent.invoke(turn("var seen = new Map(); function mark(k) { return seen.getOrInsert(k, seen.size) }"), config)
    agent.invoke(turn("mark('a'); mark('b'); var e = new SuppressedError(1, 2, 'm')"), config)
    cold = build_agent(CodeInterpreterMiddleware(timeout=60.0), checkpointer=saver)
    out = results_of(cold.invoke(turn("[mark('a'), mark('c'), e instanceof SuppressedError, e.error]"), config))
    assert out == ["<result>[0, 2, true, 1]</result>"]
