"""Programmatic tool calling (``tools.*``) and dynamic subagents (``task()``) through real Deep Agents."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from datetime import datetime
from typing import Annotated, Any

import pytest
from langchain.tools import ToolRuntime
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import InjectedToolCallId, tool
from pydantic import BaseModel

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn

pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")


class Point(BaseModel):
    x: int
    y: int


class Gauge:
    """Counts calls in flight and remembers the peak."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.calls = 0
        self.cancelled = 0

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


GAUGE = Gauge()
SYNC_GAUGE = Gauge()
SENT: list[str] = []


@tool
def web_search(query: str, limit: int = 2) -> list[str]:
    """Search the web for a query.

    Returns result titles."""
    return [f"{query}#{i}" for i in range(limit)]


@tool("kebab-lookup")
def kebab_lookup(key: str) -> dict[str, Any]:
    """Looks a key up."""
    return {"key": key, 1: "one", "nested": {"big": 2**60, "nan": float("nan"), "when": datetime(2024, 1, 2, 3, 4, 5)}}


@tool
def echo_input(input: Any) -> str:
    """Echoes its input with its type."""
    return f"{type(input).__name__}:{input!r}"


@tool
def shapes() -> Point:
    """A pydantic result."""
    return Point(x=1, y=2)


@tool
def raw_bytes(data: bytes) -> bytes:
    """Reverses bytes."""
    return bytes(reversed(data))


@tool
async def nap(i: int, seconds: float = 0.05) -> int:
    """Sleeps, then returns i."""
    GAUGE.enter()
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        GAUGE.cancelled += 1
        raise
    finally:
        GAUGE.leave()
    return i


@tool
def sync_nap(i: int) -> int:
    """Blocks 20 ms, then returns i."""
    SYNC_GAUGE.enter()
    try:
        time.sleep(0.02)
    finally:
        SYNC_GAUGE.leave()
    return i


@tool
def fail(reason: str) -> str:
    """Always raises."""
    raise RuntimeError(f"cannot: {reason}")


@tool
def who_called(note: str, runtime: ToolRuntime) -> dict[str, Any]:
    """Reports what the injected runtime holds."""
    return {"note": note, "call": runtime.tool_call_id, "messages": len(runtime.state["messages"])}


