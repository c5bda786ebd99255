"""tools.* and task() for the Python guest (GraalPy), through real Deep Agents."""

from __future__ import annotations

from typing import Any

import pytest

from langchain_graalvm import CodeInterpreterMiddleware
from tests.agents import test_ptc as ptc_tests
from tests.agents.test_ptc import (
    GAUGE,
    SENT,
    Rendezvous,
    fail,
    kebab_lookup,
    nap,
    send_email,
    subagent_agent,
    system_text,
    web_search,
    with_call_id,
)
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn

pytestmark = [
    pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"),
]


@pytest.fixture(scope="module")
def agent() -> Any:
    mw = CodeInterpreterMiddleware(
        language="python",
        ptc=["web_search", "nap", "fail", "kebab-lookup", "with_call_id", "meet"],
        max_ptc_calls=12,
        timeout=30.0,
    )
    return build_agent(mw, tools=[web_search, nap, fail, kebab_lookup, with_call_id, ptc_tests.meet])


def test_tools_keep_their_python_names_and_return_native_values(agent: Any) -> None:
    out = results_of(agent.invoke(turn(
        "sorted(dir(tools))",
        "tools.web_search(query='q')",
        "d = tools.kebab_lookup(key='k'); (d['key'], d['1'], d['nested']['big'] == 2 ** 60, d['nested']['nan'] != d['nested']['nan'])",
        "tools.with_call_id(x=3).startswith('3:ptc_with_call_id_')",
        "tools.web_search('plain')",
    ), thread()))
    assert out[0] == "<result>['fail', 'kebab_lookup', 'meet', 'nap', 'web_search', 'with_call_id']</result>"
    assert out[1] == "<result>['q#0', 'q#1']</result>"
    assert out[2] == "<result>('k', 'one', True, True)</result>"
    assert out[3] == "<result>True</result>"
    assert out[4].startswith('<error type="ValidationError">tools.web_search: invalid arguments: query: Field required')


def test_started_calls_run_concurrently_and_gather_in_order(agent: Any) -> None:
    ptc_tests.MEETING = Rendezvous(10)
    out = results_of(agent.invoke(turn("tools.gather(*[tools.meet.start(i=i) for i in range(10)])"), thread()))
    # One after another, the first call would wait for the other nine until its 30 s timeout.
    assert out == [f"<result>{list(range(10))}</result>"]


def test_errors_raise_with_the_tools_type_and_message(agent: Any) -> None:
    out = results_of(agent.invoke(turn(
        "tools.fail(reason='disk')",
        "try:\n    tools.fail(reason='y')\nexcept RuntimeError as e:\n    caught = str(e)\ncaught",
        "tools.nothing_here()",
        "tools.web_search = None",
    ), thread()))
    assert out[0].startswith('<error type="RuntimeError">tools.fail failed: cannot: disk')
    assert out[1] == "<result>'tools.fail failed: cannot: y'</result>"
    assert out[2].startswith('<error type="AttributeError">no tool named \'nothing_here\'')
    assert out[3].startswith('<error type="AttributeError">tools is read-only')


def test_the_budget_holds_for_python_too(agent: Any) -> None:
    out = results_of(agent.invoke(turn(
        "[tools.nap(i=i, seconds=0) for i in range(13)]",
        "len(tools.gather(*[tools.nap.start(i=i, seconds=0) for i in range(12)]))",
    ), thread()))
    assert out[0].startswith(
        '<error type="PTCCallBudgetExceeded">PTC call budget exceeded (limit=12, attempted=13, function=tools.nap)'
    )
    assert out[1] == "<result>12</result>"  # the budget is per eval


def test_the_prompt_shows_python_stubs() -> None:
    chat = ScriptedChatModel()
    a = build_agent(CodeInterpreterMiddleware(language="python", ptc=["web_search"]), tools=[web_search], model=chat)
    a.invoke(turn("1"), thread())
    text = system_text(chat)
    assert "def tools.web_search(*, query: str, limit: int = ...) -> list[str]: ..." in text
    assert "tools.gather(*[tools.name.start(arg=x) for x in items])" in text


def test_approval_gated_tools_are_refused_from_python() -> None:
    SENT.clear()
    mw = CodeInterpreterMiddleware(language="python", ptc=["send_email"], interrupt_on={"send_email": True})
    a = build_agent(mw, tools=[send_email], interrupt_on={"send_email": True})
    out = results_of(a.invoke(turn("tools.send_email(to='x@example.com')"), thread()))
    assert out[0].startswith('<error type="ApprovalRequired">tools.send_email needs human approval')
    assert SENT == []


def test_the_wall_clock_cap_stops_a_python_eval_waiting_on_a_tool() -> None:
    GAUGE.cancelled = 0
    mw = CodeInterpreterMiddleware(language="python", ptc=["nap"], max_wall_time=2.0, timeout=30.0)
    a = build_agent(mw, tools=[nap])
    out = results_of(a.invoke(turn("tools.nap(i=1, seconds=60)"), thread()))
    assert out[0].startswith('<error type="TimeoutError">The eval ran for more than 2 s of wall-clock time')


def test_task_dispatches_subagents_from_python() -> None:
    a = subagent_agent(language="python")
    out = results_of(a.invoke(turn(
        "task(description='count to 3', subagent_type='worker')",
        "[p.result() for p in [task.start(description='a', subagent_type='worker'), task.start(description='b', subagent_type='worker')]]",
        "task(description='please FAIL', subagent_type='worker')",
    ), thread()))
    assert out[0] == "<result>'done: count to 3'</result>"
    assert out[1] == "<result>['done: a', 'done: b']</result>"
    assert out[2].startswith('<error type="RuntimeError">task failed: worker broke on: please FAIL')
