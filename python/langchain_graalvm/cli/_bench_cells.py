"""The agent-cell workload of ``langchain-graalvm bench``: the code a model writes, as new source on every call.

A model never sends the same cell twice: each call is new text over data an earlier call (or a tool result)
left in the interpreter's globals. So every cell here is a template: ``source(k)`` gives a different program
for every ``k`` (other names, other constants), which defeats any source-keyed cache, as real traffic does.
The data is deterministic (a linear congruential generator, no ``Math.random``), so both backends and node
compute the same results, and each cell's result is checked against the others.

The set-up cell builds, in the guest:

- ``RAW``: a JSON text of 20,000 order records (about 1.9 MB), as a tool would return it;
- ``ORDERS``: those records parsed;
- ``LINES``: 20,000 log lines;
- ``STAMPS``: 20,000 ISO-8601 timestamps.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

RECORDS = 20_000


def setup(records: int = RECORDS) -> str:
    """The set-up cell: the data every agent cell works on, ``records`` orders of it."""
    return f"""
var seed = 42;
function rnd() {{ seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }}
var REGIONS = ['north', 'south', 'east', 'west', 'central'];
var PRODUCTS = ['widget', 'gadget', 'doohickey', 'gizmo', 'thingamajig', 'sprocket', 'flange', 'grommet'];
var rows = [];
for (var i = 0; i < {records}; i++) {{
  rows.push({{
    id: i, customer: 'cust' + Math.floor(rnd() * 2000), region: REGIONS[Math.floor(rnd() * 5)],
    product: PRODUCTS[Math.floor(rnd() * 8)], quantity: 1 + Math.floor(rnd() * 20),
    price: Math.round(rnd() * 50000) / 100, status: rnd() < 0.8 ? 'paid' : (rnd() < 0.5 ? 'open' : 'refunded'),
    created: new Date(Date.UTC(2024, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28),
      Math.floor(rnd() * 24), Math.floor(rnd() * 60))).toISOString(),
    tags: rnd() < 0.3 ? ['priority', 'gift'] : ['standard'],
  }});
}}
var RAW = JSON.stringify(rows);
var ORDERS = JSON.parse(RAW);
var LINES = ORDERS.map(function (o) {{
  return o.created + ' [' + (o.status === 'refunded' ? 'WARN' : 'INFO') + '] user=' + o.customer +
    ' ip=10.' + (o.id % 256) + '.' + (o.quantity * 7 % 256) + '.' + (o.id * 13 % 256) +
    ' path=/api/v1/' + o.product + '/' + o.id + ' ms=' + Math.round(o.price);
}});
var STAMPS = ORDERS.map(function (o) {{ return o.created; }});
rows = undefined;
[RAW.length, ORDERS.length, LINES.length, STAMPS.length]
"""


SETUP = setup()


@dataclasses.dataclass(frozen=True)
class Cell:
    """One kind of cell a model writes; ``source(k)`` is a new program for every ``k``."""

    name: str
    label: str
    source: Callable[[int], str]


def _json(k: int) -> str:
    return f"""
const parsed{k} = JSON.parse(RAW);
const byRegion{k} = {{}};
for (const o of parsed{k}) {{
  if (o.status !== 'paid' || o.quantity < {1 + k % 3}) continue;
  const bucket = byRegion{k}[o.region] ??= {{ orders: 0, revenue: 0 }};
  bucket.orders += 1;
  bucket.revenue += o.quantity * o.price;
}}
Object.entries(byRegion{k}).map(([region, b]) => [region, b.orders, Math.round(b.revenue)])
"""


def _sort(k: int) -> str:
    return f"""
const top{k} = ORDERS
  .filter((o) => o.price > {50 + k % 40} && o.status !== 'refunded')
  .map((o) => ({{ ...o, total: o.quantity * o.price, key{k}: o.customer + ':' + o.product }}))
  .sort((a, b) => b.total - a.total || a.id - b.id)
  .slice(0, {10 + k % 5});
top{k}.map((o) => [o.id, Math.round(o.total)])
"""


def _regex(k: int) -> str:
    return f"""
const pattern{k} = /user=(cust\\d+) ip=(\\d+)\\.(\\d+)\\.\\d+\\.\\d+ path=\\/api\\/v1\\/(\\w+)\\/(\\d+) ms=(\\d+)/;
let slow{k} = 0;
const perProduct{k} = {{}};
for (const line of LINES) {{
  const m = pattern{k}.exec(line);
  if (!m) continue;
  if (Number(m[6]) > {200 + k % 100}) slow{k}++;
  perProduct{k}[m[4]] = (perProduct{k}[m[4]] || 0) + 1;
}}
[slow{k}, Object.keys(perProduct{k}).sort().map((p) => p + '=' + perProduct{k}[p]).join(',')]
"""


def _map_set(k: int) -> str:
    return f"""
