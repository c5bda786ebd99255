"""Agent-turn overhead of ``CodeInterpreterMiddleware`` (thread mode), langchain-graalvm against langchain-quickjs.

Four real Deep Agents with the same scripted model (``tests/support/scripted.py``) and an
``InMemorySaver``, each turn asking for one ``eval`` call:

* ``baseline``: no middleware; ``eval`` is a plain Python tool returning a fixed envelope;
* ``graalvm``:  ``langchain_graalvm.CodeInterpreterMiddleware()`` (thread mode, the default: every turn
  restores the snapshot into a new context);
* ``graalvm-warm``: the same with ``keep_warm=True`` (a thread's interpreter stays alive between turns);
* ``quickjs``:  ``langchain_quickjs.CodeInterpreterMiddleware()`` (thread mode).

Each agent first runs warm-up turns on a thread of its own (GraalVM's JIT needs a hundred turns or more to settle
the path that builds and restores contexts; QuickJS is compiled ahead of time). A sample is then the second turn
of a new thread: the first turn, not timed, leaves a snapshot to restore, and the history stays short, so its
growth does not blur the figures. Samples alternate between the agents so machine noise hits all of them alike.
The overhead of a middleware is its median turn minus the baseline's median turn.

The turns run twice: with an instant model, and with a model that takes ``--latency`` seconds per call, as a
hosted one does (work the middleware does in the background, building spare contexts and restoring the snapshot,
then overlaps the model call instead of competing with it for the CPU).

Then snapshot figures for an empty context and for 10k small objects: payload bytes, time to create, time to
restore (GraalVM: ``Interpreter`` snapshot/restore into an already built context; QuickJS: the REPL's
create_snapshot/restore_snapshot, i.e. what its middleware calls).

    .venv/bin/python bench/agent_turn.py               # 20 samples per agent
    .venv/bin/python bench/agent_turn.py --turns 40
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402

from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn  # noqa: E402

CELL = "var n = (globalThis.n ?? 0) + 1; n"
TEN_K = "var items = []; for (let i = 0; i < 10000; i++) items.push({id: i, name: 'item' + i, tags: ['a', 'b']}); 0"


@tool("eval")
def plain_eval(code: str) -> str:
    """Returns a fixed result (the baseline agent's stand-in for the interpreter)."""
    return f"<result>{len(code)}</result>"


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _agents(latency_s: float) -> dict[str, Any]:
    from langchain_core._api import LangChainBetaWarning
    from langchain_quickjs import CodeInterpreterMiddleware as QuickJSMiddleware

    from langchain_graalvm import CodeInterpreterMiddleware

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LangChainBetaWarning)
        quickjs = QuickJSMiddleware()
    def agent(middleware: Any, **kwargs: Any) -> Any:
        model = ScriptedChatModel(latency_s=latency_s)
        return build_agent(middleware, checkpointer=InMemorySaver(), model=model, **kwargs)

    return {
        "baseline": agent(None, tools=[plain_eval]),
        "graalvm": agent(CodeInterpreterMiddleware()),
        "graalvm-warm": agent(CodeInterpreterMiddleware(keep_warm=True)),
        "quickjs": agent(quickjs),
    }


def measure_turns(turns: int, warmup: dict[str, int], latency_s: float = 0.0) -> dict[str, list[float]]:
    """Each sample is the second turn of a new thread, so it restores one snapshot and the history stays short."""
    agents = _agents(latency_s)
    for name, agent in agents.items():
        config = thread()
        for _ in range(warmup[name]):
            agent.invoke(turn(CELL), config)
    samples: dict[str, list[float]] = {name: [] for name in agents}
    for _ in range(turns):
        for name, agent in agents.items():
            config = thread()
            agent.invoke(turn(CELL), config)
            start = time.perf_counter()
            out = agent.invoke(turn(CELL), config)
            samples[name].append(time.perf_counter() - start)
            if name != "baseline":
                assert results_of(out) == ["<result>2</result>"], (name, results_of(out))
    return samples


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return _median_ms(times), result


