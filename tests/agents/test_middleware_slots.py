"""Slots and the spare pool on their own: what is reused, what is closed, and when."""

from __future__ import annotations

import time

import pytest

from langchain_graalvm.agents import _slots, _spares
from langchain_graalvm.options import InterpreterOptions

SPEC = InterpreterOptions(
    timeout=5.0,
    memory_limit=64 * 2**20,
    max_result_chars=4000,
    capture_console=True,
    clock="frozen",
    frozen_epoch_ms=0,
    snapshots=True,
)


def _wait_for(condition: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_spares_are_warmed_in_the_background_and_handed_out_fresh() -> None:
    pool = _spares.SparePool(spares_per_spec=1)
    try:
        first = pool.take(SPEC)
        assert first.eval("1").ok
        assert SPEC in pool._spares and not pool._spares[SPEC]  # nothing competes with the first context
        pool.replenish(SPEC)  # what a slot does after its eval
        _wait_for(lambda: len(pool._spares[SPEC]) == 1)
        spare = pool._spares[SPEC][0]
        assert pool.take(SPEC) is spare
        assert spare.restore(first.snapshot()) == []
        assert spare.eval("typeof x").text == "<result>undefined</result>"
        pool.retire(first)
        pool.retire(spare)
    finally:
        pool.close()
    assert first._closed and spare._closed
    late = pool.take(SPEC)  # a closed pool still works, without spares
    assert late.eval("1 + 1").text == "<result>2</result>"
    pool.retire(late)
    assert late._closed


def test_spares_are_kept_only_for_recent_specs() -> None:
    pool = _spares.SparePool(spares_per_spec=1)
    try:
        specs = [InterpreterOptions(**{**SPEC.__dict__, "frozen_epoch_ms": i}) for i in range(6)]
        for spec in specs:
            pool.take(spec).close()
        assert list(pool._spares) == specs[-4:]
    finally:
        pool.close()


def test_a_prefetched_restore_is_used_by_the_first_eval_or_closed_with_the_slot() -> None:
    pool = _spares.SparePool()
    try:
        source = pool.take(SPEC)
        source.eval("var greeting = 'hi'")
        payload = source.snapshot()
        pool.retire(source)

        used = _slots.Slot("gvm_used", SPEC, pool, payload)
        used.prefetch()
        assert used.eval("greeting") == "<result>hi</result>"
        assert used.used and not used.restore_failed

        unused = _slots.Slot("gvm_unused", SPEC, pool, payload)
        unused.prefetch()
        coming = unused._coming
        assert coming is not None
        unused.close()
        _wait_for(lambda: coming.done() and coming.result()._closed)
        assert not unused.used
        used.close()
    finally:
        pool.close()


def test_reopening_a_slot_closes_the_one_an_aborted_run_left() -> None:
    pool = _spares.SparePool()
    registry = _slots.SlotRegistry(pool)
    stale = registry.open("gvm_a", SPEC)
    stale.eval("var left = 1")
    interpreter = stale._interpreter
    fresh = registry.open("gvm_a", SPEC)
    assert registry.get("gvm_a") is fresh and len(registry) == 1
    _wait_for(lambda: interpreter is not None and interpreter._closed)
    assert fresh.eval("typeof left") == "<result>undefined</result>"
    registry.close()
    assert len(registry) == 0
    pool.close()


def test_parked_slots_are_bounded_and_reused_only_for_their_snapshot() -> None:
    pool = _spares.SparePool()
    registry = _slots.SlotRegistry(pool, max_parked=2)
    slots = []
    for i in range(3):
        slot = registry.open(f"gvm_{i}", SPEC)
        slot.eval(f"var i = {i}")
        registry.pop(slot.slot_id)
        registry.park(slot, b"digest-%d" % i)
        slots.append(slot)
    assert registry.parked() == 2
    _wait_for(lambda: slots[0]._closed)
    assert registry.open("gvm_1", SPEC, digest=b"other") is not slots[1]
    _wait_for(lambda: slots[1]._closed)
    again = registry.open("gvm_2", SPEC, digest=b"digest-2")
    assert again is slots[2] and not again.used
    assert again.eval("i") == "<result>2</result>"
    registry.close()
    pool.close()
    assert registry.parked() == 0 and slots[2]._closed


PYTHON_SPEC = InterpreterOptions(**{**SPEC.__dict__, "language": "python", "timeout": 60.0})


def test_a_python_spare_holds_no_warm_up_names_and_takes_a_restore() -> None:
    pool = _spares.SparePool(spares_per_spec=1)
    try:
        first = pool.take(PYTHON_SPEC)
        assert first.eval("import json\nrows = [{'k': i} for i in range(3)]\nlen(rows)").value == "3"
        payload = first.snapshot()
        pool.replenish(PYTHON_SPEC)
        _wait_for(lambda: len(pool._spares[PYTHON_SPEC]) == 1, timeout=120.0)
        spare = pool.take(PYTHON_SPEC)
        assert spare is not first
        # The warm-up (an empty snapshot or cell) left nothing a model's cell can see, not even a cell number.
        assert spare.eval("1 / 0").error_stack.startswith('  File "cell 1"')
        assert spare.eval("sorted(k for k in globals() if not k.startswith('__'))").value == "[]"
        assert sorted(spare.restore(payload)) == ["json", "rows"]
        assert spare.eval("json.dumps(rows[2])").value == "'{\"k\": 2}'"
        pool.retire(first)
        pool.retire(spare)
    finally:
        pool.close()


def test_a_spare_that_fails_to_warm_never_reaches_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def broken(spec: InterpreterOptions) -> object:
        built.append(spec.language)
        raise RuntimeError("the warm-up failed")

    monkeypatch.setattr(_spares, "warmed", broken)
    pool = _spares.SparePool(spares_per_spec=1)
    try:
        first = pool.take(SPEC)
        assert first.eval("var mine = 1; mine").text == "<result>1</result>"
        pool.replenish(SPEC)  # the background warm-up fails
        _wait_for(lambda: built == ["js"] and not pool._coming.get(SPEC))
        assert not pool._spares[SPEC]
        second = pool.take(SPEC)  # no spare: a context of its own, as if none had been asked for
        assert second.eval("typeof mine").text == "<result>undefined</result>"
        pool.retire(first)
        pool.retire(second)
    finally:
        pool.close()