const customers{k} = new Map();
for (const o of ORDERS) {{
  let entry = customers{k}.get(o.customer);
  if (!entry) {{ entry = {{ products: new Set(), spent: 0 }}; customers{k}.set(o.customer, entry); }}
  entry.products.add(o.product);
  entry.spent += o.quantity * o.price;
}}
const loyal{k} = [...customers{k}].filter(([, e]) => e.products.size >= {3 + k % 3});
const report{k} = loyal{k}.slice(0, 5)
  .map(([c, e]) => `${{c}}: ${{e.products.size}} products, ${{e.spent.toFixed(2)}}`);
[customers{k}.size, loyal{k}.length, report{k}.join('; ')]
"""


def _dates(k: int) -> str:
    return f"""
const months{k} = new Array(12).fill(0);
let weekend{k} = 0;
for (const s of STAMPS) {{
  const d = new Date(s);
  months{k}[d.getUTCMonth()]++;
  const day = d.getUTCDay();
  if (day === 0 || day === {6 - k % 2}) weekend{k}++;
}}
[months{k}.join(','), weekend{k}]
"""


def _primes(k: int) -> str:
    return f"""
let count{k} = 0;
for (let n = 2; n < {200_000 + k % 7}; n++) {{
  let prime = true;
  for (let d = 2; d * d <= n; d++) {{ if (n % d === 0) {{ prime = false; break; }} }}
  if (prime) count{k}++;
}}
count{k}
"""


def _classes(k: int) -> str:
    return f"""
class Ledger{k} {{
  constructor(name) {{ this.name = name; this.entries = []; this.balance = 0; }}
  add(amount, note) {{ this.entries.push({{ amount, note }}); this.balance += amount; return this; }}
  get largest() {{ return this.entries.reduce((m, e) => Math.max(m, e.amount), 0); }}
  summary() {{ return `${{this.name}}: ${{this.entries.length}} entries, ${{this.balance.toFixed(2)}}`; }}
}}
const ledgers{k} = {{}};
for (const o of ORDERS) {{
  if (o.quantity < {k % 4}) continue;
  (ledgers{k}[o.region] ??= new Ledger{k}(o.region)).add(o.quantity * o.price, o.product);
}}
Object.values(ledgers{k}).map((l) => [l.summary(), Math.round(l.largest)])
"""


def _csv(k: int) -> str:
    return f"""
const header{k} = ['id', 'customer', 'region', 'product', 'total{k}'];
let csv{k} = header{k}.join(',') + '\\n';
for (const o of ORDERS) {{
  if (o.id % {2 + k % 3} !== 0) continue;
  const total = (o.quantity * o.price).toFixed(2);
  csv{k} += [o.id, o.customer, o.region.toUpperCase(), '"' + o.product + '"', total].join(',') + '\\n';
}}
[csv{k}.length, csv{k}.split('\\n').length]
"""


def _tree(k: int) -> str:
    return f"""
function build{k}(depth, seed) {{
  if (depth === 0) return {{ value: seed % 100, children: [] }};
  const children = [];
  for (let i = 0; i < 3; i++) children.push(build{k}(depth - 1, seed * 3 + i));
  return {{ value: seed % 100, children }};
}}
function walk{k}(node) {{
  let sum = node.value, deepest = 0;
  for (const c of node.children) {{ const r = walk{k}(c); sum += r[0]; deepest = Math.max(deepest, r[1]); }}
  return [sum, deepest + 1];
}}
const root{k} = build{k}({8 + k % 2}, {k % 10});
walk{k}(root{k})
"""


def _stats(k: int) -> str:
    return f"""
const prices{k} = ORDERS.filter((o) => o.region !== 'central' || {k % 2}).map((o) => o.price);
const mean{k} = prices{k}.reduce((a, b) => a + b, 0) / prices{k}.length;
const variance{k} = prices{k}.reduce((a, p) => a + (p - mean{k}) ** 2, 0) / prices{k}.length;
const sorted{k} = [...prices{k}].sort((a, b) => a - b);
const pct{k} = (q) => sorted{k}[Math.min(sorted{k}.length - 1, Math.floor(q * sorted{k}.length))];
const byStatus{k} = ORDERS.reduce((acc, o) => ({{ ...acc, [o.status]: (acc[o.status] || 0) + 1 }}), {{}});
[mean{k}.toFixed(3), Math.sqrt(variance{k}).toFixed(3), pct{k}(0.5), pct{k}(0.9), byStatus{k}]
"""


def _lookup(k: int) -> str:
    return f"""
