"""Live output on the host, without a JVM: the output entries of a batch, the relay that runs ``on_output``, and the
pump that hands output to it, driven by a stand-in channel."""

from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Any

import pytest

from langchain_graalvm import Interpreter, InterpreterOptions, OptionsError
from langchain_graalvm._hostcalls import CallPump, GuestCall, decode_calls
from langchain_graalvm._loop import private_loop
from langchain_graalvm._output import GuestOutput, OutputRelay
from langchain_graalvm._runtime._backend import HostFunctions
from langchain_graalvm._runtime._wire import bridge_spec

BOUND = 60.0  # how long a test waits for what must happen; never a measure of how fast it happens


def entry(call_id: int, kind: str, name: str, text: str) -> list[Any]:
    return [call_id, kind, name, text]


def batch(*entries: list[Any]) -> str:
    return json.dumps(list(entries))


# ------------------------------------------------------------------------------------------------ the batch


def test_output_entries_become_output_in_order_with_the_calls() -> None:
    items = decode_calls(
        batch(
            entry(0, "output", "stdout", "a\n"),
            entry(1, "fs", "readFile", '{"path": "/x"}'),
            entry(0, "output", "stderr", '{"not": "parsed"}\n'),
        )
    )
    assert items == [
        GuestOutput("stdout", "a\n"),
        GuestCall(1, "fs", "readFile", {"path": "/x"}),
        GuestOutput("stderr", '{"not": "parsed"}\n'),
    ]


def test_an_output_kind_with_a_call_id_is_a_call() -> None:
    (item,) = decode_calls(batch(entry(3, "output", "stdout", "{}")))
    assert item == GuestCall(3, "output", "stdout", {})


def test_the_bridge_asks_for_output_only_when_streamed() -> None:
    assert bridge_spec(HostFunctions())["streamOutput"] is False
    assert bridge_spec(HostFunctions(stream_output=True))["streamOutput"] is True


# ------------------------------------------------------------------------------------------------ the relay


class Recorder:
    """An ``on_output`` that records what it got and the thread it ran on; ``hold`` makes it wait until released."""

    def __init__(self, *, hold: bool = False, fail: bool = False) -> None:
        self.got: list[tuple[str, str]] = []
        self.threads: set[int] = set()
        self.release = threading.Event()
        self.entered = threading.Event()
        self.changed = threading.Condition()
        self.fail = fail
        if not hold:
            self.release.set()

    def __call__(self, stream: str, text: str) -> None:
        self.threads.add(threading.get_ident())
        self.entered.set()
        assert self.release.wait(BOUND)
        with self.changed:
            self.got.append((stream, text))
            self.changed.notify_all()
        if self.fail:
            raise RuntimeError("the consumer broke")

    def text(self) -> str:
        return "".join(text for _, text in self.got)

    def wait_for(self, text: str) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.text() == text, BOUND), self.got


def relay(callback: Recorder) -> OutputRelay:
    import contextvars

    return OutputRelay(callback, contextvars.copy_context())


def test_relay_delivers_in_order_off_the_callers_thread() -> None:
    got = Recorder()
    out = relay(got)
    for i in range(50):
        out.put("stderr" if i % 7 == 0 else "stdout", f"{i},")
    assert out.wait(BOUND)
    assert got.text() == "".join(f"{i}," for i in range(50))
    assert threading.get_ident() not in got.threads
    # Consecutive pieces of one stream that waited together came as one call: never two of a stream in a row.
    assert all(a[0] != b[0] for a, b in zip(got.got, got.got[1:], strict=False))


def test_output_piled_up_behind_a_slow_callback_comes_joined() -> None:
    got = Recorder(hold=True)
    out = relay(got)
    out.put("stdout", "first\n")
    assert got.entered.wait(BOUND)
    for line in ("a\n", "b\n", "c\n"):
        out.put("stdout", line)  # never waits for the callback
    out.put("stderr", "oops\n")
    assert not out.wait(0.01)  # the callback still holds the first piece
    got.release.set()
    assert out.wait(BOUND)
    assert got.got == [("stdout", "first\n"), ("stdout", "a\nb\nc\n"), ("stderr", "oops\n")]


