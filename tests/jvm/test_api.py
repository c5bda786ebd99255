"""The Python API: validation, sync and async use, cancellation, threads, lifecycle."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from langchain_graalvm import EvalOutcome, Interpreter
from tests.support.gate import READ, Gate


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"language": "ruby"}, "language", id="language"),
        pytest.param({"timeout": 0}, "timeout", id="timeout-zero"),
        pytest.param({"timeout": -1.0}, "timeout", id="timeout-negative"),
        pytest.param({"timeout": float("inf")}, "timeout", id="timeout-inf"),
        pytest.param({"timeout": "5"}, "timeout", id="timeout-str"),
        pytest.param({"memory_limit": -1}, "memory_limit", id="memory-negative"),
        pytest.param({"memory_limit": 1.5}, "memory_limit", id="memory-float"),
        pytest.param({"memory_limit": True}, "memory_limit", id="memory-bool"),
        pytest.param({"max_result_chars": "10"}, "max_result_chars", id="chars-str"),
        pytest.param({"clock": "real"}, "clock", id="clock"),
        pytest.param({"interrupt_grace": 0}, "interrupt_grace", id="grace"),
        pytest.param({"heap_factor": 0.5}, "heap_factor", id="heap-factor-small"),
        pytest.param({"heap_factor": float("nan")}, "heap_factor", id="heap-factor-nan"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Interpreter(**kwargs)  # type: ignore[arg-type]


def test_code_must_be_a_string(js: Interpreter) -> None:
    with pytest.raises(TypeError, match="code must be a str"):
        js.eval(b"1")  # type: ignore[arg-type]


def test_outcome_fields_are_plain_python(js: Interpreter) -> None:
    out = js.eval("console.log('x'); [1]")
    assert isinstance(out, EvalOutcome)
    assert type(out.text) is str and type(out.value) is str and type(out.stdout) is str
    assert type(out.duration_s) is float and out.duration_s > 0
    assert out.status == "ok" and out.ok
    assert out.error_type is None and out.error_message is None and out.error_stack == ""


def test_context_manager_and_close_are_idempotent() -> None:
    js = Interpreter()
    with js:
        assert js.eval("1").value == "1"
    js.close()
    with pytest.raises(RuntimeError, match="closed"):
        js.eval("1")


def test_many_interpreters_in_many_threads() -> None:
    results: dict[int, list[str | None]] = {}

    def work(n: int) -> None:
        with Interpreter() as js:
            js.eval(f"var mine = {n}")
            results[n] = [js.eval("mine * 2").value for _ in range(20)]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == {n: [str(n * 2)] * 20 for n in range(8)}


def test_two_cpu_bound_evals_run_at_the_same_time() -> None:
    # Each eval spins for 700 ms of host time and reports when it ran. Serialised (by the GIL or a shared lock),
    # the two windows could not overlap; the host's load only stretches them.
    spin = "const start = Date.now(); while (Date.now() < start + 700) {}; [start, Date.now()]"
    windows: dict[int, list[int]] = {}
    with Interpreter(clock="host") as a, Interpreter(clock="host") as b:
        a.eval(spin), b.eval(spin)

        def run(n: int, interpreter: Interpreter) -> None:
            value = interpreter.eval(spin).value
            assert value is not None
            windows[n] = [int(x) for x in value.strip("[]").split(",")]

        threads = [threading.Thread(target=run, args=(n, i)) for n, i in enumerate((a, b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    (a_start, a_end), (b_start, b_end) = windows[0], windows[1]
    assert a_start < b_end and b_start < a_end, windows


def test_concurrent_eval_on_one_interpreter_is_refused(tmp_path: Path) -> None:
    # The first eval waits in a host call until the test lets it go, so the second one certainly overlaps it.
    gate = Gate(tmp_path)
    first: list[EvalOutcome] = []
    with Interpreter(timeout=5.0, files=gate.files()) as js:
        t = threading.Thread(target=lambda: first.append(js.eval(READ)))
        t.start()
        gate.wait_entered()
        second = js.eval("1")
        gate.release.set()
        t.join(60)
        assert second.error_type == "ConcurrentEval"
        assert [o.text for o in first] == ["<result>opened</result>"]
        assert js.eval("2").value == "2"


async def test_aeval_does_not_block_the_event_loop() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    task = asyncio.create_task(ticker())
    with Interpreter(clock="host") as js:
        out = await js.aeval("const end = Date.now() + 1500; while (Date.now() < end) {}; 'done'")
    task.cancel()
    assert out.value == "done"
    # A blocked loop would tick once at most during the 1.5 s eval; a free one ticks about 150 times, and one that
    # shares two busy cores with the guest and the compiler threads was seen to tick 2 times in 0.5 s.
    assert ticks >= 5


async def test_cancelling_aeval_stops_the_guest(tmp_path: Path) -> None:
    gate = Gate(tmp_path, hold=False)
    with Interpreter(timeout=60.0, files=gate.files()) as js:
        js.eval("var kept = 1")
        gate.entered.clear()
        task = asyncio.create_task(js.aeval(READ + "; while (true) {}"))
        await asyncio.to_thread(gate.wait_entered)  # the guest runs: the cancel cannot come before the eval
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert time.monotonic() - started < 30  # bounded, not timed: it catches a cancel that never stops the guest
        assert (await js.aeval("kept + 1")).value == "2"


def test_cancel_from_another_thread(tmp_path: Path) -> None:
    gate = Gate(tmp_path, hold=False)
    with Interpreter(timeout=5.0, files=gate.files()) as js:
        results: list[EvalOutcome] = []
        t = threading.Thread(target=lambda: results.append(js.eval(READ + "; while (true) {}")))
        t.start()
        gate.wait_entered()
        js.cancel()
        t.join(30)
        assert [o.error_type for o in results] == ["Cancelled"]
        assert js.eval("1 + 1").value == "2"


def test_close_stops_a_running_eval(tmp_path: Path) -> None:
    gate = Gate(tmp_path, hold=False)
    js = Interpreter(timeout=60.0, files=gate.files())
    results: list[EvalOutcome] = []
    t = threading.Thread(target=lambda: results.append(js.eval(READ + "; while (true) {}")))
    t.start()
    gate.wait_entered()
    js.close()
    t.join(10)
    assert not t.is_alive()
    assert [o.status for o in results] == ["error"]


def test_snapshot_round_trips_into_a_fresh_interpreter() -> None:
    with Interpreter(snapshots=True) as a, Interpreter(snapshots=True) as b:
        a.eval("const m = new Map([[1, {x: -0}]]); function f(n) { return n * 2 }\nconst s = Symbol('q')")
        payload = a.snapshot()
        assert b.restore(payload) == ["m", "f", "s"]
        assert b.eval("[m, f(21)]").text == "<result>[Map(1) {1 =&gt; {x: -0}}, 42]</result>"
        residue = b.eval("s")
        assert residue.error_type == "ReferenceError"
        assert residue.error_message == "Value for 's' was not restored because it is not serializable (type: symbol)."


def test_snapshot_size_limit_and_corrupt_payloads_are_snapshot_errors() -> None:
    from langchain_graalvm import SnapshotError

    with Interpreter(snapshots=True) as js:
        js.eval("var big = 'x'.repeat(1000)")
        with pytest.raises(SnapshotError) as too_large:
            js.snapshot(max_bytes=100)
        assert too_large.value.too_large
        for bad in (b"{garbage", b'{"v":99}', b"\xff\xfe", b""):
            with pytest.raises(SnapshotError):
                js.restore(bad)
        assert js.eval("big.length").value == "1000"


def test_snapshots_must_be_enabled(js: Interpreter) -> None:
    with pytest.raises(Exception, match="snapshots are off"):
        js.snapshot()
