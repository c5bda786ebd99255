"""CodeInterpreterMiddleware: constructor parity with langchain-quickjs, the eval tool, the prompt, the three modes.

Agents are real ``create_deep_agent`` graphs driven by the scripted model of ``tests/support/scripted.py``.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from langchain.tools import ToolRuntime
from langchain_core._api import LangChainBetaWarning
from langchain_core.messages import SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.middleware import GraalVMInterpreterState
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn


def anchor(**kwargs: Any) -> Any:
    from langchain_quickjs import CodeInterpreterMiddleware as QuickJSMiddleware

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LangChainBetaWarning)
        return QuickJSMiddleware(**kwargs)


# --------------------------------------------------------------------------------------------- constructor


def test_defaults_match_the_anchor() -> None:
    ours, theirs = CodeInterpreterMiddleware(), anchor()
    for name in (
        "memory_limit",
        "timeout",
        "max_ptc_calls",
        "tool_name",
        "max_result_chars",
        "capture_console",
        "subagents",
        "max_subagent_concurrency",
        "ptc",
        "mode",
        "max_snapshot_bytes",
    ):
        assert getattr(ours, name) == getattr(theirs, f"_{name}"), name
    assert ours.memory_limit == 64 * 2**20 and ours.timeout == 5.0 and ours.max_ptc_calls == 256
    assert ours.tool_name == "eval" and ours.max_result_chars == 4000 and ours.max_subagent_concurrency == 32
    assert ours.mode == "thread" and ours.max_snapshot_bytes == ours.memory_limit
    assert (ours.language, ours.clock, ours.frozen_epoch_ms) == ("js", "frozen", 0)
    assert CodeInterpreterMiddleware(mode=None).mode == "thread"
    assert CodeInterpreterMiddleware(memory_limit=2**20).max_snapshot_bytes == 2**20


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_ptc_calls": 0},
        {"max_ptc_calls": -5},
        {"max_snapshot_bytes": 0},
        {"max_subagent_concurrency": 0},
        {"max_subagent_concurrency": True},
        {"max_subagent_concurrency": 2.0},
        {"max_subagent_concurrency": "40"},
        {"max_subagent_concurrency": None},
        {"mode": "session"},
        {"mode": "THREAD"},
        {"snapshot_signing_key": ""},
        {"snapshot_signing_key": b""},
        # The anchor checks max_ptc_calls, max_snapshot_bytes, max_subagent_concurrency, mode, then the key.
        {"max_ptc_calls": 0, "max_snapshot_bytes": 0, "mode": "bad", "snapshot_signing_key": ""},
        {"max_snapshot_bytes": 0, "max_subagent_concurrency": 0, "mode": "bad"},
        {"max_subagent_concurrency": 0, "mode": "bad", "snapshot_signing_key": ""},
        {"mode": "bad", "snapshot_signing_key": ""},
    ],
)
def test_validation_errors_match_the_anchor(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as theirs:
        anchor(**kwargs)
    with pytest.raises(ValueError) as ours:
        CodeInterpreterMiddleware(**kwargs)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_ptc_calls": None},
        {"max_ptc_calls": 1},
        {"max_snapshot_bytes": 1},
        {"ptc": ["ls"]},
        {"tool_name": "js eval"},
        {"mode": "turn"},
        {"mode": "call"},
        {"snapshot_signing_key": "k"},
        {"snapshot_signing_key": b"\x00"},
        {"memory_limit": 0},
        {"max_result_chars": 0},
        {"subagents": False, "capture_console": False},
    ],
)
def test_accepted_like_the_anchor(kwargs: dict[str, Any]) -> None:
    anchor(**kwargs)
    mw = CodeInterpreterMiddleware(**kwargs)
    assert mw.ptc == kwargs.get("ptc")


def test_own_options_are_validated() -> None:
    with pytest.raises(ValueError, match="`language` must be 'js'"):
        CodeInterpreterMiddleware(language="ruby")
    with pytest.raises(ValueError, match="`clock` must be 'frozen' or 'host'"):
        CodeInterpreterMiddleware(clock="wall")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`frozen_epoch_ms` must be an int"):
        CodeInterpreterMiddleware(frozen_epoch_ms=1.5)  # type: ignore[arg-type]
    # Limits the interpreter cannot run with fail at construction, not on the model's first eval.
    with pytest.raises(ValueError, match="timeout must be > 0"):
        CodeInterpreterMiddleware(timeout=0)
    assert CodeInterpreterMiddleware(language="typescript").language == "js"


def test_constructor_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        CodeInterpreterMiddleware(2**20)  # type: ignore[misc]


# --------------------------------------------------------------------------------------------- the tool


def test_one_eval_tool_shaped_like_the_anchor() -> None:
    ours, theirs = CodeInterpreterMiddleware(), anchor()
    assert len(ours.tools) == 1
    tool, their_tool = ours.tools[0], theirs.tools[0]
    assert tool.name == "eval" and tool.metadata == their_tool.metadata == {"ls_code_input_language": "javascript"}
    assert tool.func is not None and tool.coroutine is not None
    schema = tool.tool_call_schema.model_json_schema()
    their_schema = their_tool.tool_call_schema.model_json_schema()
    assert schema["required"] == their_schema["required"] == ["code"]
    assert set(schema["properties"]) == set(their_schema["properties"]) == {"code"}
    assert schema["properties"]["code"]["type"] == "string"
    assert "No fs/network/real-clock access." in schema["properties"]["code"]["description"]
    for text in ("JavaScript", "TypeScript", "no filesystem, network or real clock", "`await`"):
        assert text in tool.description
    assert CodeInterpreterMiddleware(tool_name="js").tools[0].name == "js"
    assert "real clock" not in CodeInterpreterMiddleware(clock="host").tools[0].description


def test_private_state_keys_stay_out_of_the_graph_schemas() -> None:
    agent = build_agent(CodeInterpreterMiddleware(), checkpointer=InMemorySaver())
    private = {k for k in GraalVMInterpreterState.__annotations__ if k.startswith("_graalvm")}
    assert private == {"_graalvm_slot_id", "_graalvm_snapshot", "_graalvm_snapshot_hmac"}
    for schema in (agent.get_input_jsonschema(), agent.get_output_jsonschema()):
        assert not private & set(schema.get("properties", {}))


def test_eval_tool_returns_a_tool_message_with_the_envelope() -> None:
    mw = CodeInterpreterMiddleware()
    state: dict[str, Any] = {"messages": []}
    state.update(mw.before_agent(state, None) or {})  # type: ignore[arg-type]
    runtime = ToolRuntime(state=state, context=None, config={}, stream_writer=None, tool_call_id="c1", store=None)
    message = mw.tools[0].func(runtime=runtime, code="console.log('hi'); [1, 2].map(x => x * 2)")  # type: ignore[misc]
    assert isinstance(message, ToolMessage)
    assert (message.tool_call_id, message.name) == ("c1", "eval")
    assert message.content == "<stdout>\nhi\n</stdout>\n<result>[2, 4]</result>"
    mw.after_agent(state, None)  # type: ignore[arg-type]
    bare = ToolRuntime(state={}, context=None, config={}, stream_writer=None, tool_call_id="c2", store=None)
    with pytest.raises(ValueError, match="missing `_graalvm_slot_id`"):
        mw.tools[0].func(runtime=bare, code="1")  # type: ignore[misc]


# --------------------------------------------------------------------------------------------- the prompt


def _interpreter_sections(model: ScriptedChatModel) -> list[str]:
    texts = []
    for messages in model.seen:
        assert isinstance(messages[0], SystemMessage)
        texts.append(messages[0].text)
    return texts


def test_system_prompt_is_appended_on_every_model_call() -> None:
    mw = CodeInterpreterMiddleware(timeout=2.5, memory_limit=32 * 2**20)
    model = ScriptedChatModel()
    agent = build_agent(mw, checkpointer=InMemorySaver(), model=model, system_prompt="You are terse.")
    config = thread()
    agent.invoke(turn("var a = 1", "a + 1"), config)
    agent.invoke({"messages": [("user", "just chat")]}, config)
    texts = _interpreter_sections(model)
    assert len(texts) == 4  # two evals and a summary, then one chat answer
    for text in texts:
        assert text.startswith("You are terse.")
        assert text.count("### Code interpreter (`eval`)") == 1
        assert "2.5 s" in text and "32 MB" in text and "1970-01-01T00:00:00.000Z" in text
        assert "also in later turns" in text and "TypeScript" in text


async def test_system_prompt_is_appended_on_async_model_calls() -> None:
    model = ScriptedChatModel(tool_name="js")
    agent = build_agent(CodeInterpreterMiddleware(tool_name="js", mode="call", clock="host"), model=model)
    await agent.ainvoke(turn("1"))
    texts = _interpreter_sections(model)
    assert len(texts) == 2
    for text in texts:
        assert "### Code interpreter (`js`)" in text
        assert "Every call starts from empty globals" in text and "host's real time" in text


# --------------------------------------------------------------------------------------------- modes


def test_thread_mode_keeps_globals_across_turns() -> None:
    agent = build_agent(CodeInterpreterMiddleware(), checkpointer=InMemorySaver())
    config = thread()
    first = agent.invoke(turn("let total: number = 40", "function add(n) { return total + n }"), config)
    assert results_of(first) == ["<result>undefined</result>"] * 2
    assert results_of(agent.invoke(turn("add(2)"), config)) == ["<result>42</result>"]
    assert results_of(agent.invoke(turn("let total = 1; add(2)"), config)) == ["<result>3</result>"]
    other = agent.invoke(turn("typeof total"), thread())
    assert results_of(other) == ["<result>undefined</result>"]


async def test_thread_mode_async() -> None:
    agent = build_agent(CodeInterpreterMiddleware(), checkpointer=InMemorySaver())
    config = thread()
    await agent.ainvoke(turn("var xs = [1, 2, 3]"), config)
    out = await agent.ainvoke(turn("await Promise.resolve(xs.reduce((a, b) => a + b))"), config)
    assert results_of(out) == ["<result>6</result>"]


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_turn_mode_resets_between_turns(asynchronous: bool) -> None:
    agent = build_agent(CodeInterpreterMiddleware(mode="turn"), checkpointer=InMemorySaver())
    config = thread()

    async def run(*cells: str) -> list[str]:
        out = await agent.ainvoke(turn(*cells), config) if asynchronous else agent.invoke(turn(*cells), config)
        return results_of(out)

    assert await run("var kept = 7", "kept * 2") == ["<result>undefined</result>", "<result>14</result>"]
    assert await run("typeof kept") == ["<result>undefined</result>"]
    values = agent.get_state(config).values  # the delta channel reads back as b"" when nothing was written
    assert not values.get("_graalvm_snapshot") and "_graalvm_snapshot_hmac" not in values


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_call_mode_resets_between_evals(asynchronous: bool) -> None:
    agent = build_agent(CodeInterpreterMiddleware(mode="call"), checkpointer=InMemorySaver())
    cells = ("var once = 1; once", "typeof once")
    out = await agent.ainvoke(turn(*cells), thread()) if asynchronous else agent.invoke(turn(*cells), thread())
    assert results_of(out) == ["<result>1</result>", "<result>undefined</result>"]


def test_slots_are_closed_after_each_run() -> None:
    mw = CodeInterpreterMiddleware()
    agent = build_agent(mw, checkpointer=InMemorySaver())
    agent.invoke(turn("1"), thread())
    assert len(mw._registry) == 0


def test_errors_and_limits_reach_the_model() -> None:
    agent = build_agent(CodeInterpreterMiddleware(timeout=0.5), checkpointer=InMemorySaver())
    config = thread()
    out = results_of(agent.invoke(turn("var k = 1", "while (true) {}", "k + 1", "null.x"), config))
    assert out[1].startswith('<error type="Timeout">')
    assert out[2] == "<result>2</result>"
    assert out[3].startswith('<error type="TypeError">')


def test_frozen_clock_setting_reaches_the_interpreter() -> None:
    agent = build_agent(CodeInterpreterMiddleware(frozen_epoch_ms=86_400_000, mode="call"))
    assert results_of(agent.invoke(turn("new Date().toISOString()"))) == ["<result>1970-01-02T00:00:00.000Z</result>"]
