"""Where a thread-mode agent turn's time goes: the bench's turn-overhead row, taken apart.

The ``agent-turn overhead`` row of ``langchain-graalvm bench`` is a Deep Agent turn with the middleware in thread
mode (each turn restores the thread's snapshot into a new context, runs one cell, snapshots it) minus the same turn
with a plain tool. This script runs those two turns alternately and times, inside the middleware's turns, the steps
that are ours: taking a spare interpreter from the pool, restoring the snapshot into it, the eval, the end-of-turn
snapshot. Then it times the same steps on interpreters of their own, one after another on an otherwise idle
process, and the building of a new interpreter (a context, the prelude and the snapshot codec), which the pool does
in the background after every turn.

    .venv/bin/python bench/turn_breakdown.py              # 40 warm-up turns, 60 measured
    .venv/bin/python bench/turn_breakdown.py --turns 200  # later in a process's life

Steps inside a turn run while the pool builds the next spare and LangGraph runs on other threads, on the same
cores: compare them with the isolated figures to see what that contention costs.
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import statistics
import time
import uuid
import warnings
from collections.abc import Callable
from typing import Any

CELL = "var n = (globalThis.n ?? 0) + 1; n"


def _timed_methods(steps: dict[str, list[float]]) -> None:
    """Wraps the middleware's steps so that every call adds its wall time to ``steps``."""
    from langchain_graalvm import interpreter
    from langchain_graalvm.agents import _slots, _spares

    def wrap(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                steps[label].append(time.perf_counter() - start)

        setattr(owner, name, timed)

    wrap(_spares.SparePool, "take", "take a spare interpreter")
    wrap(interpreter.Interpreter, "restore", "restore the snapshot")
    wrap(interpreter.Interpreter, "eval", "eval the cell")
    wrap(_slots.Slot, "snapshot", "snapshot at the end of the turn")


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e3:7.2f} ms (min {min(values) * 1e3:.2f})"


def in_turns(warm: int, turns: int) -> None:
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_graalvm.cli._benchkit import agent_for, build_middleware, run_turn

    @tool("eval")
    def plain_eval(code: str) -> str:
        """Returns a fixed result."""
        return f"<result>{len(code)}</result>"

    graalvm = agent_for(build_middleware("graalvm", "defaults"), checkpointer=InMemorySaver())
    baseline = agent_for(None, [plain_eval], checkpointer=InMemorySaver())

    def second_turn(agent: Any) -> float:
        thread_id = uuid.uuid4().hex
        run_turn(agent, [CELL], thread_id)
        start = time.perf_counter()
        run_turn(agent, [CELL], thread_id)
        return time.perf_counter() - start

    for _ in range(warm):
        second_turn(graalvm)
        second_turn(baseline)
    steps: dict[str, list[float]] = collections.defaultdict(list)
    _timed_methods(steps)
    ours, plain = [], []
    for _ in range(turns):
        ours.append(second_turn(graalvm))
        plain.append(second_turn(baseline))
    overhead = statistics.median(ours) - statistics.median(plain)
    print(f"turn with the middleware      {_ms(ours)}")
    print(f"turn with a plain tool        {_ms(plain)}")
    print(f"overhead (median - median)    {overhead * 1e3:7.2f} ms")
    print("inside those turns (each turn of a thread: its first turn and the measured one):")
    for label, values in steps.items():
        print(f"  {label:<30} {_ms(values)}  x{len(values)}")


def isolated(samples: int) -> None:
    from langchain_graalvm import Interpreter

    source = Interpreter(snapshots=True, prestart=False)
    source.eval("var n = 1; 1")
    payload = source.snapshot()
    source.close()
    rows: dict[str, list[float]] = collections.defaultdict(list)

    def step(label: str, fn: Callable[[], Any]) -> None:
        start = time.perf_counter()
        fn()
        rows[label].append(time.perf_counter() - start)

    for _ in range(samples):
        js = Interpreter(snapshots=True, prestart=False)
        step("new interpreter, built", js.prepare)
        step("restore the snapshot", functools.partial(js.restore, payload))
        step("eval the cell", functools.partial(js.eval, CELL))
        step("eval it again", functools.partial(js.eval, CELL + " "))
        step("snapshot", js.snapshot)
        js.close()
    print("the same steps on interpreters of their own, one at a time:")
    for label, values in rows.items():
        print(f"  {label:<30} {_ms(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", type=int, default=40, help="warm-up turns per agent (default 40)")
    parser.add_argument("--turns", type=int, default=60, help="measured turns per agent (default 60)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    in_turns(args.warm, args.turns)
    isolated(args.turns)
    os._exit(0)  # the JVM's threads need no orderly shutdown here


if __name__ == "__main__":
    main()
