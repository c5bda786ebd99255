"""Calls from code to tools the agent reviews (``create_deep_agent(interrupt_on=...)``): the run pauses with the
Human-in-the-Loop middleware's own ``HITLRequest``, resumes with its decisions, and nothing runs twice."""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from typing import Any

import pytest
from langchain.agents.middleware import InterruptOnConfig
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import ParallelScriptedChatModel, ScriptedChatModel, build_agent, results_of, thread, turn

pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")

COUNTS: collections.Counter[str] = collections.Counter()
SENT: list[str] = []


@tool
def bump(name: str) -> int:
    """Adds one to the counter `name` and returns its new value."""
    COUNTS[name] += 1
    return COUNTS[name]


@tool
def send_email(to: str, body: str = "") -> str:  # noqa: ARG001 - the body is not kept
    """Sends an email."""
    SENT.append(to)
    return f"sent to {to}"


@pytest.fixture(autouse=True)
def _clean() -> None:
    COUNTS.clear()
    SENT.clear()


def reviewed_agent(
    interrupt_on: dict[str, Any] | None = None, *, checkpointer: Any = True, timeout: float = 20.0, **kw: Any
) -> Any:
    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=timeout, **kw)
    saver = InMemorySaver() if checkpointer is True else checkpointer
    model = ScriptedChatModel()
    agent = build_agent(
        mw, tools=[bump, send_email], checkpointer=saver, model=model,
        interrupt_on=interrupt_on if interrupt_on is not None else {"send_email": True},
    )
    agent.chat = model
    return agent


class Run:
    """One thread of an agent, driven sync or async, turn by turn and resume by resume."""

    def __init__(self, agent: Any, use_async: bool) -> None:
        self.agent = agent
        self.use_async = use_async
        self.config = thread()

    def _go(self, payload: Any) -> dict[str, Any]:
        if self.use_async:
            return asyncio.run(self.agent.ainvoke(payload, self.config))
        return self.agent.invoke(payload, self.config)

    def start(self, *cells: str) -> dict[str, Any]:
        return self._go(turn(*cells))

    def resume(self, *decisions: dict[str, Any]) -> dict[str, Any]:
        return self._go(Command(resume={"decisions": list(decisions)}))


def request_of(state: dict[str, Any]) -> dict[str, Any]:
    interrupts = state.get("__interrupt__")
    assert interrupts, f"the run did not pause: {state['messages'][-1].content!r}"
    assert len(interrupts) == 1
    return interrupts[0].value


EMAIL_CELL = (
    "const before = await tools.bump({name: 'before'});\n"
    "const sent = await tools.sendEmail({to: 'ann@example.com', body: 'hi'});\n"
    "const after = await tools.bump({name: 'after'});\n"
    "[before, sent, after]"
)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_approved_call_pauses_then_runs_once_and_earlier_calls_are_not_repeated(use_async: bool) -> None:
    run = Run(reviewed_agent(), use_async)
    request = request_of(run.start(EMAIL_CELL))
    assert request == {
        "action_requests": [
            {
                "name": "send_email",
                "args": {"to": "ann@example.com", "body": "hi"},
                "description": "Tool execution requires approval\n\nTool: send_email\n"
                "Args: {'to': 'ann@example.com', 'body': 'hi'}",
            }
        ],
        "review_configs": [
            {"action_name": "send_email", "allowed_decisions": ["approve", "edit", "reject", "respond"]}
        ],
    }
    assert COUNTS == {"before": 1}
    assert SENT == []
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>[1, "sent to ann@example.com", 1]</result>']
    assert COUNTS == {"before": 1, "after": 1}
    assert SENT == ["ann@example.com"]


def test_edit_runs_the_tool_with_the_reviewers_arguments() -> None:
    run = Run(reviewed_agent(), True)
    request_of(run.start(EMAIL_CELL))
    edited = {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "boss@example.com"}}}
    out = results_of(run.resume(edited))
    assert out == ['<result>[1, "sent to boss@example.com", 1]</result>']
    assert SENT == ["boss@example.com"]


def test_reject_throws_a_catchable_error_with_the_reviewers_message() -> None:
    run = Run(reviewed_agent(), True)
    cell = (
        "let seen;\n"
        "try { await tools.sendEmail({to: 'ann@example.com'}) } catch (e) { seen = [e.name, e.message] }\n"
        "seen"
    )
    request_of(run.start(cell))
    out = results_of(run.resume({"type": "reject", "message": "not to Ann"}))
    assert out == [
        '<result>["ToolRejected", "tools.sendEmail: the reviewer rejected this call: not to Ann"]</result>'
    ]
    assert SENT == []


