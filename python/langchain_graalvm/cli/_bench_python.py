"""The Python guest's workload of ``langchain-graalvm bench``: data cells a model writes, against CPython.

Eleven cells of the kind a model writes for data work over records a tool returned (parse and sum JSON, a filtered
sort, regex extraction with ``Counter``, ``defaultdict`` grouping, ``datetime.strptime``, a sieve, a small class,
CSV, a recursive tree walk, ``statistics``, a lookup), each a template that gives new source on every call. Each
run starts a fresh process per backend, alternating: the middleware's ``eval`` tool with ``language="python"``
(in the tier the environment picks) and CPython's ``exec`` of the same cells, the near-native limit (QuickJS has
no Python). A process waits for its interpreter to be ready (untimed: the cold start has rows of its own), runs
the set-up cell (build the records, ``json.dumps``), then ``rounds`` rounds of the cells. The phases: first use
(round 1), rounds 2-5, steady (the last three rounds); per cell the median over runs, then the geometric mean.
"""

from __future__ import annotations

import html
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from typing import Any

RECORDS = 20_000


def setup(records: int = RECORDS) -> str:
    """The set-up cell: ``records`` dicts as a tool would return them, and their JSON text in ``data``."""
    return f"""
import json, random
random.seed(7)
_users = [f"user{{i}}" for i in range(500)]
_domains = ["example.com", "mail.org", "corp.net", "shop.io"]
records = [
    {{"id": i, "user": _users[i % 500], "email": f"{{_users[i % 500]}}@{{_domains[i % 4]}}",
     "amount": round(random.random() * 100, 2),
     "ts": f"2026-{{1 + i % 12:02d}}-{{1 + i % 28:02d}}T{{i % 24:02d}}:15:00",
     "tags": ["a", "b", "c"][: 1 + i % 3], "parent": (i - 1) // 3 if i else None}}
    for i in range({records})
]
data = json.dumps(records)
len(data)
"""


# (name, template): ``template.format(r=k)`` is the cell's source for call ``k``.
CELLS: list[tuple[str, str]] = [
    ("json", "rows = json.loads(data)\ntotal_{r} = round(sum(r['amount'] for r in rows), 2)\ntotal_{r}"),
    ("sort", "top_{r} = sorted((r for r in rows if r['amount'] > {r} % 7 + 50), key=lambda r: -r['amount'])[:10]\n"
             "[t['id'] for t in top_{r}]"),
    ("regex", "import re\nfrom collections import Counter\n"
              "doms_{r} = Counter(re.search(r'@([\\w.]+)$', r['email']).group(1) for r in rows)\n"
              "sorted(doms_{r}.items())"),
    ("group", "from collections import defaultdict\nby_user_{r} = defaultdict(list)\n"
              "for r in rows:\n    by_user_{r}[r['user']].append(r['amount'])\nlen(by_user_{r}) + {r} * 0"),
    ("strptime", "from datetime import datetime\n"
                 "months_{r} = {{}}\nfor r in rows:\n    m = datetime.strptime(r['ts'], '%Y-%m-%dT%H:%M:%S').month\n"
                 "    months_{r}[m] = months_{r}.get(m, 0) + 1\nsorted(months_{r}.items())[:3]"),
    ("algorithm", "def sieve_{r}(n):\n    is_p = [True] * (n + 1)\n    is_p[0] = is_p[1] = False\n"
                  "    for i in range(2, int(n ** 0.5) + 1):\n        if is_p[i]:\n"
                  "            for j in range(i * i, n + 1, i):\n                is_p[j] = False\n"
                  "    return [i for i, p in enumerate(is_p) if p]\nlen(sieve_{r}(50000 + {r}))"),
    ("classes", "class Order_{r}:\n    def __init__(self, r):\n        self.id, self.amount = r['id'], r['amount']\n"
                "    def taxed(self, rate=0.2):\n        return self.amount * (1 + rate)\n"
                "orders_{r} = [Order_{r}(r) for r in rows]\nround(sum(o.taxed() for o in orders_{r}), 2)"),
    ("csv", "import csv, io\nbuf = io.StringIO()\nw = csv.writer(buf)\n"
            "for r in rows:\n    w.writerow([r['id'], r['user'], r['amount']])\n"
            "lines_{r} = buf.getvalue().splitlines()\nlen(lines_{r}), lines_{r}[{r}].split(',')[1]"),
    ("tree", "kids_{r} = {{}}\nfor r in rows:\n    kids_{r}.setdefault(r['parent'], []).append(r['id'])\n"
             "def depth_{r}(node):\n    return 1 + max((depth_{r}(k) for k in kids_{r}.get(node, [])), default=0)\n"
             "depth_{r}(0)"),
    ("stats", "import statistics\namounts_{r} = [r['amount'] for r in rows]\n"
              "round(statistics.mean(amounts_{r}), 3), round(statistics.pstdev(amounts_{r}), 3)"),
    ("lookup", "records[42]['user'] + '/' + str(len(rows) + {r} * 0)"),
]

