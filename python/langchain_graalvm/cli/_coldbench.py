"""Cold-start rows of ``langchain-graalvm bench``: what a fresh process pays before its first result.

- the first agent turn of a fresh process whose model takes 2 s for its first answer (a scripted model that
  sleeps, then calls ``eval``): the time a user waits, with the JVM's start overlapping the model's call;
- a new agent's fan-out in a process whose backend is already warm (one plain agent turn ran): ``Promise.all``
  over 100 calls of an async tool that sleeps 50 ms, the first host calls of the process;
- GraalPy: the first eval of a fresh process, and, in this (warm) process, a new Python context and the first
  ``import json`` in it. These rows have no langchain-quickjs counterpart (it has no Python guest).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
import time
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._benchkit import BenchRun

MODEL_SECONDS = 2.0

_AGENT_CHILD = textwrap.dedent(
    """
    import time, sys, warnings
    start = time.perf_counter()
    warnings.simplefilter("ignore")
    from langchain_graalvm.cli._coldbench import slow_model
    from langchain_graalvm.cli._benchkit import build_middleware
    from deepagents import create_deep_agent
    from langchain_core.messages import HumanMessage
    agent = create_deep_agent(model=slow_model(), middleware=[build_middleware(sys.argv[1], "defaults")])
    out = agent.invoke({"messages": [HumanMessage("add")]}, {"configurable": {"thread_id": "t"}})
    print(time.perf_counter() - start, out["messages"][-1].content, flush=True)
    import os; os._exit(0)
    """
)

FANOUT_CALLS = 100
FANOUT_CODE = (
    f"const n = await Promise.all(Array.from({{length: {FANOUT_CALLS}}}, (_, i) => tools.nap({{i}}))); n.length"
)

_FANOUT_CHILD = textwrap.dedent(
    """
    import asyncio, json, sys, time, warnings
    warnings.simplefilter("ignore")
    from langchain_core.messages import HumanMessage
    from langchain_core.tools import tool
    from langchain_graalvm.cli._benchkit import agent_for, build_middleware
    from langchain_graalvm.cli._coldbench import FANOUT_CODE

    in_flight = peak = 0

    @tool
    async def nap(i: int) -> int:
        '''Sleeps 50 ms, then returns i.'''
        global in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            await asyncio.sleep(0.05)
        finally:
            in_flight -= 1
        return i

    def new_agent():
        return agent_for(build_middleware(sys.argv[1], "defaults", ptc=["nap"], max_ptc_calls=None), [nap])

    async def turn(agent, code, thread_id):
        payload = {"messages": [HumanMessage(json.dumps([code]))]}
        out = await agent.ainvoke(payload, {"configurable": {"thread_id": thread_id}})
        return out["messages"][-1].content

    async def main():
        await turn(new_agent(), "1 + 1", "warm")  # the backend is warm: the JVM runs, QuickJS is loaded
        agent = new_agent()
        start = time.perf_counter()
        out = await turn(agent, FANOUT_CODE, "fresh")
        print(time.perf_counter() - start, out, f"peak={peak}", flush=True)

    asyncio.run(main())
    import os; os._exit(0)
    """
)

_PYTHON_CHILD = textwrap.dedent(
    """
    import time
    start = time.perf_counter()
    from langchain_graalvm import Interpreter
    out = Interpreter("python").eval("1 + 1")
    print(time.perf_counter() - start, out.text, flush=True)
    import os; os._exit(0)
    """
)


def slow_model() -> Any:
    """A chat model whose first answer takes ``MODEL_SECONDS`` and calls ``eval`` once; then it answers."""
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class SlowFirstAnswer(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "slow-first-answer"

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - tools are ignored
            return self

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:  # noqa: ARG002
            done = [m for m in messages if isinstance(m, ToolMessage)]
            if not done:
                time.sleep(MODEL_SECONDS)
                call = {"name": "eval", "args": {"code": "1 + 1"}, "id": "call_cold_1"}
                message = AIMessage(content="", tool_calls=[call])
            else:
                message = AIMessage(content=str(done[-1].content))
            return ChatResult(generations=[ChatGeneration(message=message)])

    return SlowFirstAnswer()


def _fresh(code: str, *args: str, attempts: int = 3) -> tuple[float, float, str]:
    """Runs ``code`` in a fresh Python; returns its own wall seconds, the child's CPU seconds, and its output.

    A child that fails is run again, up to ``attempts`` times: on a loaded machine langchain-quickjs's own set-up
    can hit its internal timeout (``TimeoutError: interrupted`` while it installs its console). Only finished runs
    are measured.
    """
    failure = ""
    for _ in range(attempts):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=900, check=False
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        seconds, _, out = proc.stdout.strip().partition(" ")
        if proc.returncode == 0 and seconds:
            return float(seconds), cpu, out
        failure = proc.stderr[-500:] or proc.stdout
    from ..errors import WorkloadError

    raise WorkloadError(f"fresh process failed {attempts} times: {failure}")


def agent_turn(bench: BenchRun) -> None:
    from ._benchkit import Row

    samples, errors = _fresh_samples(bench, _AGENT_CHILD, "<result>2</result>", "cold agent turn")
    label = f"cold: fresh process to the end of the first agent turn, model's first answer takes {MODEL_SECONDS:g} s"
    bench.add(Row(label, "s", samples, goal=1.0, errors=errors))



def _fresh_samples(
    bench: BenchRun, child: str, expected: str, what: str
) -> tuple[dict[str, list[float]], dict[str, str]]:
    """Each repetition, backends alternating: ``child`` in a fresh process; its time counts when its output holds
    ``expected``."""
    from ._benchkit import BACKENDS, guarded

    samples: dict[str, list[float]] = {b: [] for b in BACKENDS}
    errors: dict[str, str] = {}
    for rep in range(bench.sizes.reps):
        for backend in bench.order(rep):
            run = guarded(errors, backend, partial(_fresh, child, backend))
            if run is not None and expected in run[2]:
                samples[backend].append(run[0])
            elif run is not None:
                errors[backend] = f"{what}: {run[2][:300]}"
            bench.step(f"{what} ({backend})")
    return samples, errors

def fresh_agent_fanout(bench: BenchRun) -> None:
    """A new agent's first turn in a warm process: one cell awaiting 100 parallel calls of a 50 ms async tool.

    Each sample is a process of its own (the first host calls of a process are the case), backends alternating;
    the time is the new agent's ``ainvoke`` alone.
    """
    from ._benchkit import Row

    samples, errors = _fresh_samples(bench, _FANOUT_CHILD, f"<result>{FANOUT_CALLS}</result>", "fresh agent fan-out")
    label = f"fresh agent, {FANOUT_CALLS} parallel async tool calls of 50 ms (warm process, ainvoke)"
    bench.add(Row(label, "s", samples, goal=1.0, errors=errors))


def python_guest(bench: BenchRun) -> None:
    from ..errors import WorkloadError
    from ..interpreter import Interpreter
    from ._benchkit import Row

    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(bench.sizes.reps):
        seconds, used, out = _fresh(_PYTHON_CHILD)
        if out != "<result>2</result>":
            raise WorkloadError(f"GraalPy first eval: {out[:300]}")
        wall.append(seconds)
        cpu.append(used)
        bench.step("GraalPy fresh process")
    bench.add(Row("GraalPy: fresh process to the first eval result (goal ≤ 4 s)", "s", {"graalvm": wall}))
    bench.add(Row("GraalPy: fresh process to the first eval result, CPU seconds", "s", {"graalvm": cpu}))
    with Interpreter("python", timeout=120, prestart=False) as warm_up:  # the first context loads GraalPy
        warm_up.eval("import json")
    contexts: list[float] = []
    imports: list[float] = []
    for _ in range(bench.sizes.reps):
        with Interpreter("python", timeout=120, prestart=False) as py:
            started = time.perf_counter()
            first = py.eval("1")
            contexts.append(time.perf_counter() - started)
            started = time.perf_counter()
            imported = py.eval("import json\njson.dumps([1])")
            imports.append(time.perf_counter() - started)
        if first.text != "<result>1</result>" or imported.text != "<result>'[1]'</result>":
            raise WorkloadError(f"GraalPy warm JVM: {first.text[:200]} {imported.text[:200]}")
        bench.step("GraalPy warm JVM")
    bench.add(Row("GraalPy: a new context in a warm JVM, first eval (goal ≤ 100 ms)", "s", {"graalvm": contexts}))
    bench.add(Row("GraalPy: `import json` in a new context of a warm JVM (goal ≤ 0.2 s)", "s", {"graalvm": imports}))
