"""The server tier (``LANGCHAIN_GRAALVM_SERVER=auto``) measured: training, a fresh client's first result, faults,
memory; and the private pool's trained spare under a new agent's fan-out of tool calls.

Each run starts its own server in a private temporary folder and stops it at the end.

    .venv/bin/python bench/server_tier.py                 # every row
    .venv/bin/python bench/server_tier.py --samples 5
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "python"))

FIRST_RESULT = """
import time
t0 = time.perf_counter()
from langchain_graalvm import Interpreter
with Interpreter({language!r}, prestart=False) as interp:
    out = interp.eval({code!r})
    print("result", out.text, round(time.perf_counter() - t0, 3), interp._guest.in_server, flush=True)
"""

AGENT_CELLS = """
import os, statistics, time
from langchain_graalvm import Interpreter
from langchain_graalvm.cli._bench_cells import CELLS, setup
with Interpreter(timeout=600.0, isolation="process", prestart=False) as js:
    t = time.perf_counter()
    js.eval(setup())
    took, k, rounds = time.perf_counter() - t, 0, []
    for _ in range(4):
        times = []
        for cell in CELLS:
            k += 1
            t = time.perf_counter()
            assert js.eval(cell.source(k)).ok
            times.append(time.perf_counter() - t)
        rounds.append(statistics.geometric_mean(times) * 1000)
    print(f"set-up {{took:.2f}} s, geometric mean of the 12 cells by round (ms): "
          + " / ".join(f"{{r:.0f}}" for r in rounds), flush=True)
"""

FANOUT = """
import asyncio, statistics, sys, time
sys.path.insert(0, {root!r})
from bench.ptc_fanout import nap, ping, workloads
from tests.support.scripted import build_agent, results_of, thread, turn
from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm._runtime._workerpool import pool
code, expected = workloads(100)["nap-all"]
def agent():
    # Thread mode: the first agent keeps its worker for its thread, so the new agent's is the pool's spare.
    mw = CodeInterpreterMiddleware(ptc=["ping", "nap"], max_ptc_calls=None, mode="thread", timeout=30.0,
                                   isolation="process")
    return build_agent(mw, tools=[ping, nap])
def run(a, config):
    t = time.perf_counter()
    out = a.invoke(turn(code), config)
    assert results_of(out)[0] == f"<result>{{expected}}</result>", results_of(out)
    return time.perf_counter() - t
from langchain_graalvm import Interpreter
hold = Interpreter(isolation="process", prestart=False)  # another interpreter's worker, busy: not the agent's
hold.eval("1")  # its first eval starts the pool's spare
t = time.perf_counter()
while not (pool().stats()["idle"] >= 1 and pool().stats()["training"] == 0 and pool().stats()["starting"] == 0):
    time.sleep(0.2)
