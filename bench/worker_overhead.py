"""A fresh process's first result and a warm eval's time, in-process and through a sandbox worker.

Each run is a fresh Python process with one interpreter (no background start): it times the process from its start
to the first `1+1` result, runs 50 cells, then prints the median of 300 more (new source each time). Backends
alternate, each in its own process.

    .venv/bin/python bench/worker_overhead.py [--runs 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

ONE_RUN = r"""
import statistics, sys, time
t0 = time.monotonic()
from langchain_graalvm import Interpreter
js = Interpreter(isolation=sys.argv[1], prestart=False)
js.eval("1+1")
first = time.monotonic() - t0
for i in range(50):
    js.eval(f"{i}+1")
times = []
for i in range(300):
    start = time.perf_counter()
    js.eval(f"{i}*2+1")
    times.append(time.perf_counter() - start)
print(f"{sys.argv[1]:>10}  first result {first:.2f} s  warm eval median {statistics.median(times) * 1000:.3f} ms")
js.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    for _ in range(args.runs):
        for isolation in ("in-process", "process"):
            proc = subprocess.run([sys.executable, "-c", ONE_RUN, isolation], capture_output=True, text=True, check=False)
            print(proc.stdout.strip() or proc.stderr[-2000:])


if __name__ == "__main__":
    main()
