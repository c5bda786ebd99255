"""The snapshot codec alone: snapshot and restore of 10,000 records over a process's life, and delta sizes.

Each round makes a new interpreter with the records, takes its snapshot, and restores that into another new
(prepared) interpreter, timing both through :class:`langchain_graalvm.Interpreter`. It prints the times of the
first round, the median of rounds 2 to 5, and the median of the last half (a process whose codec is compiled).
Then it takes a snapshot after each of a few edits and prints the Zstandard delta from the one before, as thread
mode stores it. Point it at another build with ``LANGCHAIN_GRAALVM_RUNTIME`` to compare.

    .venv/bin/python bench/snapshot_codec.py 24
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import warnings

from langchain_graalvm import Interpreter
from langchain_graalvm.agents._delta import make_delta

SETUP = "var items = []; for (let i = 0; i < 10000; i++) items.push({id: i, name: 'item' + i, tags: ['a', 'b']}); 0"
EDITS = (
    ("append one record", "items.push({id: 10000, name: 'item10000', tags: ['c']})"),
    ("a new small global", "var note = 'hello'"),
    ("edit one field", "items[42].name = 'changed'"),
    ("no change", "0"),
    ("remove one record from the middle", "items.splice(5000, 1)"),
    ("insert one record at the front", "items.unshift({id: -1, name: 'first', tags: []})"),
)


def new(**kw: object) -> Interpreter:
    return Interpreter(snapshots=True, timeout=60, prestart=False, **kw)  # type: ignore[arg-type]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    warnings.simplefilter("ignore")
    snap: list[float] = []
    restore: list[float] = []
    for _ in range(rounds):
        with new() as source:
            source.eval(SETUP)
            start = time.perf_counter()
            payload = source.snapshot()
            snap.append(time.perf_counter() - start)
        with new() as target:
            target.prepare()
            start = time.perf_counter()
            target.restore(payload)
            restore.append(time.perf_counter() - start)
    for label, values in (("snapshot", snap), ("restore", restore)):
        ms = [v * 1e3 for v in values]
        print(f"{label:8} first {ms[0]:7.0f} ms   rounds 2-5 {statistics.median(ms[1:5]):7.1f} ms   "
              f"last {rounds - rounds // 2} {statistics.median(ms[rounds // 2:]):7.1f} ms")
    print(f"payload {len(payload)} bytes")
    with new() as js:
        js.eval(SETUP)
        before = js.snapshot()
        for label, code in EDITS:
            js.eval(code)
            after = js.snapshot()
            print(f"delta after {label:34} {len(make_delta(before, after)):7d} B")
            before = after
    os._exit(0)  # the JVM's threads need no orderly shutdown here


if __name__ == "__main__":
    main()
