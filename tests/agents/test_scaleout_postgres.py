"""Many agent workers, one thread store on PostgreSQL: a real server, real worker processes, real faults.

Three worker processes (each with its own JVM) serve turns of many threads from a queue table; consecutive turns
of a thread land on different workers, so every turn continues from the checkpoint another process wrote. Each
thread must end holding exactly what one process running the same turns in order holds: the same conversation
and byte for byte the same interpreter snapshot. The faults: a worker killed with SIGKILL in the middle of an
eval, in the middle of writing a checkpoint, and after its turn's last checkpoint but before the queue heard of
it; a worker whose database connections are terminated mid-turn; a snapshot signed with another key, and one
tampered with in the database. See ``tests/support/scaleout.py`` for the worker, the queue and the recovery.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from langgraph.checkpoint.postgres import PostgresSaver
from psycopg.rows import dict_row

from tests.support import scaleout
from tests.support.pg import PostgresServer

WORKERS = 3


@pytest.fixture(scope="module")
def store(postgres: PostgresServer) -> Iterator[PostgresSaver]:
    with PostgresSaver.from_conn_string(postgres.dsn) as saver:
        saver.setup()
        yield saver


@pytest.fixture(scope="module")
def cluster(postgres: PostgresServer, store: PostgresSaver) -> Iterator[scaleout.Supervisor]:  # noqa: ARG001
    supervisor = scaleout.Supervisor(postgres.dsn)
    supervisor.spawn(WORKERS)
    try:
        supervisor.wait_ready(WORKERS)
        yield supervisor
    finally:
        supervisor.stop()


@pytest.fixture(scope="module")
def reader(store: PostgresSaver) -> Iterator[Any]:
    """An agent in this process over the same store, to read the threads' state."""
    agent, middleware = scaleout.build(store)
    yield agent
    middleware.close()


def _prefix() -> str:
    return uuid.uuid4().hex[:6]


def _served_by(cluster: scaleout.Supervisor, threads: list[str]) -> dict[str, list[list[int]]]:
    rows = cluster.db.execute(
        "SELECT thread_id, served_by FROM scaleout_turns WHERE thread_id = ANY(%s) ORDER BY thread_id, turn_no",
        (threads,),
    ).fetchall()
    out: dict[str, list[list[int]]] = {}
    for thread_id, served in rows:
        out.setdefault(thread_id, []).append(list(served))
    return out


def _outcomes(cluster: scaleout.Supervisor, thread_id: str) -> list[str]:
    rows = cluster.db.execute(
        "SELECT outcome FROM scaleout_turns WHERE thread_id = %s ORDER BY turn_no", (thread_id,)
    ).fetchall()
    return [r[0] for r in rows]


def _assert_same_as_one_process(reader: Any, work: dict[str, list[list[str]]]) -> None:
    expected = scaleout.reference(work)
    for thread_id in work:
        got = scaleout.thread_result(reader, thread_id)
        assert got.transcript == expected[thread_id].transcript, thread_id
        assert got.snapshot == expected[thread_id].snapshot, thread_id
        assert got.snapshot  # the globals really are there


def test_many_workers_serve_many_threads_from_one_store(cluster: scaleout.Supervisor, reader: Any) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=8, turns=4)
    events = cluster.run(work)
    served = _served_by(cluster, list(work))
    for thread_id, turns in served.items():
        assert all(len(s) == 1 for s in turns), turns  # no fault: every turn served once
        workers = [s[0] for s in turns]
        assert all(a != b for a, b in itertools.pairwise(workers)), (thread_id, workers)
    assert len({w for turns in served.values() for s in turns for w in s}) == WORKERS
    assert {e["outcome"] for e in events if e["kind"] == "done"} == {"ran"}
    _assert_same_as_one_process(reader, work)


# Busy for 2.5 s of wall time, whatever the machine's speed, and leaves the globals as they were.
SPIN = "(() => { const end = Date.now() + 2500; let n = 0; while (Date.now() < end) n++ })(); 'spun'"


def _with_spin(work: dict[str, list[list[str]]], thread_id: str, turn_no: int) -> None:
    """Inserts a long-running cell as the second cell of one turn, after a cell that changed the globals."""
    work[thread_id][turn_no].insert(1, SPIN)