print("spare started and trained, after the first eval", round(time.perf_counter() - t, 1), flush=True)
print("new agent's first turn (the trained spare)", round(run(agent(), thread()), 3), flush=True)
print("its second turn, a new thread", round(run(agent(), thread()), 3), flush=True)
"""


def status() -> dict[str, Any]:
    from langchain_graalvm._runtime import _server

    facts = _server.status()
    assert facts is not None
    return facts


def until_trained(heaps: int = 1) -> float:
    start = time.monotonic()
    while True:
        workers = status()["workers"]
        trained = [w for w in workers if w["state"] == "idle" and w["training"]["state"] == "trained"]
        if len(trained) >= heaps and not any(w["state"] == "training" for w in workers):
            return time.monotonic() - start
        time.sleep(0.5)


def client(code: str, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env={**os.environ, **env}, cwd=ROOT, timeout=600)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)
    return wall, proc.stdout.strip()


def ended(pid: int) -> bool:
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def cpu_busy(seconds: float) -> float:
    """Cores busy over ``seconds``, from /proc/stat."""
    def read() -> tuple[int, int]:
        parts = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return sum(parts), parts[3] + parts[4]
    total0, idle0 = read()
    time.sleep(seconds)
    total1, idle1 = read()
    return (os.cpu_count() or 1) * (1 - (idle1 - idle0) / max(1, total1 - total0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--skip-fanout", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="lgb", dir="/tmp"))
    env = {"LANGCHAIN_GRAALVM_SERVER_DIR": str(folder), "LANGCHAIN_GRAALVM_SERVER": "auto",
           "PYTHONPATH": str(ROOT / "python")}
    os.environ.update(env)
    from langchain_graalvm import Interpreter
    from langchain_graalvm._runtime import _server

    rows: list[tuple[str, str]] = []
    try:
        t = time.monotonic()
        facts = _server.start()
        rows.append(("server start (socket answers)", f"{time.monotonic() - t:.2f} s"))
        trained_after = until_trained()
        rows.append(("server's first worker trained (JS + Python cells)", f"{trained_after:.1f} s after start"))
        workers = status()["workers"]
        w = workers[0]
        rows.append(("training: cells, CPU-seconds of training wall", f"{w['training']['cells']} cells, "
                     f"{w['training']['seconds']:.1f} s, {w['training']['failed']} failed"))
        rows.append(("idle trained worker RSS", f"{int(w['rss']) >> 20} MiB (-Xmx {int(w['heap']) >> 20} MiB)"))
        for language, code in (("js", "6 * 7"), ("python", "6 * 7")):
            if language == "python":  # the Python heap's first lease starts its spares; they train, then it counts
                client(FIRST_RESULT.format(language=language, code=code), env)
                until_trained(2)
            walls, firsts = [], []
            for _ in range(args.samples):
                wall, out = client(FIRST_RESULT.format(language=language, code=code), env)
                assert "<result>42</result>" in out and out.endswith("True"), out
                walls.append(wall)
                firsts.append(float(out.split()[2]))
                until_trained(2 if language == "python" else 1)
            rows.append((f"fresh client, first result {language} (import to result, median of {args.samples})",
                         f"{statistics.median(firsts):.3f} s (process wall {statistics.median(walls):.2f} s)"))
        # A stuck builtin: the eval returns, the worker is killed, its cores come back.
        with Interpreter(timeout=1.0, prestart=False) as js:
            js.eval("1")
            pid = js._guest.worker_pid  # type: ignore[union-attr]
            t = time.perf_counter()
            out = js.eval("Array.from({length: 2 ** 31})")
            took = time.perf_counter() - t
            while not ended(pid):
                time.sleep(0.01)
            gone_after = time.perf_counter() - t
        busy = cpu_busy(2.0)
        rows.append(("stuck builtin (timeout 1 s): eval returns; its worker gone",
                     f"{took:.2f} s ({out.error_type}, state reset {out.state_reset}); worker gone {gone_after:.2f} s "
                     f"after the eval began; cores busy in the 2 s after: {busy:.2f} of {os.cpu_count()} (the "
                     "server starts and trains the replacement)"))
        # kill -9 of one session's worker: its envelope, the other session's globals.
        with Interpreter(timeout=60, prestart=False) as a, Interpreter(timeout=60, prestart=False) as b:
            b.eval("var theirs = 'kept'")
            a.eval("1")
            pid = a._guest.worker_pid  # type: ignore[union-attr]
            outcome: list[Any] = []
            runner = threading.Thread(target=lambda: outcome.append(a.eval("while (true) {}")))
            runner.start()
            time.sleep(1.0)
            t = time.perf_counter()
            os.kill(pid, signal.SIGKILL)
            runner.join(120)
            took = time.perf_counter() - t
            kept = b.eval("theirs").value
        rows.append(("kill -9 of a session's worker mid-eval: envelope after the kill",
                     f"{took:.3f} s, {outcome[0].error_type}; other session's globals: {kept}"))
        # A bomb and a heap-filling builtin in one session: another session's small cells, against the same cells
        # while nothing else runs.
        with Interpreter(timeout=2.0, memory_limit=64 << 20, prestart=False) as a, \
                Interpreter(timeout=60, prestart=False) as b:
            a.eval("1")
            def small(n: int, offset: int) -> tuple[float, int]:
                times, errors = [], 0
                for i in range(n):
                    t = time.perf_counter()
                    errors += not b.eval(f"{offset + i} * 2 + 1").ok  # new source every call
                    times.append(time.perf_counter() - t)
                return statistics.median(times), errors
            small(200, 0)
            quiet, _ = small(300, 1000)
            faults: list[str] = []
            stop = threading.Event()
            def attack() -> None:
                while not stop.is_set():
                    for code in ("const keep = []; while (true) keep.push(new Float64Array(1 << 20))",
                                 "Array.from({length: 2 ** 31})"):
                        faults.append(str(a.eval(code).error_type))
            attacker = threading.Thread(target=attack)
            attacker.start()
            time.sleep(1.0)
            loud, errors = small(300, 5000)
            stop.set()
            attacker.join(120)
        rows.append(("a bomb and Array.from(2 ** 31) in one session: another session's small cells",
                     f"median {loud * 1000:.2f} ms against {quiet * 1000:.2f} ms quiet ({loud / quiet:.2f}x), "
                     f"{errors} errors; the attacker's outcomes: {sorted(set(faults))}"))
        # The package's agent cells (new source every call), not in the training: a fresh client on a worker trained
        # by the server alone, then another fresh client on the worker the first gave back; then a private worker.
        until_trained()
        for label in ("agent cells, fresh client, trained worker", "agent cells, next fresh client, same worker"):
            rows.append((label, client(AGENT_CELLS.format(), env)[1]))
        private_env = {**env, "LANGCHAIN_GRAALVM_SERVER": "off"}
        rows.append(("agent cells, fresh process, private cold worker", client(AGENT_CELLS.format(), private_env)[1]))
        rows.append(("server", json.dumps({k: facts[k] for k in ("pid", "protocol")})))
    finally:
        _server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    if not args.skip_fanout:
        private = {k: v for k, v in os.environ.items() if k != "LANGCHAIN_GRAALVM_SERVER"}
        proc = subprocess.run([sys.executable, "-c", FANOUT.format(root=str(ROOT))], capture_output=True, text=True,
                              env=private, cwd=ROOT, timeout=900)
        if proc.returncode != 0:
            raise SystemExit(proc.stdout + proc.stderr)
        for line in proc.stdout.strip().splitlines():
            label, value = line.rsplit(" ", 1)
            rows.append((f"private pool, 100 x 50 ms tool calls: {label}", f"{value} s"))
    print("| row | measured |")
    print("|---|---|")
    for label, value in rows:
        print(f"| {label} | {value} |")


if __name__ == "__main__":
    main()