@tool
def with_call_id(x: int, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
    """Returns the injected tool call id."""
    return f"{x}:{tool_call_id}"


@tool
def send_email(to: str) -> str:
    """Sends an email (needs approval)."""
    SENT.append(to)
    return "sent"


ALL_TOOLS = [web_search, kebab_lookup, echo_input, shapes, raw_bytes, nap, sync_nap, fail, who_called, with_call_id]
PTC = [t.name for t in ALL_TOOLS]


def system_text(chat: ScriptedChatModel) -> str:
    content = chat.seen[0][0].content
    if isinstance(content, str):
        return content
    return "".join(block["text"] if isinstance(block, dict) else str(block) for block in content)


def run(agent: Any, *cells: str, use_async: bool = False, config: dict[str, Any] | None = None) -> list[str]:
    cfg = {**thread(), **(config or {})}
    if use_async:
        return results_of(asyncio.run(agent.ainvoke(turn(*cells), cfg)))
    return results_of(agent.invoke(turn(*cells), cfg))


@pytest.fixture(scope="module")
def agent() -> Any:
    mw = CodeInterpreterMiddleware(ptc=PTC, max_ptc_calls=500, timeout=10.0)
    return build_agent(mw, tools=ALL_TOOLS)


# ------------------------------------------------------------------------------------------------ exposure


def test_tools_are_exposed_under_camel_case_names(agent: Any) -> None:
    out = run(agent, "Object.keys(tools).sort().join(',')", "typeof tools.eval + typeof tools.task")
    assert out[0] == (
        "<result>echoInput,fail,kebabLookup,nap,rawBytes,shapes,syncNap,webSearch,whoCalled,withCallId</result>"
    )
    assert out[1] == "<result>undefinedundefined</result>"


def test_without_ptc_there_is_no_tools_global_and_an_empty_list_gives_an_empty_object() -> None:
    off = build_agent(CodeInterpreterMiddleware(), tools=[web_search])
    empty = build_agent(CodeInterpreterMiddleware(ptc=[]), tools=[web_search])
    assert run(off, "typeof tools") == ["<result>undefined</result>"]
    assert run(empty, "typeof tools + Object.keys(tools).length") == ["<result>object0</result>"]


def test_a_base_tool_instance_is_exposed_even_when_the_agent_lacks_it() -> None:
    only_in_ptc = build_agent(CodeInterpreterMiddleware(ptc=[web_search]), tools=[])
    assert run(only_in_ptc, "(await tools.webSearch({query: 'q'})).join()") == ["<result>q#0,q#1</result>"]


@pytest.mark.parametrize(
    ("ptc", "message"),
    [
        (["task"], "cannot be exposed through `ptc`"),
        (["9lives"], "cannot be exposed as the JavaScript identifier"),
        ("web_search", "must be None or a list"),
        ([42], "must be tool names or BaseTool instances"),
    ],
)
def test_bad_ptc_options_fail_at_construction(ptc: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CodeInterpreterMiddleware(ptc=ptc)


def test_the_prompt_lists_typed_signatures(agent: Any) -> None:
    chat = ScriptedChatModel()
    a = build_agent(CodeInterpreterMiddleware(ptc=["web_search", "kebab-lookup"]), tools=ALL_TOOLS, model=chat)
    run(a, "1")
    system = system_text(chat)
    assert "/** Search the web for a query. */" in system
    assert "tools.webSearch(input: {\n  query: string;\n  limit?: number;\n}): Promise<string[]>;" in system
    assert "tools.kebabLookup(input: {\n  key: string;\n}): Promise<Record<string, unknown>>;" in system
    assert "tools.fail" not in system


# ------------------------------------------------------------------------------------------------ values


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_values_cross_the_boundary_natively(agent: Any, use_async: bool) -> None:
    out = run(
        agent,
        "const r = await tools.kebabLookup({key: 'k'}); [r.key, r['1'], typeof r.nested.big, r.nested.big === 2n ** 60n,"
        " Number.isNaN(r.nested.nan), r.nested.when]",
        "await tools.echoInput('plain')",
        "await tools.echoInput([1, 2 ** 60, 3n ** 40n])",
        "const p = await tools.shapes(); p.x + p.y",
        "const b = await tools.rawBytes({data: new Uint8Array([1, 2, 255])}); [b instanceof Uint8Array, ...b]",
        "(await tools.webSearch({query: 'q', limit: undefined})).length",
        use_async=use_async,
    )
    assert out[0] == '<result>["k", "one", "bigint", true, true, "2024-01-02 03:04:05"]</result>'
    assert out[1] == "<result>str:'plain'</result>"
    assert out[2] == f"<result>list:[1, {float(2**60)!r}, {3**40}]</result>"
    assert out[3] == "<result>3</result>"
    assert out[4] == "<result>[true, 255, 2, 1]</result>"
    assert out[5] == "<result>2</result>"


def test_inputs_that_json_cannot_carry_reject_clearly(agent: Any) -> None:
    out = run(agent, "const o = {}; o.self = o; try { await tools.echoInput(o) } catch (e) { globalThis.m = e.name + ': ' + e.message }\nm")
    assert out == ["<result>TypeError: tools.echoInput: the input contains a circular reference</result>"]


# ------------------------------------------------------------------------------------------------ concurrency


class Rendezvous:
    """Each call waits until ``size`` calls are in flight at once, so only a concurrent fan-out can finish."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.arrived = 0
        self.all_here: asyncio.Event | None = None


MEETING = Rendezvous(100)


@tool
async def meet(i: int) -> int:
    """Waits for the other callers, then returns i."""
    if MEETING.all_here is None:
        MEETING.all_here = asyncio.Event()
    MEETING.arrived += 1
    if MEETING.arrived == MEETING.size:
        MEETING.all_here.set()
    await asyncio.wait_for(MEETING.all_here.wait(), timeout=30)
    return i


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_a_fan_out_of_100_calls_runs_concurrently(use_async: bool) -> None:
    global MEETING
    MEETING = Rendezvous(100)
    a = build_agent(CodeInterpreterMiddleware(ptc=["meet"]), tools=[meet])
    out = run(
        a,
        "const got = await Promise.all(Array.from({length: 100}, (_, i) => tools.meet({i}))); got.reduce((a, b) => a + b)",
        use_async=use_async,
    )
    # Run one after another, the first call would wait for the other 99 until its 30 s timeout and fail.
    assert out == [f"<result>{sum(range(100))}</result>"]
    assert MEETING.arrived == 100


def test_sync_tools_run_in_a_bounded_pool(agent: Any) -> None:
    SYNC_GAUGE.peak = 0
    out = run(agent, "(await Promise.all(Array.from({length: 80}, (_, i) => tools.syncNap({i})))).length")
    assert out == ["<result>80</result>"]
    assert 1 < SYNC_GAUGE.peak <= 32, SYNC_GAUGE.peak


def test_async_tools_run_on_the_agents_event_loop() -> None:
    loops: list[Any] = []

    @tool
    async def where() -> str:
        """Records the running loop."""
        loops.append(asyncio.get_running_loop())
        return "ok"

    a = build_agent(CodeInterpreterMiddleware(ptc=["where"]), tools=[where])

    async def main() -> Any:
        out = await a.ainvoke(turn("await tools.where()"), thread())
        return asyncio.get_running_loop(), out

    loop, out = asyncio.run(main())
    assert results_of(out) == ["<result>ok</result>"]
    assert loops == [loop]


# ------------------------------------------------------------------------------------------------ budget and errors


def test_the_budget_stops_the_call_past_it_before_the_tool_runs() -> None:
    seen: list[str] = []

    @tool
    def tick(label: str) -> int:
        """Counts."""
        seen.append(label)
        return len(seen)

    a = build_agent(CodeInterpreterMiddleware(ptc=["tick"], max_ptc_calls=5), tools=[tick])
    out = run(
        a,
        "await Promise.all(Array.from({length: 20}, () => tools.tick({label: 'all'})))",
        "async function deeper(n) { return n === 0 ? 0 : (await tools.tick({label: 'deep'}), 1 + await deeper(n - 1)) }\nawait deeper(8)",
        "let caught = ''; for (let i = 0; i < 7; i++) { try { await tools.tick({label: 'loop'}) } catch (e) { caught = e.name } }\ncaught",
    )
    assert out[0].startswith(
        '<error type="PTCCallBudgetExceeded">PTC call budget exceeded (limit=5, attempted=6, function=tools.tick)'
    )
    assert out[1].startswith('<error type="PTCCallBudgetExceeded">')
    assert out[2] == "<result>PTCCallBudgetExceeded</result>"
    # The calls past the budget never reach the tool. The five that Promise.all started before the sixth threw
    # belong to an eval that failed at once: they are cancelled with it, so some or all of them may not have run.
    assert seen.count("deep") == 5 and seen.count("loop") == 5, seen
    assert seen.count("all") <= 5, seen


def test_no_budget_when_max_ptc_calls_is_none() -> None:
    a = build_agent(CodeInterpreterMiddleware(ptc=["nap"], max_ptc_calls=None), tools=[nap])
    out = run(a, "(await Promise.all(Array.from({length: 300}, (_, i) => tools.nap({i, seconds: 0})))).length")
    assert out == ["<result>300</result>"]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_tool_errors_reject_with_type_and_message(agent: Any, use_async: bool) -> None:
    out = run(
        agent,
        "await tools.fail({reason: 'disk full'})",
        "try { await tools.fail({reason: 'x'}) } catch (e) { globalThis.seen = [e.name, e.message, e instanceof Error] }\nseen",
        "await tools.webSearch({limit: 'many'})",
        use_async=use_async,
    )
    assert out[0].startswith('<error type="RuntimeError">tools.fail failed: cannot: disk full')
    assert out[1] == '<result>["RuntimeError", "tools.fail failed: cannot: x", true]</result>'
    assert out[2].startswith('<error type="ValidationError">tools.webSearch: invalid arguments: query: Field required;')
    assert "limit: Input should be a valid integer" in out[2]


# ------------------------------------------------------------------------------------------------ injected args


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_injected_arguments_are_filled_in(agent: Any, use_async: bool) -> None:
    out = run(
        agent,
        "const w = await tools.whoCalled({note: 'n'}); [w.note, w.call.startsWith('ptc_who_called_'), w.messages > 0]",
        "(await tools.withCallId({x: 3})).startsWith('3:ptc_with_call_id_')",
        use_async=use_async,
    )
    assert out == ['<result>["n", true, true]</result>', "<result>true</result>"]


# ------------------------------------------------------------------------------------------------ approval


def test_tools_that_need_approval_are_refused_from_code() -> None:
    SENT.clear()
    chat = ScriptedChatModel()
    mw = CodeInterpreterMiddleware(ptc=["send_email", "web_search"], interrupt_on={"send_email": True})
    a = build_agent(mw, tools=[send_email, web_search], model=chat, interrupt_on={"send_email": True})
    out = run(a, "await tools.sendEmail({to: 'boss@example.com'})", "(await tools.webSearch({query: 'ok'}))[0]")
    assert out[0].startswith('<error type="ApprovalRequired">tools.sendEmail needs human approval')
    assert "Call the `send_email` tool directly" in out[0]
    assert out[1] == "<result>ok#0</result>"
    assert SENT == []
    assert "`tools.sendEmail` need human approval" in system_text(chat)


# ------------------------------------------------------------------------------------------------ tracing


class RunRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.tools: dict[uuid.UUID, tuple[str, uuid.UUID | None]] = {}

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, *, run_id: uuid.UUID,
                      parent_run_id: uuid.UUID | None = None, **kwargs: Any) -> None:
        self.tools[run_id] = (serialized.get("name", ""), parent_run_id)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_tool_calls_are_child_runs_of_the_eval(agent: Any, use_async: bool) -> None:
    recorder = RunRecorder()
    out = run(agent, "(await tools.webSearch({query: 'trace'}))[1]", use_async=use_async,
              config={"callbacks": [recorder]})
    assert out == ["<result>trace#1</result>"]
    evals = [rid for rid, (name, _) in recorder.tools.items() if name == "eval"]
    searches = [parent for name, parent in recorder.tools.values() if name == "web_search"]
    assert len(evals) == 1 and searches == evals


# ------------------------------------------------------------------------------------------------ timeouts


def test_waiting_on_tools_does_not_count_against_the_timeout() -> None:
    a = build_agent(CodeInterpreterMiddleware(ptc=["nap"], timeout=0.5), tools=[nap])
    assert run(a, "await tools.nap({i: 7, seconds: 1.5})") == ["<result>7</result>"]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_the_wall_clock_cap_stops_an_eval_whose_tool_hangs_and_cancels_the_tool(use_async: bool) -> None:
    GAUGE.cancelled = 0
    a = build_agent(CodeInterpreterMiddleware(ptc=["nap"], max_wall_time=1.0, mode="thread"), tools=[nap])
    out = run(a, "globalThis.before = 1", "await tools.nap({i: 1, seconds: 60})", "before", use_async=use_async)
    assert out[1].startswith('<error type="Timeout">The eval ran for more than 1 s of wall-clock time')
    assert "(1 host call was still running)" in out[1]
    assert out[2] == "<result>1</result>"
    deadline = time.monotonic() + 10
    while GAUGE.cancelled == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert GAUGE.cancelled == 1


def test_a_tool_still_running_when_the_guest_times_out_is_cancelled() -> None:
    GAUGE.cancelled = 0
    a = build_agent(CodeInterpreterMiddleware(ptc=["nap"], timeout=0.5), tools=[nap])
    out = run(a, "tools.nap({i: 1, seconds: 60}); while (true) {}", "1 + 1")
    assert out[0].startswith('<error type="Timeout">')
    assert out[1] == "<result>2</result>"
    deadline = time.monotonic() + 10
    while GAUGE.cancelled == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert GAUGE.cancelled == 1


def test_calls_not_awaited_finish_inside_their_eval(agent: Any) -> None:
    out = run(agent, "tools.nap({i: 1, seconds: 0.2}).then(() => console.log('done')); 'queued'")
    assert out == ["<stdout>\ndone\n</stdout>\n<result>queued</result>"]


# ------------------------------------------------------------------------------------------------ state


def test_the_bridges_are_not_saved_in_snapshots() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    a = build_agent(CodeInterpreterMiddleware(ptc=["web_search"]), tools=[web_search], checkpointer=InMemorySaver())
    cfg = thread()
    first = results_of(a.invoke(turn("var kept = (await tools.webSearch({query: 'a'}))[0]; kept"), cfg))
    second = results_of(a.invoke(turn("[kept, typeof tools.webSearch, Object.keys(globalThis).includes('tools')]"), cfg))
    assert first == ["<result>a#0</result>"]
    assert second == ['<result>["a#0", "function", false]</result>']


def test_call_mode_installs_tools_in_every_fresh_context() -> None:
    a = build_agent(CodeInterpreterMiddleware(ptc=["web_search"], mode="call"), tools=[web_search])
    assert run(a, "(await tools.webSearch({query: 'c'}))[0]", "typeof tools") == [
        "<result>c#0</result>",
        "<result>object</result>",
    ]


# ------------------------------------------------------------------------------------------------ subagents


class WorkerModel(BaseChatModel):
    """A subagent model: answers ``done: <task>`` after ``delay`` s, fails on tasks containing FAIL."""

    delay: float = 0.0
    gauge: Any = None

    @property
    def _llm_type(self) -> str:
        return "worker"

    def bind_tools(self, tools: Any, **kwargs: Any) -> WorkerModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        task = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
        if "FAIL" in task:
            raise RuntimeError(f"worker broke on: {task}")
        if self.gauge is not None:
            self.gauge.enter()
        try:
            time.sleep(self.delay)
        finally:
            if self.gauge is not None:
                self.gauge.leave()
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=f"done: {task}"))])


def subagent_agent(gauge: Gauge | None = None, **mw: Any) -> Any:
    worker = {
        "name": "worker",
        "description": "Does one small job.",
        "system_prompt": "You do small jobs.",
        "model": WorkerModel(delay=0.2 if gauge else 0.0, gauge=gauge),
    }
    return build_agent(CodeInterpreterMiddleware(**mw), subagents=[worker])


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_task_dispatches_a_subagent_and_resolves_to_its_answer(use_async: bool) -> None:
    a = subagent_agent()
    out = run(
        a,
        "const a = await task({description: 'count to 3', subagentType: 'worker'}); [typeof a, a]",
        "await task({description: 'x', subagentType: 'nobody'})",
        "try { await task({description: 'please FAIL', subagentType: 'worker'}) } catch (e) { globalThis.e1 = [e.name, e.message] }\ne1",
        "await task({subagentType: 'worker'})",
        use_async=use_async,
    )
    assert out[0] == '<result>["string", "done: count to 3"]</result>'
    assert "nobody" in out[1] and "worker" in out[1]
    assert out[2].startswith('<result>["RuntimeError", "task failed: worker broke on: please FAIL')
    assert out[3].startswith('<error type="ValueError">task() requires a non-empty string field `description`')


def test_subagent_concurrency_is_capped() -> None:
    gauge = Gauge()
    a = subagent_agent(gauge, max_subagent_concurrency=2)
    out = run(a, "(await Promise.all([1, 2, 3, 4, 5, 6].map((i) => task({description: 'job ' + i, subagentType: 'worker'})))).length")
    assert out == ["<result>6</result>"]
    assert gauge.calls == 6
    assert gauge.peak == 2


def test_subagent_events_reach_the_custom_stream() -> None:
    a = subagent_agent()
    events = [
        chunk
        for chunk in a.stream(
            turn(
                "await task({description: 'first job', subagentType: 'worker', label: '  Job   one '});"
                " try { await task({description: 'FAIL now', subagentType: 'worker'}) } catch (e) {} 'ok'"
            ),
            thread(),
            stream_mode="custom",
        )
        if isinstance(chunk, dict) and chunk.get("type") == "subagent"
    ]
    phases = [(e["phase"], e.get("label")) for e in events]
    assert phases == [("start", "Job one"), ("complete", None), ("start", "FAIL now"), ("error", None)]
    assert events[0]["id"] == events[1]["id"] != events[2]["id"] == events[3]["id"]
    assert events[0]["id"].startswith("ptc_task_") and events[0]["eval_id"].startswith("call_")
    assert "worker broke on: FAIL now" in events[3]["error"]
    assert all(isinstance(e.get("duration_ms", 0), int) for e in events)


def test_subagents_false_removes_task() -> None:
    a = subagent_agent(subagents=False)
    assert run(a, "typeof task") == ["<result>undefined</result>"]


def test_subagent_runs_are_child_runs_of_the_eval() -> None:
    recorder = RunRecorder()
    a = subagent_agent()
    out = run(a, "await task({description: 'traced', subagentType: 'worker'})", config={"callbacks": [recorder]})
    assert out == ["<result>done: traced</result>"]
    evals = [rid for rid, (name, _) in recorder.tools.items() if name == "eval"]
    tasks = [parent for name, parent in recorder.tools.values() if name == "task"]
    assert len(evals) == 1 and tasks == evals


def test_tool_messages_and_plain_calls_are_unchanged_for_the_model(agent: Any) -> None:
    out = agent.invoke(turn("(await tools.webSearch({query: 'm'})).length"), thread())
    tool_messages = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [m.name for m in tool_messages] == ["eval"]  # PTC calls are not added to the conversation


# ------------------------------------------------------------------------------------------------ bridge abuse


@pytest.mark.parametrize(
    ("setup", "attack", "expected"),
    [
        (
            "Object.defineProperty(Object.prototype, 'query', {get() { return 'polluted' }, configurable: true});"
            " Object.prototype.toJSON = () => ({query: 'hijacked'}); 1",
            "(await tools.webSearch({query: 'real'}))[0]",
            "<result>real#0</result>",
        ),
        (
            "JSON.stringify = () => '{\"query\":\"evil\"}'; JSON.parse = () => ['evil']; 1",
            "(await tools.webSearch({query: 'real', limit: 1})).join()",
            "<result>real#0</result>",
        ),
        (
            "Array.prototype.push = function () { throw new Error('no push') };"
            " Object.defineProperty(Array.prototype, '0', {set() { throw new Error('no index') }, configurable: true}); 1",
            "(await tools.webSearch({query: 'arr', limit: 2})).length",
            "<result>2</result>",
        ),
        (
            "globalThis.Promise = function () { throw new Error('no promise') }; 1",
            "(await tools.webSearch({query: 'p', limit: 1}))[0]",
            "<result>p#0</result>",
        ),
        (
            "delete globalThis.tools; globalThis.tools = {webSearch: async () => ['fake']}; 1",
            "(await tools.webSearch({query: 'again', limit: 1}))[0]",
            "<result>again#0</result>",
        ),
    ],
    ids=["object-prototype", "json-replaced", "array-prototype", "promise-replaced", "tools-replaced"],
)
def test_tampering_with_builtins_does_not_change_what_crosses_the_bridge(
    agent: Any, setup: str, attack: str, expected: str
) -> None:
    out = run(agent, setup, attack)
    assert out[1] == expected, out


def test_tools_cannot_be_reassigned_in_place(agent: Any) -> None:
    out = run(agent, "tools.webSearch = () => 1", "tools = {}")
    assert out[0].startswith('<error type="TypeError">')
    assert out[1].startswith('<error type="TypeError">')


def test_a_getter_that_throws_in_the_input_rejects_the_call(agent: Any) -> None:
    out = run(agent, "try { await tools.webSearch({get query() { throw new Error('trap') }}) } catch (e) { globalThis.r = e.message }\nr")
    assert out == ["<result>trap</result>"]


def test_an_oversized_input_is_refused_before_it_reaches_the_host(agent: Any) -> None:
    out = run(agent, "await tools.echoInput({input: 'x'.repeat(9 * 1024 * 1024)})")
    assert out[0].startswith('<error type="RangeError">tools.echoInput: the input is ')


def test_a_promise_kept_from_an_earlier_eval_never_settles_later() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    a = build_agent(CodeInterpreterMiddleware(ptc=["nap"], mode="turn", max_wall_time=1.0), tools=[nap],
                    checkpointer=InMemorySaver())
    out = run(a, "globalThis.p = tools.nap({i: 1, seconds: 30}); 'started'", "await p")
    assert out[0].startswith('<error type="Timeout">')  # the un-awaited call held the eval until the cap
    assert out[1].startswith('<error type="Deadlock">')