def _in_spin(event: dict[str, Any], thread_id: str) -> bool:
    return event["kind"] == "eval-start" and (event["thread"], event["turn"], event["cell"]) == (thread_id, 1, 1)


def test_a_worker_killed_mid_eval_is_replaced_and_its_turn_retried_from_the_last_checkpoint(
    cluster: scaleout.Supervisor, reader: Any
) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=4, turns=3)
    victim = next(iter(work))
    _with_spin(work, victim, 1)
    killed: list[dict[str, Any]] = []

    def kill_in_the_spin(_sup: scaleout.Supervisor, event: dict[str, Any] | None) -> None:
        if event and _in_spin(event, victim) and not killed:
            os.kill(event["pid"], signal.SIGKILL)
            killed.append(event)

    events = cluster.run(work, watch=kill_in_the_spin)
    assert killed, "the victim's eval never started"
    dead = killed[0]["worker"]
    # The worker died inside that eval: it never reported the eval's end, and the supervisor requeued its turn.
    after_start = [e for e in events if e.get("worker") == dead and e["t"] > killed[0]["t"]]
    assert not [e for e in after_start if e["kind"] in ("eval-end", "done")], (killed, after_start)
    died = next(e for e in events if e["kind"] == "died")
    assert died["worker"] == dead and died["exitcode"] == -signal.SIGKILL
    assert died["requeued"] == [(victim, 1)]
    served = _served_by(cluster, list(work))
    assert served[victim][1][0] == dead and len(served[victim][1]) == 2 and served[victim][1][1] != dead
    assert _outcomes(cluster, victim) == ["ran", "retried", "ran"]
    for other in list(work)[1:]:
        assert all(len(s) == 1 for s in served[other]) and _outcomes(cluster, other) == ["ran"] * 3
    _assert_same_as_one_process(reader, work)


# A trap for a thread's writes: a statement that reaches it waits for an advisory lock this process holds, so the
# worker can be killed while its statement is half-way.
TRAPS = """
CREATE TABLE IF NOT EXISTS scaleout_traps (
    thread_id text NOT NULL, target text NOT NULL, turn_no int NOT NULL, lock_key int NOT NULL);
CREATE OR REPLACE FUNCTION scaleout_checkpoint_trap() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE trap scaleout_traps;
BEGIN
  SELECT * INTO trap FROM scaleout_traps WHERE thread_id = NEW.thread_id AND target = 'checkpoints';
  -- The checkpoint that stores turn N's snapshot is the thread's (N+1)th one carrying a snapshot.
  IF trap.lock_key IS NOT NULL AND NEW.checkpoint->'updated_channels' ? '_graalvm_snapshot' AND trap.turn_no = (
      SELECT count(*) FROM checkpoints c
      WHERE c.thread_id = NEW.thread_id AND c.checkpoint->'updated_channels' ? '_graalvm_snapshot') THEN
    PERFORM pg_advisory_xact_lock(trap.lock_key);
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION scaleout_ack_trap() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE trap scaleout_traps;
BEGIN
  SELECT * INTO trap FROM scaleout_traps WHERE thread_id = NEW.thread_id AND target = 'scaleout_turns';
  IF trap.lock_key IS NOT NULL AND NEW.state = 'done' AND NEW.turn_no = trap.turn_no THEN
    PERFORM pg_advisory_xact_lock(trap.lock_key);
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER scaleout_trap BEFORE INSERT ON checkpoints
  FOR EACH ROW EXECUTE FUNCTION scaleout_checkpoint_trap();
CREATE OR REPLACE TRIGGER scaleout_trap BEFORE UPDATE ON scaleout_turns
  FOR EACH ROW EXECUTE FUNCTION scaleout_ack_trap();
"""


