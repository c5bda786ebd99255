"""The Python guest on data work: eleven agent cells over 20,000 records, phase by phase, as ratios to CPython.

Each run starts one new process per backend, in alternating order (a JVM's background compiler threads never slow
the other backend's cells):

- ``graalpy``: the middleware's ``eval`` tool with ``language="python"`` (the API an agent calls);
- ``bare``: a bare GraalPy context on the same engine (the sandbox's own, so the same engine options and policy),
  none of the package's layers: no cell splitting, rendering, console capture or host-call bridge; what the engine
  alone costs;
- ``cpython``: ``exec`` of the same cells in one namespace in plain CPython, the near-native limit.

Every call is new source (a round's number in a comment and in a constant). ``--think S`` waits S seconds before
each cell, untimed, as an agent's model does between two cells (the sandbox's idle time). A process runs the set-up
cell (build 20,000 records, ``json.dumps``), then ``--rounds`` rounds of the cells. The phases are those of
``langchain-graalvm bench --only python`` (``cli._bench_python.phase_figures``): per cell the median over runs,
then the geometric mean over cells, for first use (round 1), rounds 2-5 and steady (the last three rounds); the
lookup cell's steady time alone.

    .venv/bin/python bench/python_cells.py --runs 2 --rounds 12
    .venv/bin/python bench/python_cells.py --runs 2 --variant "srv:LANGCHAIN_GRAALVM_ISOLATION=process;..."
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Any

from langchain_graalvm.cli._bench_python import CELLS, phase_figures, phases
from langchain_graalvm.cli._benchkit import parse_variant

_CHILD = r"""
import json, sys, time
backend, rounds, think = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
from langchain_graalvm.cli._bench_python import CELLS, setup
SETUP = setup()

if backend == "cpython":
    from langchain_graalvm.cli._bench_python import cpython_runner
    run = cpython_runner()
elif backend == "bare":
    from langchain_graalvm.cli._bench_python import bare_context
    ctx = bare_context()
    def run(code):
        return str(ctx.eval("python", code))
else:
    from langchain_graalvm import CodeInterpreterMiddleware
    from langchain_graalvm.cli._benchkit import EvalToolSlot
    slot = EvalToolSlot(CodeInterpreterMiddleware(language="python", timeout=600.0, memory_limit=1 << 30))
    def run(code):
        out = slot.eval(code)
        if "<error" in out:
            raise SystemExit(out[:400])
        return out

    run("0")  # the interpreter ready, as the bare backend's context is, before the set-up cell's clock starts
start = time.perf_counter()
run(SETUP)
setup_s = time.perf_counter() - start
times = {"setup": [setup_s], **{name: [] for name, _ in CELLS}}
for r in range(1, rounds + 1):
    for name, template in CELLS:
        code = f"# round {r}\n" + template.format(r=r)
        time.sleep(think)  # the model's own time between two cells
        start = time.perf_counter()
        run(code)
        times[name].append(time.perf_counter() - start)
print("RESULT " + json.dumps({"times": times}))
"""


def _one(backend: str, rounds: int, env: dict[str, str], think: float) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, backend, str(rounds), str(think)],
        capture_output=True, text=True, timeout=3600, env={**os.environ, **env}, check=False,
    )
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"{backend} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return json.loads(line[len("RESULT "):])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--backends", default="graalpy,bare,cpython")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds between two cells, as a model takes (untimed; 0: back to back)")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME:VAR=VALUE;VAR=VALUE - the graalpy backend again with this environment")
    args = parser.parse_args()
    backends: list[tuple[str, str, dict[str, str]]] = [(b, b, {}) for b in args.backends.split(",")]
    for spec in args.variant:
        name, env = parse_variant(spec)
        backends.append((name, "graalpy", env))
    raw: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _ in backends}
    for run in range(args.runs):
        order = backends if run % 2 == 0 else list(reversed(backends))
        for label, backend, env in order:
            raw[label].append(_one(backend, args.rounds, env, args.think))
            print(f"run {run + 1}: {label} done (set-up {raw[label][-1]['times']['setup'][0]:.2f} s)", file=sys.stderr)
    table = {label: phase_figures(runs, args.rounds) for label, runs in raw.items()}
    base = table.get("cpython")
    cols = list(next(iter(table.values())))
    print("| backend | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for label, row in table.items():
        cells = []
        for col in cols:
            value = f"{row[col] * 1000:.1f} ms" if row[col] < 1 else f"{row[col]:.2f} s"
            if base is not None and label != "cpython" and col != "slowest first use":
                value += f" ({row[col] / base[col]:.1f}x)"
            cells.append(value)
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    for phase, (lo, hi) in phases(args.rounds).items():  # the rounds phase_figures takes each phase's cells from
        per_cell = {
            label: {name: statistics.median(statistics.median(r["times"][name][lo - 1:hi]) for r in runs)
                    for name, _ in CELLS}
            for label, runs in raw.items()
        }
        print(f"{phase}, per cell (ms): " + json.dumps(
            {label: {k: round(v * 1000, 1) for k, v in cells.items()} for label, cells in per_cell.items()}))


if __name__ == "__main__":
    main()
