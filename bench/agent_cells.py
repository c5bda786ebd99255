"""The agent cells through langchain-graalvm's eval tool alone, for before/after comparisons of one build.

Runs the set-up cell, ``WARM`` rounds of the twelve cells of ``langchain_graalvm.cli._bench_cells`` (new source on
every call), then ``REPS`` timed rounds, and prints one JSON line: the median milliseconds per cell, their
geometric mean and the process CPU seconds of the whole run. Point it at another build with
``LANGCHAIN_GRAALVM_RUNTIME`` (and that build's Python package on ``PYTHONPATH``), or change engine options with
``LANGCHAIN_GRAALVM_JVM_OPTIONS``, and compare the lines. ``langchain-graalvm bench --only agents`` is the side
by side comparison with langchain-quickjs and node.

    .venv/bin/python bench/agent_cells.py 8 3 after
    LANGCHAIN_GRAALVM_JVM_OPTIONS=-Dlangchain.graalvm.engineMode=default \\
        .venv/bin/python bench/agent_cells.py 8 3 default-mode
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
import warnings

from langchain_graalvm.cli._bench_cells import CELLS, LIMITS, setup
from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware


def main() -> None:
    warm, reps, label = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    warnings.simplefilter("ignore")
    slot = EvalToolSlot(build_middleware("graalvm", "defaults", **LIMITS))
    slot.eval(setup())
    times: dict[str, list[float]] = {c.name: [] for c in CELLS}
    cpu = time.process_time()
    k = 0
    for rnd in range(warm + reps):
        for cell in CELLS:
            k += 1
            start = time.perf_counter()
            out = slot.eval(cell.source(k))
            seconds = time.perf_counter() - start
            if "<error" in out:
                raise SystemExit(f"{cell.name}: {out[:300]}")
            if rnd >= warm:
                times[cell.name].append(seconds)
    medians = {name: statistics.median(v) * 1e3 for name, v in times.items()}
    geo = math.exp(statistics.fmean(math.log(v) for v in medians.values()))
    from langchain_graalvm import runtime_info

    line = {"label": label, "compiler": runtime_info()["compiler"], "geo_ms": round(geo, 1),
            "cpu_s": round(time.process_time() - cpu, 1)}
    print(json.dumps(line | {name: round(v, 1) for name, v in medians.items()}), flush=True)
    os._exit(0)  # the JVM's threads need no orderly shutdown here


if __name__ == "__main__":
    main()
