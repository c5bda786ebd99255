"""The eval tool streams what the guest prints as ``eval_output`` custom stream events, in a real Deep Agent."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, thread, turn

pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")

BOUND = 120.0  # how long a test waits for what must happen; never a measure of how fast it happens
SIGNAL = threading.Event()
TIERS = [pytest.param("in-process", id="in-process"), pytest.param("process", id="worker")]
LANGUAGES = [pytest.param("js", id="js"), pytest.param("python", id="python")]

CELLS = {
    "js": "console.log('first'); const r = await tools.waitForSignal({}); console.error(r); r",
    "python": "import sys\nprint('first')\nr = tools.wait_for_signal()\nprint(r, file=sys.stderr)\nr",
}
MIXED = {
    "js": "console.log('a'); console.warn('b'); console.log('c'); 42",
    "python": "import sys\nprint('a')\nprint('b', file=sys.stderr)\nprint('c')\n42",
}


@tool
def wait_for_signal() -> str:
    """Waits until the test has seen the cell's first line."""
    return "released" if SIGNAL.wait(BOUND) else "never released"


def agent(language: str, isolation: str = "in-process", **kwargs: Any) -> Any:
    mw = CodeInterpreterMiddleware(
        language=language,
        ptc=["wait_for_signal"],
        isolation=isolation,  # type: ignore[arg-type]
        timeout=60.0,
        **kwargs,
    )
    return build_agent(mw, tools=[wait_for_signal])


class Stream:
    """What one turn streamed: the eval_output events, and how many had come when each ToolMessage came."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.tool_messages: list[tuple[int, ToolMessage]] = []

    def take(self, mode: str, chunk: Any) -> None:
        if mode == "custom" and isinstance(chunk, dict) and chunk.get("type") == "eval_output":
            self.events.append(chunk)
            if "first" in self.text():
                SIGNAL.set()  # the tool the cell waits in returns only now
        elif mode == "updates" and isinstance(chunk, dict):
            for update in chunk.values():
                messages = update.get("messages", []) if isinstance(update, dict) else []
                for message in messages if isinstance(messages, list) else []:
                    if isinstance(message, ToolMessage):
                        self.tool_messages.append((len(self.events), message))

    def text(self) -> str:
        return "".join(event["text"] for event in self.events)

    def streams(self) -> list[str]:
        runs: list[str] = []
        for event in self.events:
            if not runs or runs[-1] != event["stream"]:
                runs.append(event["stream"])
        return runs


def check(seen: Stream) -> None:
    (before, message), = seen.tool_messages
    assert "released" in str(message.content), message.content
    assert seen.text() == "first\nreleased\n"
    assert seen.streams() == ["stdout", "stderr"]
    assert {event["eval_id"] for event in seen.events} == {message.tool_call_id}
    assert set(seen.events[0]) == {"type", "stream", "text", "eval_id"}
    assert before == len(seen.events)  # every event came before the eval's ToolMessage


@pytest.mark.parametrize("isolation", TIERS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_output_events_stream_while_the_cell_runs(language: str, isolation: str) -> None:
    SIGNAL.clear()
    seen = Stream()
    for mode, chunk in agent(language, isolation).stream(
        turn(CELLS[language]), thread(), stream_mode=["custom", "updates"]
    ):
        seen.take(mode, chunk)
    check(seen)


async def test_output_events_stream_from_an_async_run() -> None:
    SIGNAL.clear()
    seen = Stream()
    async for mode, chunk in agent("js").astream(turn(CELLS["js"]), thread(), stream_mode=["custom", "updates"]):
        seen.take(mode, chunk)
    check(seen)


@pytest.mark.parametrize("language", LANGUAGES)
def test_stream_output_false_sends_none_and_the_envelope_is_the_same(language: str) -> None:
    quiet, loud = Stream(), Stream()
    for mw_stream, seen in ((False, quiet), (True, loud)):
        for mode, chunk in agent(language, stream_output=mw_stream).stream(
            turn(MIXED[language]), thread(), stream_mode=["custom", "updates"]
        ):
            seen.take(mode, chunk)
    assert quiet.events == []
    assert loud.text() == "a\nb\nc\n" and loud.streams() == ["stdout", "stderr", "stdout"]
    assert [m.content for _, m in quiet.tool_messages] == [m.content for _, m in loud.tool_messages]


def test_an_event_names_its_eval() -> None:
    got: list[Any] = []

    class Runtime:
        tool_call_id = "call_1"
        stream_writer = staticmethod(got.append)

    from langchain_graalvm.agents._evaltool import output_events

    write = output_events(Runtime())
    assert write is not None
    write("stderr", "boom\n")
    assert got == [{"type": "eval_output", "stream": "stderr", "text": "boom\n", "eval_id": "call_1"}]