def graalvm_snapshots(setup: str, repeat: int) -> tuple[int, float, float]:
    """Restore is timed into a context that is already built, as the middleware's spare pool provides."""
    from langchain_graalvm import Interpreter

    source = Interpreter(snapshots=True, timeout=120)
    source.eval(setup)
    create_ms, payload = _timed(source.snapshot, repeat)
    source.close()
    targets = []
    for _ in range(repeat):
        target = Interpreter(snapshots=True, timeout=120)
        target.snapshot()  # builds the context, as a spare is built
        targets.append(target)
    restore_ms, _ = _timed(lambda: targets.pop().restore(payload), repeat)
    return len(payload), create_ms, restore_ms


def graalvm_context_build(repeat: int) -> float:
    """What a spare costs the background thread: a context with the snapshot codec."""
    from langchain_graalvm import Interpreter

    def build() -> None:
        interpreter = Interpreter(snapshots=True)
        interpreter.snapshot()
        interpreter.close()

    return _timed(build, repeat)[0]


def quickjs_snapshots(setup: str, repeat: int) -> tuple[int, float, float]:
    from langchain_quickjs._repl import _Registry

    registry = _Registry(memory_limit=64 * 2**20, timeout=120.0, capture_console=True, max_stdout_chars=4000)
    source = registry.get("bench-source")
    source.eval_sync(setup)
    create_ms, payload = _timed(source.create_snapshot, repeat)
    targets = [registry.get(f"bench-target-{i}") for i in range(repeat)]  # slots built untimed, like graalvm's

    def restore() -> None:
        targets.pop().restore_snapshot(payload, inject_globals=True)

    restore_ms, _ = _timed(restore, repeat)
    registry.close()
    return len(payload), create_ms, restore_ms


def report_turns(samples: dict[str, list[float]], args: argparse.Namespace, latency_s: float) -> None:
    base = _median_ms(samples["baseline"])
    print(
        f"agent turn, thread mode, one eval per turn, model latency {latency_s * 1000:.0f} ms per call "
        f"(median of {args.turns} second turns of new threads; warm-up: {args.graalvm_warmup} turns per graalvm "
        f"agent, {args.warmup} for the others)"
    )
    overhead: dict[str, float] = {}
    for name in samples:
        med = _median_ms(samples[name])
        overhead[name] = med - base
        extra = "" if name == "baseline" else f"  overhead {overhead[name]:8.1f} ms"
        print(f"  {name:12s} median {med:8.1f} ms  min {min(samples[name]) * 1000:8.1f} ms{extra}")
    q = _median_ms(samples["quickjs"])
    for name in ("graalvm", "graalvm-warm"):
        ratio = overhead[name] / overhead["quickjs"]
        print(f"  ratio {name}/quickjs: turn {_median_ms(samples[name]) / q:.3f}, overhead {ratio:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5, help="warm-up turns of the baseline and quickjs agents")
    parser.add_argument(
        "--graalvm-warmup", type=int, default=100, help="warm-up turns of the graalvm agent (until the JIT settles)"
    )
    parser.add_argument("--snapshot-repeat", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.05, help="simulated model latency (s) of the 2nd run")
    args = parser.parse_args()

    warmup = {
        "baseline": args.warmup,
        "graalvm": args.graalvm_warmup,
        "graalvm-warm": args.graalvm_warmup,
        "quickjs": args.warmup,
    }
    for latency_s in (0.0, args.latency):
        report_turns(measure_turns(args.turns, warmup, latency_s), args, latency_s)

    print(f"snapshots (median of {args.snapshot_repeat}; graalvm restores into an already built context)")
    print(f"  graalvm context build (done ahead of time by the spare pool): {graalvm_context_build(10):.1f} ms")
    for label, setup in (("empty", "0"), ("10k objects", TEN_K)):
        gb, gc, gr = graalvm_snapshots(setup, args.snapshot_repeat)
        qb, qc, qr = quickjs_snapshots(setup, args.snapshot_repeat)
        print(f"  {label}:")
        print(f"    graalvm  {gb:>10,} B  create {gc:9.2f} ms  restore {gr:9.2f} ms")
        print(f"    quickjs  {qb:>10,} B  create {qc:9.2f} ms  restore {qr:9.2f} ms")
        print(f"    ratio graalvm/quickjs: bytes {gb / qb:.4f}, create {gc / qc:.2f}, restore {gr / qr:.2f}")


if __name__ == "__main__":
    main()
