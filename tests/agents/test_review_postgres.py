"""A cell paused for review in one process and resumed in another, fresh one, from PostgreSQL: the calls made
before the pause are not made again, and the cell goes on from the globals it started with."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from langgraph.checkpoint.postgres import PostgresSaver

from tests.conftest import ROOT, run_python
from tests.support.pg import PostgresServer

WORKER = """
import json, os, sys
from langchain_core.tools import tool
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.types import Command

from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, results_of, turn

LOG = os.environ["REVIEW_LOG"]


def note(line):
    with open(LOG, "a") as out:
        out.write(line + "\\n")


@tool
def bump(name: str) -> int:
    \"\"\"Counts a call.\"\"\"
    note("bump " + name)
    return 1


@tool
def send_email(to: str) -> str:
    \"\"\"Sends an email.\"\"\"
    note("send " + to)
    return "sent to " + to


config = {"configurable": {"thread_id": os.environ["REVIEW_THREAD"]}}
with PostgresSaver.from_conn_string(os.environ["REVIEW_DSN"]) as saver:
    mw = CodeInterpreterMiddleware(ptc=["bump", "send_email"], timeout=20.0)
    agent = build_agent(mw, tools=[bump, send_email], checkpointer=saver, interrupt_on={"send_email": True})
    if os.environ["REVIEW_PHASE"] == "start":
        cells = [
            "globalThis.n = 5; n",
            "globalThis.n += 1;\\nconst a = await tools.bump({name: 'before'});\\n"
            "const s = await tools.sendEmail({to: 'ann@example.com'});\\n"
            "const b = await tools.bump({name: 'after'});\\n[n, a, s, b]",
        ]
        state = agent.invoke(turn(*cells), config)
        print("OUT " + json.dumps([i.value for i in state.get("__interrupt__", [])]))
    else:
        state = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
        print("OUT " + json.dumps(results_of(state)))
    mw.close()
"""


def _phase(postgres: PostgresServer, thread_id: str, log: Path, phase: str) -> object:
    env = {"REVIEW_DSN": postgres.dsn, "REVIEW_THREAD": thread_id, "REVIEW_LOG": str(log), "REVIEW_PHASE": phase}
    env.update({"LANGCHAIN_GRAALVM_FAST_START": "0", "PYTHONPATH": str(ROOT)})
    done = run_python(WORKER, env=env, timeout=400)
    lines = [line for line in done.stdout.splitlines() if line.startswith("OUT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    return json.loads(lines[-1][4:])


@pytest.fixture(scope="module")
def _tables(postgres: PostgresServer) -> None:
    with PostgresSaver.from_conn_string(postgres.dsn) as saver:
        saver.setup()


@pytest.mark.usefixtures("_tables")
def test_review_resumed_in_a_fresh_process_runs_each_call_once(postgres: PostgresServer, tmp_path: Path) -> None:
    thread_id = f"review-{uuid.uuid4().hex}"
    log = tmp_path / "calls.log"
    paused = _phase(postgres, thread_id, log, "start")
    assert paused == [
        {
            "action_requests": [
                {
                    "name": "send_email",
                    "args": {"to": "ann@example.com"},
                    "description": "Tool execution requires approval\n\nTool: send_email\n"
                    "Args: {'to': 'ann@example.com'}",
                }
            ],
            "review_configs": [
                {"action_name": "send_email", "allowed_decisions": ["approve", "edit", "reject", "respond"]}
            ],
        }
    ]
    assert log.read_text().splitlines() == ["bump before"]
    out = _phase(postgres, thread_id, log, "resume")
    assert out == ["<result>5</result>", '<result>[6, 1, "sent to ann@example.com", 1]</result>']
    assert log.read_text().splitlines() == ["bump before", "send ann@example.com", "bump after"]