def test_a_raising_callback_is_reported_once_and_keeps_its_output(caplog: pytest.LogCaptureFixture) -> None:
    got = Recorder(fail=True)
    out = relay(got)
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm"):
        for line in ("a\n", "b\n", "c\n"):
            out.put("stdout", line)
            assert out.wait(BOUND)
    assert got.text() == "a\nb\nc\n"
    assert out.failures == 3
    reports = [r for r in caplog.records if "on_output" in r.getMessage()]
    assert len(reports) == 1 and reports[0].levelno == logging.WARNING


# ------------------------------------------------------------------------------------------------ the pump


class FakeChannel:
    """Batches as a test feeds them; None ends them."""

    def __init__(self) -> None:
        self.batches: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.pump_thread: int | None = None

    def poll(self, timeout_ms: int) -> str | None:
        self.pump_thread = threading.get_ident()
        try:
            return self.batches.get(timeout=timeout_ms / 1000)
        except queue.Empty:
            return "[]"

    def close(self) -> None:
        self.batches.put(None)


class FakeGuest:
    def __init__(self) -> None:
        self.channel = FakeChannel()
        self.functions: HostFunctions | None = None
        self.completed: queue.SimpleQueue[str] = queue.SimpleQueue()

    def open_calls(self, functions: HostFunctions) -> FakeChannel:
        self.functions = functions
        return self.channel

    def complete_host_calls(self, call_ids: list[int], batch_json: str) -> None:  # noqa: ARG002
        self.completed.put(batch_json)

    def cancel(self) -> None:
        pass

    def imports_modules(self) -> bool:
        return False


def test_pump_streams_output_and_a_slow_callback_does_not_hold_the_calls() -> None:
    got = Recorder(hold=True)
    guest = FakeGuest()
    pump = CallPump(private_loop(), None, got)
    pump.bind(guest)  # type: ignore[arg-type]
    assert guest.functions == HostFunctions(stream_output=True)
    guest.channel.batches.put(batch(entry(0, "output", "stdout", "one\n")))
    assert got.entered.wait(BOUND)
    # The callback is stuck on "one"; a call after it is answered all the same.
    guest.channel.batches.put(batch(entry(0, "output", "stderr", "two\n"), entry(1, "fs", "readFile", "{}")))
    answer = json.loads(guest.completed.get(timeout=BOUND))
    assert answer[0][:2] == [1, False] and "not available" in answer[0][2]["message"]
    guest.channel.batches.put(batch(entry(0, "output", "stdout", "three\n")))
    pump.close()
    assert not pump.flush_output(timeout=0.01)  # the callback still holds "one"
    got.release.set()
    assert pump.flush_output(timeout=BOUND)
    assert got.got == [("stdout", "one\n"), ("stderr", "two\n"), ("stdout", "three\n")]
    assert guest.channel.pump_thread not in got.threads


def test_pump_without_on_output_asks_for_none() -> None:
    guest = FakeGuest()
    pump = CallPump(private_loop(), None)
    pump.bind(guest)  # type: ignore[arg-type]
    pump.close()
    assert guest.functions == HostFunctions()
    assert pump.flush_output()


async def test_async_flush_waits_for_the_output() -> None:
    got = Recorder()
    guest = FakeGuest()
    pump = CallPump(private_loop(), None, got)
    pump.bind(guest)  # type: ignore[arg-type]
    guest.channel.batches.put(batch(entry(0, "output", "stdout", "x" * 10)))
    pump.close()
    assert await pump.aflush_output(BOUND)
    assert got.text() == "x" * 10


# ------------------------------------------------------------------------------------------------ the option


@pytest.mark.parametrize("bad", [pytest.param(5, id="int"), pytest.param("print", id="str")])
def test_on_output_must_be_callable(bad: object) -> None:
    with pytest.raises(OptionsError, match="on_output"):
        Interpreter(on_output=bad, prestart=False)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="on_output"):
        Interpreter.from_options(InterpreterOptions(), on_output=bad, prestart=False)  # type: ignore[arg-type]
