"""Python guest (GraalPy) timings: cold first eval in a fresh process, warm eval, and a CPU-heavy loop.

Prints medians. Goal: a warm eval within 5 ms.

    .venv/bin/python bench/python_guest.py [--samples 3] [--warm-evals 200] [--skip-cold]

"Small cells" is the per-eval cost of what a model sends most: a two-line cell (an assignment, then an expression
on its last line), new source on every eval, over 20,000 records, through ``Interpreter.eval`` and in a bare
GraalPy context on the sandbox's own engine (none of the package's layers), alternating, after as many to warm up.

Cold runs each start a fresh Python process (and so a fresh JVM): "cache cold" with an empty resource cache
(GraalPy unpacks its standard library first), "cache warm" with the cache the previous run filled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

COLD_SCRIPT = r"""
import json, time
t0 = time.perf_counter()
from langchain_graalvm import Interpreter
py = Interpreter("python", timeout=600)
t1 = time.perf_counter()
out = py.eval("1 + 1")
t2 = time.perf_counter()
assert out.value == "2", out.text
out = py.eval("import json\njson.dumps({'a': 1})")
t3 = time.perf_counter()
assert out.ok, out.text
print(json.dumps({"first_eval_s": t2 - t1, "process_to_result_s": t2 - t0, "import_json_s": t3 - t2}))
"""

LOOP = "total = 0\nfor i in range(300000):\n    total += i * i % 7\ntotal"


def cold(samples: int, cache_warm: bool) -> dict[str, float]:
    rows = []
    shared = tempfile.mkdtemp(prefix="lgv-cache-")
    if cache_warm:  # fill it once
        subprocess.run([sys.executable, "-c", COLD_SCRIPT], env={**os.environ, "LANGCHAIN_GRAALVM_CACHE": shared},
                       check=True, capture_output=True)
    for _ in range(samples):
        cache = shared if cache_warm else tempfile.mkdtemp(prefix="lgv-cache-")
        proc = subprocess.run([sys.executable, "-c", COLD_SCRIPT], env={**os.environ, "LANGCHAIN_GRAALVM_CACHE": cache},
                              check=True, capture_output=True, text=True)
        rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def small_cells(py: Any, evals: int) -> None:
    from langchain_graalvm.cli._bench_python import bare_context

    ctx = bare_context()
    records = "records = [{'user': 'u%d' % i, 'n': i} for i in range(20000)]"
    py.eval(records)
    ctx.eval("python", records)
    ways = {
        "Interpreter.eval": lambda code: py.eval(code).value,
        "bare context": lambda code: str(ctx.eval("python", code)),
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for n in range(2 * evals):
        code = f"x{n} = records[{n % 20000}]['user'] + '-' + str(records[{n * 7 % 20000}]['n'] + {n})\nx{n}"
        for name in ways if n % 2 else reversed(ways):
            t = time.perf_counter()
            ways[name](code)
            if n >= evals:
                times[name].append(time.perf_counter() - t)
    print(f"small cells, new source each ({evals} after {evals}): " + ", ".join(
        f"{name} median {statistics.median(v) * 1000:.2f} ms" for name, v in times.items()))
    ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--warm-evals", type=int, default=200)
    parser.add_argument("--skip-cold", action="store_true")
    args = parser.parse_args()

    if not args.skip_cold:
        for warm in (False, True):
            r = cold(args.samples, warm)
            label = "cache warm" if warm else "cache cold"
            print(f"cold process, {label}: first eval {r['first_eval_s'] * 1000:.0f} ms (median of {args.samples}),"
                  f" process start to first result {r['process_to_result_s']:.2f} s,"
                  f" then first `import json` {r['import_json_s'] * 1000:.0f} ms")

    from langchain_graalvm import Interpreter

    with Interpreter("python", timeout=120) as py, Interpreter("js", timeout=120) as js:
        py.eval("x = 1")
        js.eval("var x = 1")
        for name, interp, code in (("python", py, "x + 1"), ("js", js, "x + 1")):
            for _ in range(20):
                interp.eval(code)
            times = []
            for _ in range(args.warm_evals):
                t = time.perf_counter()
                interp.eval(code)
                times.append(time.perf_counter() - t)
            print(f"warm eval ({name}, `x + 1`): median {statistics.median(times) * 1000:.2f} ms,"
                  f" p90 {sorted(times)[int(len(times) * 0.9)] * 1000:.2f} ms over {args.warm_evals}")
        small_cells(py, args.warm_evals)
        runs = []
        for _ in range(8):
            t = time.perf_counter()
            out = py.eval(LOOP)
            runs.append(time.perf_counter() - t)
            assert out.ok, out.text
        print(f"CPU loop at top level (300k iterations): first {runs[0] * 1000:.0f} ms, warm median "
              f"{statistics.median(runs[3:]) * 1000:.0f} ms")
        py.eval("def work():\n" + "\n".join("    " + line for line in LOOP.splitlines()[:-1]) + "\n    return total")
        runs = []
        for _ in range(10):
            t = time.perf_counter()
            out = py.eval("work()")
            runs.append(time.perf_counter() - t)
            assert out.ok, out.text
        print(f"CPU loop in a function (300k iterations): first {runs[0] * 1000:.0f} ms, warm median "
              f"{statistics.median(runs[5:]) * 1000:.0f} ms (JIT-compiled after a few calls)")
        # What a thread-mode turn pays: a new context in a warm JVM, its first eval and first imports.
        fresh, imports, restores = [], [], []
        py.eval("import json\nkept = {'a': [1, 2, 3]}\ndef f(x):\n    return x")
        with Interpreter("python", timeout=120, snapshots=True) as src:
            src.eval("kept = {'a': [1, 2, 3]}\ndef f(x):\n    return x")
            payload = src.snapshot()
        for _ in range(3):
            with Interpreter("python", timeout=120, snapshots=True) as other:
                t = time.perf_counter()
                other.eval("1 + 1")
                fresh.append(time.perf_counter() - t)
                t = time.perf_counter()
                other.restore(payload)
                restores.append(time.perf_counter() - t)
                t = time.perf_counter()
                other.eval("import json, re, collections")
                imports.append(time.perf_counter() - t)
        print(f"new context in a warm JVM: first eval {statistics.median(fresh) * 1000:.0f} ms, restore of a small "
              f"snapshot {statistics.median(restores) * 1000:.0f} ms, then `import json, re, collections` "
              f"{statistics.median(imports) * 1000:.0f} ms (medians of 3)")


if __name__ == "__main__":
    main()