const wanted{k} = ORDERS.find((o) => o.id === {(k * 7919) % 1000});
({{ id: wanted{k}.id, customer: wanted{k}.customer, total: +(wanted{k}.quantity * wanted{k}.price).toFixed(2) }})
"""


def _words(k: int) -> str:
    return f"""
const freq{k} = {{}};
for (const line of LINES) {{
  for (const word of line.split(/[\\s=/\\[\\]]+/)) {{
    if (word.length < {3 + k % 2}) continue;
    const w = word.toLowerCase();
    freq{k}[w] = (freq{k}[w] || 0) + 1;
  }}
}}
Object.entries(freq{k}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5)
"""


CELLS: tuple[Cell, ...] = (
    Cell("json", "`JSON.parse` of a 3.5 MB tool result (20k records), then group and sum", _json),
    Cell("sort", "filter / map with spread / sort / slice on 20k records", _sort),
    Cell("regex", "regex extraction over 20k log lines", _regex),
    Cell("mapset", "Map/Set grouping and a template-string report", _map_set),
    Cell("dates", "`new Date(isoString)` on 20k strings, bucketed", _dates),
    Cell("primes", "a top-level prime-counting loop", _primes),
    Cell("classes", "class-based aggregation", _classes),
    Cell("csv", "CSV string building", _csv),
    Cell("tree", "a small recursive algorithm (build and walk a tree)", _tree),
    Cell("stats", "`reduce`-heavy statistics", _stats),
    Cell("lookup", "a tiny lookup", _lookup),
    Cell("words", "split / lower-case / word frequency", _words),
)


def node_script(cells: tuple[Cell, ...], setup_code: str, warm_rounds: int, reps: int, k0: int) -> str:
    """A node program that runs the set-up, then each cell as new source (``vm.runInThisContext``), and prints the
    median seconds per cell as JSON: node's figure for the same work, the near-native limit."""
    sources = {c.name: [c.source(k0 + i) for i in range(warm_rounds + reps)] for c in cells}
    return (
        "const vm = require('vm');\n"
        f"vm.runInThisContext({json.dumps(setup_code)});\n"
        f"const sources = {json.dumps(sources)};\n"
        "const times = {};\n"
        f"for (let i = 0; i < {warm_rounds + reps}; i++) {{\n"
        "  for (const [name, list] of Object.entries(sources)) {\n"
        "    const t = process.hrtime.bigint();\n"
        "    vm.runInThisContext(list[i]);\n"
        f"    if (i >= {warm_rounds}) (times[name] ||= []).push(Number(process.hrtime.bigint() - t) / 1e9);\n"
        "  }\n"
        "}\n"
        "const med = (xs) => { xs.sort((a, b) => a - b); return xs[Math.floor(xs.length / 2)]; };\n"
        "console.log(JSON.stringify(Object.fromEntries(Object.entries(times).map(([n, xs]) => [n, med(xs)]))));\n"
    )


# ------------------------------------------------------------------------------------------------ the workload

# Both backends run the cells with these limits: the data set needs more than the default 64 MiB on QuickJS.
LIMITS = {"timeout": 60.0, "memory_limit": 256 * 1024 * 1024}

_FRESH_CHILD = """
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware
from langchain_graalvm.cli._bench_cells import CELLS, LIMITS, setup
backend, records, between = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
slot = EvalToolSlot(build_middleware(backend, "defaults", **LIMITS))
ready = slot.eval(setup(records))
phases, k = {"first": {}, "after": {}}, 0
def timed_round(phase):
    global k
    for cell in CELLS:
        k += 1
        start = time.perf_counter()
        out = slot.eval(cell.source(k))
        phases[phase][cell.name] = [time.perf_counter() - start, out]
timed_round("first")
for _ in range(between):
    for cell in CELLS:
        k += 1
        slot.eval(cell.source(k))
timed_round("after")
print(json.dumps({"setup": ready, "phases": phases}), flush=True)
os._exit(0)
"""


def fresh_cells_before_after(between: int) -> int:
    """How many cells (the set-up included) a fresh process has run before its "after" round."""
    return 1 + len(CELLS) * (1 + between)


def run(bench: Any) -> None:
    """Adds the agent-cell rows to ``bench`` (a :class:`~langchain_graalvm.cli._benchkit.BenchRun`)."""
    sizes = bench.sizes
    steady(bench, sizes.agent_records, sizes.agent_warm_rounds, sizes.reps)
    fresh(bench, sizes.agent_records, sizes.agent_fresh_runs)


def _check(label: str, outs: dict[str, str]) -> None:
    from ..errors import WorkloadError

    texts = set(outs.values())
    if len(texts) != 1 or "<error" in next(iter(texts)):
        raise WorkloadError(f"agent cell {label}: the backends disagree or failed: " + repr(outs)[:600])


