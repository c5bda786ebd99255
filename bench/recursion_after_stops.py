"""A runaway recursion after a TypeScript cell, a top-level-await cell and two timeouts, over fresh processes.

Each run is a fresh Python process (and so a fresh JVM) with one interpreter and a 2 s timeout that runs the cells
of the security report: a TypeScript cell, a top-level-await cell, `while (true) {}` and a loop in `finally`
(both stopped by the timeout), then `function r(){ return r() } r()` `--repeats` times (the report's case is the
first). Prints, per run, each recursion's error type, wall time and whether the globals were lost, then how many
recursions ended in their RangeError with the globals kept, and the times to that RangeError.

    .venv/bin/python bench/recursion_after_stops.py [--runs 10] [--repeats 1] [--jvm-options=...]

`--jvm-options` is added to LANGCHAIN_GRAALVM_JVM_OPTIONS: `--jvm-options=-XX:StackReservedPages=1` gives the
JVM's default reserved stack zone back, as before the package turned it off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ONE_RUN = r"""
import json, sys, time
from langchain_graalvm import Interpreter

repeats = int(sys.argv[1])
with Interpreter(timeout=2.0) as js:
    js.eval("const n: number = 5; function g(x: number): number { return x * 2 } g(n)")
    js.eval("const v = await Promise.resolve(21); v * 2")
    js.eval("while (true) {}")
    js.eval("try { while (true) {} } finally { while (true) {} }")
    tries = []
    for _ in range(repeats):
        start = time.monotonic()
        out = js.eval("function r(){ return r() } r()")
        tries.append({"error": out.error_type, "s": round(time.monotonic() - start, 2), "reset": out.state_reset})
        if out.state_reset:
            break
    kept = js.eval("g(n) + v").value == "31"
print(json.dumps({"tries": tries, "kept": kept}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--jvm-options", default="")
    args = parser.parse_args()
    env = dict(os.environ)
    env["LANGCHAIN_GRAALVM_JVM_OPTIONS"] = f"{env.get('LANGCHAIN_GRAALVM_JVM_OPTIONS', '')} {args.jvm_options}".strip()
    good: list[float] = []
    total = failed_runs = 0
    for i in range(args.runs):
        proc = subprocess.run(
            [sys.executable, "-c", ONE_RUN, str(args.repeats)],
            capture_output=True, text=True, timeout=900, check=False, env=env,
        )
        if proc.returncode != 0:
            print(f"run {i + 1}: exit {proc.returncode}: {proc.stderr.strip()[-400:]}", flush=True)
            failed_runs += 1
            continue
        run = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"run {i + 1}: {run}", flush=True)
        total += args.repeats
        ok = [t for t in run["tries"] if t["error"] == "RangeError" and not t["reset"]]
        good += [t["s"] for t in ok]
        failed_runs += len(ok) < args.repeats or not run["kept"]
    print(f"RangeError with the globals kept: {len(good)} of {total} recursions; {failed_runs} of {args.runs} runs"
          " had a recursion that did not end so")
    if good:
        print(f"time to the RangeError: min {min(good):.2f} s, median {statistics.median(good):.2f} s,"
              f" max {max(good):.2f} s")


if __name__ == "__main__":
    main()
