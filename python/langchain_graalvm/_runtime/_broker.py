"""The local sandbox server's process: a broker of worker JVMs (``python -m langchain_graalvm._runtime._broker``).

It runs no guest code and no JVM of its own. It keeps worker JVMs (the same ``WorkerMain`` as a private worker, its
heap capped, started with an empty environment), trains each new one with the package's cells while no client's
worker is busy (:mod:`._training`), and lends them: a client (:mod:`._server`) connects to the private socket, asks
for a worker of a heap size, and receives the worker's pipes and a pidfd, so that it speaks the worker protocol
directly and can kill the worker itself. The client's connection stays open for the lease:

- ``release`` (the client closed its interpreter): the broker asks the worker for its facts; a worker that answers
  with no interpreter left goes back to the idle workers, warm; any other is killed and replaced;
- the connection ends without a release (the client died, maybe mid-message): the worker is killed and replaced.

Control messages are JSON lines: ``{"op": "hello"}``, ``{"op": "lease", "heap": bytes}`` (the answer carries three
descriptors: the worker's input, its output, its pidfd), ``{"op": "release"}``, ``{"op": "status"}``,
``{"op": "shutdown"}``. Killing this process ends no lent worker's eval: a worker ends when every copy of its input
is closed, the client's included.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from ..options import InterpreterOptions
from . import _training
from ._pipes import PipeConnection, process_ended
from ._server import BROKER_PROTOCOL, build_id
from ._wire import PROTOCOL, WorkerError, WorkerLost
from ._worker import worker_command, worker_heap_bytes

_CHECK_S = 20.0
_LOGS_KEPT = 16  # logs of ended workers kept
QUIET_S = 2.0
"""Seconds without CPU use by any lent worker before the server trains, or starts a spare."""


class BrokerWorker:
    """A worker JVM this broker started: its pipes (the broker's copies), pidfd, log, training and state."""

    def __init__(self, heap_bytes: int, folder: Path) -> None:
        self.heap_bytes = heap_bytes
        self.log = folder / f"worker-{time.time_ns()}.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                worker_command(heap_bytes), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env={},
                close_fds=True, start_new_session=True,
            )
        self.pid = self.proc.pid
        self.pidfd = os.pidfd_open(self.pid)
        self.state = "starting"  # starting, idle, training, leased, dead
        self.progress = _training.Progress(("js",))
        self.wanted = False  # a lease waits for this worker's training to stop
        self.idle_since = time.monotonic()
        self.leases = 0
        threading.Thread(target=self.proc.wait, daemon=True).start()  # reaps it when it ends

    def session(self) -> PipeConnection:
        """A connection of the broker's own over copies of the pipes (detach and close it when done)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return PipeConnection(
            self.pid, os.dup(self.proc.stdin.fileno()), os.dup(self.proc.stdout.fileno()), os.dup(self.pidfd)
        )

    def ask(self, what: str) -> dict[str, Any]:
        """``hello`` or ``facts`` of the worker, on a session of the broker's own."""
        conn = self.session()
        try:
            if what == "hello":
                return conn.hello()
            return dict(conn.request("facts", deadline=_CHECK_S))
        finally:
            conn.detach()
            conn.close_fds()

    @property
    def ended(self) -> bool:
        return process_ended(self.pidfd)

    def cpu_ticks(self) -> int:
        return _training.cpu_ticks(self.pid)

    def kill(self) -> None:
        self.state = "dead"
        with contextlib.suppress(OSError, ValueError):
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def end(self) -> None:
        """Closes the broker's copies: an idle worker exits; a lent one runs on until its client lets go."""
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        with contextlib.suppress(OSError):
            os.close(self.pidfd)
        self.pidfd = -1

    def as_dict(self) -> dict[str, Any]:
        rss = 0
        with contextlib.suppress(OSError, StopIteration, ValueError):
            status = Path(f"/proc/{self.pid}/status").read_text().splitlines()
            rss = int(next(line.split()[1] for line in status if line.startswith("VmRSS:"))) * 1024
        return {"pid": self.pid, "state": self.state, "heap": self.heap_bytes, "rss": rss, "leases": self.leases,
                "training": self.progress.as_dict()}


