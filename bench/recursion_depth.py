"""How deep a simple recursion goes before its RangeError, interpreted and compiled, over fresh processes.

Each run is a fresh Python process (and so a fresh JVM) that, in one interpreter: runs `r(10000)` (the issue's
floor: 10,000 frames of a simple function), lets a runaway recursion end in its RangeError and reads how deep it
got, compiles both functions with 20,000 shallow calls, and does both again; then checks that the interpreter
still evaluates. Prints each run and the min / median / max of the depths.

    .venv/bin/python bench/recursion_depth.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

ONE_RUN = r"""
import json
from langchain_graalvm import Interpreter

with Interpreter(timeout=120.0) as js:
    js.eval("var m = 0; function d(n, lim) { m = n; return n === lim ? 0 : 1 + d(n + 1, lim) }\n"
            "function r(n) { return n ? 1 + r(n - 1) : 0 }")
    run = {}
    for state in ("interpreted", "compiled"):
        if state == "compiled":
            js.eval("for (let i = 0; i < 20000; i++) { d(0, 60); r(60) }")
        floor = js.eval("r(10000)").text
        error = js.eval("try { d(0, Infinity) } catch (e) { e.constructor.name }").value
        run[state] = {"depth": int(js.eval("m").value), "error": error, "r(10000)": floor}
    run["alive"] = js.eval("6 * 7").value == "42"
print(json.dumps(run))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    runs = []
    for i in range(args.runs):
        proc = subprocess.run([sys.executable, "-c", ONE_RUN], capture_output=True, text=True, timeout=600, check=False)
        if proc.returncode != 0:
            print(f"run {i + 1}: exit {proc.returncode}: {proc.stderr.strip()[-400:]}", flush=True)
            continue
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(f"run {i + 1}: {runs[-1]}", flush=True)
    for state in ("interpreted", "compiled"):
        depths = [r[state]["depth"] for r in runs]
        ok = sum(r[state]["error"] == "RangeError" and r[state]["r(10000)"] == "<result>10000</result>" for r in runs)
        if depths:
            print(
                f"{state}: depth min {min(depths)}, median {statistics.median(depths):.0f}, max {max(depths)};"
                f" r(10000) returned and the runaway ended in RangeError in {ok} of {len(runs)} runs"
            )
    print(f"the interpreter evaluated after both in {sum(r['alive'] for r in runs)} of {len(runs)} runs")


if __name__ == "__main__":
    main()
