"""The snapshot workload of ``langchain-graalvm bench``: what thread mode costs at the end and start of a turn.

Each backend's middleware stores the interpreter's globals at the end of a turn (``after_agent``) and restores them
at the start of the next (``before_agent``, then the first eval). Both are timed through those hooks, as a graph
runs them, for an empty context and for 10,000 small objects:

- the end-of-turn snapshot, in the first snapshots of the process, and again after ``WARM_SNAPSHOTS`` more, since
  a long-lived process has compiled its codec by then (QuickJS copies memory, which needs no warming);
- the start-of-turn restore into a new slot of the same middleware (``keep_warm`` is off by default, so every turn
  restores), and its first eval;
- the stored bytes.
"""

from __future__ import annotations

import typing
from functools import partial
from typing import Any

from ._benchkit import BACKENDS, EvalToolSlot, Row, build_middleware, check, stored_payload, timed

WARM_SNAPSHOTS = 15


def state_after(middleware: Any, state: dict[str, Any], update: dict[str, Any] | None) -> dict[str, Any]:
    """``state`` with ``update`` applied as the graph applies it: keys on a ``DeltaChannel`` fold their write."""
    from langgraph.channels.delta import DeltaChannel

    hints = typing.get_type_hints(middleware.state_schema, include_extras=True)
    merged = dict(state)
    for key, value in (update or {}).items():
        hint = hints.get(key)
        while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
            hint = typing.get_args(hint)[0]
        channel = next((m for m in getattr(hint, "__metadata__", ()) if isinstance(m, DeltaChannel)), None)
        merged[key] = channel.reducer(None, [value]) if channel is not None and value is not None else value
    return merged


def _restore_and_first_eval(middleware: Any, state: dict[str, Any], probe: str) -> tuple[EvalToolSlot, str]:
    slot = EvalToolSlot(middleware, state=state)
    return slot, slot.eval(probe)


def run(bench: Any) -> None:
    """Adds the snapshot rows to ``bench`` (a :class:`~langchain_graalvm.cli._benchkit.BenchRun`)."""
    n = bench.sizes.snapshot_objects
    setups = {
        "empty context": ("1", "typeof items", "<result>undefined</result>"),
        f"{n:,} objects": (
            f"var items = []; for (let i = 0; i < {n}; i++)"
            " items.push({id: i, name: 'item' + i, tags: ['a', 'b']}); 0",
            "items.length",
            f"<result>{n}</result>",
        ),
    }
    for label, (setup, probe, expected) in setups.items():
        size: dict[str, list[float]] = {b: [] for b in BACKENDS}
        create: dict[str, list[float]] = {b: [] for b in BACKENDS}
        restore: dict[str, list[float]] = {b: [] for b in BACKENDS}
        for rep in range(bench.sizes.reps):
            for backend in bench.order(rep):
                middleware = build_middleware(backend, "defaults", timeout=60.0)
                slot = EvalToolSlot(middleware)
                check("snapshot set-up", backend, slot.eval(setup))
                seconds, update = timed(slot.close)
                size[backend].append(float(len(stored_payload(update))))
                create[backend].append(seconds)
                state = state_after(middleware, slot.state, update)
                for key in [k for k in state if k.endswith("_slot_id")]:
                    del state[key]  # the next turn gets a slot of its own
                seconds, (restored, out) = timed(partial(_restore_and_first_eval, middleware, state, probe))
                restored.close()
                check("restore", backend, out, expected)
                restore[backend].append(seconds)
            bench.step(f"snapshots: {label}")
        bench.add(Row(f"snapshot bytes, {label}", "B", size, goal=0.33))
        bench.add(Row(f"snapshot time (end of turn), {label}", "s", create))
        bench.add(Row(f"restore and first eval (start of turn), {label}", "s", restore, goal=1.0))
    _warm(bench, setups[f"{n:,} objects"][0], n)


def _warm(bench: Any, setup: str, n: int) -> None:
    """The end-of-turn snapshot of ``n`` objects once a process has taken ``WARM_SNAPSHOTS`` others."""
    middlewares = {b: build_middleware(b, "defaults", timeout=60.0) for b in BACKENDS}
    samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
    for rep in range(WARM_SNAPSHOTS + bench.sizes.reps):
        for backend in bench.order(rep):
            slot = EvalToolSlot(middlewares[backend])
            check("snapshot set-up", backend, slot.eval(setup))
            seconds, _ = timed(slot.close)
            if rep >= WARM_SNAPSHOTS:
                samples[backend].append(seconds)
        if rep >= WARM_SNAPSHOTS:
            bench.step("snapshots: warm")
    bench.add(Row(f"snapshot time (end of turn), {n:,} objects, after {WARM_SNAPSHOTS} in the process", "s", samples,
                  goal=1.0))