class Broker:
    """The server: its socket, its workers, its trainer."""

    def __init__(
        self, path: Path, idle_s: int, *, spares: int, max_workers: int, worker_idle_s: int, build: str
    ) -> None:
        self.path = path
        self.worker_idle_s = worker_idle_s
        self.idle_s = idle_s
        self.spares = max(1, spares)
        self.max_workers = max(1, max_workers)
        self.build = build
        self.default_heap = worker_heap_bytes(InterpreterOptions(isolation="process"))
        self.workers: list[BrokerWorker] = []
        self.heaps = {self.default_heap}  # the heaps asked for: the keeper keeps spares of each
        self.starting = 0
        self.starting_heaps: list[int] = []
        self.waiting: dict[int, int] = {}  # leases waiting for a worker that is starting, by heap
        self.connections = 0
        self.started = 0
        self.replaced = 0
        self.last_used = time.monotonic()
        self.stopping = False
        self.python = True
        self.last_busy = 0.0  # when a lent worker last used CPU (monotonic)
        self.lent_ticks: dict[int, int] = {}
        self.cond = threading.Condition()

    # ---------------------------------------------------------------------------------------------- serving

    def serve(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        listener.bind(str(self.path))
        os.chmod(self.path, 0o600)
        listener.listen(64)
        listener.settimeout(0.5)
        for target in (self._keep, self._train):
            threading.Thread(target=target, daemon=True).start()
        try:
            while not self.stopping:
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=self._client, args=(conn,), daemon=True).start()
        finally:
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            with self.cond:
                for worker in self.workers:
                    if worker.state != "leased":
                        worker.kill()
                    worker.end()

    def _client(self, conn: socket.socket) -> None:
        with self.cond:
            self.connections += 1
            self.last_used = time.monotonic()
        lent: BrokerWorker | None = None
        try:
            _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            if uid != os.getuid():
                return  # another user's process: no word
            reader = conn.makefile("rb")
            for line in reader:
                request = json.loads(line)
                op = request.get("op")
                if op == "hello":
                    _send(conn, {"protocol": BROKER_PROTOCOL, "wire": PROTOCOL, "build": self.build,
                                 "pid": os.getpid()})
                elif op == "status":
                    _send(conn, self.status())
                elif op == "shutdown":
                    _send(conn, {"pid": os.getpid()})
                    self.stopping = True
                elif op == "lease" and lent is None:
                    lent = self._lease(int(request.get("heap") or self.default_heap))
                    assert lent.proc.stdin is not None and lent.proc.stdout is not None
                    _send(conn, {"pid": lent.pid, "log": str(lent.log), "training": lent.progress.as_dict()},
                          [lent.proc.stdin.fileno(), lent.proc.stdout.fileno(), lent.pidfd])
                elif op == "exit" and lent is not None:
                    _send(conn, {"code": _exit_code(lent)})
                elif op == "release" and lent is not None:
                    self._take_back(lent, clean=True)
                    lent = None
                    _send(conn, {"released": True})
                else:
                    _send(conn, {"error": f"unknown or out-of-turn request {op!r}"})
        except Exception as exc:  # noqa: BLE001 - one client's failure ends its connection, never the server
            with contextlib.suppress(OSError):
                _send(conn, {"error": str(exc)})
        finally:
            if lent is not None:
                self._take_back(lent, clean=False)  # the client left without a release
            conn.close()
            with self.cond:
                self.connections -= 1
                self.last_used = time.monotonic()
                self.cond.notify_all()

    def status(self) -> dict[str, Any]:
        with self.cond:
            workers = [w.as_dict() for w in self.workers if w.state != "dead"]
            return {"pid": os.getpid(), "protocol": BROKER_PROTOCOL, "build": self.build, "workers": workers,
                    "leases": sum(1 for w in self.workers if w.state == "leased"), "started": self.started,
                    "replaced": self.replaced, "connections": self.connections, "idle_exit": self.idle_s}

    # ---------------------------------------------------------------------------------------------- lending

    def _lease(self, heap: int) -> BrokerWorker:
        """A checked worker of ``heap``: a trained idle one, else one whose training stops at its next cell, else a
        new one. Raises when ``max_workers`` are lent and none comes back within a minute."""
        give_up = time.monotonic() + 60
        with self.cond:
            self.heaps.add(heap)  # spares of this heap are kept from now on
        while True:
            worker = self._pick(heap, give_up)
            if worker is None:
                worker = self._start(heap)
            try:
                facts = worker.ask("facts")
                if int(facts.get("guests", 0)) == 0 and not worker.ended:
                    with self.cond:
                        worker.state = "leased"
                        worker.leases += 1
                        self.last_used = time.monotonic()
                        self.cond.notify_all()
                    return worker
            except (WorkerLost, WorkerError, OSError):
                pass
            self._replace(worker)  # never hand out a worker that did not answer

    def _pick(self, heap: int, give_up: float) -> BrokerWorker | None:
        """An idle worker of ``heap`` (marked ``leasing``), or None when the caller is to start one."""
        waiting = False
        with self.cond:
            try:
                while True:
                    mine = [w for w in self.workers if w.heap_bytes == heap and w.state in ("idle", "training")]
                    idle = [w for w in mine if w.state == "idle"]
                    if idle:
                        best = max(idle, key=lambda w: (w.progress.state == "trained", w.progress.run))
                        best.state = "leasing"
                        for w in self.workers:
                            w.wanted = False
                        return best
                    if mine:
                        for w in mine:
                            w.wanted = True  # the trainer stops after its current cell
                    elif self.starting_heaps.count(heap) > self.waiting.get(heap, 0) - waiting:
                        if not waiting:  # one that is starting now comes sooner than one started now
                            waiting = True
                            self.waiting[heap] = self.waiting.get(heap, 0) + 1
                    elif self._count() < self.max_workers:
                        self.starting += 1
                        self.starting_heaps.append(heap)
                        return None
                    if time.monotonic() > give_up:
                        raise RuntimeError(f"all {self.max_workers} sandbox workers of the server are lent")
                    self.cond.wait(0.5)
            finally:
                if waiting:
                    self.waiting[heap] -= 1

    def _start(self, heap: int, state: str = "leasing") -> BrokerWorker:
        try:
            self._sweep_logs()
            worker = BrokerWorker(heap, self.path.parent)
            try:
                hello = worker.ask("hello")
                if hello.get("protocol") != PROTOCOL:
                    raise RuntimeError(f"the worker speaks protocol {hello.get('protocol')!r}, not {PROTOCOL}")
            except BaseException:
                worker.kill()
                worker.end()
                raise
            self.python = bool(hello.get("python", True))
            worker.progress = _training.Progress(("js", "python") if self.python else ("js",))
        finally:
            with self.cond:
                self.starting -= 1
                self.starting_heaps.remove(heap)
        with self.cond:
            self.started += 1
            self.workers.append(worker)
            worker.state = state
            self.cond.notify_all()
        return worker

    def _sweep_logs(self) -> None:
        """Keeps the logs of the workers alive and of the last 16 that ended (a client may still read how its
        worker ended); removes the others."""
        with self.cond:
            alive = {w.log for w in self.workers}
        ended = sorted(p for p in self.path.parent.glob("worker-*.log") if p not in alive)
        for old in ended[:-_LOGS_KEPT]:
            with contextlib.suppress(OSError):
                old.unlink()

    def _take_back(self, worker: BrokerWorker, *, clean: bool) -> None:
        healthy = False
        if clean and not worker.ended:
            try:
                healthy = int(worker.ask("facts").get("guests", 1)) == 0
            except (WorkerLost, WorkerError, OSError):
                healthy = False
        with self.cond:
            if healthy:
                worker.state = "idle"
                worker.idle_since = time.monotonic()
                worker.wanted = False
                self.cond.notify_all()
                return
        self._replace(worker)

    def _replace(self, worker: BrokerWorker) -> None:
        """Kills a worker and forgets it; the keeper starts another in its place."""
        worker.kill()
        worker.end()
        with self.cond:
            if worker in self.workers:
                self.workers.remove(worker)
                self.replaced += 1
            self.cond.notify_all()

    def _count(self) -> int:
        return sum(1 for w in self.workers if w.state != "dead") + self.starting

    # ---------------------------------------------------------------------------------------------- background

    def _keep(self) -> None:
        """Replaces workers that died, keeps ``spares`` idle ones of each heap asked for (the default one from the
        start), and ends an idle server."""
        while not self.stopping:
            self._sample()
            with self.cond:
                for worker in [w for w in self.workers if w.state in ("idle", "training") and w.ended]:
                    self.workers.remove(worker)
                    self.replaced += 1
                    worker.end()
                now = time.monotonic()
                for heap in self.heaps:
                    idle = sorted((w for w in self.workers if w.heap_bytes == heap and w.state == "idle"),
                                  key=lambda w: w.idle_since)
                    for worker in idle[: max(0, len(idle) - self.spares)]:
                        if now - worker.idle_since > self.worker_idle_s:  # the longest idle, past the spares
                            self.workers.remove(worker)
                            worker.kill()
                            worker.end()
                start = None
                for heap in sorted(self.heaps):
                    spare = [w for w in self.workers if w.heap_bytes == heap and w.state in ("idle", "training")]
                    if len(spare) + self.starting_heaps.count(heap) < self.spares and self._count() < self.max_workers:
                        start = heap
                        self.starting += 1
                        self.starting_heaps.append(heap)
                        break
                idle_for = time.monotonic() - self.last_used
                leased = any(w.state in ("leased", "leasing") for w in self.workers)
                if not leased and self.connections == 0 and idle_for > self.idle_s:
                    self.stopping = True
            if start is not None and self._clients_busy():
                with self.cond:  # not now: a client's worker is busy
                    self.starting -= 1
                    self.starting_heaps.remove(start)
                start = None
            if start is not None:
                try:
                    self._start(start, "idle")
                except Exception:  # noqa: BLE001 - tried again on the next round
                    time.sleep(2.0)
            time.sleep(0.25)

    def _train(self) -> None:
        """Trains idle workers one at a time, a cell at a time, while no lent worker has been busy for ``QUIET_S``."""
        while not self.stopping:
            with self.cond:
                worker = next((w for w in self.workers if w.state == "idle" and not w.wanted
                               and w.progress.state in ("untrained", "stopped")), None)
                if worker is None:
                    self.cond.wait(0.5)
                    continue
                worker.state = "training"
            conn = worker.session()
            lost = False
            try:
                _training.train(conn, worker.progress, pause=self._clients_busy,
                                stop=lambda w=worker: w.wanted or self.stopping)  # type: ignore[misc]
            except (WorkerLost, WorkerError):
                lost = True
            finally:
                conn.detach()
                conn.close_fds()
            if lost:
                worker.progress.state = "failed"
                self._replace(worker)  # a worker that died in training is never lent
                continue
            with self.cond:
                worker.state = "idle"
                self.cond.notify_all()

    def _clients_busy(self) -> bool:
        """Whether a lent worker used CPU within the last ``QUIET_S`` seconds: training, and starting a spare,
        then wait (a client's cells come in bursts; the gap between two is the training's)."""
        return time.monotonic() - self.last_busy < QUIET_S

    def _sample(self) -> None:
        """Notes when a lent worker last used CPU (more than a tick since the last sample)."""
        with self.cond:
            lent = [w for w in self.workers if w.state == "leased"]
        ticks = {w.pid: w.cpu_ticks() for w in lent}
        if any(now - self.lent_ticks.get(pid, now) > 1 for pid, now in ticks.items()):
            self.last_busy = time.monotonic()
        self.lent_ticks = ticks


def _exit_code(worker: BrokerWorker) -> int | None:
    """How a lent worker ended, as its parent sees it (a negative signal number), or None while it runs."""
    try:
        return worker.proc.wait(3.0)
    except subprocess.TimeoutExpired:
        return None


def _send(conn: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode() + b"\n"
    if fds:
        socket.send_fds(conn, [data], fds)
    else:
        conn.sendall(data)


def main() -> None:
    from .._settings import settings

    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True, type=Path)
    parser.add_argument("--idle-exit", type=int, default=1800)
    args = parser.parse_args()
    current = settings()
    broker = Broker(args.listen, args.idle_exit, spares=current.worker_spares, max_workers=current.max_workers,
                    worker_idle_s=current.worker_idle, build=build_id())
    try:
        broker.serve()
    finally:
        os._exit(0)  # threads waiting on workers must not hold the exit


if __name__ == "__main__":
    main()