def test_respond_gives_the_reviewers_text_as_the_result() -> None:
    run = Run(reviewed_agent(), True)
    request_of(run.start("await tools.sendEmail({to: 'ann@example.com'})"))
    out = results_of(run.resume({"type": "respond", "message": "Ann is on leave"}))
    assert out == ["<result>Ann is on leave</result>"]
    assert SENT == []


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_two_approvals_in_one_cell_pause_twice_and_run_each_side_effect_once(use_async: bool) -> None:
    run = Run(reviewed_agent(), use_async)
    cell = (
        "const a = await tools.sendEmail({to: 'a@example.com'});\n"
        "const n = await tools.bump({name: 'between'});\n"
        "const b = await tools.sendEmail({to: 'b@example.com'});\n"
        "[a, n, b, await tools.bump({name: 'end'})]"
    )
    first = request_of(run.start(cell))
    assert [a["args"]["to"] for a in first["action_requests"]] == ["a@example.com"]
    second = request_of(run.resume({"type": "approve"}))
    assert [a["args"]["to"] for a in second["action_requests"]] == ["b@example.com"]
    assert SENT == ["a@example.com"]
    assert COUNTS == {"between": 1}
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>["sent to a@example.com", 1, "sent to b@example.com", 1]</result>']
    assert SENT == ["a@example.com", "b@example.com"]
    assert COUNTS == {"between": 1, "end": 1}


def test_calls_started_together_are_reviewed_in_one_interrupt() -> None:
    run = Run(reviewed_agent(), True)
    cell = (
        "await tools.bump({name: 'first'});\n"
        "const mails = ['a', 'b', 'c'].map((x) => tools.sendEmail({to: x + '@example.com'}));\n"
        "const settled = await Promise.allSettled(mails);\n"
        "settled.map((s) => s.status === 'fulfilled' ? s.value : s.reason.name)"
    )
    request = request_of(run.start(cell))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["a@example.com", "b@example.com", "c@example.com"]
    assert [r["action_name"] for r in request["review_configs"]] == ["send_email"] * 3
    out = results_of(
        run.resume(
            {"type": "approve"},
            {"type": "reject"},
            {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "z@example.com"}}},
        )
    )
    assert out == ['<result>["sent to a@example.com", "ToolRejected", "sent to z@example.com"]</result>']
    assert SENT == ["a@example.com", "z@example.com"]
    assert COUNTS == {"first": 1}


def test_when_predicate_lets_some_calls_through_without_review() -> None:
    rule = InterruptOnConfig(
        allowed_decisions=["approve", "reject"],
        description="Mail leaving the company",
        when=lambda request: not request.tool_call["args"]["to"].endswith("@example.com"),
    )
    run = Run(reviewed_agent({"send_email": rule}), True)
    cell = (
        "const inside = await tools.sendEmail({to: 'ann@example.com'});\n"
        "const outside = await tools.sendEmail({to: 'bob@elsewhere.org'});\n"
        "[inside, outside]"
    )
    request = request_of(run.start(cell))
    assert request["action_requests"] == [
        {"name": "send_email", "args": {"to": "bob@elsewhere.org"}, "description": "Mail leaving the company"}
    ]
    assert request["review_configs"] == [{"action_name": "send_email", "allowed_decisions": ["approve", "reject"]}]
    assert SENT == ["ann@example.com"]
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>["sent to ann@example.com", "sent to bob@elsewhere.org"]</result>']
    assert SENT == ["ann@example.com", "bob@elsewhere.org"]


def test_a_decision_the_rule_does_not_allow_ends_the_eval_with_a_clear_error() -> None:
    rule = InterruptOnConfig(allowed_decisions=["approve", "reject"])
    run = Run(reviewed_agent({"send_email": rule}), True)
    request_of(run.start("await tools.sendEmail({to: 'ann@example.com'})"))
    out = results_of(run.resume({"type": "respond", "message": "hi"}))
    assert out[0].startswith('<error type="ReplayError">')
    assert "'respond' for `send_email` is not one of its allowed decisions" in out[0]
    assert SENT == []


def test_a_resumed_cell_starts_again_from_the_globals_it_started_with() -> None:
    run = Run(reviewed_agent(), True)
    cell = (
        "globalThis.runs = (globalThis.runs || 0) + 1;\n"
        "globalThis.marker = 'set';\n"
        "await tools.bump({name: 'run' + runs});\n"
        "await tools.sendEmail({to: 'ann@example.com'});\n"
        "[runs, marker]"
    )
    request_of(run.start("globalThis.runs = 10; typeof marker", cell))
    out = results_of(run.resume({"type": "approve"}))
    assert out == ["<result>undefined</result>", '<result>[11, "set"]</result>']
    assert COUNTS == {"run11": 1}


