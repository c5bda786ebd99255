"""Side-by-side benchmark: langchain-graalvm's Interpreter against langchain-quickjs's REPL, in one run.

Both backends run the same JavaScript through the layer a user calls (our ``Interpreter.eval``; the anchor's
``_ThreadREPL.eval_sync`` plus its ``format_outcome``), alternating backend on every repetition. Fresh-process
workloads run each backend in its own child process. Prints median, min and max per workload and the ratio
graalvm / quickjs (below 1.0 means GraalVM is faster).

    .venv/bin/python bench/compare.py            # full run
    .venv/bin/python bench/compare.py --quick    # fewer repetitions
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass

SIEVE = """
(() => {
  const n = 2000000; const sieve = new Uint8Array(n); let count = 0;
  for (let i = 2; i < n; i++) {
    if (!sieve[i]) { count++; for (let j = i * 2; j < n; j += i) sieve[j] = 1; }
  }
  return count;
})()
"""

JSON_WORK = """
(() => {
  const items = [];
  for (let i = 0; i < 100000; i++) items.push({id: i, name: 'item' + i, group: i % 10, tags: ['a', 'b']});
  const text = JSON.stringify(items);
  const back = JSON.parse(text);
  const groups = {};
  for (const it of back) (groups[it.group] ||= []).push(it.id);
  return [text.length, Object.keys(groups).length];
})()
"""

FIRST_EVAL_CHILD = {
    "graalvm": """
import time; t0 = time.perf_counter()
from langchain_graalvm import Interpreter
js = Interpreter(); out = js.eval({code!r})
print(time.perf_counter() - t0, out.value)
""",
    "quickjs": """
