"""A Deep Agent whose emails, sent from code, wait for a human's approval (``interrupt_on``).

Served next to the ledger agent by ``langgraph dev`` (graph ``review``). Offline its model is the scripted model:
the message ``"Email Ann."`` runs one cell that counts a draft, sends an email through ``tools.sendEmail`` and
counts again. The run pauses at the email with the Human-in-the-Loop middleware's ``HITLRequest``; resume it with
``{"decisions": [{"type": "approve"}]}`` (or ``edit``, ``reject``, ``respond``). See docs/tools.md.
"""

from __future__ import annotations

import re

from deepagents import create_deep_agent
from langchain_core.tools import tool

from langchain_graalvm import CodeInterpreterMiddleware
from langchain_graalvm.cli._scripted import ScriptedChatModel, ScriptedTurn, eval_step

DRAFTS: list[str] = []


@tool
def draft(to: str) -> int:
    """Saves a draft to `to`; returns how many drafts this server saved."""
    DRAFTS.append(to)
    return len(DRAFTS)


@tool
def send_email(to: str, subject: str) -> str:
    """Sends an email."""
    return f"sent '{subject}' to {to}"


def _result(results: list[str]) -> str:
    match = re.search(r"<(result|error)(?: [^>]*)?>(.*?)</\1>", results[-1], re.DOTALL)
    return match.group(2).strip() if match else results[-1].strip()


TURNS = [
    ScriptedTurn(
        user="Email Ann.",
        steps=[
            eval_step(
                """
                const drafts = await tools.draft({to: "ann@example.com"});
                let outcome;
                try { outcome = await tools.sendEmail({to: "ann@example.com", subject: "Hello"}) }
                catch (e) { outcome = e.name + ": " + e.message }
                `${outcome} (${drafts} draft)`
                """
            )
        ],
        answer=_result,
    )
]

# The server brings its own checkpointer, which is what lets the run pause.
agent = create_deep_agent(
    model=ScriptedChatModel(turns=TURNS, record=False),
    tools=[draft, send_email],
    middleware=[CodeInterpreterMiddleware(ptc=["draft", "send_email"])],
    interrupt_on={"send_email": True},
)
