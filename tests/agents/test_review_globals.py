"""The globals of cells that may pause for review: two evals of one turn, a start that cannot be saved, and the
evals that need no start snapshot at all."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.agents import _slots
from tests.support.scripted import ParallelScriptedChatModel, ScriptedChatModel, build_agent, results_of, thread, turn

pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")

SENT: list[str] = []


@tool
def send_email(to: str) -> str:
    """Sends an email."""
    SENT.append(to)
    return f"sent to {to}"


@tool
def lookup(key: str) -> str:
    """Looks a key up."""
    return key.upper()


@pytest.fixture(autouse=True)
def _clean() -> None:
    SENT.clear()


def agent_of(model: ScriptedChatModel, interrupt_on: dict[str, Any] | None = None, **kw: Any) -> Any:
    mw = CodeInterpreterMiddleware(ptc=["send_email", "lookup"], timeout=20.0, **kw)
    return build_agent(
        mw, tools=[send_email, lookup], checkpointer=InMemorySaver(), model=model,
        interrupt_on={"send_email": True} if interrupt_on is None else interrupt_on,
    )


def go(agent: Any, payload: Any, config: dict[str, Any], use_async: bool) -> dict[str, Any]:
    if use_async:
        return asyncio.run(agent.ainvoke(payload, config))
    return agent.invoke(payload, config)


PAUSING = "globalThis.a = 1;\nawait tools.sendEmail({to: 'ann@example.com'});\n'a done'"
PLAIN = "globalThis.b = 1;\n'b done'"


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("order", ["pausing-first", "pausing-second"])
def test_two_evals_of_one_turn_keep_each_others_globals_across_a_pause(order: str, use_async: bool) -> None:
    agent = agent_of(ParallelScriptedChatModel())
    config = thread()
    cells = [PAUSING, PLAIN] if order == "pausing-first" else [PLAIN, PAUSING]
    for _ in range(2):  # each eval's globals, whichever of them the slot runs first
        state = go(agent, turn(*cells), config, use_async)
        assert state.get("__interrupt__"), results_of(state)
        out = results_of(go(agent, Command(resume={"decisions": [{"type": "approve"}]}), config, use_async))
        assert sorted(out) == ["<result>a done</result>", "<result>b done</result>"]
        after = results_of(go(agent, turn("[globalThis.a, globalThis.b]"), config, use_async))
        assert after == ["<result>[1, 1]</result>"]
        results_of(go(agent, turn("delete globalThis.a; delete globalThis.b"), config, use_async))
    assert SENT == ["ann@example.com"] * 2


def test_a_paused_eval_does_not_roll_back_what_a_concurrent_eval_of_its_turn_set() -> None:
    agent = agent_of(ParallelScriptedChatModel())
    config = thread()
    counting = "globalThis.n = (globalThis.n || 0) + 1;\nawait tools.sendEmail({to: 'ann@example.com'});\nn"
    plain = "globalThis.log = (globalThis.log || []).concat(['plain']);\nlog.length"
    state = asyncio.run(agent.ainvoke(turn(counting, plain), config))
    assert state.get("__interrupt__")
    out = results_of(asyncio.run(agent.ainvoke(Command(resume={"decisions": [{"type": "approve"}]}), config)))
    assert sorted(out) == ["<result>1</result>", "<result>1</result>"]
    after = results_of(asyncio.run(agent.ainvoke(turn("[n, log]"), config)))
    assert after == ['<result>[1, ["plain"]]</result>']


# ------------------------------------------------------------------------------------------------ unsaved start

BIG = "globalThis.big = 'x'.repeat(50000); big.length"
COUNTING = (
    "globalThis.counter = (globalThis.counter || 0) + 1;\n"
    "await tools.lookup({key: 'k'});\n"
    "await tools.sendEmail({to: 'ann@example.com'});\n"
    "counter"
)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_a_cell_whose_start_cannot_be_saved_refuses_the_review_and_applies_its_globals_once(use_async: bool) -> None:
    agent = agent_of(ScriptedChatModel(), max_snapshot_bytes=20_000)
    config = thread()
    state = go(agent, turn(BIG, COUNTING, "counter"), config, use_async)
    assert not state.get("__interrupt__"), "the run paused on globals it cannot restore"
    out = results_of(state)
    assert out[0] == "<result>50000</result>"
    assert out[1].startswith(
        '<error type="ApprovalRequired">tools.sendEmail needs human approval, and the globals this cell started '
        "from could not be saved"
    ), out[1]
    assert "max_snapshot_bytes" in out[1]
    assert out[2] == "<result>1</result>"
    assert SENT == []


def test_a_snapshot_error_at_a_cells_start_refuses_its_reviewed_calls_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: _slots.Slot, max_bytes: int | None) -> bytes:  # noqa: ARG001
        raise RuntimeError("the codec broke")

    monkeypatch.setattr(_slots.Slot, "snapshot_held", broken)
    agent = agent_of(ScriptedChatModel())
    state = go(agent, turn(COUNTING, "counter"), thread(), True)
    assert not state.get("__interrupt__")
    out = results_of(state)
    assert out[0].startswith(
        '<error type="ApprovalRequired">tools.sendEmail needs human approval, and the globals this cell started '
        "from could not be saved (the codec broke), so the run cannot pause for the review."
    ), out[0]
    assert out[1] == "<result>1</result>"
    assert SENT == []


def test_a_cell_whose_start_cannot_be_saved_still_runs_calls_that_need_no_review() -> None:
    agent = agent_of(ScriptedChatModel(), max_snapshot_bytes=20_000)
    state = go(agent, turn(BIG, "[await tools.lookup({key: 'a'}), typeof big]"), thread(), True)
    assert results_of(state) == ["<result>50000</result>", '<result>["A", "string"]</result>']


# ------------------------------------------------------------------------------------------------ no snapshot needed


@pytest.fixture
def snapshots(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The slot ids whose globals were snapshotted, one entry per snapshot."""
    taken: list[str] = []
    original = _slots.Slot.snapshot_held

    def counting(self: _slots.Slot, max_bytes: int | None) -> bytes:
        taken.append(self.slot_id)
        return original(self, max_bytes)

    monkeypatch.setattr(_slots.Slot, "snapshot_held", counting)
    return taken


