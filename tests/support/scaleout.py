"""Many agent workers in front of one PostgreSQL checkpointer: the worker process, its turn queue, the supervisor.

Each worker is a process of its own (``multiprocessing`` spawn, so each has its own JVM) running a real Deep Agent
(``create_deep_agent`` with the scripted model of ``tests/support/scripted.py`` and
``CodeInterpreterMiddleware(mode="thread")``) over a ``PostgresSaver``. The work is a queue table in the same
database: one row per turn of a thread. A worker claims the lowest turn of a thread whose earlier turns are all
done (``FOR UPDATE SKIP LOCKED``), and with ``spread`` never the turn after one it served itself, so consecutive
turns of a thread land on different workers and the interpreter's globals must travel through the checkpoints.

Recovery, in two explicit parts:

- :func:`serve_turn` runs a turn exactly once whatever an earlier attempt left behind: a turn whose last
  checkpoint was committed is not run again; a turn cut off part-way is run again from the thread's last
  checkpoint at rest (the end of the previous turn), which forks the thread there, so neither the cut-off tool
  results nor the globals of the lost attempt survive.
- :meth:`Supervisor.requeue` puts the turns a dead worker held back in the queue, for another worker.

A worker that loses its database connection reports it as a ``db-error`` event and retries the turn through
:func:`serve_turn`. Workers report what they do (``ready``, ``claim``, ``eval-start``, ``eval-end``, ``done``,
``warning``, ``db-error``) on a pipe of their own, which a killed worker cannot leave half-written for the others.
"""

from __future__ import annotations

import json
import logging
import multiprocessing as mp
import os
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

QUEUE_SCHEMA = """
CREATE TABLE IF NOT EXISTS scaleout_turns (
    thread_id text NOT NULL,
    turn_no int NOT NULL,
    cells jsonb NOT NULL,
    state text NOT NULL DEFAULT 'pending',
    worker int,
    attempts int NOT NULL DEFAULT 0,
    served_by int[] NOT NULL DEFAULT '{}',
    outcome text,
    PRIMARY KEY (thread_id, turn_no)
)
"""

_CLAIM = """
UPDATE scaleout_turns AS t
SET state = 'running', worker = %(w)s, attempts = t.attempts + 1, served_by = t.served_by || %(w)s
WHERE t.state = 'pending' AND (t.thread_id, t.turn_no) = (
    SELECT c.thread_id, c.turn_no FROM scaleout_turns AS c
    WHERE c.state = 'pending'
      AND NOT EXISTS (SELECT 1 FROM scaleout_turns AS e
                      WHERE e.thread_id = c.thread_id AND e.turn_no < c.turn_no AND e.state <> 'done')
      AND NOT (%(spread)s AND EXISTS (SELECT 1 FROM scaleout_turns AS p
                      WHERE p.thread_id = c.thread_id AND p.turn_no = c.turn_no - 1 AND p.worker = %(w)s))
    ORDER BY c.turn_no, c.thread_id
    LIMIT 1
    FOR UPDATE SKIP LOCKED)
RETURNING t.thread_id, t.turn_no, t.cells, t.attempts
"""

SIGNING_KEY = "one key for every worker"
# The host clock lets a test cell run for a set wall time (see SPIN in the tests); no cell's result depends on it.
MIDDLEWARE_OPTIONS: dict[str, Any] = {
    "mode": "thread",
    "timeout": 60.0,
    "snapshot_signing_key": SIGNING_KEY,
    "clock": "host",
}


# ------------------------------------------------------------------------------------------------ the work


