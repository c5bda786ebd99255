"""The worker tier's figures: first results, per-eval cost, containment, recovery, and what a worker costs.

Rows (every fresh-process figure from its own process, tiers alternating, medians over ``--runs``):

- first result: a fresh process to its first ``1+1`` (JavaScript) or ``1 + 1`` (Python), in-process, through a
  private worker, and through a warm local server (started, and used once, before the runs);
- warm eval: the median of 300 ``i*2+1`` cells after 50, per tier, and in steady state: of 500 after 2350 (a fresh
  JVM's host JIT has compiled the protocol and the bridge by then; the worker's own JVM is as young as the process);
- containment, in one process with two worker interpreters: the agent's RSS growth while one runs an allocation
  bomb, the other's small-cell latency meanwhile against idle, and how long after a stuck builtin's eval returned
  its worker process is gone (its core freed);
- kill -9 of a worker mid-eval: the time to the error envelope, and whether the next eval works;
- RSS of an idle worker after one cell, JavaScript and Python.

    .venv/bin/python bench/workers.py [--runs 3]

The server rows use a private server folder under /tmp and stop that server at the end.
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
import threading
import time
from pathlib import Path

FIRST = r"""
import json, sys, time
t0 = time.monotonic()
from langchain_graalvm import Interpreter
lang, iso = sys.argv[1], sys.argv[2]
with Interpreter(lang, isolation=iso, prestart=False, timeout=600) as it:
    out = it.eval("1 + 1")
    first = time.monotonic() - t0
    assert out.value == "2", out.text
    for i in range(50):
        it.eval(f"{i} + 1")
    times = []
    for i in range(300):
        s = time.perf_counter(); it.eval(f"{i} * 2 + 1"); times.append(time.perf_counter() - s)
    for i in range(2000):
        it.eval(f"{i} - 1")
    steady = []
    for i in range(500):
        s = time.perf_counter(); it.eval(f"{i} * 3 + 1"); steady.append(time.perf_counter() - s)
print(json.dumps({"first": first, "warm_ms": sorted(times)[150] * 1000, "steady_ms": sorted(steady)[250] * 1000}))
"""


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def first_results(runs: int, server_env: dict[str, str]) -> None:
    tiers = [
        ("js", "in-process", {}),
        ("js", "process", {"LANGCHAIN_GRAALVM_SERVER": "off"}),
        ("js", "process", server_env),
        ("python", "in-process", {}),
        ("python", "process", server_env),
    ]
    names = ["js in-process", "js private worker", "js warm server", "python in-process", "python warm server"]
    found: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    for _ in range(runs):
        for name, (lang, iso, extra) in zip(names, tiers, strict=True):
            proc = subprocess.run(
                [sys.executable, "-c", FIRST, lang, iso],
                capture_output=True,
                text=True,
                env={**os.environ, **extra},
                check=False,
            )
            if proc.returncode != 0:
                print(name, "failed:", proc.stderr[-1500:])
                continue
            found[name].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    print("| tier | first result (s) | warm eval, evals 51-350 (ms) | steady eval, evals 2351-2850 (ms) |")
    print("|---|---:|---:|---:|")
    for name in names:
        rows = found[name]
        if rows:
            first = statistics.median(r["first"] for r in rows)
            warm = statistics.median(r["warm_ms"] for r in rows)
            steady = statistics.median(r["steady_ms"] for r in rows)
            print(f"| {name} | {first:.2f} | {warm:.3f} | {steady:.3f} |")


def containment() -> None:
    from langchain_graalvm import Interpreter

    me = os.getpid()
    with (
        Interpreter(isolation="process", timeout=30, memory_limit=64 << 20, prestart=False) as bomb,
        Interpreter(isolation="process", timeout=30, prestart=False) as other,
    ):
        bomb.eval("1")
        other.eval("1")
        idle = []
        for i in range(100):
            s = time.perf_counter()
            other.eval(f"{i} + 1")
            idle.append(time.perf_counter() - s)
        rss_before = _rss_kib(me)
        outcome: list[str] = []
        runner = threading.Thread(
            target=lambda: outcome.append(
                bomb.eval("var a = []; while (true) a.push(new Array(1e5).fill(7))").error_type or "ok"
            )
        )
        runner.start()
        busy = []
        peak = rss_before
        while runner.is_alive():
            s = time.perf_counter()
            other.eval("2 + 2")
            busy.append(time.perf_counter() - s)
            peak = max(peak, _rss_kib(me))
        print(
            f"| allocation bomb in a worker ({outcome[0]}) | agent RSS growth {(peak - rss_before) / 1024:.1f} MiB "
            f"| other worker's cell {statistics.median(busy) * 1000:.2f} ms vs {statistics.median(idle) * 1000:.2f} "
            f"ms idle ({statistics.median(busy) / statistics.median(idle):.2f}x, {len(busy)} cells) |"
        )
    with Interpreter("python", isolation="process", timeout=1.0, prestart=False) as py:
        py.eval("1")
        pid = py._guest.worker_pid  # type: ignore[union-attr]
        out = py.eval("sum(range(10 ** 18))")
        returned = time.monotonic()
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.01)
        print(
            f"| stuck builtin, 1 s timeout ({out.error_type}) | worker gone {time.monotonic() - returned:.2f} s after "
            f"the eval returned, {out.duration_s:.2f} s eval |"
        )


def kill_nine() -> None:
    from langchain_graalvm import Interpreter

    with Interpreter(isolation="process", timeout=60, prestart=False) as js:
        js.eval("var kept = 1")
        pid = js._guest.worker_pid  # type: ignore[union-attr]
        outcome = []
        runner = threading.Thread(target=lambda: outcome.append(js.eval("while (true) {}")))
        runner.start()
        time.sleep(1.0)
        killed = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        runner.join()
        took = time.monotonic() - killed
        start = time.monotonic()
        nxt = js.eval("typeof kept")
        print(
            f"| kill -9 mid-eval | envelope after {took:.3f} s ({outcome[0].error_type}) | next eval "
            f"{nxt.text} in {time.monotonic() - start:.2f} s (a new worker) |"
        )


def idle_rss() -> None:
    from langchain_graalvm import Interpreter
    from langchain_graalvm._runtime import _workerpool

    for lang in ("js", "python"):
        _workerpool.pool().close()  # a new worker, not one the rows above used
        with Interpreter(lang, isolation="process", prestart=False, timeout=600) as it:
            it.eval("1 + 1")
            time.sleep(2)
            pid = it._guest.worker_pid  # type: ignore[union-attr]
            print(f"| idle {lang} worker after one cell | RSS {_rss_kib(pid) / 1024:.0f} MiB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ["LANGCHAIN_GRAALVM_WORKER_SPARES"] = "0"  # no spare starting beside the measured worker
    folder = Path(tempfile.mkdtemp(prefix="lgb", dir="/tmp"))
    server_env = {"LANGCHAIN_GRAALVM_SERVER": "auto", "LANGCHAIN_GRAALVM_SERVER_DIR": str(folder)}
    cli = [sys.executable, "-m", "langchain_graalvm.cli.main", "server"]
    env = {**os.environ, **server_env}
    try:
        subprocess.run([*cli, "start"], env=env, check=True, capture_output=True)
        for lang in ("js", "python"):  # the server's first cells of each language: it is warm from here on
            subprocess.run([sys.executable, "-c", FIRST, lang, "process"], env=env, check=True, capture_output=True)
        first_results(args.runs, server_env)
    finally:
        subprocess.run([*cli, "stop"], env=env, check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    print()
    containment()
    kill_nine()
    idle_rss()


if __name__ == "__main__":
    main()
