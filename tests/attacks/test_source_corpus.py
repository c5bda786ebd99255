"""Huge and deeply nested cells (``langchain_graalvm.cli.attacks.SOURCE_ATTACKS``), in each guest: first all of them
one after another in a fresh process, which then runs a normal cell in a new interpreter; then each late in a
process that ran other cells first; then the cells that once stalled or poisoned the process, each in a fresh one."""

from __future__ import annotations

import json
import os

from langchain_graalvm.cli import attacks as corpus
from tests.conftest import run_python

# A cell within the limits may take long to parse on a loaded machine; a Timeout is then an accepted outcome.
TIMEOUT = 2.0
OPTIONS = os.environ.get("LANGCHAIN_GRAALVM_JVM_OPTIONS", "")

RUN_ALL = """
    import json, time
    from langchain_graalvm import Interpreter
    from langchain_graalvm.cli.attacks import SOURCE_ATTACKS, check_source_outcome

    # GraalPy's parse of a 1 MB cell can pass the default 64 MiB memory limit (an OutOfMemory that resets the
    # context, as that limit does): these cases are about size, nesting and time, so the limit is set above it.
    MEMORY = 512 * 1024 * 1024

    interpreters = {g: Interpreter(g, timeout=%(timeout)r, memory_limit=MEMORY) for g in ("js", "python")}
    for g, it in interpreters.items():
        assert it.eval("var kept = 41" if g == "js" else "kept = 41").ok
    for attack in SOURCE_ATTACKS:
        it = interpreters[attack.guest]
        if attack.timeout is not None:
            it = Interpreter(attack.guest, timeout=attack.timeout, memory_limit=MEMORY)
            it.eval("var kept = 41" if attack.guest == "js" else "kept = 41")
        started = time.monotonic()
        out = it.eval(attack.code)
        took = time.monotonic() - started
        problem = check_source_outcome(attack, out.status, out.value, out.error_type, out.state_reset)
        kept = it.eval("kept + 1").value
        print(json.dumps({"id": attack.id, "took": round(took, 2), "problem": problem, "kept": kept,
                          "status": out.status, "type": out.error_type}), flush=True)
    with Interpreter(timeout=30.0) as fresh:
        print(json.dumps({"after": fresh.eval("[1, 2, 3].map(x => x * 2).join()").value}), flush=True)
"""


