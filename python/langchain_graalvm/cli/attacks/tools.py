"""Hostile guests against the host-call protocol, and hostile tools against the eval: cases that need the agent's
tools, so they run through the eval tool only, in both guests, with :data:`HOSTILE_TOOLS` exposed to code and a
budget of :data:`TOOL_BUDGET` calls.

The host owns every rule: guest code that drives the protocol itself, or patches a module the guest's helpers use,
gets nothing it could not get through ``tools.*``. A tool that raises ``SystemExit``, ``KeyboardInterrupt``,
``GeneratorExit`` or a ``CancelledError`` of its own gives the guest an error to read, and the next call works. A
value that cannot cross gives a clear error at once, never a hang.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from ._model import BRIDGE_ABUSE, Attack, make

TOOL_BUDGET = 20
"""The ``max_ptc_calls`` these cases run under."""

_tallies: collections.Counter[str] = collections.Counter()


def _tally(key: str) -> int:
    """Counts the calls made with ``key`` and returns the count: how many times the host really ran the tool."""
    _tallies[key] += 1
    return _tallies[key]


def _echo(value: Any = None) -> Any:
    return value


def _kind(value: Any = None) -> str:
    return type(value).__name__


def _huge() -> int:
    return 10**5000


def _quit() -> str:
    raise SystemExit(2)  # as argparse does on bad arguments


def _interrupt() -> str:
    raise KeyboardInterrupt


def _genexit() -> str:
    raise GeneratorExit


async def _aquit() -> str:
    raise SystemExit(2)


async def _ainterrupt() -> str:
    raise KeyboardInterrupt


async def _acancel() -> str:
    raise asyncio.CancelledError  # raised by the tool itself, not a cancellation of the eval


def _sync(name: str, func: Any, description: str) -> BaseTool:
    return StructuredTool.from_function(func=func, name=name, description=description)


def _async(name: str, coroutine: Any, description: str) -> BaseTool:
    return StructuredTool.from_function(coroutine=coroutine, name=name, description=description)


HOSTILE_TOOLS: tuple[BaseTool, ...] = (
    _sync("tally", _tally, "Counts calls made with a key."),
    _sync("echo", _echo, "Returns its value."),
    _sync("kind", _kind, "Returns the type name of its value."),
    _sync("huge", _huge, "Returns an integer of 5001 digits."),
    _sync("quit", _quit, "Raises SystemExit."),
    _sync("interrupt", _interrupt, "Raises KeyboardInterrupt."),
    _sync("genexit", _genexit, "Raises GeneratorExit."),
    _async("aquit", _aquit, "Raises SystemExit (async)."),
    _async("ainterrupt", _ainterrupt, "Raises KeyboardInterrupt (async)."),
    _async("acancel", _acancel, "Raises CancelledError of its own (async)."),
)

_JS_ECHO = ("await tools.echo({value: 1})", "value:1")
_PY_ECHO = ("tools.echo(value=1)", "value:1")

# Python guest: a fresh key for the tally, and the raw host-call function dug out of the closures of `tools`.
_PY_RAW = """import random
key = 'k' + str(random.random())
def _cell(fn, name):
    return dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__)))[name]