class Trap:
    """Holds writes of one thread to one table at the trap, then kills the worker that made them."""

    def __init__(self, sup: scaleout.Supervisor, thread_id: str, table: str, turn: int, key: int) -> None:
        self.sup, self.thread_id, self.table, self.turn, self.key = sup, thread_id, table, turn, key
        self.sprung: dict[str, Any] | None = None
        sup.db.execute(TRAPS)
        sup.db.execute("SELECT pg_advisory_lock(%s)", (key,))
        sup.db.execute("INSERT INTO scaleout_traps VALUES (%s, %s, %s, %s)", (thread_id, table, turn, key))

    def __call__(self, sup: scaleout.Supervisor, event: dict[str, Any] | None) -> None:
        if event is not None or self.sprung is not None:
            return
        row = sup.db.execute(
            "SELECT a.pid, a.application_name, a.query FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND NOT l.granted AND l.objid = %s",
            (self.key,),
        ).fetchone()
        if row is None:
            return
        backend, application, query = row
        number = int(application.split("-")[1][1:])  # scaleout-w<N>-...
        os.kill(sup.workers[number].process.pid, signal.SIGKILL)
        self.sprung = {"worker": number, "backend": backend, "query": query}
        sup.db.execute("DELETE FROM scaleout_traps WHERE thread_id = %s", (self.thread_id,))
        self.release(backend)
        deadline = time.monotonic() + 30
        while sup.db.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (backend,)).fetchone():
            assert time.monotonic() < deadline, "the killed worker's statement never ended"
            time.sleep(0.05)

    def release(self, backend: int) -> None:  # noqa: ARG002 - the aborting trap needs it
        """Lets the held statement go on (its client is dead: the server may finish or abort it)."""
        self.sup.db.execute("SELECT pg_advisory_unlock(%s)", (self.key,))


class AbortingTrap(Trap):
    def release(self, backend: int) -> None:
        """Ends the held statement's session, so what it was writing is never committed."""
        self.sup.db.execute("SELECT pg_terminate_backend(%s)", (backend,))
        self.sup.db.execute("SELECT pg_advisory_unlock(%s)", (self.key,))


def _snapshot_checkpoints(store: PostgresSaver, thread_id: str) -> int:
    with store._cursor() as cur:
        row = cur.execute(
            "SELECT count(*) AS n FROM checkpoints WHERE thread_id = %s AND checkpoint->'updated_channels' ? %s",
            (thread_id, "_graalvm_snapshot"),
        ).fetchone()
    return int(row["n"])


def test_a_worker_killed_while_writing_a_checkpoint_loses_nothing_and_applies_nothing_twice(
    cluster: scaleout.Supervisor, reader: Any, store: PostgresSaver
) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=4, turns=3)
    victim = list(work)[1]
    trap = Trap(cluster, victim, "checkpoints", turn=1, key=4201)
    events = cluster.run(work, watch=trap)
    assert trap.sprung is not None, "the trap never held a checkpoint write"
    assert trap.sprung["query"].strip().startswith("INSERT INTO checkpoints"), trap.sprung
    died = next(e for e in events if e["kind"] == "died")
    assert died["worker"] == trap.sprung["worker"] and died["requeued"] == [(victim, 1)]
    # Whether the server finished the dead client's write or not, the turn ran again from the last rest point.
    assert _outcomes(cluster, victim) == ["ran", "retried", "ran"]
    assert _snapshot_checkpoints(store, victim) in (3, 4)
    served = _served_by(cluster, list(work))
    assert len(served[victim][1]) == 2 and served[victim][1][0] == trap.sprung["worker"]
    for other in list(work):
        if other != victim:
            assert all(len(s) == 1 for s in served[other]), served[other]
    _assert_same_as_one_process(reader, work)


def test_a_worker_killed_after_its_last_checkpoint_but_before_the_ack_is_not_run_twice(
    cluster: scaleout.Supervisor, reader: Any
) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=3, turns=3)
    victim = list(work)[2]
    trap = AbortingTrap(cluster, victim, "scaleout_turns", turn=1, key=4202)
    cluster.run(work, watch=trap)
    assert trap.sprung is not None and trap.sprung["query"].strip().startswith("UPDATE scaleout_turns"), trap.sprung
    # The turn's last checkpoint was committed before the worker died: the retry finds it and runs nothing.
    assert _outcomes(cluster, victim) == ["ran", "already", "ran"]
    _assert_same_as_one_process(reader, work)


