"""Isolation under concurrency: many threads of one compiled agent at once, and parallel eval calls in one turn."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import ParallelScriptedChatModel, build_agent, results_of, thread, turn

WORKERS = 6


def _conversation(agent: Any, index: int) -> list[list[str]]:
    """Three turns of one thread: set a global, then check it is still ours and no other thread's is visible."""
    config = thread(f"worker-{index}-{id(agent)}")
    other = (index + 1) % WORKERS
    return [
        results_of(agent.invoke(turn(f"var mine = {index}; var trail = [{index}]"), config)),
        results_of(agent.invoke(turn(f"trail.push(mine * 10); typeof mine_{other}", f"var mine_{index} = 1"), config)),
        results_of(agent.invoke(turn(f"[mine, trail.join('/'), typeof globalThis.mine_{other}]"), config)),
    ]


def _expected(index: int) -> list[list[str]]:
    return [
        ["<result>undefined</result>"],
        ["<result>undefined</result>", "<result>undefined</result>"],
        [f'<result>[{index}, "{index}/{index * 10}", "undefined"]</result>'],
    ]


def test_threads_of_one_agent_run_concurrently_without_cross_talk() -> None:
    mw = CodeInterpreterMiddleware()
    agent = build_agent(mw, checkpointer=InMemorySaver())
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(lambda i: _conversation(agent, i), range(WORKERS)))
    assert results == [_expected(i) for i in range(WORKERS)]
    assert len(mw._registry) == 0


async def test_asyncio_gather_runs_isolated_threads() -> None:
    mw = CodeInterpreterMiddleware()
    agent = build_agent(mw, checkpointer=InMemorySaver())

    async def conversation(index: int) -> list[str]:
        config = thread()
        await agent.ainvoke(turn(f"var tag = 'thread-{index}'; var count = {index}"), config)
        out = await agent.ainvoke(turn("count += 100; `${tag}:${count}`"), config)
        return results_of(out)

    results = await asyncio.gather(*(conversation(i) for i in range(8)))
    assert results == [[f"<result>thread-{i}:{i + 100}</result>"] for i in range(8)]
    assert len(mw._registry) == 0


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_parallel_eval_calls_in_one_turn_run_one_after_the_other(asynchronous: bool) -> None:
    model = ParallelScriptedChatModel()
    agent = build_agent(CodeInterpreterMiddleware(), checkpointer=InMemorySaver(), model=model)
    config = thread()
    cells = turn("var a = 1; a", "var b = 2; b", "var c = 3; c")
    out = await agent.ainvoke(cells, config) if asynchronous else agent.invoke(cells, config)
    assert sorted(results_of(out)) == ["<result>1</result>", "<result>2</result>", "<result>3</result>"]
    again = turn("a + b + c")
    out = await agent.ainvoke(again, config) if asynchronous else agent.invoke(again, config)
    assert results_of(out) == ["<result>6</result>"]


async def test_cancelling_an_async_run_stops_the_guest_and_frees_the_thread() -> None:
    mw = CodeInterpreterMiddleware(timeout=30)
    agent = build_agent(mw, checkpointer=InMemorySaver())
    config = thread()
    task = asyncio.ensure_future(agent.ainvoke(turn("var before = 1; while (true) {}"), config))
    await asyncio.sleep(1.0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The aborted run never reached after_agent; the next run of the thread replaces its slot.
    out = await agent.ainvoke(turn("typeof before"), config)
    assert results_of(out) == ["<result>undefined</result>"]
    assert len(mw._registry) == 0
