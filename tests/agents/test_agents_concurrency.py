"""Eight agents on eight threads (or eight tasks), fifty turns each, in thread mode: no cross-talk, no deadlock.

Each agent is its own Deep Agent with its own middleware and conversation thread. Every turn increments the
agent's counter global, appends to its own log, and looks for every other agent's marker global; the answers
must be exactly this agent's running figures, and nothing of the others. The whole run is bounded generously
(a deadlock guard, not a speed check).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, results_of, thread, turn

AGENTS = 8
TURNS = 50
BOUND_S = 1200


def _cell(index: int) -> str:
    others = " + ".join(f"(typeof marker_{j} === 'undefined' ? 0 : 1)" for j in range(AGENTS) if j != index)
    return (
        f"var marker_{index} = 'agent-{index}';"
        " var count = (typeof count === 'number' ? count : 0) + 1;"
        f" var log = (typeof log === 'object' ? log : []); log.push({index} * 1000 + count);"
        f" [marker_{index}, count, log.length, log[log.length - 1], {others}]"
    )


def _expected(index: int, k: int) -> list[str]:
    return [f'<result>["agent-{index}", {k}, {k}, {index * 1000 + k}, 0]</result>']


def _agents() -> list[tuple[Any, dict[str, Any], CodeInterpreterMiddleware]]:
    made = []
    for i in range(AGENTS):
        mw = CodeInterpreterMiddleware(timeout=30.0)
        made.append((build_agent(mw, checkpointer=InMemorySaver()), thread(f"agent-{i}"), mw))
    return made


def test_eight_agents_on_eight_threads_fifty_turns_each() -> None:
    agents = _agents()

    def conversation(index: int) -> list[list[str]]:
        agent, config, _ = agents[index]
        return [results_of(agent.invoke(turn(_cell(index)), config)) for _ in range(TURNS)]

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(AGENTS) as pool:
        futures = [pool.submit(conversation, i) for i in range(AGENTS)]
        done, pending = concurrent.futures.wait(futures, timeout=BOUND_S)
        assert not pending, f"{len(pending)} agents did not finish within {BOUND_S} s: a deadlock"
    elapsed = time.monotonic() - started
    for i, future in enumerate(futures):
        assert future.result() == [_expected(i, k) for k in range(1, TURNS + 1)], i
    for _, _, mw in agents:
        assert len(mw._registry) == 0
    print(f"\n{AGENTS} agents x {TURNS} turns on threads: {elapsed:.1f} s")


async def test_eight_agents_as_tasks_fifty_turns_each() -> None:
    agents = _agents()

    async def conversation(index: int) -> list[list[str]]:
        agent, config, _ = agents[index]
        return [results_of(await agent.ainvoke(turn(_cell(index)), config)) for _ in range(TURNS)]

    started = time.monotonic()
    results = await asyncio.wait_for(asyncio.gather(*(conversation(i) for i in range(AGENTS))), BOUND_S)
    elapsed = time.monotonic() - started
    assert results == [[_expected(i, k) for k in range(1, TURNS + 1)] for i in range(AGENTS)]
    for _, _, mw in agents:
        assert len(mw._registry) == 0
    print(f"\n{AGENTS} agents x {TURNS} turns as tasks: {elapsed:.1f} s")


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_one_agent_serving_eight_threads_at_once(asynchronous: bool) -> None:
    # One compiled graph and one middleware shared by all: the slot registry must keep the threads apart.
    mw = CodeInterpreterMiddleware(timeout=30.0)
    agent = build_agent(mw, checkpointer=InMemorySaver())
    configs = [thread() for _ in range(AGENTS)]
    turns = 10

    async def aconv(i: int) -> list[list[str]]:
        return [results_of(await agent.ainvoke(turn(_cell(i)), configs[i])) for _ in range(turns)]

    def conv(i: int) -> list[list[str]]:
        return [results_of(agent.invoke(turn(_cell(i)), configs[i])) for _ in range(turns)]

    if asynchronous:
        results = await asyncio.wait_for(asyncio.gather(*(aconv(i) for i in range(AGENTS))), BOUND_S)
    else:
        with concurrent.futures.ThreadPoolExecutor(AGENTS) as pool:
            results = list(pool.map(conv, range(AGENTS), timeout=BOUND_S))
    assert results == [[_expected(i, k) for k in range(1, turns + 1)] for i in range(AGENTS)]
    assert len(mw._registry) == 0