def test_a_worker_whose_database_connections_drop_mid_turn_reports_it_and_recovers(
    cluster: scaleout.Supervisor, reader: Any
) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=3, turns=3)
    victim = next(iter(work))
    _with_spin(work, victim, 1)
    dropped: list[int] = []

    def drop_connections(sup: scaleout.Supervisor, event: dict[str, Any] | None) -> None:
        if event and _in_spin(event, victim) and not dropped:
            rows = sup.db.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE %s",
                (f"scaleout-w{event['worker']}-%",),
            ).fetchall()
            assert rows and all(r[0] for r in rows)
            dropped.append(event["worker"])

    events = cluster.run(work, watch=drop_connections)
    assert dropped
    errors = [e for e in events if e["kind"] == "db-error"]
    assert errors and all(e["worker"] == dropped[0] for e in errors), errors
    # What psycopg reports depends on whether the server's goodbye arrived before the socket closed.
    message = errors[0]["message"]
    assert "OperationalError" in message, message
    causes = ("terminating connection due to administrator command", "server closed the connection unexpectedly")
    assert any(cause in message for cause in causes), message
    assert "retrying the turn from its last checkpoint" in errors[0]["message"]
    assert not [e for e in events if e["kind"] == "died"]
    # The same worker recovered: it served the turn again from the last rest point, and nothing else changed.
    assert _served_by(cluster, [victim])[victim][1] == [dropped[0]]
    assert _outcomes(cluster, victim) == ["ran", "retried", "ran"]
    _assert_same_as_one_process(reader, work)


def _fresh_start(work: dict[str, list[list[str]]], thread_id: str, reader: Any, warnings: list[str]) -> None:
    """The thread's stored snapshot was refused with a warning, and the turns after it started from nothing."""
    slot_id = reader.get_state(scaleout.config_of(thread_id)).values["_graalvm_slot_id"]
    assert [w for w in warnings if slot_id in w and "HMAC verification failed" in w], warnings
    got = scaleout.thread_result(reader, thread_id)
    turn_1 = [i for i, (kind, _, _) in enumerate(got.transcript) if kind == "HumanMessage"][1]
    first_result = next(content for kind, content, _ in got.transcript[turn_1:] if kind == "ToolMessage")
    assert "ReferenceError" in first_result, got.transcript
    later = scaleout.reference({thread_id: work[thread_id][1:]})[thread_id]
    assert got.snapshot == later.snapshot


def test_a_snapshot_signed_with_another_key_is_refused_and_the_thread_starts_fresh(
    cluster: scaleout.Supervisor, reader: Any, store: PostgresSaver
) -> None:
    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=2, turns=3)
    victim = next(iter(work))
    rogue, middleware = scaleout.build(store, snapshot_signing_key="a key the workers do not have")
    try:
        rogue.invoke(scaleout.turn_input(0, work[victim][0]), scaleout.config_of(victim))
    finally:
        middleware.close()
    events = cluster.run({victim: work[victim][1:]}, start=1)
    _fresh_start(work, victim, reader, [e["message"] for e in events if e["kind"] == "warning"])


def test_a_snapshot_tampered_with_in_the_database_is_refused_and_the_thread_starts_fresh(
    cluster: scaleout.Supervisor, reader: Any, store: PostgresSaver
) -> None:
    from langchain_graalvm.agents import _snapshot_state as snap

    cluster.wait_ready(WORKERS)
    work = scaleout.schedule(_prefix(), threads=2, turns=3)
    victim = next(iter(work))
    cluster.run({victim: work[victim][:1]})
    # Rewrite the stored record as an attacker with write access to the database would: a new payload in a
    # well-formed record with a valid checksum, keeping the old signature.
    with psycopg.connect(cluster.dsn, autocommit=True, row_factory=dict_row) as db:
        row = db.execute(
            "SELECT checkpoint_id, task_id, idx, type, blob FROM checkpoint_writes "
            "WHERE thread_id = %s AND channel = '_graalvm_snapshot'",
            (victim,),
        ).fetchone()
        assert row is not None
        payload = snap.replay_records(None, [store.serde.loads_typed((row["type"], row["blob"]))])
        tampered = payload.replace(b"thread-0", b"attacker")
        assert tampered != payload
        kind, blob = store.serde.dumps_typed(snap.encode_record(tampered, b""))
        db.execute(
            "UPDATE checkpoint_writes SET type = %s, blob = %s WHERE thread_id = %s AND checkpoint_id = %s "
            "AND task_id = %s AND idx = %s",
            (kind, blob, victim, row["checkpoint_id"], row["task_id"], row["idx"]),
        )
    assert scaleout.thread_result(reader, victim).snapshot == tampered
    events = cluster.run({victim: work[victim][1:]}, start=1)
    _fresh_start(work, victim, reader, [e["message"] for e in events if e["kind"] == "warning"])
    assert b"attacker" not in scaleout.thread_result(reader, victim).snapshot
