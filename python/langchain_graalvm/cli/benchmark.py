"""``langchain-graalvm bench``: the same workloads through langchain-graalvm and langchain-quickjs, side by side.

Every workload goes through the layer a user calls: the middleware's ``eval`` tool (a slot opened with
``before_agent``, the tool function called with a ``ToolRuntime``), a real Deep Agent for the tool-calling and
turn workloads, and a fresh Python process for the cold start and the memory per slot. Backends alternate on
every repetition, so machine noise hits both alike. The report gives median, min and max per backend and the
ratio langchain-graalvm / langchain-quickjs (below 1 means langchain-graalvm is faster or smaller).

    langchain-graalvm bench                 # full run: Markdown report and PNG chart in ./bench-report
    langchain-graalvm bench --quick         # small sizes, few repetitions (the smoke test runs this)
    langchain-graalvm bench --isolation     # the attack corpus against both backends
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import WorkloadError
from . import _bench_snapshots, _coldbench
from ._bench_report import chart, compiler_in_use, markdown, tier_in_use
from ._benchkit import (
    BACKENDS,
    INSTALL_HINT,
    BenchRun,
    EvalToolSlot,
    Row,
    Sizes,
    agent_for,
    build_middleware,
    check,
    guarded,
    json_work,
    node_time,
    run_turn,
    sieve,
    text_work,
    timed,
)


class Bench(BenchRun):
    """The workloads of ``bench``, each one sample per backend per repetition."""

    # Each workload below takes one sample per backend per repetition, alternating which backend goes first.

    def cold(self) -> None:
        child = textwrap.dedent(
            """
            import time, sys, warnings
            start = time.perf_counter()
            warnings.simplefilter("ignore")
            from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware
            slot = EvalToolSlot(build_middleware(sys.argv[1], "defaults"))
            out = slot.eval("1 + 1")
            print(time.perf_counter() - start, out, flush=True)
            # Leave at once: langchain-quickjs's worker thread can keep an ending process alive.
            import os; os._exit(0)
            """
        )
        samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
        cpu: dict[str, list[float]] = {b: [] for b in BACKENDS}
        errors: dict[str, str] = {}
        for rep in range(self.sizes.reps):
            for backend in self.order(rep):
                run = guarded(errors, backend, partial(_coldbench._fresh, child, backend))
                if run is not None and run[2] == "<result>2</result>":
                    samples[backend].append(run[0])
                    cpu[backend].append(run[1])
                elif run is not None:
                    errors[backend] = f"cold start: {run[2][:300]}"
                self.step(f"cold start ({backend})")
        self.add(Row("cold: fresh process to the first eval result", "s", samples, goal=1.5, errors=errors))
        self.add(Row("cold: fresh process to the first eval result, CPU seconds", "s", cpu, goal=2.0, errors=errors))

    def in_process(self, config: str) -> None:
        sizes = self.sizes
        new_slot: dict[str, list[float]] = {b: [] for b in BACKENDS}
        warm: dict[str, list[float]] = {b: [] for b in BACKENDS}
        first_sieve: dict[str, list[float]] = {b: [] for b in BACKENDS}
        hot_sieve: dict[str, list[float]] = {b: [] for b in BACKENDS}
        json_s: dict[str, list[float]] = {b: [] for b in BACKENDS}
        text_s: dict[str, list[float]] = {b: [] for b in BACKENDS}
        errors: dict[str, dict[str, str]] = {}
        middlewares = {b: build_middleware(b, config) for b in BACKENDS}
        for backend in BACKENDS:  # warm-up: the JVM starts, QuickJS loads its wasm module
            guarded(errors.setdefault("warm-up", {}), backend, partial(_warm_up, middlewares[backend]))
        sieve_code, json_code, text_code = sieve(sizes.sieve_n), json_work(sizes.json_n), text_work(sizes.text_chars)
        for rep in range(sizes.reps):
            for backend in self.order(rep):
                mw = middlewares[backend]
                try:
                    seconds, slot = timed(partial(_first_eval, mw))
                except Exception as exc:  # noqa: BLE001 - a backend that cannot start is reported, not fatal
                    errors.setdefault("new slot", {})[backend] = f"{type(exc).__name__}: {exc}"
                    self.step(f"eval tool, {config} ({backend})")
                    continue
                new_slot[backend].append(seconds)
                for _ in range(20):
                    warm[backend].append(timed(partial(slot.eval, "1 + 1"))[0])
                for label, series, code in (
                    ("sieve (first run)", first_sieve, sieve_code),
                    ("sieve (warm)", hot_sieve, sieve_code),
                    ("sieve (warm)", hot_sieve, sieve_code),
                    ("JSON", json_s, json_code),
                    ("text and regex", text_s, text_code),
                ):
                    seconds, out = timed(partial(slot.eval, code))
                    if "<error" in out:
                        errors.setdefault(label, {})[backend] = out[:200]
                    else:
                        series[backend].append(seconds)
                slot.close()
                self.step(f"eval tool, {config} ({backend})")
        suffix = f" [{config}]"
        self.add(
            Row(
                "new thread slot and its first eval" + suffix,
                "s",
                new_slot,
                goal=1.0,
                config=config,
                errors=errors.get("new slot", {}),
            )
        )
        self.add(Row("warm `1+1` through the eval tool" + suffix, "s", warm, goal=1.0, config=config))
        node_sieve = node_time(sieve_code) if config == "defaults" else None
        node_json = node_time(json_code) if config == "defaults" else None
        node_text = node_time(text_code) if config == "defaults" else None
        self.add(
            Row(
                f"sieve below {sizes.sieve_n:,}, first run" + suffix,
                "s",
                first_sieve,
                config=config,
                errors=errors.get("sieve (first run)", {}),
            )
        )
        self.add(
            Row(
                f"sieve below {sizes.sieve_n:,}, warm" + suffix,
                "s",
                hot_sieve,
                goal=0.1,
                config=config,
                node=node_sieve,
                errors=errors.get("sieve (warm)", {}),
            )
        )
        self.add(
            Row(
                f"JSON build/stringify/parse/group, {sizes.json_n:,} objects" + suffix,
                "s",
                json_s,
                goal=0.33,
                config=config,
                node=node_json,
                errors=errors.get("JSON", {}),
            )
        )
        self.add(
            Row(
                f"string building and regex over {sizes.text_chars:,} chars" + suffix,
                "s",
                text_s,
                config=config,
                node=node_text,
                errors=errors.get("text and regex", {}),
            )
        )
        for mw in middlewares.values():
            close = getattr(mw, "close", None)
            if close:
                close()

    def ptc(self) -> None:
        from langchain_core.tools import tool

        @tool
        async def ping(i: int) -> int:
            """Returns i + 1."""
            return i + 1

        n = self.sizes.ptc_calls
        code = f"(await Promise.all(Array.from({{length: {n}}}, (_, i) => tools.ping({{i}})))).length"
        agents = {
            b: agent_for(
                build_middleware(b, "defaults", ptc=["ping"], max_ptc_calls=None, mode="turn", timeout=60.0), [ping]
            )
            for b in BACKENDS
        }
        samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
        for backend in BACKENDS:
            run_turn(agents[backend], [code], uuid.uuid4().hex)
        for rep in range(self.sizes.reps):
            for backend in self.order(rep):
                seconds, out = timed(partial(run_turn, agents[backend], [code], uuid.uuid4().hex))
                check("PTC fan-out", backend, out, f"<result>{n}</result>")
                samples[backend].append(seconds)
                self.step(f"PTC fan-out ({backend})")
        self.add(Row(f"{n} PTC calls through Promise.all (agent turn)", "s", samples, goal=0.5))

    def turns(self) -> None:
        from langchain_core.tools import tool
        from langgraph.checkpoint.memory import InMemorySaver

        @tool("eval")
        def plain_eval(code: str) -> str:
            """Returns a fixed result."""
            return f"<result>{len(code)}</result>"

        cell = "var n = (globalThis.n ?? 0) + 1; n"
        agents = {b: agent_for(build_middleware(b, "defaults"), checkpointer=InMemorySaver()) for b in BACKENDS}
        agents["baseline"] = agent_for(None, [plain_eval], checkpointer=InMemorySaver())
        samples: dict[str, list[float]] = {b: [] for b in agents}
        for agent in agents.values():  # warm-up
            for _ in range(3):
                run_turn(agent, [cell], uuid.uuid4().hex)
        for rep in range(self.sizes.turn_samples):
            for name in ("baseline", *self.order(rep)):
                thread_id = uuid.uuid4().hex
                run_turn(agents[name], [cell], thread_id)
                seconds, out = timed(partial(run_turn, agents[name], [cell], thread_id))
                if name != "baseline":
                    check("thread-mode turn", name, out, "<result>2</result>")
                samples[name].append(seconds)
            self.step("agent turns")
        base = statistics.median(samples["baseline"])
        overhead = {b: [max(s - base, 1e-6) for s in samples[b]] for b in BACKENDS}
        self.add(Row("agent-turn overhead in thread mode (turn minus a plain-tool turn)", "s", overhead, goal=0.05))

    def idle_rss(self) -> None:
        child = textwrap.dedent(
            """
            import sys, warnings, resource
            warnings.simplefilter("ignore")
            from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware, rss_bytes
            backend, count = sys.argv[1], int(sys.argv[2])
            mw = build_middleware(backend, "defaults", mode="turn")
            keep = [EvalToolSlot(mw)]
            keep[0].eval("var mine = 0; mine")
            before = rss_bytes()
            for i in range(count):
                slot = EvalToolSlot(mw)
                slot.eval(f"var mine = {i}; mine")
                keep.append(slot)
            import gc; gc.collect()
            print((rss_bytes() - before) / count, flush=True)
            import os; os._exit(0)
            """
        )
        samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
        for rep in range(max(1, self.sizes.reps // 3)):
            for backend in self.order(rep):
                proc = subprocess.run(
                    [sys.executable, "-c", child, backend, str(self.sizes.slots)],
                    capture_output=True,
                    text=True,
                    timeout=1200,
                    check=False,
                )
                if proc.returncode != 0:
                    raise WorkloadError(f"idle slots on {backend}: {proc.stderr[-500:]}")
                samples[backend].append(float(proc.stdout.strip().splitlines()[-1]))
                self.step(f"RSS per idle slot ({backend})")
        self.add(Row(f"RSS per idle slot ({self.sizes.slots} slots)", "B", samples, goal=2.0))

    def scaling(self) -> None:
        code = sieve(self.sizes.sieve_n)
        samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
        for backend in BACKENDS:
            mw = build_middleware(backend, "defaults", timeout=120.0)
            slots = [_first_eval(mw), _first_eval(mw)]
            for slot in slots:
                slot.eval(code), slot.eval(code)
            for _ in range(self.sizes.reps):
                alone = timed(partial(slots[0].eval, code))[0]
                threads = [threading.Thread(target=s.eval, args=(code,)) for s in slots]
                start = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                samples[backend].append((time.perf_counter() - start) / alone)
            for slot in slots:
                slot.close()
            self.step(f"two threads ({backend})")
        self.add(
            Row("two threads running the warm sieve at once: time / one alone (1 = parallel, 2 = serial)", "x", samples)
        )


def _warm_up(mw: Any) -> str:
    return EvalToolSlot(mw).eval("1")


def _first_eval(mw: Any) -> EvalToolSlot:
    slot = EvalToolSlot(mw)
    out = slot.eval("1 + 1")
    if out != "<result>2</result>":
        raise WorkloadError(f"first eval: {out[:200]}")
    return slot


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in ("langchain-graalvm", "langchain-quickjs"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "?"
    return out


def quickjs_available() -> bool:
    try:
        import langchain_quickjs  # noqa: F401
    except ImportError:
        return False
    return True


WORKLOADS = (
    "cold",
    "cold-agent",
    "cold-python",
    "python",
    "agents",
    "eval",
    "ptc",
    "ptc-fresh",
    "turns",
    "snapshots",
    "rss",
    "scaling",
)


def run(args: argparse.Namespace) -> int:
    if not quickjs_available():
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from tqdm import tqdm

    sizes = Sizes.for_run(args.quick, args.reps)
    # --isolation alone runs the matrix only; add --only to run performance workloads in the same report.
    only = set(args.only.split(",")) if args.only else (set() if args.isolation else set(WORKLOADS))
    unknown = only - set(WORKLOADS)
    if unknown:
        print(f"unknown workloads: {', '.join(sorted(unknown))}; choose from {', '.join(WORKLOADS)}", file=sys.stderr)
        return 2
    configs = ("defaults", "same limits")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    matrix_md = ""
    steps = {
        "cold": sizes.reps * 2,
        "agents": sizes.agent_warm_rounds + sizes.reps + sizes.agent_fresh_runs * 2,
        "cold-agent": sizes.reps * 2,
        "cold-python": sizes.reps * 2,
        "python": sizes.python_runs * 2,
        "eval": sizes.reps * 2 * len(configs),
        "ptc": sizes.reps * 2,
        "ptc-fresh": sizes.reps * 2,
        "turns": sizes.turn_samples,
        "snapshots": sizes.reps * 2 + sizes.reps,
        "rss": max(1, sizes.reps // 3) * 2,
        "scaling": 2,
    }
    total = sum(steps[w] for w in only)
    rows: list[Row] = []
    with tqdm(total=total, unit="step", file=sys.stderr, disable=args.no_progress) as progress:
        bench = Bench(sizes, progress, configs)
        for name in WORKLOADS:
            if name not in only:
                continue
            try:
                if name == "cold":
                    bench.cold()
                elif name == "agents":
                    from langchain_graalvm.cli import _bench_cells

                    _bench_cells.run(bench)
                elif name == "cold-agent":
                    _coldbench.agent_turn(bench)
                elif name == "cold-python":
                    _coldbench.python_guest(bench)
                elif name == "python":
                    from langchain_graalvm.cli import _bench_python

                    _bench_python.run(bench)
                elif name == "eval":
                    for config in configs:
                        bench.in_process(config)
                elif name == "ptc":
                    bench.ptc()
                elif name == "ptc-fresh":
                    _coldbench.fresh_agent_fanout(bench)
                elif name == "turns":
                    bench.turns()
                elif name == "snapshots":
                    _bench_snapshots.run(bench)
                elif name == "rss":
                    bench.idle_rss()
                elif name == "scaling":
                    bench.scaling()
            except Exception as exc:  # noqa: BLE001 - one failed workload is reported; the others still run
                print(f"workload {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                bench.add(
                    Row(f"{name} (failed)", "s", {}, errors={b: f"{type(exc).__name__}: {exc}" for b in BACKENDS})
                )
        rows = bench.rows
    if args.isolation:
        from langchain_graalvm.cli import _isolation

        matrix_md = _isolation.run_matrix(quick=args.quick, progress=not args.no_progress)
    versions = _versions()
    meta = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{os.cpu_count()} CPUs",
        "graalvm": versions["langchain-graalvm"],
        "quickjs": versions["langchain-quickjs"],
        "reps": sizes.reps,
        "compiler": compiler_in_use(),
        "tier": tier_in_use(),
    }
    report = markdown(rows, meta, matrix_md)
    (out_dir / "report.md").write_text(report)
    (out_dir / "results.json").write_text(
        json.dumps([dataclasses.asdict(r) | {"ratio": r.ratio} for r in rows], indent=1)
    )
    if rows:
        chart(rows, out_dir / "chart.png")
    print(report)
    print(f"wrote {out_dir / 'report.md'}" + (f" and {out_dir / 'chart.png'}" if rows else ""), file=sys.stderr)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="small sizes and 2 repetitions (a smoke run)")
    parser.add_argument("--reps", type=int, default=None, help="repetitions per workload (default 7; 2 with --quick)")
    parser.add_argument("--only", default="", help=f"comma-separated workloads to run: {', '.join(WORKLOADS)}")
    parser.add_argument(
        "--isolation", action="store_true", help="run the attack corpus against both backends (the isolation matrix)"
    )
    parser.add_argument("--out", default="bench-report", help="folder for report.md, chart.png and results.json")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="langchain-graalvm bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