def test_a_cell_that_makes_other_calls_when_resumed_ends_with_a_clear_error() -> None:
    run = Run(reviewed_agent(clock="host"), True)
    host_time = "await tools.bump({name: String(Date.now())});\nawait tools.sendEmail({to: 'ann@example.com'})"
    request_of(run.start(host_time))
    out = results_of(run.resume({"type": "approve"}))
    assert out[0].startswith(
        '<error type="ReplayError">the cell cannot be resumed after the review: its host call #1 on the re-run '
        "(tools.bump) is not the call the paused run made"
    ), out
    assert SENT == []
    assert len(COUNTS) == 1


RANDOM_CELL = (
    "const pick = Math.random().toString(36).slice(2);\n"
    "const before = await tools.bump({name: pick});\n"
    "await tools.sendEmail({to: pick + '@example.com'});\n"
    "[pick, before, Math.random() < 1]"
)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_a_cell_whose_calls_depend_on_math_random_resumes_with_the_same_numbers(use_async: bool) -> None:
    resumes_with_the_same_pick(Run(reviewed_agent(), use_async), RANDOM_CELL, '<result>["{pick}", 1, true]</result>')


def resumes_with_the_same_pick(run: Run, cell: str, result: str) -> None:
    """The cell draws a `pick`, bumps the counter of that name, then sends to `pick@example.com` after review: the
    re-run draws the same pick, so each call runs once, with the same arguments."""
    request = request_of(run.start(cell))
    [to] = [action["args"]["to"] for action in request["action_requests"]]
    pick = to.removesuffix("@example.com")
    assert COUNTS == {pick: 1}
    out = results_of(run.resume({"type": "approve"}))
    assert out == [result.format(pick=pick)]
    assert COUNTS == {pick: 1}
    assert SENT == [to]


def test_each_cell_under_review_draws_its_own_numbers_and_other_cells_keep_the_engines() -> None:
    run = Run(reviewed_agent(), True)
    request_of(run.start(RANDOM_CELL))
    results_of(run.resume({"type": "approve"}))
    request = request_of(run.start(RANDOM_CELL))
    results_of(run.resume({"type": "approve"}))
    assert len(COUNTS) == 2, COUNTS  # a fresh seed for the second cell: other numbers, another counter
    assert len(set(SENT)) == 2
    out = results_of(run.start("[Math.random() !== Math.random(), typeof Math.random]"))
    assert out == ['<result>[true, "function"]</result>']
    assert request["action_requests"][0]["args"]["to"] == SENT[1]


def test_globals_of_a_paused_cell_are_applied_once() -> None:
    run = Run(reviewed_agent(), True)
    cell = "globalThis.n = (globalThis.n || 0) + 1;\nawait tools.sendEmail({to: 'ann@example.com'});\nn"
    request_of(run.start("globalThis.n = 5; n", cell, "n"))
    out = results_of(run.resume({"type": "approve"}))
    assert out == ["<result>5</result>", "<result>6</result>", "<result>6</result>"]


@pytest.mark.parametrize("mode", ["turn", "call"])
def test_review_pauses_and_resumes_in_every_mode(mode: str) -> None:
    run = Run(reviewed_agent(mode=mode), True)
    request_of(run.start(EMAIL_CELL))
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>[1, "sent to ann@example.com", 1]</result>']
    assert COUNTS == {"before": 1, "after": 1}
    assert SENT == ["ann@example.com"]


def test_without_a_checkpointer_reviewed_tools_are_refused_and_say_why() -> None:
    run = Run(reviewed_agent(checkpointer=None), True)
    out = results_of(run.start("await tools.sendEmail({to: 'ann@example.com'})", "await tools.bump({name: 'x'})"))
    assert out[0].startswith('<error type="ApprovalRequired">tools.sendEmail needs human approval, and the agent has '
                             "no checkpointer, so the run cannot pause for the review.")
    assert out[1] == "<result>1</result>"
    assert SENT == []


def test_the_prompt_says_which_tools_pause_for_review() -> None:
    agent = reviewed_agent()
    Run(agent, True).start("1")
    content = agent.chat.seen[0][0].content
    text = content if isinstance(content, str) else "".join(
        block["text"] if isinstance(block, dict) else str(block) for block in content
    )
    assert "`tools.sendEmail` pause the run for a human's review" in text
    assert "ApprovalRequired" not in text


