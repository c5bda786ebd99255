"""``Interpreter(on_output=...)``: what the guest prints reaches the callback while the cell runs, in both guest
languages, in this process's JVM and in a sandbox worker."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from langchain_graalvm import Interpreter
from tests.support.gate import Gate

BOUND = 120.0  # how long a test waits for what must happen; never a measure of how fast it happens
CAP = 1_000_000
NOTICE = f"\n[output past {CAP} characters is not streamed]\n"

TIERS = [pytest.param("in-process", id="in-process"), pytest.param("process", id="worker")]
LANGUAGES = [pytest.param("js", id="js"), pytest.param("python", id="python")]

GATED = {
    "js": "console.log('first'); await fs.readFile('/gate.txt', 'utf8'); console.log('second'); 'done'",
    "python": "import sys\nprint('first')\nfiles.read_text('/gate.txt')\nprint('second')\n'done'",
}
MIXED = {
    "js": "console.log('a'); console.error('b'); console.info('c'); console.warn('d'); console.debug('e'); 1",
    "python": (
        "import sys\nprint('a')\nprint('b', file=sys.stderr)\nsys.stdout.write('c\\n')\nsys.stderr.write('d\\n')\n"
        "print('e')\n1"
    ),
}
FLOOD = {
    "js": "for (let i = 0; i < 100000; i++) console.log('x'.repeat(39)); 'flooded'",
    "python": "import sys\nfor i in range(100000):\n    sys.stdout.write('x' * 39 + '\\n')\n'flooded'",
}


class Collected:
    """An ``on_output`` that records every call; ``then`` runs after each (to act on what arrived)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.lock = threading.Condition()
        self.eval_ended = threading.Event()
        self.before_end: list[str] = []

    def __call__(self, stream: str, text: str) -> None:
        with self.lock:
            self.calls.append((stream, text))
            if not self.eval_ended.is_set():
                self.before_end.append(text)
            self.lock.notify_all()

    def text(self) -> str:
        return "".join(text for _, text in self.calls)

    def runs(self) -> list[tuple[str, str]]:
        """What arrived, consecutive pieces of one stream joined (how they were split is the batching's choice)."""
        runs: list[tuple[str, str]] = []
        for stream, text in self.calls:
            if runs and runs[-1][0] == stream:
                runs[-1] = (stream, runs[-1][1] + text)
            else:
                runs.append((stream, text))
        return runs


@pytest.fixture(params=TIERS)
def tier(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def interpreter(language: str, tier: str, **kwargs: Any) -> Interpreter:
    return Interpreter(language, isolation=tier, timeout=60.0, max_wall_time=BOUND, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def plain(language: str, tier: str) -> Iterator[Interpreter]:
    """The same interpreter without on_output: what the envelope is without streaming."""
    with interpreter(language, tier) as it:
        yield it


def test_lines_arrive_before_the_eval_ends(language: str, tier: str, tmp_path: Path) -> None:
    # The guest waits in a host call until the callback has seen its first line: were output sent only with the
    # outcome, the eval would run into max_wall_time instead.
    gate = Gate(tmp_path)
    got = Collected()

    def on_output(stream: str, text: str) -> None:
        got(stream, text)
        if "first" in got.text():
            gate.release.set()

    with interpreter(language, tier, files=gate.files(), on_output=on_output) as it:
        out = it.eval(GATED[language])
        got.eval_ended.set()
    assert out.status == "ok", out.text
    assert out.value in ("done", "'done'")
    assert got.text() == "first\nsecond\n"
    assert "first" in "".join(got.before_end)


def test_order_is_kept_across_stdout_and_stderr(language: str, tier: str, plain: Interpreter) -> None:
    got = Collected()
    with interpreter(language, tier, on_output=got) as it:
        out = it.eval(MIXED[language])
    assert got.runs() == [
        ("stdout", "a\n"),
        ("stderr", "b\n"),
        ("stdout", "c\n"),
        ("stderr", "d\n"),
        ("stdout", "e\n"),
    ]
    assert out == _same_timing(plain.eval(MIXED[language]), out)


def test_a_raising_callback_changes_nothing(
    language: str, tier: str, plain: Interpreter, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[str] = []

    def broken(stream: str, text: str) -> None:  # noqa: ARG001
        seen.append(text)
        raise ValueError("the consumer broke")

    with caplog.at_level(logging.WARNING, logger="langchain_graalvm"), interpreter(
        language, tier, on_output=broken
    ) as it:
        out = it.eval(MIXED[language])
        again = it.eval(MIXED[language])
    expected = plain.eval(MIXED[language])
    assert out == _same_timing(expected, out) and again == _same_timing(expected, again)
    assert "".join(seen) == "a\nb\nc\nd\ne\n" * 2
    reports = [r for r in caplog.records if "on_output" in r.getMessage()]
    assert len(reports) == 2  # once per eval, however many calls raised


def test_a_slow_callback_does_not_hold_the_eval(language: str, tier: str, plain: Interpreter) -> None:
    # The callback is held until the eval returned: the eval cannot wait for it, and its output still comes, in
    # order, once it is let go.
    release = threading.Event()
    got = Collected()

    def slow(stream: str, text: str) -> None:
        assert release.wait(BOUND)
        got(stream, text)

    with interpreter(language, tier, on_output=slow) as it:
        out = it.eval(MIXED[language])
        release.set()
        with got.lock:
            assert got.lock.wait_for(lambda: got.text() == "a\nb\nc\nd\ne\n", BOUND), got.calls
    assert out == _same_timing(plain.eval(MIXED[language]), out)
    assert [stream for stream, _ in got.runs()] == ["stdout", "stderr", "stdout", "stderr", "stdout"]


def test_a_print_flood_is_streamed_up_to_the_cap(language: str, tier: str, plain: Interpreter) -> None:
    got = Collected()
    with interpreter(language, tier, on_output=got) as it:
        out = it.eval(FLOOD[language])
    streamed = got.text()
    assert streamed.endswith(NOTICE)
    assert len(streamed) <= CAP + len(NOTICE)
    assert set(streamed[: -len(NOTICE)]) <= {"x", "\n"}
    # Batched: far fewer calls than the lines streamed.
    assert len(got.calls) < (len(streamed) // 40) // 10
    assert out == _same_timing(plain.eval(FLOOD[language]), out)
    assert out.stdout_dropped > 0


def test_aeval_streams_too(language: str) -> None:
    import asyncio

    got = Collected()

    async def main() -> str:
        with interpreter(language, "in-process", on_output=got) as it:
            return (await it.aeval(MIXED[language])).status

    assert asyncio.run(main()) == "ok"
    assert got.text() == "a\nb\nc\nd\ne\n"


def test_without_on_output_nothing_is_streamed(plain: Interpreter) -> None:
    # The interpreter binds no host calls of its own: the eval runs as it always did.
    assert plain._own_host(None) is None


def _same_timing(outcome: Any, like: Any) -> Any:
    """``outcome`` with the duration of ``like``: two runs of one cell differ in nothing else."""
    import dataclasses

    return dataclasses.replace(outcome, duration_s=like.duration_s)