# What the eval tool runs with: the set-up's data needs more than the default 64 MiB.
LIMITS = {"timeout": 600.0, "memory_limit": 1 << 30}

STEADY_ROUNDS = 3

_CHILD = """
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
from langchain_graalvm.cli._bench_python import CELLS, LIMITS, setup
backend, records, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if backend == "cpython":
    from langchain_graalvm.cli._bench_python import cpython_runner
    run = cpython_runner()
else:
    from langchain_graalvm import CodeInterpreterMiddleware
    from langchain_graalvm.cli._benchkit import EvalToolSlot
    slot = EvalToolSlot(CodeInterpreterMiddleware(language="python", **LIMITS))
    run = slot.eval
    run("0")  # waits for the interpreter: the cold start is measured by the cold-python rows
start = time.perf_counter()
out = run(setup(records))
times = {"setup": [time.perf_counter() - start]}
outs = {"setup": [out]}
for r in range(1, rounds + 1):
    for name, template in CELLS:
        code = f"# round {r}\\n" + template.format(r=r)
        start = time.perf_counter()
        out = run(code)
        times.setdefault(name, []).append(time.perf_counter() - start)
        outs.setdefault(name, []).append(out)
print(json.dumps({"times": times, "outs": outs}), flush=True)
os._exit(0)
"""


def cpython_runner() -> Callable[[str], str]:
    """CPython's own ``exec`` of a cell in one namespace, its last line (each cell ends in an expression line)
    evaluated for the ``repr`` of its value: the near-native limit of the data cells."""
    ns: dict[str, Any] = {}

    def run(code: str) -> str:
        head, _, last = code.rstrip().rpartition("\n")
        exec(head, ns)  # noqa: S102 - the bench's own cells
        return repr(eval(last, ns))  # noqa: S307 - the bench's own cells

    return run


def bare_context() -> Any:
    """A GraalPy context from the sandbox's own engine and context builder (CONSTRAINED, no host access), with
    none of the package's layers: what the engine alone costs (``bench/python_cells.py``, ``bench/python_guest.py``).
    Starts the JVM and the sandbox's Python engine first, with one eval on this thread: nothing of the package's
    keeps running in the background when it returns."""
    from .. import Interpreter
    from .._runtime import _jvm

    with Interpreter("python", prestart=False) as py:
        py.eval("0")
    sandbox = _jvm.jclass("io.github.langchaingraalvm.sandbox.Sandbox")
    engines_field = sandbox.class_.getDeclaredField("engines")
    engines_field.setAccessible(True)
    engines = engines_field.get(sandbox.shared())
    engines_class = _jvm.jclass("io.github.langchaingraalvm.sandbox.guest.Engines")
    engine_of = engines_class.class_.getDeclaredMethod("pythonEngine")
    engine_of.setAccessible(True)
    restricted = engines_class.class_.getDeclaredMethod(
        "restrictedContext", _jvm.jclass("java.lang.String"), _jvm.jclass("org.graalvm.polyglot.Engine")
    )
    restricted.setAccessible(True)
    return restricted.invoke(None, "python", engine_of.invoke(engines)).build()