def test_interrupt_on_given_only_to_the_middleware_warns_and_refuses(caplog: pytest.LogCaptureFixture) -> None:
    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], interrupt_on={"send_email": True})
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm.middleware"):
        agent = build_agent(mw, tools=[bump, send_email], checkpointer=InMemorySaver())
    assert "names send_email, which the agent does not review" in caplog.text
    out = results_of(Run(agent, True).start("await tools.sendEmail({to: 'ann@example.com'})"))
    assert out[0].startswith('<error type="ApprovalRequired">tools.sendEmail needs human approval')
    assert SENT == []


def test_review_request_is_json_for_any_client() -> None:
    run = Run(reviewed_agent(), True)
    request = request_of(run.start(EMAIL_CELL))
    assert json.loads(json.dumps(request)) == request


PYTHON_CELL = """\
before = tools.bump(name='before')
sent = tools.gather(*[tools.send_email.start(to=x) for x in ['a@example.com', 'b@example.com']])
try:
    tools.send_email(to='c@example.com')
    third = 'sent'
except Exception as e:
    third = type(e).__name__ + ': ' + str(e)
[before, sent, third, tools.bump(name='after')]"""


def test_python_guest_pauses_for_review_batches_gathered_calls_and_replays() -> None:
    # GraalPy's first cell can be slow on a loaded machine; the limit is not what is tested here.
    run = Run(reviewed_agent(language="python", timeout=120.0), False)
    first = request_of(run.start(PYTHON_CELL))
    assert [a["args"] for a in first["action_requests"]] == [{"to": "a@example.com"}, {"to": "b@example.com"}]
    assert COUNTS == {"before": 1}
    second = request_of(run.resume({"type": "approve"}, {"type": "respond", "message": "b is away"}))
    assert [a["args"] for a in second["action_requests"]] == [{"to": "c@example.com"}]
    assert SENT == ["a@example.com"]
    out = results_of(run.resume({"type": "reject", "message": "not c"}))
    assert out == [
        "<result>[1, ['sent to a@example.com', 'b is away'], "
        "'ToolRejected: tools.send_email: the reviewer rejected this call: not c', 1]</result>"
    ]
    assert SENT == ["a@example.com"]
    assert COUNTS == {"before": 1, "after": 1}


PYTHON_RANDOM_CELL = """\
import random
pick = '%x-%d-%s' % (random.getrandbits(48), random.randint(0, 10**9), random.choice('abcdef'))
before = tools.bump(name=pick)
tools.send_email(to=pick + '@example.com')
[pick, before]"""


def test_python_guest_cell_whose_calls_depend_on_random_resumes_with_the_same_numbers() -> None:
    # GraalPy's first cell can be slow on a loaded machine; the limit is not what is tested here.
    run = Run(reviewed_agent(language="python", timeout=120.0), False)
    resumes_with_the_same_pick(run, PYTHON_RANDOM_CELL, "<result>['{pick}', 1]</result>")


def worker_subagent() -> tuple[Any, dict[str, Any]]:
    """A subagent whose model counts its calls on the gauge returned with it."""
    from tests.agents.test_ptc import Gauge, WorkerModel

    gauge = Gauge()
    worker = {
        "name": "worker",
        "description": "Does one small job.",
        "system_prompt": "You do small jobs.",
        "model": WorkerModel(gauge=gauge),
    }
    return gauge, worker


def test_subagents_and_file_writes_before_a_pause_happen_once() -> None:
    gauge, worker = worker_subagent()
    mw = CodeInterpreterMiddleware(ptc=["send_email"], files="read-write", timeout=20.0)
    agent = build_agent(
        mw, tools=[send_email], checkpointer=InMemorySaver(), subagents=[worker], interrupt_on={"send_email": True}
    )
    run = Run(agent, True)
    cell = (
        "const job = await task({description: 'count to three', subagentType: 'worker'});\n"
        "await fs.writeFile('/out/before.txt', job);\n"
        "const sent = await tools.sendEmail({to: 'ann@example.com'});\n"
        "await fs.writeFile('/out/after.txt', sent);\n"
        "[job, sent, (await fs.readdir('/out')).sort()]"
    )
    request_of(run.start(cell))
    assert gauge.calls == 1
    state = run.resume({"type": "approve"})
    assert results_of(state) == [
        '<result>["done: count to three", "sent to ann@example.com", ["after.txt", "before.txt"]]</result>'
    ]
    assert gauge.calls == 1
    assert SENT == ["ann@example.com"]
    assert state["files"]["/out/before.txt"]["content"] == "done: count to three"
    assert state["files"]["/out/after.txt"]["content"] == "sent to ann@example.com"


