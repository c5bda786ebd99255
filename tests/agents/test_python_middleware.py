"""CodeInterpreterMiddleware(language="python") inside a real ``create_deep_agent`` graph, with the scripted model."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn

# The first imports in a fresh GraalPy context take seconds on a loaded machine.
SLOW = 60.0


def _mw(**kwargs: Any) -> CodeInterpreterMiddleware[Any, Any, Any]:
    return CodeInterpreterMiddleware(language="python", timeout=kwargs.pop("timeout", SLOW), **kwargs)


def test_language_option_is_validated_and_normalised() -> None:
    assert CodeInterpreterMiddleware(language="py").language == "python"
    assert CodeInterpreterMiddleware(language="python").language == "python"
    with pytest.raises(ValueError, match="'python'"):
        CodeInterpreterMiddleware(language="ruby")


def test_tool_and_prompt_speak_python() -> None:
    mw = _mw(timeout=2.5, memory_limit=32 * 2**20)
    tool = mw.tools[0]
    assert tool.name == "eval"
    assert "Python" in tool.description and "JavaScript" not in tool.description
    code_doc = tool.args_schema.model_json_schema()["properties"]["code"]["description"]  # type: ignore[union-attr]
    assert code_doc.startswith("Python 3 to run")
    assert tool.metadata == {"ls_code_input_language": "python"}
    model = ScriptedChatModel()
    agent = build_agent(mw, checkpointer=InMemorySaver(), model=model)
    agent.invoke(turn("1 + 1"), thread())
    texts = [
        m.text for ms in model.seen for m in ms if isinstance(m, SystemMessage) and "### Code interpreter" in m.text
    ]
    assert len(texts) == 2
    for text in texts:
        assert "runs Python 3 (GraalPy)" in text and "print()" in text and "time.time()" in text
        assert "2.5 s" in text and "32 MB" in text and "TypeScript" not in text and "console.log" not in text


def test_thread_mode_keeps_python_globals_across_turns() -> None:
    agent = build_agent(_mw(), checkpointer=InMemorySaver())
    config = thread()
    first = agent.invoke(
        turn(
            "import statistics\nfrom fractions import Fraction\nscores = {'ann': [3, 5], 'bob': [4]}",
            "def mean_of(name):\n    return statistics.mean(scores[name])\n\nclass Box:\n    def __init__(self, v):\n"
            "        self.v = v",
            "box = Box(1)\nprint('ready')\nlen(scores)",
        ),
        config,
    )
    assert results_of(first) == [
        "<result>None</result>",
        "<result>None</result>",
        "<stdout>\nready\n</stdout>\n<result>2</result>",
    ]
    second = results_of(
        agent.invoke(
            turn(
                "scores['ann'].append(7)\nmean_of('ann')",
                "Box(Fraction(1, 3)).v * 3",
                "box",
            ),
            config,
        )
    )
    assert second[0] == "<result>5</result>"
    assert second[1] == "<result>Fraction(1, 1)</result>"
    assert second[2].startswith('<error type="NameError">Value for \'box\' was not restored because it is not '
                                "serializable (type: Box).")
    assert results_of(agent.invoke(turn("scores['ann']"), config)) == ["<result>[3, 5, 7]</result>"]
    other = results_of(agent.invoke(turn("'scores' in globals()"), thread()))
    assert other == ["<result>False</result>"]


async def test_turn_and_call_modes_async() -> None:
    agent = build_agent(_mw(mode="turn"), checkpointer=InMemorySaver())
    config = thread()
    out = results_of(await agent.ainvoke(turn("kept = 7", "kept * 2"), config))
    assert out == ["<result>None</result>", "<result>14</result>"]
    assert results_of(await agent.ainvoke(turn("'kept' in globals()"), config)) == ["<result>False</result>"]
    agent = build_agent(_mw(mode="call"))
    out = results_of(await agent.ainvoke(turn("once = 1\nonce", "'once' in globals()"), thread()))
    assert out == ["<result>1</result>", "<result>False</result>"]


def test_errors_and_limits_reach_the_model() -> None:
    agent = build_agent(_mw(timeout=1.0), checkpointer=InMemorySaver())
    config = thread()
    out = results_of(
        agent.invoke(turn("k = 1", "while True:\n    pass", "k + 1", "None.x", "open('/etc/hostname')"), config)
    )
    assert out[1].startswith('<error type="Timeout">')
    assert out[2] == "<result>2</result>"
    assert out[3].startswith("<error type=\"AttributeError\">'NoneType' object has no attribute 'x'")
    assert 'File "cell 4", line 1' in out[3]
    assert out[4].startswith('<error type="PermissionError">')
