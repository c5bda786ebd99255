"""Programmatic tool calling throughput: langchain-graalvm against langchain-quickjs, in one process.

Each backend gets a real Deep Agent (the scripted model of ``tests/support/scripted.py``) with
``ptc=["ping", "nap"]`` and no call budget. One agent turn runs one ``eval`` whose code makes N calls:

* ``all``:        ``await Promise.all(...)`` over N calls of ``ping``, a trivial async tool;
* ``sequential``: N calls of ``ping``, each awaited before the next;
* ``nap-all``:    ``Promise.all`` over 100 calls of ``nap``, an async tool that sleeps 50 ms (shows overlap:
  run one after another they would take 5 s).

A sample is the wall time of the whole turn (both backends pay the same model and graph overhead), on the sync
path (``agent.invoke``) and the async path (``agent.ainvoke``). Backends alternate; medians are reported with the
ratio graalvm / quickjs (below 1 means langchain-graalvm is faster).

    .venv/bin/python bench/ptc_fanout.py              # N=1000, 7 samples
    .venv/bin/python bench/ptc_fanout.py --calls 200 --samples 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.tools import tool  # noqa: E402

from tests.support.scripted import build_agent, results_of, thread, turn  # noqa: E402


@tool
async def ping(i: int) -> int:
    """Returns i + 1."""
    return i + 1


@tool
async def nap(i: int) -> int:
    """Sleeps 50 ms, then returns i."""
    await asyncio.sleep(0.05)
    return i


def workloads(calls: int) -> dict[str, tuple[str, str]]:
    total = calls * (calls + 1) // 2
    return {
        "all": (
            f"const r = await Promise.all(Array.from({{length: {calls}}}, (_, i) => tools.ping({{i}}))); "
            "r.reduce((a, b) => a + b, 0)",
            str(total),
        ),
        "sequential": (
            f"let s = 0; for (let i = 0; i < {calls}; i++) s += await tools.ping({{i}}); s",
            str(total),
        ),
        "nap-all": (
            "const n = await Promise.all(Array.from({length: 100}, (_, i) => tools.nap({i}))); n.length",
            "100",
        ),
    }


def make_agents() -> dict[str, Any]:
    from langchain_quickjs import CodeInterpreterMiddleware as QuickJS

    from langchain_graalvm import CodeInterpreterMiddleware as GraalVM

    agents = {}
    for name, cls in (("graalvm", GraalVM), ("quickjs", QuickJS)):
        mw = cls(ptc=["ping", "nap"], max_ptc_calls=None, mode="turn", timeout=30.0)
        agents[name] = build_agent(mw, tools=[ping, nap])
    return agents


def one_turn(agent: Any, code: str, expected: str, use_async: bool) -> float:
    start = time.perf_counter()
    if use_async:
        out = asyncio.run(agent.ainvoke(turn(code), thread()))
    else:
        out = agent.invoke(turn(code), thread())
    elapsed = time.perf_counter() - start
    got = results_of(out)[0]
    if got != f"<result>{expected}</result>":
        raise SystemExit(f"unexpected result: {got[:300]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=7)
    args = parser.parse_args()
    agents = make_agents()
    rows = []
    for path in ("sync", "async"):
        for label, (code, expected) in workloads(args.calls).items():
            times: dict[str, list[float]] = {name: [] for name in agents}
            for name, agent in agents.items():  # warm-up, not timed
                one_turn(agent, code, expected, path == "async")
            for _ in range(args.samples):
                for name, agent in agents.items():
                    times[name].append(one_turn(agent, code, expected, path == "async"))
            g = statistics.median(times["graalvm"]) * 1000
            q = statistics.median(times["quickjs"]) * 1000
            rows.append((path, label, g, q))
            print(f"{path:5} {label:10} graalvm {g:8.1f} ms   quickjs {q:8.1f} ms   ratio {g / q:5.2f}", flush=True)
    print()
    print(f"| path | workload ({args.calls} calls) | langchain-graalvm | langchain-quickjs | ratio |")
    print("|---|---|---:|---:|---:|")
    for path, label, g, q in rows:
        print(f"| {path} | {label} | {g:.1f} ms | {q:.1f} ms | {g / q:.2f} |")


if __name__ == "__main__":
    main()
