"""Where an agent cell's time goes: the engine alone, our runtime, and the middleware's eval tool, in one JVM.

Runs the twelve agent cells of ``langchain_graalvm.cli._bench_cells`` (new source on every call, over the same
20k records) three ways, one after another for every cell, the order turned round every round:

- ``engine``: a plain GraalJS context on an engine of its own, with the sandbox's policy (CONSTRAINED), the same
  engine mode and ``js.strict``, and none of our layers: no prelude, no cell rewrite, no watchdog, no rendering;
- ``interpreter``: :class:`langchain_graalvm.Interpreter` (the cell compiler, prelude, frozen clock, watchdog,
  memory limit, rendering and the Java adapter);
- ``eval tool``: the middleware's ``eval`` tool, as an agent calls it.

After ``WARM`` rounds it times ``REPS`` rounds and prints, per way, the median per cell, their geometric mean, and
the JVM's garbage-collection and host-JIT compilation time spent inside those cells (from its management beans).

    .venv/bin/python bench/cell_layers.py 6 5
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable

from langchain_graalvm import Interpreter
from langchain_graalvm._runtime import _jvm
from langchain_graalvm.cli._bench_cells import CELLS, LIMITS, setup
from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware


def engine_alone() -> Callable[[str], str]:
    """A cell runner over a plain GraalJS context: the engine with the sandbox's policy and nothing of ours."""
    polyglot = "org.graalvm.polyglot."
    none = _jvm.jclass("java.io.OutputStream").nullOutputStream()
    policy = _jvm.jclass(polyglot + "SandboxPolicy").CONSTRAINED
    engine = (
        _jvm.jclass(polyglot + "Engine").newBuilder(["js"]).sandbox(policy).out(none).err(none)
        .option("engine.WarnInterpreterOnly", "false").option("engine.Mode", "latency").build()
    )
    host_access = _jvm.jclass(polyglot + "HostAccess").newBuilder().allowMutableTargetMappings().build()
    context = (
        _jvm.jclass(polyglot + "Context").newBuilder(["js"]).engine(engine).sandbox(policy)
        .allowHostAccess(host_access).out(none).err(none).option("js.strict", "true").build()
    )
    return lambda code: str(context.eval("js", code))


def main() -> None:
    warm, reps = int(sys.argv[1]), int(sys.argv[2])
    warnings.simplefilter("ignore")
    interpreter = Interpreter(**LIMITS)
    interpreter.eval("1")
    slot = EvalToolSlot(build_middleware("graalvm", "defaults", **LIMITS))
    ways: dict[str, Callable[[str], str]] = {
        "engine": engine_alone(),
        "interpreter": lambda code: interpreter.eval(code).text,
        "eval tool": slot.eval,
    }
    management = _jvm.jclass("java.lang.management.ManagementFactory")
    collectors = list(management.getGarbageCollectorMXBeans())
    compiler = management.getCompilationMXBean()

    def gc_ms() -> int:
        return sum(int(c.getCollectionTime()) for c in collectors)

    for run in ways.values():
        run(setup())
    times: dict[str, dict[str, list[float]]] = {w: {c.name: [] for c in CELLS} for w in ways}
    gc = dict.fromkeys(ways, 0)
    jit = dict.fromkeys(ways, 0)
    k = 0
    for rnd in range(warm + reps):
        order = list(ways) if rnd % 2 == 0 else list(ways)[::-1]
        for cell in CELLS:
            for way in order:
                k += 1
                gc0, jit0 = gc_ms(), int(compiler.getTotalCompilationTime())
                start = time.perf_counter()
                out = ways[way](cell.source(k))
                seconds = time.perf_counter() - start
                if "<error" in out:
                    raise SystemExit(f"{way} {cell.name}: {out[:300]}")
                if rnd >= warm:
                    times[way][cell.name].append(seconds)
                    gc[way] += gc_ms() - gc0
                    jit[way] += int(compiler.getTotalCompilationTime()) - jit0
    medians = {w: {n: statistics.median(v) * 1e3 for n, v in t.items()} for w, t in times.items()}
    print(f"{'cell':8} " + " ".join(f"{w:>12}" for w in ways))
    for cell in CELLS:
        print(f"{cell.name:8} " + " ".join(f"{medians[w][cell.name]:10.1f}ms" for w in ways))
    geo = {w: math.exp(statistics.fmean(math.log(v) for v in m.values())) for w, m in medians.items()}
    print(f"{'geomean':8} " + " ".join(f"{geo[w]:10.1f}ms" for w in ways))
    print(f"{'GC':8} " + " ".join(f"{gc[w]:10d}ms" for w in ways) + f"   (in the {reps} timed rounds)")
    print(f"{'host JIT':8} " + " ".join(f"{jit[w]:10d}ms" for w in ways) + "   (compiler threads, beside the guest)")
    os._exit(0)  # the JVM's threads need no orderly shutdown here


if __name__ == "__main__":
    main()
