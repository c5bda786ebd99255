"""Durability across processes (SqliteSaver), and clean process exit after a run that aborted mid-turn."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.conftest import ROOT, run_python

RESUMABLE = """
import json, sys
sys.path.insert(0, {root!r})
from langgraph.checkpoint.sqlite import SqliteSaver
from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, results_of, thread, turn

cells = json.loads({cells!r})
with SqliteSaver.from_conn_string({db!r}) as saver:
    mw = CodeInterpreterMiddleware(snapshot_signing_key="shared between processes")
    agent = build_agent(mw, checkpointer=saver)
    out = agent.invoke(turn(*cells), thread("durable-thread"))
    print(json.dumps(results_of(out)))
"""


def _run_turn(db: Path, *cells: str) -> list[str]:
    code = RESUMABLE.format(root=str(ROOT), cells=json.dumps(cells), db=str(db))
    done = run_python(code, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_thread_resumes_in_another_process_through_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "checkpoints.sqlite"
    first = _run_turn(
        db,
        "var ledger = [{id: 1, amount: 40}]; const rate: number = 0.5",
        "function total() { return ledger.reduce((s, e) => s + e.amount, 0) }",
        "class Entry { constructor(amount) { this.amount = amount } doubled() { return this.amount * 2 } }",
    )
    assert first == ["<result>undefined</result>"] * 3
    second = _run_turn(
        db, "ledger.push(new Entry(2)); total()", "ledger[1].doubled() + rate", "ledger[1] instanceof Entry"
    )
    assert second == ["<result>42</result>", "<result>4.5</result>", "<result>true</result>"]


ABORTING = """
import sys, time
sys.path.insert(0, {root!r})
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, thread, turn

@tool
def explode() -> str:
    \"\"\"Always fails.\"\"\"
    raise RuntimeError("boom")

mw = CodeInterpreterMiddleware()
agent = build_agent(mw, checkpointer=InMemorySaver(), tools=[explode])
try:
    agent.invoke(turn("var left = 'open'", "tool:explode"), thread())
except RuntimeError as exc:
    print("aborted:", exc, "open slots:", len(mw._registry))
print("exiting at", time.monotonic())
"""


def test_a_process_exits_promptly_after_an_aborted_run() -> None:
    started = time.monotonic()
    done = run_python(ABORTING.format(root=str(ROOT)), timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "aborted: boom open slots: 1" in done.stdout
    exiting_at = float(done.stdout.strip().splitlines()[-1].split()[-1])
    assert exiting_at > started
    # The exit itself (closing the left-over slot, the spares and the JVM) takes moments, not a hang.
    assert time.monotonic() - exiting_at < 20