def _add_rows(bench: Any, phase: str, samples: dict[str, dict[str, list[float]]], node: dict[str, float]) -> None:
    from ._benchkit import BACKENDS, Row

    medians: dict[str, list[float]] = {b: [] for b in BACKENDS}
    for cell in CELLS:
        per_backend = {b: samples[b][cell.name] for b in BACKENDS}
        for b in BACKENDS:
            medians[b].append(statistics.median(per_backend[b]))
        bench.add(Row(f"agent cell [{phase}]: {cell.label}", "s", per_backend, goal=1.0, node=node.get(cell.name)))
    geo = {b: [math.exp(statistics.fmean(math.log(m) for m in medians[b]))] for b in BACKENDS}
    node_geo = math.exp(statistics.fmean(math.log(node[c.name]) for c in CELLS)) if len(node) == len(CELLS) else None
    bench.add(Row(f"agent cells [{phase}]: geometric mean of the {len(CELLS)} cells", "s", geo, goal=0.5,
                  node=node_geo))


def steady(bench: Any, records: int, warm_rounds: int, reps: int) -> None:
    """Steady state: one process, both eval tools, ``warm_rounds`` rounds of every cell, then ``reps`` timed ones."""
    from ._benchkit import BACKENDS, EvalToolSlot, build_middleware, timed

    slots = {b: EvalToolSlot(build_middleware(b, "defaults", **LIMITS)) for b in BACKENDS}
    _check("set-up", {b: slots[b].eval(setup(records)) for b in BACKENDS})
    samples: dict[str, dict[str, list[float]]] = {b: {c.name: [] for c in CELLS} for b in BACKENDS}
    k = 0
    for rnd in range(warm_rounds + reps):
        for cell in CELLS:
            k += 1
            code = cell.source(k)
            outs = {}
            for backend in bench.order(rnd + k):
                seconds, outs[backend] = timed(partial(slots[backend].eval, code))
                if rnd >= warm_rounds:
                    samples[backend][cell.name].append(seconds)
            _check(cell.name, outs)
        bench.step("agent cells (steady)")
    for slot in slots.values():
        slot.close()
    cells_run = 1 + len(CELLS) * warm_rounds
    _add_rows(bench, f"steady, after {cells_run} cells", samples, node_medians(records, warm_rounds, reps))


def fresh(bench: Any, records: int, runs: int, between: int = 1) -> None:
    """The first cells of a fresh process, and a round after a few more: one new process per backend and run."""
    from ..errors import WorkloadError
    from ._benchkit import BACKENDS

    phases = ("first", "after")
    samples: dict[str, dict[str, dict[str, list[float]]]] = {
        p: {b: {c.name: [] for c in CELLS} for b in BACKENDS} for p in phases
    }
    for run_no in range(runs):
        results: dict[str, dict[str, Any]] = {}
        for backend in bench.order(run_no):
            proc = subprocess.run(
                [sys.executable, "-c", _FRESH_CHILD, backend, str(records), str(between)],
                capture_output=True, text=True, timeout=1200, check=False,
            )
            if proc.returncode != 0 or not proc.stdout.strip():
                raise WorkloadError(f"fresh agent cells on {backend}: {proc.stderr[-800:]}")
            results[backend] = json.loads(proc.stdout.strip().splitlines()[-1])
            bench.step(f"agent cells, fresh process ({backend})")
        _check("set-up (fresh)", {b: r["setup"] for b, r in results.items()})
        for phase in phases:
            for cell in CELLS:
                _check(f"{cell.name} ({phase})", {b: r["phases"][phase][cell.name][1] for b, r in results.items()})
                for b, r in results.items():
                    samples[phase][b][cell.name].append(r["phases"][phase][cell.name][0])
    _add_rows(bench, "fresh process, first use", samples["first"], {})
    _add_rows(bench, f"fresh process, after {fresh_cells_before_after(between)} cells", samples["after"], {})


def node_medians(records: int, warm_rounds: int, reps: int) -> dict[str, float]:
    """node's median seconds per cell for the same work, or nothing when node is not installed."""
    node = shutil.which("node")
    if node is None:
        return {}
    script = node_script(CELLS, setup(records), warm_rounds, reps, 10_000)
    # The program goes in on stdin: one command-line argument is limited to 128 KiB, less than the cells of a run
    # with the default repetitions.
    try:
        proc = subprocess.run([node, "-"], input=script, capture_output=True, text=True, timeout=1200, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"node's figures for the agent cells are left out: {exc}", file=sys.stderr)
        return {}
    if proc.returncode != 0:
        print(f"node's figures for the agent cells are left out: exit code {proc.returncode}: "
              f"{proc.stderr.strip()[-300:]}", file=sys.stderr)
        return {}
    medians: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return medians