def turn_cells(thread_no: int, turn_no: int) -> list[str]:
    """The cells of one turn: each reads the globals earlier turns left and extends them (data, functions and
    classes), with values distinct per thread, so a lost, repeated or misplaced turn changes what follows."""
    t, k = thread_no, turn_no
    if k == 0:
        return [
            f"var ledger = [{t}]; var label = 'thread-{t}'; "
            "function total() { return ledger.reduce((a, b) => a + b, 0) }",
            "class Account { constructor(owner, rate) { this.owner = owner; this.rate = rate } "
            "charge(x) { ledger.push(Math.round(x * this.rate)); return total() } }",
            f"var acct = new Account(label, {t + 2}); acct.charge(3)",
        ]
    cells = [
        f"ledger.push(total() % 97 + {k}); ledger.length",
        f"function f{k}(x) {{ return x * {k} + total() }}; f{k}({t})",
    ]
    if k % 2:
        cells.append(
            f"class Tier{k} extends Account {{ charge(x) {{ return super.charge(x * {k}) }} }}; "
            f"var acct = new Tier{k}(label, 1.5); [acct.charge({t}), acct instanceof Account, typeof f{k - 1}]"
        )
    else:
        cells.append(f"[label, acct.charge(f{k}(1)), acct.constructor.name, ledger.length]")
    return cells


def schedule(prefix: str, threads: int, turns: int) -> dict[str, list[list[str]]]:
    """``threads`` threads of ``turns`` turns each, keyed by thread id."""
    return {f"{prefix}-{t}": [turn_cells(t, k) for k in range(turns)] for t in range(threads)}


def turn_input(turn_no: int, cells: list[str]) -> dict[str, Any]:
    """The input of one turn; the human message's id names the turn, so a thread's state says which turns it holds."""
    from langchain_core.messages import HumanMessage

    return {"messages": [HumanMessage(json.dumps(cells), id=f"turn-{turn_no}")]}


def config_of(thread_id: str, **extra: Any) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}, **extra}


def build(checkpointer: Any, **options: Any) -> tuple[Any, Any]:
    """A real Deep Agent with the interpreter middleware and the scripted model; returns (agent, middleware)."""
    from langchain_graalvm import CodeInterpreterMiddleware
    from tests.support.scripted import build_agent

    middleware = CodeInterpreterMiddleware(**{**MIDDLEWARE_OPTIONS, **options})
    return build_agent(middleware, checkpointer=checkpointer), middleware


@dataclass(frozen=True)
class ThreadResult:
    """What a thread holds at the end: its conversation (without message ids) and its interpreter snapshot."""

    transcript: list[tuple[str, str, str]]
    snapshot: bytes


def thread_result(agent: Any, thread_id: str) -> ThreadResult:
    state = agent.get_state(config_of(thread_id))
    transcript = [
        (type(m).__name__, str(m.content), json.dumps([c["args"] for c in getattr(m, "tool_calls", [])]))
        for m in state.values.get("messages", [])
    ]
    return ThreadResult(transcript, bytes(state.values.get("_graalvm_snapshot") or b""))


def reference(work: dict[str, list[list[str]]], **options: Any) -> dict[str, ThreadResult]:
    """What one process running the same turns in order holds at the end (in-memory checkpointer)."""
    from langgraph.checkpoint.memory import InMemorySaver

    agent, middleware = build(InMemorySaver(), **options)
    try:
        for thread_id, turns in work.items():
            for turn_no, cells in enumerate(turns):
                agent.invoke(turn_input(turn_no, cells), config_of(thread_id))
        return {thread_id: thread_result(agent, thread_id) for thread_id in work}
    finally:
        middleware.close()


# ------------------------------------------------------------------------------------------------ recovery


def turns_held(values: dict[str, Any]) -> int:
    return sum(1 for m in values.get("messages", []) if str(getattr(m, "id", "")).startswith("turn-"))


def rest_point(agent: Any, thread_id: str) -> tuple[Any | None, bool]:
    """The thread's newest checkpoint at rest (the end of a turn; None when it has none), and whether that is also
    the thread's newest checkpoint.

    At rest means no task at all, not merely no ``next``: a checkpoint whose last task saved its writes before the
    worker died shows an empty ``next`` (and those writes in its values), yet the steps after it never ran. A fork
    started from a rest point leaves the attempt it replaces on an older branch, so the newest rest point of the
    thread is always on its live branch.
    """
    latest = agent.get_state(config_of(thread_id))
    if latest.metadata is None:  # a new thread
        return None, True
    if not latest.tasks:
        return latest, True
    return next((s for s in agent.get_state_history(config_of(thread_id)) if not s.tasks), None), False


