"""What every ``bench`` workload shares: the backends, sizes and rows, the eval-tool driver, the scripted agent.

The workloads themselves are in :mod:`.benchmark` (in process), :mod:`._coldbench` (fresh processes),
:mod:`._bench_cells` (typical agent cells) and :mod:`._isolation` (the attack matrix); ``bench/*.py`` use this too.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import textwrap
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import WorkloadError

BACKENDS = ("graalvm", "quickjs")
INSTALL_HINT = (
    "langchain-quickjs is not installed; install the comparison extra: pip install 'langchain-graalvm[compare]'"
)

# Explicit limits both backends run with in the "same limits" configuration.
SAME_LIMITS: dict[str, Any] = {"timeout": 60.0, "memory_limit": 512 * 1024 * 1024, "max_result_chars": 4000}


def sieve(n: int) -> str:
    return textwrap.dedent(
        f"""
        (() => {{
          const n = {n}; const sieve = new Uint8Array(n); let count = 0;
          for (let i = 2; i < n; i++) {{
            if (!sieve[i]) {{ count++; for (let j = i * 2; j < n; j += i) sieve[j] = 1; }}
          }}
          return count;
        }})()"""
    )


def json_work(n: int) -> str:
    return textwrap.dedent(
        f"""
        (() => {{
          const items = [];
          for (let i = 0; i < {n}; i++) items.push({{id: i, name: 'item' + i, group: i % 10, tags: ['a', 'b']}});
          const text = JSON.stringify(items);
          const back = JSON.parse(text);
          const groups = {{}};
          for (const it of back) (groups[it.group] ||= []).push(it.id);
          return [text.length, Object.keys(groups).length];
        }})()"""
    )


def text_work(chars: int) -> str:
    return textwrap.dedent(
        f"""
        (() => {{
          const words = ['alpha', 'beta', 'gamma', 'delta', 'user@example.com', '2024-05-06', 'x42'];
          const parts = [];
          let size = 0, i = 0;
          while (size < {chars}) {{
            const w = words[i++ % words.length] + ' ' + i; parts.push(w); size += w.length + 1;
          }}
          const text = parts.join(' ');
          const emails = text.match(/[\\w.]+@[\\w.]+\\.\\w+/g).length;
          const dates = [...text.matchAll(/(\\d{{4}})-(\\d{{2}})-(\\d{{2}})/g)].length;
          const upper = text.replace(/\\b[a-z]+\\b/g, (m) => m.toUpperCase()).length;
          return [text.length >= {chars}, emails, dates, upper];
        }})()"""
    )


@dataclasses.dataclass
class Sizes:
    reps: int
    sieve_n: int
    json_n: int
    text_chars: int
    ptc_calls: int
    turn_samples: int
    slots: int
    snapshot_objects: int
    agent_records: int = 20_000
    agent_warm_rounds: int = 20
    agent_fresh_runs: int = 3
    python_records: int = 20_000
    python_rounds: int = 10
    python_runs: int = 3

    @classmethod
    def for_run(cls, quick: bool, reps: int | None) -> Sizes:
        if quick:
            return cls(reps or 2, 20_000, 2_000, 20_000, 20, 2, 5, 200, 1_000, 1, 1, 500, 2, 1)
        return cls(reps or 7, 2_000_000, 100_000, 1_000_000, 1000, 9, 100, 10_000, python_runs=min(3, reps or 3))


@dataclasses.dataclass
class Row:
    """One workload's figures: samples per backend (seconds, or bytes when ``unit`` is ``"B"``)."""

    workload: str
    unit: str  # "s" or "B"
    samples: dict[str, list[float]]
    goal: float | None = None
    config: str = "defaults"
    note: str = ""
    node: float | None = None
    errors: dict[str, str] = dataclasses.field(default_factory=dict)

    def median(self, backend: str) -> float | None:
        values = self.samples.get(backend) or []
        return statistics.median(values) if values else None

    @property
    def ratio(self) -> float | None:
        g, q = self.median("graalvm"), self.median("quickjs")
        return g / q if g is not None and q else None

    @property
    def met(self) -> bool | None:
        return None if self.goal is None or self.ratio is None else self.ratio <= self.goal


# ------------------------------------------------------------------------------------------------ drivers


def middleware_class(backend: str) -> Any:
    import importlib

    module = importlib.import_module("langchain_graalvm.middleware" if backend == "graalvm" else "langchain_quickjs")
    return module.CodeInterpreterMiddleware


