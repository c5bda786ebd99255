"""A fresh process's first minutes, phase by phase: first use, rounds 2-5 and steady, as ratios to langchain-quickjs.

Each run starts one new process per backend (and per variant), in alternating order, so one engine's background
compiler threads never slow the other's cells and load on a shared machine hits both alike. A process runs the
set-up cell, then ``ROUNDS`` rounds of the agent cells of ``langchain_graalvm.cli._bench_cells``, every call new
source, through the middleware's eval tool, and reports each cell's time per round. The phases:

- first use: round 1 (each cell's first run in the process);
- rounds 2-5: the median of rounds 2 to 5 per cell;
- steady: the median of rounds 16 to 20 per cell (of the last five rounds when ``ROUNDS`` is below 20).

For each phase: per cell the median over runs, then the geometric mean over cells, and its ratio to QuickJS's. The
set-up cell (20k records) and the process's CPU seconds are reported too, with the load average at each run and
the compiler that runs Truffle's compilations.

    .venv/bin/python bench/first_minutes.py --runs 3
    # A/B of JVM options, alternating with the shipped configuration and QuickJS:
    .venv/bin/python bench/first_minutes.py --runs 3 --variant "nofast:LANGCHAIN_GRAALVM_FAST_START=0"
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from typing import Any

from langchain_graalvm.cli._benchkit import parse_variant

_CHILD = """
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
t0 = time.perf_counter()
from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware
from langchain_graalvm.cli._bench_cells import CELLS, LIMITS, setup
backend, rounds = sys.argv[1], int(sys.argv[2])
# A generous timeout: on a loaded machine the set-up cell alone took over a minute.
slot = EvalToolSlot(build_middleware(backend, "defaults", **{**LIMITS, "timeout": 600.0}))
start = time.perf_counter()
slot.eval(setup())
set_up = time.perf_counter() - start
times, k = {c.name: [] for c in CELLS}, 0
cpu_times = {c.name: [] for c in CELLS}
jit_ms, gc_ms = [], []
mx = None
if backend == "graalvm":
    from langchain_graalvm._runtime import _jvm
    mx = _jvm.jclass("java.lang.management.ManagementFactory")
def counters():
    if mx is None:
        return
    jit_ms.append(int(mx.getCompilationMXBean().getTotalCompilationTime()))
    gc_ms.append(sum(int(g.getCollectionTime()) for g in mx.getGarbageCollectorMXBeans()))
counters()
for _ in range(rounds):
    for cell in CELLS:
        k += 1
        start, cpu = time.perf_counter(), time.process_time()
        out = slot.eval(cell.source(k))
        times[cell.name].append(time.perf_counter() - start)
        cpu_times[cell.name].append(time.process_time() - cpu)
        if "<error" in out:
            raise SystemExit(f"{cell.name}: {out[:300]}")
    counters()
compiler = None
if backend == "graalvm":
    from langchain_graalvm import runtime_info
    args = [str(a) for a in mx.getRuntimeMXBean().getInputArguments()]
    info = runtime_info()
    compiler = f"{info['compiler']}, host JIT {info['host_jit']}"
    fast = any(a.startswith("-XX:AOTCache=") for a in args)
else:
    fast = None
print(json.dumps({"setup": set_up, "times": times, "cpu_times": cpu_times, "cpu": time.process_time(),
                  "compiler": compiler, "aot_cache": fast, "jit_ms": jit_ms, "gc_ms": gc_ms}), flush=True)