def serve_turn(agent: Any, checkpointer: Any, thread_id: str, turn_no: int, cells: list[str], **config: Any) -> str:
    """Runs turn ``turn_no`` of ``thread_id`` exactly once; returns ``"ran"``, ``"retried"`` or ``"already"``.

    ``"already"``: an earlier attempt committed the turn's last checkpoint and died before the queue heard of it.
    ``"retried"``: an earlier attempt was cut off part-way; the turn runs again from the thread's last rest point.
    """
    rest, at_rest = rest_point(agent, thread_id)
    done = turns_held(rest.values) if rest is not None else 0
    if turn_no < done:
        return "already"
    if turn_no > done:
        raise RuntimeError(f"turn {turn_no} of {thread_id} asked for, but the thread holds only {done} turns")
    if at_rest:
        agent.invoke(turn_input(turn_no, cells), config_of(thread_id, **config))
        return "ran"
    if rest is None:  # the thread's first turn was cut off: nothing of it was ever committed
        checkpointer.delete_thread(thread_id)
        agent.invoke(turn_input(turn_no, cells), config_of(thread_id, **config))
    else:
        agent.invoke(turn_input(turn_no, cells), {**rest.config, **config})
    return "retried"


# ------------------------------------------------------------------------------------------------ the worker


class _Events:
    """Sends events to the supervisor from any thread of the worker."""

    def __init__(self, pipe: Connection, worker: int) -> None:
        self._pipe, self._worker, self._lock = pipe, worker, threading.Lock()

    def __call__(self, kind: str, **data: Any) -> None:
        with self._lock:
            self._pipe.send({"kind": kind, "worker": self._worker, "pid": os.getpid(), "t": time.monotonic(), **data})


class _WarningRelay(logging.Handler):
    def __init__(self, send: _Events) -> None:
        super().__init__(logging.WARNING)
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        self._send("warning", message=record.getMessage())


def _eval_events(send: _Events, thread_id: str, turn_no: int, cells: list[str]) -> Any:
    from langchain_core.callbacks import BaseCallbackHandler

    class EvalEvents(BaseCallbackHandler):
        def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kw: Any) -> None:  # noqa: ARG002
            code = (kw.get("inputs") or {}).get("code", input_str)
            cell = cells.index(code) if code in cells else -1
            send("eval-start", thread=thread_id, turn=turn_no, cell=cell)

        def on_tool_end(self, output: Any, **kw: Any) -> None:  # noqa: ARG002
            send("eval-end", thread=thread_id, turn=turn_no)

    return EvalEvents()


def worker_main(worker: int, dsn: str, pipe: Connection, options: dict[str, Any], spread: bool) -> None:
    """A worker process: serves turns from the queue until the supervisor says stop."""
    try:
        _serve(worker, dsn, pipe, options, spread)
    except BaseException:
        _Events(pipe, worker)("crashed", traceback=traceback.format_exc())
        raise