class EvalToolSlot:
    """One thread's slot of a middleware, driven through its ``eval`` tool as an agent's tool node would.

    ``state`` is the thread's state when the turn starts (a stored snapshot, say); ``before_agent`` runs at once.
    """

    def __init__(self, middleware: Any, state: dict[str, Any] | None = None) -> None:
        from langchain.tools import ToolRuntime

        self.middleware = middleware
        self.state: dict[str, Any] = {"messages": [], **(state or {})}
        self.state.update(middleware.before_agent(self.state, None) or {})
        self.runtime = ToolRuntime(
            state=self.state,
            context=None,
            config={},
            stream_writer=lambda _: None,
            tool_call_id="call_bench",
            store=None,
        )
        self.tool = middleware.tools[0]

    def eval(self, code: str) -> str:
        out = self.tool.func(runtime=self.runtime, code=code)
        return str(getattr(out, "content", out))

    def close(self) -> dict[str, Any] | None:
        update: dict[str, Any] | None = self.middleware.after_agent(self.state, None)
        return update


def build_middleware(backend: str, config: str, **kw: Any) -> Any:
    limits = dict(SAME_LIMITS) if config == "same limits" else {}
    limits.update(kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return middleware_class(backend)(**limits)


def parse_variant(spec: str) -> tuple[str, dict[str, str]]:
    """A ``bench/*.py`` ``--variant`` as its name and environment: ``NAME:VAR=VALUE;VAR=VALUE``."""
    name, _, assignments = spec.partition(":")
    return name, dict(a.split("=", 1) for a in assignments.split(";") if a)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def check(label: str, backend: str, text: str, expected: str | None = None) -> None:
    if "<error" in text or (expected is not None and text != expected):
        raise WorkloadError(f"{label} on {backend}: {text[:300]}")


# ------------------------------------------------------------------------------------------------ scripted agent


def agent_for(middleware: Any, tools: Sequence[Any] = (), checkpointer: Any = None) -> Any:
    """A Deep Agent whose model runs the JSON list of cells in the last user message, one ``eval`` call each."""
    from deepagents import create_deep_agent

    from ._scripted import ScriptedChatModel

    return create_deep_agent(
        model=ScriptedChatModel(record=False),
        middleware=[middleware] if middleware else [],
        tools=list(tools),
        checkpointer=checkpointer,
    )


def run_turn(agent: Any, cells: list[str], thread_id: str, use_async: bool = False) -> str:
    from langchain_core.messages import HumanMessage

    payload = {"messages": [HumanMessage(json.dumps(cells))]}
    config = {"configurable": {"thread_id": thread_id}}
    out = asyncio.run(agent.ainvoke(payload, config)) if use_async else agent.invoke(payload, config)
    return str(out["messages"][-1].content)


class BenchRun:
    """The rows of one ``bench`` run and its progress bar; the workloads (:class:`.benchmark.Bench`) add to it."""

    def __init__(self, sizes: Sizes, progress: Any, configs: Sequence[str]) -> None:
        self.sizes = sizes
        self.progress = progress
        self.configs = configs
        self.rows: list[Row] = []

    def step(self, label: str) -> None:
        self.progress.set_description(label[:40])
        self.progress.update(1)

    def order(self, rep: int) -> tuple[str, ...]:
        return BACKENDS if rep % 2 == 0 else BACKENDS[::-1]

    def add(self, row: Row) -> None:
        self.rows.append(row)


def guarded(errors: dict[str, str], backend: str, fn: Callable[[], Any]) -> Any:
    """Runs ``fn``; a failure is recorded for ``backend`` instead of ending the run."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        errors[backend] = f"{type(exc).__name__}: {exc}"
        return None


def stored_payload(update: dict[str, Any] | None) -> bytes:
    """The snapshot bytes a middleware's end-of-turn state update stores (the largest bytes value in it)."""
    found: list[bytes] = []

    def walk(value: Any) -> None:
        if isinstance(value, (bytes, bytearray)):
            found.append(bytes(value))
        elif isinstance(value, (tuple, list)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(update or {})
    return max(found, key=len, default=b"")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def node_time(code: str) -> float | None:
    """Seconds for ``node`` to run ``code`` warm (median of 5 after 2 warm-ups), or None without node."""
    node = shutil.which("node")
    if node is None:
        return None
    script = f"""
      const run = () => {code};
      run(); run();
      const times = [];
      for (let i = 0; i < 5; i++) {{
        const t = process.hrtime.bigint(); run(); times.push(Number(process.hrtime.bigint() - t) / 1e9);
      }}
      times.sort((a, b) => a - b); console.log(times[2]);
    """
    proc = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=600, check=False)
    return float(proc.stdout.strip()) if proc.returncode == 0 else None


def jvm_heap_and_threads() -> tuple[float, int]:
    """The JVM's heap in use after a full collection (MiB) and its live thread count: the soak's leak signals."""
    from langchain_graalvm._runtime import _jvm

    runtime = _jvm.jclass("java.lang.Runtime").getRuntime()
    _jvm.jclass("java.lang.System").gc()
    heap = (int(runtime.totalMemory()) - int(runtime.freeMemory())) / 2**20
    threads = int(_jvm.jclass("java.lang.management.ManagementFactory").getThreadMXBean().getThreadCount())
    return heap, threads