os._exit(0)
"""

PHASES = (("first use", 0, 1), ("rounds 2-5", 1, 5), ("steady", 15, 20))


def _phase_slice(name: str, lo: int, hi: int, rounds: int) -> tuple[int, int]:
    if name == "steady" and rounds < hi:
        return max(rounds - 5, min(5, rounds - 1)), rounds
    hi = min(hi, rounds)
    return min(lo, hi - 1), hi


def _geo(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def _run_geo(result: dict[str, Any], phase: str, lo: int, hi: int, rounds: int) -> float:
    lo, hi = _phase_slice(phase, lo, hi, rounds)
    return _geo([statistics.median(v[lo:hi]) for v in result["times"].values()])


def _load() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def start_one(backend: str, rounds: int, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, backend, str(rounds)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
    )


def finish_one(proc: subprocess.Popen[str], label: str) -> dict[str, Any]:
    out, err = proc.communicate(timeout=3600)
    if proc.returncode != 0 or not out.strip():
        raise SystemExit(f"{label}: {err[-1500:]}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME:VAR=VALUE[;VAR=VALUE...]: another langchain-graalvm configuration to alternate")
    parser.add_argument("--no-shipped", action="store_true", help="leave out the configuration as shipped")
    parser.add_argument("--json", help="write every run's raw figures here")
    parser.add_argument("--parallel", action="store_true",
                        help="start a run's processes at once: on a machine loaded by others, each then meets the "
                             "same load at the same time (compare CPU per cell, not wall time, then)")
    args = parser.parse_args()
    configs: list[tuple[str, str, dict[str, str]]] = [("quickjs", "quickjs", {})]
    if not args.no_shipped:
        configs.append(("shipped", "graalvm", {}))
    for spec in args.variant:
        name, env = parse_variant(spec)
        configs.append((name, "graalvm", env))
    raw: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in configs}
    for run_no in range(args.runs):
        order = configs[run_no % len(configs):] + configs[:run_no % len(configs)]
        batches = [order] if args.parallel else [[c] for c in order]
        for batch in batches:
            load = _load()
            procs = [(name, start_one(backend, args.rounds, env)) for name, backend, env in batch]
            for name, proc in procs:
                result = finish_one(proc, name)
                result["load"] = load
                raw[name].append(result)
                phases = ", ".join(f"{p} {_run_geo(result, p, lo, hi, args.rounds) * 1e3:.0f} ms"
                                   for p, lo, hi in PHASES)
                jit = f", host JIT {result['jit_ms'][-1] / 1e3:.0f} s" if result["jit_ms"] else ""
                print(f"run {run_no + 1} {name:>10}: {phases}, set-up {result['setup']:.2f} s, "
                      f"cpu {result['cpu']:.0f} s{jit}, load {load}, compiler {result['compiler']}, "
                      f"aot cache {result['aot_cache']}", file=sys.stderr, flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(raw, f)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f)
    report(raw, args.rounds)


def report(raw: dict[str, list[dict[str, Any]]], rounds: int) -> None:
    names = list(raw)
    cells = list(raw[names[0]][0]["times"])
    compilers = {n: "/".join(sorted({str(r["compiler"]) for r in raw[n]})) for n in names}
    head = " | ".join(n if n == "quickjs" else f"{n} ({compilers[n]})" for n in names)
    for key, what in (("times", "wall"), ("cpu_times", "process CPU")):
        print(f"\n| {what} per cell ({len(raw[names[0]])} runs, {rounds} rounds of {len(cells)} cells) | {head} |")
        print("|---|" + "---:|" * len(names))
        geo: dict[str, dict[str, float]] = {}
        for name in names:
            geo[name] = {}
            for phase, lo, hi in PHASES:
                lo, hi = _phase_slice(phase, lo, hi, rounds)
                per_cell = [statistics.median(statistics.median(r[key][c][lo:hi]) for r in raw[name]) for c in cells]
                geo[name][phase] = _geo(per_cell)
        for phase, lo, hi in PHASES:
            lo, hi = _phase_slice(phase, lo, hi, rounds)
            label = phase if (lo, hi) != (15, 20) else "steady (rounds 16-20)"
            if phase == "steady" and (lo, hi) != (15, 20):
                label = f"steady (rounds {lo + 1}-{hi})"
            texts = [f"{geo[n][phase] * 1e3:.1f} ms" + ("" if n == "quickjs" else
                     f" ({geo[n][phase] / geo['quickjs'][phase]:.2f}x)") for n in names]
            print(f"| {label} | " + " | ".join(texts) + " |")
    setup = {n: statistics.median(r["setup"] for r in raw[n]) for n in names}
    cpu = {n: statistics.median(r["cpu"] for r in raw[n]) for n in names}
    print("\nset-up cell (wall): " + ", ".join(f"{n} {setup[n]:.2f} s" for n in names))
    print("process CPU (whole run): " + ", ".join(f"{n} {cpu[n]:.0f} s" for n in names))
    print("load averages at each run: " + "; ".join(f"{n}: " + ", ".join(r["load"] for r in raw[n]) for n in names))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        with open(sys.argv[2]) as f:
            data = json.load(f)
        report(data, len(next(iter(data.values()))[0]["times"]["json"]))
    else:
        main()
