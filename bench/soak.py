"""Soak: many evals and many timeouts in one process, watching for leaks.

Runs ``--evals`` ordinary evals (spread over fresh and long-lived interpreters, with console output, errors,
snapshots and restores) and ``--timeouts`` evals that run into their time limit, all in one process. Every
``--every`` iterations it prints the process RSS, the Java heap in use after a full collection, the live Java
thread count and the open file descriptors; at the end it prints the first and last sample and their change.

    .venv/bin/python bench/soak.py                     # 10,000 evals and 1,000 timeouts
    .venv/bin/python bench/soak.py --evals 2000 --timeouts 200 --every 200

A leak shows as a figure that keeps growing from sample to sample; the JVM's heap and RSS settle after warm-up.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from langchain_graalvm import Interpreter  # noqa: E402
from langchain_graalvm.cli._benchkit import jvm_heap_and_threads  # noqa: E402


@dataclass
class Sample:
    iteration: int
    seconds: float
    rss_mib: float
    heap_mib: float
    java_threads: int
    fds: int

    def line(self) -> str:
        return (
            f"{self.iteration:>6}  {self.seconds:8.1f}s  rss={self.rss_mib:7.1f} MiB  heap={self.heap_mib:7.1f} MiB"
            f"  java_threads={self.java_threads:4d}  fds={self.fds:4d}"
        )


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def sample(iteration: int, started: float) -> Sample:
    heap, threads = jvm_heap_and_threads()
    return Sample(iteration, time.monotonic() - started, _rss_mib(), heap, threads, len(os.listdir("/proc/self/fd")))


CELLS = [
    "var n = (typeof n === 'number' ? n : 0) + 1; n",
    "const xs = Array.from({length: 200}, (_, i) => ({i, s: 'v' + i})); xs.length",
    "console.log('line', n); [n, 'x'.repeat(50)]",
    "JSON.parse(JSON.stringify({a: [1, 2, {b: 3}]}))",
    "throw new TypeError('expected ' + n)",
    "let t: number = 41; t + 1",
    "await Promise.all([1, 2, 3].map(async x => x * 2))",
    "null.boom",
    "new Map([[1, {deep: [1, 2]}]])",
    "for (let i = 0; i < 1e5; i++) {}; 'spun'",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evals", type=int, default=10_000)
    parser.add_argument("--timeouts", type=int, default=1_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--timeout", type=float, default=0.2, help="seconds allowed to the timeout iterations")
    args = parser.parse_args()

    total = args.evals + args.timeouts
    # Timeouts are spread evenly through the run, so every sample sees both kinds of work.
    timeout_every = max(1, total // max(1, args.timeouts)) if args.timeouts else 0
    started = time.monotonic()
    long_lived = Interpreter(timeout=5.0)
    looping = Interpreter(timeout=args.timeout)
    samples = [sample(0, started)]
    print("iteration   elapsed   resources", flush=True)
    print(samples[0].line(), flush=True)
    evals = timeouts = 0
    bad: list[str] = []
    fresh: Interpreter | None = None
    for i in range(1, total + 1):
        if timeout_every and i % timeout_every == 0 and timeouts < args.timeouts:
            timeouts += 1
            out = looping.eval("let spins = 0; while (true) { spins++ }")
            if out.status != "timeout":
                bad.append(f"iteration {i}: expected a timeout, got {out.text[:200]}")
        else:
            evals += 1
            cell = CELLS[evals % len(CELLS)]
            if evals % 50 == 0:
                # A fresh interpreter now and then: create, snapshot, restore into another, close.
                fresh = Interpreter(timeout=5.0, snapshots=True)
                fresh.eval("var kept = {count: %d, list: [1, 2, 3]}" % evals)
                payload = fresh.snapshot()
                fresh.close()
                with Interpreter(timeout=5.0, snapshots=True) as restored:
                    restored.restore(payload)
                    out = restored.eval("kept.count")
                    if out.value != str(evals):
                        bad.append(f"iteration {i}: restored {out.text[:200]}")
            else:
                out = long_lived.eval(cell)
                if out.status not in ("ok", "error"):
                    bad.append(f"iteration {i}: {cell!r} gave {out.text[:200]}")
        if i % args.every == 0 or i == total:
            s = sample(i, started)
            samples.append(s)
            print(s.line(), f" evals={evals} timeouts={timeouts}", flush=True)
    long_lived.close()
    looping.close()
    first, warm, last = samples[0], samples[1], samples[-1]
    print()
    print(f"done: {evals} evals and {timeouts} timeouts in {last.seconds:.0f} s; {len(bad)} unexpected outcomes")
    for b in bad[:10]:
        print("  ", b)
    print(f"start        {first.line()}")
    print(f"after first  {warm.line()}")
    print(f"end          {last.line()}")
    print(
        f"change since the first sample after warm-up: rss {last.rss_mib - warm.rss_mib:+.1f} MiB, "
        f"heap {last.heap_mib - warm.heap_mib:+.1f} MiB, java_threads {last.java_threads - warm.java_threads:+d}, "
        f"fds {last.fds - warm.fds:+d}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