def test_two_evals_of_one_turn_that_pause_are_answered_by_interrupt_id() -> None:
    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=20.0, mode="call")
    agent = build_agent(
        mw, tools=[bump, send_email], checkpointer=InMemorySaver(), model=ParallelScriptedChatModel(),
        interrupt_on={"send_email": True},
    )
    config = thread()
    cells = [
        f"await tools.bump({{name: '{who}'}}); await tools.sendEmail({{to: '{who}@example.com'}})"
        for who in ("ann", "bob")
    ]
    state = asyncio.run(agent.ainvoke(turn(*cells), config))
    pending = {i.id: i.value["action_requests"][0]["args"]["to"] for i in state["__interrupt__"]}
    assert sorted(pending.values()) == ["ann@example.com", "bob@example.com"]
    answers = {
        interrupt_id: {"decisions": [{"type": "approve"} if to.startswith("ann") else {"type": "reject"}]}
        for interrupt_id, to in pending.items()
    }
    out = results_of(asyncio.run(agent.ainvoke(Command(resume=answers), config)))
    assert sorted(out) == [
        '<error type="ToolRejected">tools.sendEmail: the reviewer rejected this call; it did not run. Do not retry '
        "it unless the user asks.</error>",
        "<result>sent to ann@example.com</result>",
    ]
    assert SENT == ["ann@example.com"]
    assert COUNTS == {"ann": 1, "bob": 1}


def test_an_unreviewed_call_beside_a_reviewed_one_runs_once_across_the_pause() -> None:
    run = Run(reviewed_agent(), True)
    cell = (
        "const [sent, n] = await Promise.all([\n"
        "  tools.sendEmail({to: 'ann@example.com'}), tools.bump({name: 'beside'})]);\n"
        "[sent, n, await tools.bump({name: 'end'})]"
    )
    request = request_of(run.start(cell))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["ann@example.com"]
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>["sent to ann@example.com", 1, 1]</result>']
    assert SENT == ["ann@example.com"]
    assert COUNTS == {"beside": 1, "end": 1}


def test_an_answer_with_more_decisions_than_requested_ends_the_eval_without_approving_the_next_call() -> None:
    run = Run(reviewed_agent(), True)
    cell = "await tools.sendEmail({to: 'ann@example.com'});\nawait tools.sendEmail({to: 'bob@example.com'})"
    request_of(run.start(cell))
    out = results_of(run.resume({"type": "approve"}, {"type": "approve"}))
    assert out[0].startswith('<error type="ReplayError">the review\'s answer has 2 decisions for 1 reviewed call;'), out
    assert SENT == []


def _raises(request: Any) -> bool:
    raise ValueError("no rule for " + request.tool_call["args"]["to"])


def test_a_when_predicate_that_raises_fails_the_call_and_the_cell_goes_on() -> None:
    rule = InterruptOnConfig(allowed_decisions=["approve"], when=_raises)
    run = Run(reviewed_agent({"send_email": rule}), True)
    cell = (
        "let seen;\n"
        "try { await tools.sendEmail({to: 'ann@example.com'}) } catch (e) { seen = [e.name, e.message] }\n"
        "[seen, await tools.bump({name: 'after'})]"
    )
    out = results_of(run.start(cell))
    assert out == [
        '<result>[["ReviewRuleError", "tools.sendEmail: the review rule of `send_email` failed: '
        'no rule for ann@example.com"], 1]</result>'
    ], out
    assert SENT == []
    assert COUNTS == {"after": 1}


