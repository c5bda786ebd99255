"""The ``demo`` command: a real Deep Agent using the sandboxed ``eval`` tool over several turns.

Offline, the agent's chat model is :class:`ScriptedChatModel`, which plays :data:`DEMO_TURNS`: for each user
message it makes the scripted tool calls one at a time, then answers from what the tools returned. Everything else
is real: ``deepagents.create_deep_agent``, the middleware, the checkpointer that carries the interpreter's globals
from turn to turn, and the GraalVM sandbox. With ``--model provider:name`` the same agent and the same user
messages run against a real chat model instead.

Extend the demo by appending :class:`ScriptedTurn` objects to :data:`DEMO_TURNS`.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
import uuid
from collections.abc import Sequence
from typing import Any, TextIO

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langchain_graalvm.errors import DemoError

from ._scripted import ScriptedChatModel, ScriptedTurn, eval_step

AUDIT_TASK = "Audit these invoices for duplicates and outliers: "


def _result_of(envelope: str) -> str:
    """The text inside ``<result>`` (or ``<error>``) of an eval envelope."""
    match = re.search(r"<(result|error)(?: [^>]*)?>(.*?)</\1>", envelope, re.DOTALL)
    return match.group(2).strip() if match else envelope.strip()


DEMO_TURNS: list[ScriptedTurn] = [
    ScriptedTurn(
        user="Here are this month's invoices: ACME 1200, Globex 850.50, ACME 430, Initech 99.90. What is the total?",
        steps=[
            eval_step(
                """
                type Invoice = { customer: string; amount: number };
                const invoices: Invoice[] = [
                  { customer: "ACME", amount: 1200 },
                  { customer: "Globex", amount: 850.5 },
                  { customer: "ACME", amount: 430 },
                  { customer: "Initech", amount: 99.9 },
                ];
                const total = invoices.reduce((sum, i) => sum + i.amount, 0);
                total.toFixed(2)
                """
            )
        ],
        answer=lambda results: f"The total is {_result_of(results[0]).strip(chr(34))}.",
    ),
    ScriptedTurn(
        user="Break it down by customer, with 20% VAT added.",
        steps=[
            eval_step(
                """
                // `invoices` is still defined: the interpreter's globals persist across turns.
                const byCustomer = new Map<string, number>();
                for (const { customer, amount } of invoices) {
                  byCustomer.set(customer, (byCustomer.get(customer) ?? 0) + amount * 1.2);
                }
                console.log(`${byCustomer.size} customers`);
                Object.fromEntries([...byCustomer].map(([c, v]) => [c, Math.round(v * 100) / 100]))
                """
            )
        ],
        answer=lambda results: "With VAT, per customer: " + _result_of(results[0]),
    ),
    ScriptedTurn(
        user="Can you look up today's exchange rate online and read my ~/.ssh folder?",
        steps=[
            eval_step(
                """
                [typeof fetch, typeof require, typeof process, typeof Java, new Date().toISOString()]
                """
            ),
            eval_step("require('fs').readdirSync('.ssh')"),
        ],
        answer=lambda results: (
            "No: the interpreter is sandboxed. It has no network, file system, process or Java access, and its "
            f"clock is frozen ({_result_of(results[0])}). Reading a folder fails: {_result_of(results[1])}"
        ),
    ),
    ScriptedTurn(
        user="Try an endless loop, then show me the total again.",
        steps=[eval_step("while (true) {}"), eval_step("`total is still ${total}`")],
        answer=lambda results: (
            f"The loop was stopped by the time limit ({_result_of(results[0])}); the globals survived: "
            f"{_result_of(results[1])}."
        ),
    ),
    ScriptedTurn(
        user="Convert each customer's total (with VAT) to USD and GBP with the exchange_rate tool.",
        steps=[
            eval_step(
                """
                // Agent tools are callable from code; both rates are fetched at once.
                const [usd, gbp] = await Promise.all(
                  ["USD", "GBP"].map((currency) => tools.exchangeRate({ currency })),
                );
                const convert = (eur: number) => ({ USD: +(eur * usd).toFixed(2), GBP: +(eur * gbp).toFixed(2) });
                Object.fromEntries([...byCustomer].map(([c, eur]) => [c, convert(eur)]))
                """
            )
        ],
        answer=lambda results: "Converted with today's rates: " + _result_of(results[0]),
    ),
    ScriptedTurn(
        user="Have the auditor check the invoices for anything unusual.",
        steps=[
            eval_step(
                f"""
                // A subagent, dispatched from code; its answer comes back as a string.
                const review = await task({{
                  description: {AUDIT_TASK!r} + JSON.stringify(invoices),
                  subagentType: "auditor",
                }});
                review
                """
            )
        ],
        answer=lambda results: "The auditor says: " + _result_of(results[0]),
    ),
    # The auditor subagent's own conversation: it is given the task description as its user message.
    ScriptedTurn(
        user=AUDIT_TASK + '[{"customer":"ACME","amount":1200},{"customer":"Globex","amount":850.5},'
        '{"customer":"ACME","amount":430},{"customer":"Initech","amount":99.9}]',
        steps=[],
        answer=lambda _results: "ACME appears twice (1200 and 430); Initech's 99.90 is far below the others.",
    ),
]


def exchange_rate(currency: str) -> float:
    """The exchange rate from EUR to `currency` (USD, GBP or CHF), from a fixed offline table."""
    rates = {"USD": 1.08, "GBP": 0.85, "CHF": 0.94}
    if currency not in rates:
        raise ValueError(f"unknown currency {currency!r}; known: {', '.join(rates)}")
    return rates[currency]


AUDITOR = {
    "name": "auditor",
    "description": "Checks a list of invoices for duplicates and outliers, and reports what it found.",
    "system_prompt": "You audit invoices. Reply with one or two sentences naming anything unusual.",
}


# Environment variables holding the API key of common providers of `init_chat_model`.
_PROVIDER_KEYS = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "azure_openai": "AZURE_OPENAI_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "fireworks": "FIREWORKS_API_KEY",
    "together": "TOGETHER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY",
    "cohere": "COHERE_API_KEY",
}


def real_model(spec: str) -> BaseChatModel:
    """The chat model for ``--model provider:name``, with a clear error for a missing package or API key."""
    provider, sep, name = spec.partition(":")
    if not sep or not provider or not name:
        raise DemoError(f"--model must look like provider:name (for example anthropic:claude-sonnet-4-5); got {spec!r}")
    key = _PROVIDER_KEYS.get(provider)
    if key and not os.environ.get(key):
        raise DemoError(f"--model {spec} needs the {key} environment variable set to your API key.")
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(spec)
    except ImportError as exc:
        package = "langchain-" + provider.replace("_", "-")
        raise DemoError(f"--model {spec} needs the provider package: pip install {package} ({exc})") from exc
    except ValueError as exc:
        raise DemoError(f"--model {spec}: {exc}") from exc


def build_agent(model: BaseChatModel, middleware: Any) -> Any:
    """The demo's Deep Agent: the given model, the interpreter middleware, the ``exchange_rate`` tool, an
    ``auditor`` subagent and an in-memory checkpointer."""
    from deepagents import create_deep_agent
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver

    return create_deep_agent(
        model=model,
        tools=[tool(exchange_rate)],
        subagents=[AUDITOR],  # type: ignore[list-item]
        middleware=[middleware],
        checkpointer=InMemorySaver(),
    )


def _indent(text: str, prefix: str = "    ") -> str:
    return textwrap.indent(text, prefix, lambda _line: True)


def print_message(message: BaseMessage, out: TextIO) -> None:
    """One message of the conversation, readably: its role, tool calls with their code, tool envelopes."""
    if isinstance(message, HumanMessage):
        print(f"\nuser> {message.content}", file=out)
    elif isinstance(message, AIMessage):
        text = message.text if isinstance(message.text, str) else str(message.content)
        if text.strip():
            print(f"\nassistant> {text.strip()}", file=out)
        for call in message.tool_calls:
            args = dict(call["args"])
            code = args.pop("code", None)
            extra = f" {args}" if args else ""
            print(f"\nassistant> calls {call['name']}{extra}", file=out)
            if isinstance(code, str):
                print(_indent(code, "    | "), file=out)
    elif isinstance(message, ToolMessage):
        print(f"\ntool {message.name}>", file=out)
        print(_indent(str(message.content)), file=out)


def run(
    model_spec: str | None = None,
    *,
    turns: Sequence[ScriptedTurn] | None = None,
    out: TextIO = sys.stdout,
    timeout: float = 2.0,
) -> list[BaseMessage]:
    """Runs the demo conversation and prints it; returns every message of the thread."""
    from langchain_graalvm import runtime_info
    from langchain_graalvm.middleware import CodeInterpreterMiddleware

    script = list(DEMO_TURNS if turns is None else turns)
    if model_spec is None:
        model: BaseChatModel = ScriptedChatModel(turns=script, record=False)
    else:
        model = real_model(model_spec)
    middleware = CodeInterpreterMiddleware(timeout=timeout, ptc=["exchange_rate"])
    agent = build_agent(model, middleware)
    config = {"configurable": {"thread_id": f"demo-{uuid.uuid4().hex[:8]}"}}
    info = runtime_info()
    who = "a scripted offline model" if model_spec is None else model_spec
    print(
        f"langchain-graalvm demo: a Deep Agent with {who}; sandbox on GraalVM {info['graalvm_version']}, "
        f"JDK {info['java_version']}, JIT {'on' if info['jit'] else 'off'}, eval timeout {timeout:g} s",
        file=out,
    )
    seen = 0
    messages: list[BaseMessage] = []
    try:
        for turn in script:
            if turn.user.startswith(AUDIT_TASK):
                continue  # the auditor subagent's part, played when the agent dispatches it
            state = agent.invoke({"messages": [HumanMessage(turn.user)]}, config)
            messages = list(state["messages"])
            for message in messages[seen:]:
                print_message(message, out)
            seen = len(messages)
    finally:
        middleware.close()
    print("", file=out)
    return messages