def fresh_process(backend: str, records: int, rounds: int) -> dict[str, Any]:
    """One fresh process of ``backend`` (``graalpy`` or ``cpython``): seconds and results per cell and round."""
    from ..errors import WorkloadError

    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, backend, str(records), str(rounds)],
        capture_output=True, text=True, timeout=3600, check=False,
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise WorkloadError(f"Python data cells on {backend}: exit code {proc.returncode}: {proc.stderr[-800:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def plain(envelope: str) -> str:
    """The text of an eval tool's ``<result>`` envelope as CPython's ``repr`` gives it (anything else as it is)."""
    if envelope.startswith("<result>") and envelope.endswith("</result>"):
        return html.unescape(envelope[len("<result>"):-len("</result>")])
    return envelope


def check_agree(graalpy: dict[str, Any], cpython: dict[str, Any]) -> None:
    """Raises when a cell failed or its result differs from CPython's."""
    from ..errors import WorkloadError

    for name, outs in graalpy["outs"].items():
        for i, (ours, theirs) in enumerate(zip(outs, cpython["outs"][name], strict=True)):
            if plain(ours) != theirs:
                raise WorkloadError(f"Python data cell {name}, call {i + 1}: {ours[:300]!r} against {theirs[:300]!r}")


def phases(rounds: int) -> dict[str, tuple[int, int]]:
    """Each phase's first and last round (1-based, inclusive)."""
    return {
        "first use": (1, 1),
        "rounds 2-5": (min(2, rounds), min(5, rounds)),
        f"steady, rounds {max(1, rounds - STEADY_ROUNDS + 1)}-{rounds}": (max(1, rounds - STEADY_ROUNDS + 1), rounds),
    }


def phase_figures(runs: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    """Seconds per phase over ``runs`` of one backend: the set-up, each phase's geometric mean over the cells (per
    cell the median over runs of its median over the phase's rounds), the slowest first use and the lookup's
    steady time."""
    out = {"set-up": statistics.median(r["times"]["setup"][0] for r in runs)}
    for phase, (lo, hi) in phases(rounds).items():
        per_cell = [
            statistics.median(statistics.median(r["times"][name][lo - 1:hi]) for r in runs) for name, _ in CELLS
        ]
        out[phase] = statistics.geometric_mean(per_cell)
    out["slowest first use"] = max(statistics.median(r["times"][name][0] for r in runs) for name, _ in CELLS)
    lo, hi = list(phases(rounds).values())[-1]
    out["lookup, steady"] = statistics.median(statistics.median(r["times"]["lookup"][lo - 1:hi]) for r in runs)
    return out


# The goals, as ratios to CPython (set-up and lookup in seconds).
GOALS = {"first use": "≤ 8x CPython", "rounds 2-5": "≤ 3x CPython", "set-up": "≤ 1 s", "lookup, steady": "≤ 0.3 ms",
         "slowest first use": "≤ 2 s"}


def run(bench: Any) -> None:
    """Adds the Python data-cell rows to ``bench``: GraalPy's figures, CPython's in the near-native column."""
    from ._benchkit import Row

    sizes = bench.sizes
    samples: dict[str, list[dict[str, Any]]] = {"graalpy": [], "cpython": []}
    for run_no in range(sizes.python_runs):
        order = ("graalpy", "cpython") if run_no % 2 == 0 else ("cpython", "graalpy")
        for backend in order:
            samples[backend].append(fresh_process(backend, sizes.python_records, sizes.python_rounds))
            bench.step(f"Python data cells, fresh process ({backend})")
        check_agree(samples["graalpy"][-1], samples["cpython"][-1])
    ours = phase_figures(samples["graalpy"], sizes.python_rounds)
    native = phase_figures(samples["cpython"], sizes.python_rounds)
    for phase, seconds in ours.items():
        goal = next((g for key, g in GOALS.items() if phase.startswith(key)), "≤ 2.5x CPython")
        what = "geometric mean of the 11 cells" if phase in phases(sizes.python_rounds) else "one cell"
        bench.add(Row(
            f"GraalPy data cells [{phase}]: {what}, {sizes.python_records:,} records "
            f"({seconds / native[phase]:.1f}x CPython; goal {goal})",
            "s", {"graalvm": [seconds]}, node=native[phase],
        ))