def test_file_writes_and_subagents_from_code_are_refused_when_the_agent_reviews_their_tools() -> None:
    gauge, worker = worker_subagent()
    mw = CodeInterpreterMiddleware(ptc=["bump"], files="read-write", timeout=20.0)
    model = ScriptedChatModel()
    agent = build_agent(
        mw, tools=[bump], checkpointer=InMemorySaver(), subagents=[worker], model=model,
        interrupt_on={"write_file": True, "edit_file": True, "task": True},
    )
    cell = (
        "const seen = [];\n"
        "for (const f of [() => fs.writeFile('/out/a.txt', 'x'), () => fs.rm('/out/a.txt'),\n"
        "                 () => task({description: 'count', subagentType: 'worker'})]) {\n"
        "  try { await f(); seen.push('ran') } catch (e) { seen.push(e.name + ': ' + e.message) }\n"
        "}\n"
        "seen.push(await tools.bump({name: 'x'}));\n"
        "seen"
    )
    state = Run(agent, True).start(cell)
    [out] = results_of(state)
    seen = json.loads(out.removeprefix("<result>").removesuffix("</result>"))
    assert seen[0] == (
        "ApprovalRequired: fs.writeFile needs human approval: the agent reviews the `write_file` or `edit_file` "
        "tool. Call that tool directly (as its own tool call) so it can be reviewed."
    )
    assert seen[1].startswith("ApprovalRequired: fs.rm needs human approval")
    assert seen[2].startswith("ApprovalRequired: task() needs human approval: the agent reviews the `task` tool.")
    assert seen[3] == 1
    assert gauge.calls == 0
    assert "/out/a.txt" not in (state.get("files") or {})
    content = model.seen[0][0].content
    prompt = content if isinstance(content, str) else "".join(
        block["text"] if isinstance(block, dict) else str(block) for block in content
    )
    assert (
        "From code, file writes and removals through `fs` and `task` (subagents) are refused with "
        "`ApprovalRequired`: the agent reviews `edit_file`, `task`, `write_file`. Call those tools directly instead."
    ) in prompt


@pytest.mark.parametrize("reviewed_first", [True, False], ids=["reviewed-built-first", "reviewed-built-last"])
def test_one_middleware_shared_by_two_agents_follows_each_agents_own_review_policy(reviewed_first: bool) -> None:
    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=20.0)

    def build(interrupt_on: dict[str, Any] | None) -> Any:
        return build_agent(mw, tools=[bump, send_email], checkpointer=InMemorySaver(), interrupt_on=interrupt_on)

    if reviewed_first:
        reviewed, free = build({"send_email": True}), build(None)
    else:
        free, reviewed = build(None), build({"send_email": True})
    cell = "await tools.sendEmail({to: 'ann@example.com'})"
    assert results_of(Run(free, True).start(cell)) == ["<result>sent to ann@example.com</result>"]
    assert SENT == ["ann@example.com"]
    run = Run(reviewed, True)
    request = request_of(run.start(cell.replace("ann", "bob")))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["bob@example.com"]
    assert SENT == ["ann@example.com"]
    assert results_of(run.resume({"type": "approve"})) == ["<result>sent to bob@example.com</result>"]
    assert SENT == ["ann@example.com", "bob@example.com"]


def test_a_middleware_shared_by_agents_built_without_end_keeps_only_the_tools_of_live_agents() -> None:
    import gc
    import time

    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=20.0)

    def build() -> Any:  # a new reviewer each time, as create_deep_agent(interrupt_on=...) per request makes
        return build_agent(mw, tools=[bump, send_email], checkpointer=InMemorySaver(),
                           interrupt_on={"send_email": True})

    kept = build()
    for _ in range(25):
        build()
    # gc.collect() does nothing while another thread's collection is under way (JPype's hook on the collector can
    # hand the JVM's collector a turn with the GIL released): collect until the dropped agents' tools are gone.
    for _ in range(100):
        gc.collect()
        if len(mw._agent_tools) == 1:  # noqa: SLF001 - the bookkeeping is what is tested
            break
        time.sleep(0.1)
    assert len(mw._agent_tools) == 1  # noqa: SLF001
    # The agent still alive keeps its own policy: a call from code still pauses for review.
    run = Run(kept, True)
    request = request_of(run.start("await tools.sendEmail({to: 'bob@example.com'})"))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["bob@example.com"]
    assert SENT == []
    assert results_of(run.resume({"type": "approve"})) == ["<result>sent to bob@example.com</result>"]
    assert SENT == ["bob@example.com"]