def test_every_source_case_in_one_fresh_process_then_a_new_interpreter_works() -> None:
    proc = run_python(RUN_ALL % {"timeout": TIMEOUT}, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    cases = [r for r in rows if "id" in r]
    assert [r["id"] for r in cases] == [a.id for a in corpus.SOURCE_ATTACKS]
    failures = [r for r in cases if r["problem"] or r["kept"] != "42"]
    assert not failures, failures
    assert rows[-1] == {"after": "2,4,6"}


def test_the_source_corpus_covers_each_guest_kind_and_size() -> None:
    ids = [a.id for a in corpus.SOURCE_ATTACKS]
    assert len(ids) == len(set(ids))
    assert {a.language for a in corpus.SOURCE_ATTACKS} == {"js", "ts", "python"}
    sizes = [len(a.code.encode()) for a in corpus.SOURCE_ATTACKS]
    assert min(sizes) < 10_000 and max(sizes) >= 5_000_000


LATE = """
    import json
    from langchain_graalvm import Interpreter
    from langchain_graalvm.cli.attacks import SOURCE_ATTACKS, check_source_outcome

    # GraalPy's parse of a 1 MB cell can pass the default 64 MiB memory limit (an OutOfMemory that resets the
    # context, as that limit does): these cases are about size, nesting and time, so the limit is set above it.
    MEMORY = 512 * 1024 * 1024

    # A process that has run other cells first (40 of them, in both guests), then each case in a new interpreter.
    with Interpreter(timeout=60.0) as js, Interpreter("python", timeout=60.0) as py:
        for i in range(20):
            assert js.eval(f"const v{i} = [1, 2, 3].map(x => x * {i}); `${{v{i}.join()}}`").ok
            assert py.eval(f"v{i} = [x * {i} for x in range(3)]\\nsum(v{i})").ok
    for attack in SOURCE_ATTACKS:
        with Interpreter(attack.guest, timeout=attack.timeout or %(timeout)r, memory_limit=MEMORY) as it:
            it.eval("var kept = 41" if attack.guest == "js" else "kept = 41")
            out = it.eval(attack.code)
            problem = check_source_outcome(attack, out.status, out.value, out.error_type, out.state_reset)
            print(json.dumps({"id": attack.id, "problem": problem, "kept": it.eval("kept + 1").value}), flush=True)
"""


def test_every_source_case_late_in_a_process_that_ran_other_cells() -> None:
    # In a process of its own: the cases' huge parses are kept away from the test session's long-lived JVM.
    proc = run_python(LATE % {"timeout": TIMEOUT}, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert [r["id"] for r in rows] == [a.id for a in corpus.SOURCE_ATTACKS]
    failures = [r for r in rows if r["problem"] or r["kept"] != "42"]
    assert not failures, failures


def test_an_800_kb_expression_is_refused_at_once_in_a_fresh_process_and_poisons_nothing() -> None:
    proc = run_python(
        """
        import json
        from langchain_graalvm import Interpreter
        first = Interpreter(timeout=2.0)
        out = first.eval("1 + " * 200000 + "1")
        print(json.dumps([out.status, out.error_type, out.state_reset, "split" in (out.error_message or "").lower()]))
        print(json.dumps(Interpreter(timeout=30.0).eval("6 * 7").value))
        print(json.dumps(first.eval("6 * 7").value))
        """,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert json.loads(lines[0]) == ["error", "CodeTooDeep", False, True]
    assert json.loads(lines[1]) == "42" and json.loads(lines[2]) == "42"


def test_an_800_kb_expression_through_the_eval_tool_answers_in_a_fresh_process() -> None:
    # The model sends the cells as eval calls; the user's message is short (an 800 KB message is not a cell).
    proc = run_python(
        """
        import json, os, sys
        sys.path.insert(0, os.getcwd())
        from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
        from langchain_graalvm import CodeInterpreterMiddleware
        from langchain_graalvm.cli._scripted import ScriptedChatModel
        from tests.support.scripted import build_agent, results_of, thread
        CELLS = ["1 + " * 200000 + "1", "[" * 5000 + "]" * 5000,
                 "let t: number = " + "(" * 5000 + "1" + ")" * 5000, "6 * 7"]

        class Model(ScriptedChatModel):
            # One cell per turn, in its own thread: a history of 800 KB would make the agent summarize it.
            def _next(self, messages):
                done = [str(m.content) for m in messages if isinstance(m, ToolMessage)]
                if not done:
                    return AIMessage(content="", tool_calls=[self._cell_call(CELLS[int(messages[-1].content)])])
                return AIMessage(content=done[0])

        agent = build_agent(CodeInterpreterMiddleware(timeout=2.0), model=Model())
        print(json.dumps([results_of(agent.invoke({"messages": [HumanMessage(str(i))]}, thread()))[0]
                          for i in range(len(CELLS))]))
        """,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    envelopes = json.loads(proc.stdout.splitlines()[-1])
    assert [corpus.outcome_from_envelope(e).error_type for e in envelopes[:3]] == ["CodeTooDeep"] * 3, envelopes
    assert envelopes[3] == "<result>42</result>"


def test_a_stack_overflow_in_the_engines_parser_poisons_nothing() -> None:
    # With the nesting limit lifted the engine's own parser may run out of stack, the first thing in the process to
    # do so (no warm-up ran before it): the eval ends in an outcome, and a new interpreter still works.
    proc = run_python(
        """
        import json
        from langchain_graalvm import Interpreter
        out = Interpreter(timeout=2.0, max_nesting=10**8).eval("1 + " * 200000 + "1")
        print(json.dumps([out.status, out.error_type, out.value]))
        print(json.dumps(Interpreter(timeout=30.0).eval("6 * 7").value))
        """,
        env={"LANGCHAIN_GRAALVM_JVM_OPTIONS": f"{OPTIONS} -Dlangchain.graalvm.noWarmUp=true"},
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    status, error_type, value = json.loads(lines[0])
    # Which outcome depends on how far the parsers get within the timeout: the value (the engine's parse fitted its
    # stack), or an error the model can read (Timeout, SyntaxError, ...), never a Java class name.
    if status == "ok":
        assert value == "200001"
    else:
        assert status in ("error", "timeout") and error_type and "." not in error_type, (status, error_type)
    assert json.loads(lines[1]) == "42"