raw = _cell(_cell(type(tools.tally).start, 'start_call'), 'start')
# One call's input that closes its own entry of the host's batch and appends sixty more calls of the same tool.
inj = ''.join(',[%d,"tool","tally",{"key":"%s"}]' % (9000000 + i, key) for i in range(60))
"""
TOOL_ATTACKS: tuple[Attack, ...] = (
    # ---------------------------------------------------------------------------------------- the protocol itself
    make(
        "py-raw-start-injects-calls",
        BRIDGE_ABUSE,
        _PY_RAW + "try:\n    raw('tool', 'tally', '{\"key\":\"%s\"}]' % key + inj[:-1])\nexcept Exception:\n"
        "    pass\ntools.tally(key=key)",
        "value:1",
        "guest code calls the host-call function with JSON that appends sixty calls: they never run",
        language="python",
        follow=(_PY_ECHO,),
    ),
    make(
        "py-patched-json-injects-calls",
        BRIDGE_ABUSE,
        _PY_RAW + "import json\nreal = json.dumps\n"
        "json.dumps = lambda o, **kw: real(o, **kw) + ']' + inj[:-1] if o.get('key') == key else real(o, **kw)\n"
        "try:\n    tools.tally(key=key)\nexcept Exception:\n    pass\njson.dumps = real\ntools.tally(key=key)",
        "value:1",
        "a patched json.dumps appends sixty calls to one call's input: the call fails, none of them run",
        language="python",
        follow=(_PY_ECHO,),
    ),
    make(
        "py-raw-start-past-the-budget",
        BRIDGE_ABUSE,
        _PY_RAW
        + "refused = [t for t in (raw('tool', 'tally', '{\"key\":\"%s\"}' % key) for _ in range(40)) "
        + "if isinstance(t, str)]\n"
        + "(len(refused), refused[0].split(chr(0))[0])",
        "value:(20, 'PTCCallBudgetExceeded')",
        "forty raw starts against a budget of twenty: the host refuses the last twenty",
        language="python",
    ),
    make(
        "py-raw-start-unknown-kind",
        BRIDGE_ABUSE,
        _PY_RAW + "[raw(k, n, '{}').split(chr(0))[0] for k, n in (('wait', 'guest'), ('tool', 'nope'), ('cell', 'start'), "
        "('fs', 'exec'), ('tool', 'tally,echo'))]",
        "value:['RuntimeError', 'RuntimeError', 'RuntimeError', 'RuntimeError', 'RuntimeError']",
        "raw starts of kinds and names the eval does not expose are refused by the host",
        language="python",
    ),
    make(
        "py-bytes-tag-count",
        BRIDGE_ABUSE,
        "tools.kind(value={'\\u0000bytes': 1000000000})",
        "value:'dict'",
        "a dict shaped like a bytes tag, holding a count: the tool gets the dict, not a gigabyte made on the host",
        language="python",
        follow=(_PY_ECHO,),
    ),
    make(
        "js-bytes-tag-count",
        BRIDGE_ABUSE,
        "await tools.kind({value: {'\\u0000bytes': 1000000000}})",
        "value:dict",
        "an object shaped like a bytes tag, holding a count: the tool gets the object, not a gigabyte",
        follow=(_JS_ECHO,),
    ),
    # ---------------------------------------------------------------------------------------- values that cannot cross
    make(
        "js-huge-bigint-argument",
        BRIDGE_ABUSE,
        "await tools.echo({value: 10n ** 5000n})",
        "error:TypeError",
        "a BigInt of 5001 digits as an argument: a clear error at once, not a lost call",
        follow=(_JS_ECHO,),
    ),
    make(
        "py-huge-int-argument",
        BRIDGE_ABUSE,
        "tools.echo(value=10 ** 5000)",
        "error:TypeError",
        "an int of 5001 digits as an argument: a clear error at once, not a lost call",
        language="python",
        follow=(_PY_ECHO,),
    ),
    make(
        "js-huge-int-result",
        BRIDGE_ABUSE,
        "await tools.huge({})",
        "error:TypeError",
        "a tool's int of 5001 digits: a clear error for that call",
        follow=(_JS_ECHO,),
    ),
    make(
        "py-huge-int-result",
        BRIDGE_ABUSE,
        "tools.huge()",
        "error:TypeError",
        "a tool's int of 5001 digits: a clear error for that call",
        language="python",
        follow=(_PY_ECHO,),
    ),
    # ---------------------------------------------------------------------------------------- tools that raise
    *(
        make(
            f"{prefix}-tool-raises-{name}",
            BRIDGE_ABUSE,
            call.format(name=name),
            f"error:{error}",
            f"a tool that raises {error}: the guest reads an error, the next call works",
            language=language,
            follow=(echo, echo),
        )
        for language, prefix, call, echo in (
            ("js", "js", "await tools.{name}({{}})", _JS_ECHO),
            ("python", "py", "tools.{name}()", _PY_ECHO),
        )
        for name, error in (
            ("quit", "SystemExit"),
            ("interrupt", "KeyboardInterrupt"),
            ("genexit", "GeneratorExit"),
            ("aquit", "SystemExit"),
            ("ainterrupt", "KeyboardInterrupt"),
            ("acancel", "CancelledError"),
        )
    ),
)