import time; t0 = time.perf_counter()
from langchain_quickjs._repl import _Registry
from langchain_quickjs._format import format_outcome
reg = _Registry(memory_limit=64 * 1024 * 1024, timeout=5.0, capture_console=True, max_stdout_chars=4000)
out = reg.get('bench').eval_sync({code!r}); text = format_outcome(out, max_result_chars=4000)
print(time.perf_counter() - t0, text)
""",
}


class Backend:
    """One interpreter per backend, behind the same two calls."""

    name: str

    def new(self) -> Callable[[str], str]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class GraalBackend(Backend):
    name = "graalvm"

    def __init__(self) -> None:
        from langchain_graalvm import Interpreter

        self._cls = Interpreter
        self._open: list[object] = []

    def new(self) -> Callable[[str], str]:
        js = self._cls(timeout=60.0)
        self._open.append(js)
        return lambda code: js.eval(code).text

    def close(self) -> None:
        for js in self._open:
            js.close()  # type: ignore[attr-defined]
        self._open.clear()


class QuickJSBackend(Backend):
    name = "quickjs"

    def __init__(self) -> None:
        from langchain_quickjs._format import format_outcome
        from langchain_quickjs._repl import _Registry

        self._format = format_outcome
        self._registry = _Registry(
            memory_limit=64 * 1024 * 1024, timeout=60.0, capture_console=True, max_stdout_chars=4000
        )
        self._ids: list[str] = []

    def new(self) -> Callable[[str], str]:
        slot = f"bench-{len(self._ids)}"
        self._ids.append(slot)
        repl = self._registry.get(slot)
        return lambda code: self._format(repl.eval_sync(code), max_result_chars=4000)

    def close(self) -> None:
        for slot in self._ids:
            self._registry.evict(slot)
        self._ids.clear()


@dataclass
class Result:
    workload: str
    unit: str
    samples: dict[str, list[float]]

    def row(self) -> str:
        cells = [self.workload]
        medians = {}
        for name in ("graalvm", "quickjs"):
            s = self.samples.get(name, [])
            if not s:
                cells.append("n/a")
                continue
            medians[name] = statistics.median(s)
            cells.append(f"{_fmt(medians[name], self.unit)} ({_fmt(min(s), self.unit)}-{_fmt(max(s), self.unit)})")
        ratio = medians["graalvm"] / medians["quickjs"] if len(medians) == 2 and medians["quickjs"] else None
        cells.append(f"{ratio:.3f}x" if ratio is not None else "n/a")
        return "| " + " | ".join(cells) + " |"


def _fmt(seconds: float, unit: str) -> str:
    return f"{seconds * 1000:.3f} ms" if unit == "ms" else f"{seconds:.2f} s"


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def warm_eval(backends: list[Backend], reps: int, calls: int) -> Result:
    evals = {b.name: b.new() for b in backends}
    for ev in evals.values():
        for _ in range(200):
            ev("1+1")
    samples: dict[str, list[float]] = {b.name: [] for b in backends}
    for _ in range(reps):
        for b in backends:
            ev = evals[b.name]
            samples[b.name].append(timed(lambda ev=ev: [ev("1+1") for _ in range(calls)]) / calls)
    return Result("warm `1+1` per eval", "ms", samples)


def new_interpreter(backends: list[Backend], reps: int) -> Result:
    samples: dict[str, list[float]] = {b.name: [] for b in backends}
    for b in backends:  # the first slot of each backend pays one-time set-up: not part of this figure
        b.new()("1+1")
    for _ in range(reps):
        for b in backends:
            samples[b.name].append(timed(lambda b=b: b.new()("1+1")))
        for b in backends:
            b.close()
    return Result("new interpreter + first eval", "ms", samples)


def cpu_workload(backends: list[Backend], label: str, code: str, reps: int) -> list[Result]:
    warm: dict[str, list[float]] = {b.name: [] for b in backends}
    evals = {b.name: b.new() for b in backends}
    outputs: dict[str, str] = {}
    for _ in range(3):  # warm-up
        for b in backends:
            outputs[b.name] = evals[b.name](code)
    for _ in range(reps):
        for b in backends:
            warm[b.name].append(timed(lambda b=b: evals[b.name](code)))
    _check_same(label, outputs)
    return [Result(f"{label}, warm", "ms", warm)]


def _check_same(label: str, outputs: dict[str, str]) -> None:
    values = {name: text.replace("<result>", "").replace("</result>", "") for name, text in outputs.items()}
    if len(set(values.values())) > 1:
        print(f"warning: {label} results differ: {values}", file=sys.stderr)


def fresh_process(backends: list[Backend], label: str, code: str, reps: int) -> Result:
    samples: dict[str, list[float]] = {b.name: [] for b in backends}
    for _ in range(reps):
        for b in backends:
            child = textwrap.dedent(FIRST_EVAL_CHILD[b.name]).format(code=code)
            proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                raise RuntimeError(f"{b.name} child failed: {proc.stderr[-2000:]}")
            samples[b.name].append(float(proc.stdout.split()[0]))
    return Result(label, "s", samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", metavar="FILE", help="also write the raw samples as JSON")
    args = parser.parse_args()
    reps = 5 if args.quick else 11
    backends: list[Backend] = [GraalBackend()]
    try:
        backends.append(QuickJSBackend())
    except ImportError:
        print("langchain-quickjs is not installed: pip install 'langchain-graalvm[compare]'", file=sys.stderr)

    from langchain_graalvm import runtime_info

    info = runtime_info()
    print(f"GraalVM {info['graalvm_version']} on JDK {info['java_version']}, runtime {info['runtime_name']}, "
          f"JIT {'on' if info['jit'] else 'off'}, Graal compiler {info['compiler']}; {reps} repetitions, "
          "backends alternate")
    results: list[Result] = []
    steps: list[tuple[str, Callable[[], list[Result]]]] = [
        ("fresh process", lambda: [fresh_process(backends, "first eval in a fresh process", "1+1", max(3, reps // 2))]),
        ("sieve first", lambda: [fresh_process(backends, "sieve < 2M, first run (fresh process)", SIEVE,
                                               max(3, reps // 2))]),
        ("new interpreter", lambda: [new_interpreter(backends, reps * 3)]),
        ("warm eval", lambda: [warm_eval(backends, reps, 200)]),
        ("sieve warm", lambda: cpu_workload(backends, "sieve < 2M (Uint8Array)", SIEVE, reps)),
        ("json", lambda: cpu_workload(backends, "100k objects: build, stringify, parse, group", JSON_WORK, reps)),
    ]
    for i, (name, step) in enumerate(steps, 1):
        print(f"[{i}/{len(steps)}] {name} ...", file=sys.stderr, flush=True)
        results.extend(step())
        for b in backends:
            b.close()
    print()
    print("| workload | langchain-graalvm median (min-max) | langchain-quickjs median (min-max) | ratio |")
    print("|---|---|---|---|")
    for r in results:
        print(r.row())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({r.workload: r.samples for r in results}, f, indent=1)


if __name__ == "__main__":
    main()