def _serve(worker: int, dsn: str, pipe: Connection, options: dict[str, Any], spread: bool) -> None:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    send = _Events(pipe, worker)
    logging.getLogger("langchain_graalvm.middleware").addHandler(_WarningRelay(send))
    kwargs = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    pool: ConnectionPool[Any] = ConnectionPool(
        dsn, kwargs={**kwargs, "application_name": f"scaleout-w{worker}-checkpoints"}, min_size=1, max_size=2
    )
    saver = PostgresSaver(pool)  # type: ignore[arg-type]
    agent, _ = build(saver, **options)
    queue = _QueueConnection(dsn, f"scaleout-w{worker}-queue")
    # The JVM and the first context start before the first claim, so a claimed turn is served at speed.
    from langchain_graalvm import Interpreter

    with Interpreter() as warm:
        warm.eval("1 + 1")
    send("ready")
    while not (pipe.poll() and pipe.recv() == "stop"):
        task = queue.run(lambda c: c.execute(_CLAIM, {"w": worker, "spread": spread}).fetchone())
        if task is None:
            time.sleep(0.02)
            continue
        thread_id, turn_no, cells, attempt = task
        send("claim", thread=thread_id, turn=turn_no, attempt=attempt)
        started = time.monotonic()
        for tries in range(1, 6):
            try:
                callbacks = [_eval_events(send, thread_id, turn_no, cells)]
                outcome = serve_turn(agent, saver, thread_id, turn_no, cells, callbacks=callbacks)
                break
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                send(
                    "db-error",
                    thread=thread_id,
                    turn=turn_no,
                    message=f"worker {worker}: the checkpoint store's connection was lost in turn {turn_no} of "
                    f"{thread_id} ({_error_kind(exc)}: {' '.join(str(exc).split())}); retrying the turn from "
                    f"its last checkpoint (try {tries + 1})",
                )
                time.sleep(0.2 * tries)
        else:
            raise RuntimeError(f"turn {turn_no} of {thread_id}: the checkpoint store stayed unreachable")
        done = (outcome, thread_id, turn_no, worker)
        queue.run(
            lambda c, done=done: c.execute(
                "UPDATE scaleout_turns SET state = 'done', outcome = %s "
                "WHERE thread_id = %s AND turn_no = %s AND worker = %s AND state = 'running'",
                done,
            )
        )
        send("done", thread=thread_id, turn=turn_no, outcome=outcome, seconds=time.monotonic() - started)
    pool.close()


class _QueueConnection:
    """The worker's connection to the queue table, opened again when the server dropped it."""

    def __init__(self, dsn: str, name: str) -> None:
        self._dsn, self._name = dsn, name
        self._conn: Any = None

    def run(self, fn: Callable[[Any], Any]) -> Any:
        import psycopg

        for tries in range(1, 6):
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = psycopg.connect(self._dsn, autocommit=True, application_name=self._name)
                return fn(self._conn)
            except psycopg.OperationalError:
                self._conn = None
                if tries == 5:
                    raise
                time.sleep(0.2 * tries)
        return None


# ------------------------------------------------------------------------------------------------ the supervisor


@dataclass
class Worker:
    number: int
    process: Any
    pipe: Connection
    ready: bool = False
    holding: tuple[str, int] | None = None
    pipe_closed: bool = False