@pytest.mark.parametrize("interrupt_on", [{}, {"write_file": True}], ids=["no-review", "no-reviewed-ptc-tool"])
def test_evals_that_cannot_reach_a_reviewed_tool_take_no_start_snapshot(
    interrupt_on: dict[str, Any], snapshots: list[str]
) -> None:
    agent = agent_of(ScriptedChatModel(), interrupt_on=interrupt_on, mode="turn")
    out = results_of(go(agent, turn("globalThis.x = 1", "[x, await tools.lookup({key: 'b'})]"), thread(), True))
    assert out == ["<result>1</result>", '<result>[1, "B"]</result>']
    assert snapshots == []


def test_evals_that_can_reach_a_reviewed_tool_take_one_start_snapshot_each(snapshots: list[str]) -> None:
    agent = agent_of(ScriptedChatModel(), mode="turn")
    out = results_of(go(agent, turn("globalThis.x = 1", "[x, await tools.lookup({key: 'b'})]"), thread(), True))
    assert out == ["<result>1</result>", '<result>[1, "B"]</result>']
    assert len(snapshots) == 2


def test_a_cell_on_globals_no_eval_changed_since_they_were_restored_reuses_their_payload(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from langchain_graalvm.interpreter import Interpreter

    agent = agent_of(ScriptedChatModel())
    config = thread()
    assert results_of(go(agent, turn("globalThis.x = 1"), config, True)) == ["<result>1</result>"]
    taken: list[int] = []
    original = Interpreter.snapshot

    def counting(self: Interpreter, max_bytes: int | None = None) -> bytes:
        taken.append(1)
        return original(self, max_bytes)

    monkeypatch.setattr(Interpreter, "snapshot", counting)
    pausing = "globalThis.x = 5; await tools.sendEmail({to: 'ann@example.com'}); x"
    state = go(agent, turn("x + 1", pausing), config, True)
    assert state.get("__interrupt__")
    assert len(taken) == 1  # the second cell's start: the first starts on the thread's stored globals
    out = results_of(go(agent, Command(resume={"decisions": [{"type": "approve"}]}), config, True))
    assert out == ["<result>2</result>", "<result>5</result>"]
    assert len(taken) == 2  # the turn's end, to store the globals
    assert results_of(go(agent, turn("x"), config, True)) == ["<result>5</result>"]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync-max-concurrency", "async"])
def test_a_turn_with_more_parallel_evals_under_review_than_default_workers_finishes(use_async: bool) -> None:
    # Each recorded call of a synchronous run needs a worker of the run's thread pool while each eval holds one:
    # with the default pool (6 workers on 2 cores) eight evals never finish; ainvoke has no pool, and a run given a
    # larger max_concurrency has room (docs/tools.md).
    agent = agent_of(ParallelScriptedChatModel())
    cells = [f"globalThis.v{i} = await tools.lookup({{key: 'k{i}'}}); v{i}" for i in range(8)]
    config = thread()
    if not use_async:
        config["max_concurrency"] = 32
    out = results_of(go(agent, turn(*cells), config, use_async))
    assert sorted(out) == sorted(f"<result>K{i}</result>" for i in range(8))
    after = results_of(go(agent, turn("[v0, v7]"), config, use_async))
    assert after == ['<result>["K0", "K7"]</result>']
