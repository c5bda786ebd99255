"""Two rows of one tier in one fresh process: warm `1+1` through the eval tool, and 1000 `tools.*` calls.

For A/B runs of a change to the layers an eval crosses (the wire, the host-call pump): run this alternately under
each build, each in its own process, and compare the medians. Prints one JSON line:

- ``young_ms``: the median of a new slot's evals 2-201 (a young process: its JIT is still compiling our layers);
- ``steady_ms``: the median of evals 2002-3001 of the same slot;
- ``ptc_s``: the median of 9 agent turns, each one cell of ``Promise.all`` over 1000 ``tools.ping`` calls, after one.

    .venv/bin/python bench/eval_rows.py [--isolation in-process|process] [--no-stream-output]

``--no-stream-output`` builds the middleware with ``stream_output=False`` (a middleware without tools then binds no
host calls at all). The JVM starts as configured (``LANGCHAIN_GRAALVM_FAST_START=0`` for a run that compares builds
whose fast starts differ).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid

from langchain_core.tools import tool

# The package as this interpreter finds it (a venv's, or PYTHONPATH's for another build's checkout).
from langchain_graalvm.cli._benchkit import EvalToolSlot, agent_for, build_middleware, run_turn

PTC = "(await Promise.all(Array.from({length: 1000}, (_, i) => tools.ping({i})))).length"


@tool
async def ping(i: int) -> int:
    """Returns i + 1."""
    return i + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--isolation", default="in-process", choices=["in-process", "process"])
    parser.add_argument("--no-stream-output", action="store_true")
    args = parser.parse_args()
    extra = {"stream_output": False} if args.no_stream_output else {}

    slot = EvalToolSlot(build_middleware("graalvm", "defaults", isolation=args.isolation, **extra))
    if slot.eval("1 + 1") != "<result>2</result>":
        raise SystemExit("the first eval failed")
    times = []
    for _ in range(3000):
        start = time.perf_counter()
        slot.eval("1 + 1")
        times.append(time.perf_counter() - start)
    slot.close()

    middleware = build_middleware(
        "graalvm", "defaults", ptc=["ping"], max_ptc_calls=None, mode="turn", timeout=60.0,
        isolation=args.isolation, **extra,
    )
    agent = agent_for(middleware, [ping])
    run_turn(agent, [PTC], uuid.uuid4().hex)
    turns = []
    for _ in range(9):
        start = time.perf_counter()
        out = run_turn(agent, [PTC], uuid.uuid4().hex)
        turns.append(time.perf_counter() - start)
        if "<result>1000</result>" not in out:
            raise SystemExit(f"the tools.* cell failed: {out[:200]}")
    print(json.dumps({
        "young_ms": round(statistics.median(times[:200]) * 1e3, 3),
        "steady_ms": round(statistics.median(times[2000:]) * 1e3, 3),
        "ptc_s": round(statistics.median(turns), 3),
    }))


if __name__ == "__main__":
    main()
