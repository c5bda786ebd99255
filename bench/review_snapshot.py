"""What the start snapshot of a cell under review costs per eval, by size of the globals.

An agent that reviews a tool its code can call (``interrupt_on``) saves the globals before each eval (so a cell
that pauses can be rolled back) and records them with the cell's first durable step. This runs turns of ``CELLS``
evals of ``1`` in thread mode on two real Deep Agents with an ``InMemorySaver``, one reviewing ``send_email`` and
one reviewing nothing, alternating, with globals of about 1 KB and 1 MB; it prints the median time per eval of
each and their difference, and the time of ``Interpreter.snapshot`` alone on the same globals. The first eval of a
turn starts on the thread's restored globals and reuses their payload; ``--always-snapshot`` takes every start
snapshot anew, as before that reuse.

    .venv/bin/python bench/review_snapshot.py --rounds 7 --cells 10 [--always-snapshot]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn  # noqa: E402

from langchain_graalvm import CodeInterpreterMiddleware, Interpreter  # noqa: E402

SIZES = {"1 KB": 22, "1 MB": 22_000}  # records of about 46 bytes of JSON each


def records(n: int) -> str:
    item = "({id: i, name: 'item' + i, tags: ['a', 'b']})"
    return f"globalThis.data = Array.from({{length: {n}}}, (_, i) => {item}); 0"


@tool
def send_email(to: str) -> str:
    """Sends an email."""
    return f"sent to {to}"


def agent(reviewed: bool) -> Any:
    mw = CodeInterpreterMiddleware(ptc=["send_email"], timeout=60.0)
    return build_agent(
        mw, tools=[send_email], checkpointer=InMemorySaver(), model=ScriptedChatModel(record=False),
        interrupt_on={"send_email": True} if reviewed else {},
    )


async def per_eval(graph: Any, config: dict[str, Any], cells: int) -> float:
    start = time.perf_counter()
    out = results_of(await graph.ainvoke(turn(*["1"] * cells), config))
    elapsed = time.perf_counter() - start
    assert out == ["<result>1</result>"] * cells, out
    return elapsed / cells


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cells", type=int, default=10, help="evals per turn")
    parser.add_argument("--always-snapshot", action="store_true", help="no reuse of unchanged globals' payload")
    opts = parser.parse_args()
    rounds, cells = opts.rounds, opts.cells
    if opts.always_snapshot:
        from langchain_graalvm.agents import _slots

        def fresh(slot: _slots.Slot, max_bytes: int | None) -> bytes:
            return slot._ready().snapshot(max_bytes=max_bytes)  # noqa: SLF001 - the behaviour before the reuse

        _slots.Slot.snapshot_held = fresh  # type: ignore[method-assign]
    warnings.simplefilter("ignore")
    for label, n in SIZES.items():
        with Interpreter(snapshots=True, timeout=60, prestart=False) as js:
            js.eval(records(n))
            size = len(js.snapshot())
            alone = []
            for _ in range(rounds * 2):
                start = time.perf_counter()
                js.snapshot()
                alone.append(time.perf_counter() - start)
        times: dict[bool, list[float]] = {True: [], False: []}
        graphs = {reviewed: (agent(reviewed), thread()) for reviewed in (True, False)}
        for graph, config in graphs.values():
            await graph.ainvoke(turn(records(n)), config)
            await per_eval(graph, config, cells)  # warm-up
        for _ in range(rounds):
            for reviewed, (graph, config) in graphs.items():
                times[reviewed].append(await per_eval(graph, config, cells))
        reviewed_ms = statistics.median(times[True]) * 1e3
        plain_ms = statistics.median(times[False]) * 1e3
        print(
            f"{cells} evals per turn, {label} globals ({size} B snapshot): per eval reviewed {reviewed_ms:6.1f} ms, "
            f"not reviewed {plain_ms:6.1f} ms, difference {reviewed_ms - plain_ms:6.1f} ms; Interpreter.snapshot alone "
            f"{statistics.median(alone[rounds:]) * 1e3:6.1f} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
