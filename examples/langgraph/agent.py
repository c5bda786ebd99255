"""A Deep Agent with the sandboxed interpreter, served by the LangGraph server (``langgraph dev``, see README).

The server keeps every thread's checkpoints, so the middleware's thread mode carries each thread's interpreter
globals from run to run. Offline, the agent's model is the scripted model of ``langchain-graalvm demo``, playing
:data:`TURNS` (the message ``"Open a ledger for ACME."`` defines a ledger, a class and functions; the others use
them). Set ``LANGCHAIN_GRAALVM_EXAMPLE_MODEL`` to ``provider:name`` (and the provider's API key) to serve a real
model instead.
"""

from __future__ import annotations

import os
import re

from deepagents import create_deep_agent
from langchain_core.language_models import BaseChatModel

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.cli._demo import real_model
from langchain_graalvm.cli._scripted import ScriptedChatModel, ScriptedTurn, eval_step


def _result(results: list[str]) -> str:
    match = re.search(r"<(result|error)(?: [^>]*)?>(.*?)</\1>", results[-1], re.DOTALL)
    return match.group(2).strip() if match else results[-1].strip()


def _open(owner: str) -> ScriptedTurn:
    return ScriptedTurn(
        user=f"Open a ledger for {owner}.",
        steps=[
            eval_step(
                f"""
                class Entry {{
                  constructor(public amount: number, public note: string) {{}}
                  signed() {{ return this.note === "refund" ? -this.amount : this.amount }}
                }}
                var ledger = {{ owner: {owner!r}, entries: [] as Entry[] }};
                function balance() {{ return ledger.entries.reduce((sum, e) => sum + e.signed(), 0) }}
                ledger.owner
                """
            )
        ],
        answer=lambda results: f"Opened a ledger for {_result(results)}.",
    )


def _add(amount: int, note: str) -> ScriptedTurn:
    return ScriptedTurn(
        user=f"Record {amount} ({note}).",
        steps=[eval_step(f"ledger.entries.push(new Entry({amount}, {note!r})); ledger.entries.length")],
        answer=lambda results: f"Recorded; the ledger has {_result(results)} entries.",
    )


TURNS: list[ScriptedTurn] = [
    _open("ACME"),
    _open("Globex"),
    _add(120, "invoice"),
    _add(80, "invoice"),
    _add(30, "refund"),
    ScriptedTurn(
        user="What is the balance?",
        steps=[eval_step("`${ledger.owner}: ${balance()} over ${ledger.entries.length} entries`")],
        answer=lambda results: _result(results),
    ),
]


def _model() -> BaseChatModel:
    spec = os.environ.get("LANGCHAIN_GRAALVM_EXAMPLE_MODEL")
    return real_model(spec) if spec else ScriptedChatModel(turns=TURNS, record=False)


# The server brings its own checkpointer (and store), so the agent is compiled without one.
agent = create_deep_agent(
    model=_model(),
    middleware=[CodeInterpreterMiddleware(snapshot_signing_key=os.environ.get("LANGCHAIN_GRAALVM_SIGNING_KEY"))],
)