def count_interrupts(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The values of every `interrupt()` the cell's calls make, in order."""
    from langchain_graalvm.agents import _replay

    asked: list[Any] = []
    real = _replay.interrupt

    def counted(value: Any, **kw: Any) -> Any:
        asked.append(value)
        return real(value, **kw)

    monkeypatch.setattr(_replay, "interrupt", counted)
    return asked


def slow_rollback(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Makes the paused cell's rollback slow, as on a loaded machine: the eval's calls outlive the pause longer."""
    import time

    from langchain_graalvm.agents import _slots

    real = _slots.Slot.reset

    def slow(self: Any, start: bytes) -> None:
        time.sleep(seconds)
        real(self, start)

    monkeypatch.setattr(_slots.Slot, "reset", slow)


JS_MIXED_BATCH = (
    "const calls = [\n"
    "  tools.sendEmail({to: 'a@example.com'}), tools.bump({name: 'x'}), tools.sendEmail({to: 'b@example.com'}),\n"
    "  tools.bump({name: 'y'}), tools.sendEmail({to: 'c@example.com'}),\n"
    "];\n"
    "(await Promise.allSettled(calls)).map((s) => s.status === 'fulfilled' ? s.value : s.reason.name)"
)
PY_MIXED_BATCH = (
    "started = [tools.send_email.start(to='a@example.com'), tools.bump.start(name='x'),\n"
    "           tools.send_email.start(to='b@example.com'), tools.bump.start(name='y'),\n"
    "           tools.send_email.start(to='c@example.com')]\n"
    "tools.gather(*started)"
)


@pytest.mark.parametrize("language", ["js", "python"])
def test_reviewed_calls_started_together_raise_exactly_one_interrupt_per_pause(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = count_interrupts(monkeypatch)
    slow_rollback(monkeypatch, 1.0)
    # GraalPy's first cell can be slow on a loaded machine; the limit is not what is tested here.
    run = Run(reviewed_agent(language=language, timeout=120.0), False)
    request = request_of(run.start(JS_MIXED_BATCH if language == "js" else PY_MIXED_BATCH))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["a@example.com", "b@example.com", "c@example.com"]
    assert len(asked) == 1, asked
    out = results_of(run.resume({"type": "approve"}, {"type": "respond", "message": "b is away"}, {"type": "approve"}))
    expected = '["sent to a@example.com", 1, "b is away", 1, "sent to c@example.com"]'
    assert out == [f"<result>{expected if language == 'js' else expected.replace(chr(34), chr(39))}</result>"]
    assert len(asked) == 2  # the resumed run asks once, and takes the answer
    assert SENT == ["a@example.com", "c@example.com"]
    assert COUNTS == {"x": 1, "y": 1}


SPREAD_BATCH = (
    "const spin = (n) => { let x = 0; for (let i = 0; i < n; i++) { x = (x * 31 + i) % 1000003 } return x };\n"
    "const a = tools.sendEmail({to: 'a@example.com'});\n"
    "spin(3e6);\n"
    "const b = tools.sendEmail({to: 'b@example.com'});\n"
    "spin(3e6);\n"
    "const c = tools.sendEmail({to: 'c@example.com'});\n"
    "(await Promise.allSettled([a, b, c])).map((r) => r.status)"
)


def test_calls_started_before_the_guest_waits_are_one_batch_however_long_it_computes_between_them() -> None:
    import threading

    stop = threading.Event()

    def burn() -> None:  # a loaded machine: this thread competes for the CPU and the GIL throughout
        while not stop.is_set():
            sum(range(10_000))

    burner = threading.Thread(target=burn, daemon=True)
    burner.start()
    try:
        run = Run(reviewed_agent(timeout=120.0), True)
        request = request_of(run.start(SPREAD_BATCH))
        assert [a["args"]["to"] for a in request["action_requests"]] == [
            "a@example.com", "b@example.com", "c@example.com"
        ]
        out = results_of(run.resume({"type": "approve"}, {"type": "approve"}, {"type": "reject"}))
    finally:
        stop.set()
        burner.join()
    # The cell waits for all three (Promise.allSettled): with Promise.all the rejection would end the eval while the
    # approved calls may still be queued for the tool pool, and a call still running when an eval ends is cancelled
    # (docs/tools.md), so whether they ran would depend on the machine's load.
    assert out == ['<result>["fulfilled", "fulfilled", "rejected"]</result>']
    # The two approved calls run at once, each in a thread of the tool pool: either may finish first.
    assert sorted(SENT) == ["a@example.com", "b@example.com"]


def per_call_agent(**kw: Any) -> Any:
    from deepagents import create_deep_agent
    from langchain.agents.middleware import HumanInTheLoopMiddleware

    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=20.0, **kw)
    reviewer = HumanInTheLoopMiddleware(
        interrupt_on={"send_email": {"allowed_decisions": ["approve", "edit", "reject"]}}, interrupt_mode="per_call"
    )
    return create_deep_agent(
        model=ScriptedChatModel(), middleware=[mw, reviewer], tools=[bump, send_email], checkpointer=InMemorySaver()
    )


def pending_interrupt(state: dict[str, Any]) -> Any:
    interrupts = state.get("__interrupt__")
    assert interrupts and len(interrupts) == 1, state["messages"][-1].content
    return interrupts[0]


def test_per_call_mode_asks_about_each_call_alone_and_takes_one_decision_by_interrupt_id() -> None:
    agent = per_call_agent()
    config = thread()
    cell = (
        "const n = await tools.bump({name: 'before'});\n"
        "const mails = await Promise.allSettled([tools.sendEmail({to: 'a@example.com'}), "
        "tools.sendEmail({to: 'b@example.com'})]);\n"
        "[n, ...mails.map((s) => s.status === 'fulfilled' ? s.value : s.reason.message)]"
    )
    state = asyncio.run(agent.ainvoke(turn(cell), config))
    first = pending_interrupt(state)
    assert first.value["type"] == "tool_approval"
    assert {k: first.value[k] for k in ("name", "args")} == {"name": "send_email", "args": {"to": "a@example.com"}}
    assert first.value["tool_call_id"]
    assert first.value["description"].startswith("Tool execution requires approval")
    state = asyncio.run(agent.ainvoke(Command(resume={first.id: {"type": "approve"}}), config))
    second = pending_interrupt(state)
    assert second.id != first.id
    assert second.value["args"] == {"to": "b@example.com"}
    assert SENT == ["a@example.com"]
    state = asyncio.run(agent.ainvoke(Command(resume={second.id: {"type": "reject", "message": "not b"}}), config))
    assert results_of(state) == [
        '<result>[1, "sent to a@example.com", "tools.sendEmail: the reviewer rejected this call: not b"]</result>'
    ]
    assert SENT == ["a@example.com"]
    assert COUNTS == {"before": 1}


def test_per_call_mode_refuses_an_edit_that_switches_tools_and_asks_again() -> None:
    from pydantic import ValidationError

    agent = per_call_agent()
    config = thread()
    state = asyncio.run(agent.ainvoke(turn("await tools.sendEmail({to: 'a@example.com'})"), config))
    asked = pending_interrupt(state)
    switch = {"type": "edit", "edited_action": {"name": "bump", "args": {"name": "z"}}}
    with pytest.raises(ValidationError):
        asyncio.run(agent.ainvoke(Command(resume={asked.id: switch}), config))
    assert COUNTS == {}
    assert SENT == []
    edit = {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "z@example.com"}}}
    out = results_of(asyncio.run(agent.ainvoke(Command(resume={asked.id: edit}), config)))
    assert out == ["<result>sent to z@example.com</result>"]
    assert SENT == ["z@example.com"]


def test_an_edit_may_switch_to_another_tool_code_may_call_and_otherwise_throws_a_catchable_error() -> None:
    run = Run(reviewed_agent(), True)
    cell = (
        "const mails = [tools.sendEmail({to: 'a@example.com'}), tools.sendEmail({to: 'b@example.com'})];\n"
        "(await Promise.allSettled(mails)).map((s) => s.status === 'fulfilled' ? s.value : "
        "[s.reason.name, s.reason.message])"
    )
    request_of(run.start(cell))
    out = results_of(run.resume(
        {"type": "edit", "edited_action": {"name": "bump", "args": {"name": "instead"}}},
        {"type": "edit", "edited_action": {"name": "delete_everything", "args": {}}},
    ))
    assert out == [
        '<result>[1, ["ToolEditError", "tools.sendEmail: the reviewer replaced this call with a call of '
        '`delete_everything`, which code cannot call here (the tools code may call: bump, send_email); nothing '
        'ran"]]</result>'
    ]
    assert COUNTS == {"instead": 1}
    assert SENT == []


def _raises_for_bad(request: Any) -> bool:
    if request.tool_call["args"]["to"].startswith("bad"):
        raise ValueError("no rule for bad addresses")
    return True


def test_a_call_whose_rule_fails_does_not_hold_up_the_batch_of_a_reviewed_call_before_it() -> None:
    rule = InterruptOnConfig(allowed_decisions=["approve"], when=_raises_for_bad)
    run = Run(reviewed_agent({"send_email": rule}, max_wall_time=60.0), True)
    cell = (
        "const mails = [tools.sendEmail({to: 'a@example.com'}), tools.sendEmail({to: 'bad@example.com'})];\n"
        "(await Promise.allSettled(mails)).map((s) => s.status === 'fulfilled' ? s.value : s.reason.name)"
    )
    request = request_of(run.start(cell))
    assert [a["args"]["to"] for a in request["action_requests"]] == ["a@example.com"]
    out = results_of(run.resume({"type": "approve"}))
    assert out == ['<result>["sent to a@example.com", "ReviewRuleError"]</result>']
    assert SENT == ["a@example.com"]