@dataclass
class Supervisor:
    """Starts workers, feeds the queue, watches for dead workers and puts their turns back in the queue."""

    dsn: str
    options: dict[str, Any] = field(default_factory=dict)
    spread: bool = True
    respawn: bool = True
    workers: dict[int, Worker] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    _next_number: int = 0

    def __post_init__(self) -> None:
        import psycopg

        self.db = psycopg.connect(self.dsn, autocommit=True, application_name="scaleout-supervisor")
        self.db.execute(QUEUE_SCHEMA)

    def spawn(self, count: int = 1) -> None:
        ctx = mp.get_context("spawn")
        for _ in range(count):
            number, self._next_number = self._next_number, self._next_number + 1
            ours, theirs = ctx.Pipe(duplex=True)
            process = ctx.Process(
                target=worker_main, args=(number, self.dsn, theirs, self.options, self.spread), daemon=True
            )
            process.start()
            theirs.close()
            self.workers[number] = Worker(number, process, ours)

    def alive(self) -> list[Worker]:
        return [w for w in self.workers.values() if w.process.is_alive()]

    def wait_ready(self, count: int, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while sum(w.ready for w in self.alive()) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"fewer than {count} workers became ready in {timeout:.0f} s")
            self._pump(0.5, None)

    def submit(self, work: dict[str, list[list[str]]], start: int = 0) -> None:
        """Queues the turns of ``work``, numbered from ``start`` in each thread."""
        with self.db.cursor() as cur:
            cur.executemany(
                "INSERT INTO scaleout_turns (thread_id, turn_no, cells) VALUES (%s, %s, %s)",
                [(t, k, json.dumps(cells)) for t, turns in work.items() for k, cells in enumerate(turns, start)],
            )

    def requeue(self, worker: int) -> list[tuple[str, int]]:
        """Puts the turns ``worker`` was serving back in the queue (the worker is known to be dead)."""
        rows = self.db.execute(
            "UPDATE scaleout_turns SET state = 'pending' WHERE worker = %s AND state = 'running' "
            "RETURNING thread_id, turn_no",
            (worker,),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def pending(self, threads: list[str]) -> int:
        row = self.db.execute(
            "SELECT count(*) FROM scaleout_turns WHERE thread_id = ANY(%s) AND state <> 'done'", (threads,)
        ).fetchone()
        return int(row[0]) if row else 0

    def run(
        self,
        work: dict[str, list[list[str]]],
        *,
        watch: Callable[[Supervisor, dict[str, Any] | None], None] | None = None,
        start: int = 0,
        timeout: float = 600,
    ) -> list[dict[str, Any]]:
        """Queues ``work`` and returns the events seen until every turn of it is done."""
        first = len(self.events)
        self.submit(work, start)
        threads = list(work)
        deadline = time.monotonic() + timeout
        while self.pending(threads):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.pending(threads)} turns not done after {timeout:.0f} s")
            if not self.alive():
                raise RuntimeError("every worker died: " + json.dumps(self.events[-5:]))
            self._pump(0.1, watch)
        return self.events[first:]

    def _pump(self, timeout: float, watch: Callable[[Supervisor, dict[str, Any] | None], None] | None) -> None:
        waiting: dict[Any, Worker] = {}
        for w in self.workers.values():
            if not w.pipe_closed:
                waiting[w.pipe] = w
            if w.process.exitcode is None:
                waiting[w.process.sentinel] = w
        for ready in wait(list(waiting), timeout):
            worker = waiting[ready]
            if ready is not worker.pipe:
                continue
            try:
                event = worker.pipe.recv()
            except (EOFError, OSError):
                worker.pipe_closed = True
                continue
            self._note(worker, event)
            if watch is not None:
                watch(self, event)
        for worker in list(self.workers.values()):
            if worker.process.exitcode is not None and (worker.pipe_closed or not worker.pipe.poll()):
                self._bury(worker)
        if watch is not None:
            watch(self, None)

    def _note(self, worker: Worker, event: dict[str, Any]) -> None:
        self.events.append(event)
        if event["kind"] == "crashed":
            raise RuntimeError(f"worker {worker.number} crashed:\n{event['traceback']}")
        if event["kind"] == "ready":
            worker.ready = True
        elif event["kind"] == "claim":
            worker.holding = (event["thread"], event["turn"])
        elif event["kind"] == "done":
            worker.holding = None

    def _bury(self, worker: Worker) -> None:
        self.workers.pop(worker.number)
        worker.process.join()
        if not worker.ready:
            raise RuntimeError(f"worker {worker.number} died before it was ready (exit {worker.process.exitcode})")
        requeued = self.requeue(worker.number)
        self.events.append(
            {
                "kind": "died",
                "worker": worker.number,
                "t": time.monotonic(),
                "exitcode": worker.process.exitcode,
                "requeued": requeued,
            }
        )
        if self.respawn:
            self.spawn()

    def stop(self) -> None:
        for worker in self.workers.values():
            try:
                worker.pipe.send("stop")
            except OSError:
                pass
        for worker in self.workers.values():
            worker.process.join(timeout=30)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self.workers.clear()
        self.db.close()


def _error_kind(exc: Exception) -> str:
    """psycopg's class for a lost connection, with the family it belongs to: the server's goodbye, when it arrives
    before the socket closes, is raised as a subclass (``AdminShutdown`` is an ``OperationalError``)."""
    import psycopg

    family = "OperationalError" if isinstance(exc, psycopg.OperationalError) else "InterfaceError"
    name = type(exc).__name__
    return family if name == family else f"{family} ({name})"
