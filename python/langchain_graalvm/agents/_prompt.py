"""What the model is told about the interpreter: the eval tool's description and the system-prompt section.

Everything here is rendered once per middleware, from its configuration; nothing depends on the conversation.
"""

from __future__ import annotations

import dataclasses
import datetime

from ..options import Clock, InterpreterOptions, Mode

_STATE_IN_DESCRIPTION: dict[Mode, str] = {
    "thread": "Globals (variables, functions, classes) persist across calls and across turns of this conversation.",
    "turn": "Globals persist across calls within this turn and are cleared when the turn ends.",
    "call": "Every call starts from empty globals; nothing is kept between calls.",
}

_STATE_IN_PROMPT: dict[Mode, str] = {
    "thread": (
        "Globals you define (variables, functions, classes) stay available in later calls, also in later turns "
        "of this conversation. Between turns, data values (objects, arrays, Map, Set, Date, RegExp, typed "
        "arrays, ...) are kept exactly and functions and classes are re-created from their source; a function "
        "loses variables it closed over inside another function, and values that cannot be saved (promises, "
        "generators, WeakMap, unregistered symbols, ...) throw a ReferenceError saying so when used in a "
        "later turn."
    ),
    "turn": (
        "Globals you define stay available in later calls during this turn. They are cleared when the turn "
        "ends, so the next turn starts from empty globals."
    ),
    "call": (
        "Every call starts from empty globals: nothing carries over between calls, so put everything a "
        "computation needs into one call."
    ),
}


_PYTHON_STATE_IN_DESCRIPTION: dict[Mode, str] = {
    "thread": "Globals (variables, functions, classes, imports) persist across calls and across turns of this "
    "conversation.",
    "turn": _STATE_IN_DESCRIPTION["turn"],
    "call": _STATE_IN_DESCRIPTION["call"],
}

_PYTHON_STATE_IN_PROMPT: dict[Mode, str] = {
    "thread": (
        "Globals you define (variables, functions, classes, imported modules) stay available in later calls, also "
        "in later turns of this conversation. Between turns, data values (None, bool, int, float, complex, str, "
        "bytes, bytearray, list, tuple, dict, set, frozenset, datetime, date, time, timedelta, Decimal, shared "
        "references and cycles) are kept exactly, imported modules and names imported from them are imported "
        "again, and functions and classes defined by top-level `def`/`class` statements are re-created from "
        "their source. Other values (instances of your classes, lambdas, generators, iterators, ...) raise a "
        "NameError saying so when used in a later turn."
    ),
    "turn": _STATE_IN_PROMPT["turn"],
    "call": _STATE_IN_PROMPT["call"],
}


@dataclasses.dataclass(frozen=True)
class PromptConfig:
    """The settings the texts mention: the tool's name, the mode, and the interpreters' limits."""

    tool_name: str
    mode: Mode
    limits: InterpreterOptions
    ptc: bool = False
    """Whether agent tools may be exposed as ``tools.*`` (the prompt then lists them in a section of its own)."""

    @property
    def clock(self) -> Clock:
        return self.limits.clock

    @property
    def python(self) -> bool:
        return self.limits.language == "python"


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _memory(limit: int) -> str:
    if limit <= 0:
        return "no memory limit"
    if limit >= 2**20:
        return f"about {limit / 2**20:g} MB of memory"
    return f"about {max(1, limit // 1024)} KB of memory"


def _frozen_instant(epoch_ms: int) -> str:
    try:
        instant = datetime.datetime.fromtimestamp(epoch_ms / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return f"{epoch_ms} ms after 1970-01-01T00:00:00Z"
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def code_description(config: PromptConfig) -> str:
    """The description of the tool's ``code`` argument."""
    reach = "No fs/network/real-clock access." if config.clock == "frozen" else "No fs/network access."
    if config.python:
        return f"Python 3 to run; the value of the last expression is returned (as repr()). {reach}"
    return (
        "JavaScript or TypeScript to run; the value of the last expression (an awaited Promise's value) is "
        f"returned. {reach}"
    )


def tool_description(config: PromptConfig) -> str:
    """The eval tool's description."""
    reach = "no filesystem, network or real clock" if config.clock == "frozen" else "no filesystem or network"
    if config.python:
        return (
            "Run Python 3 in a sandboxed GraalPy interpreter and get back the repr() of the last expression, the "
            f"print() output, or the error with its traceback. {_PYTHON_STATE_IN_DESCRIPTION[config.mode]} "
            f"Pure computation with the standard library: {reach}."
        )
    return (
        "Run JavaScript or TypeScript in a sandboxed GraalVM interpreter and get back the value of the last "
        f"expression, the console output, or the error with its line numbers. {_STATE_IN_DESCRIPTION[config.mode]} "
        + (
            "No filesystem or network; agent tools listed in the system prompt are callable as `tools.*`."
            if config.ptc
            else f"Pure computation: {reach}."
        )
        + " Top-level `await` works, and a Promise in the last expression is awaited."
    )


def _python_system_prompt(config: PromptConfig) -> str:
    name, limits = config.tool_name, config.limits
    if config.clock == "frozen":
        clock = (
            f"The clock is frozen: `time.time()` and `datetime.now()` always give "
            f"{_frozen_instant(limits.frozen_epoch_ms)} (UTC), so never use them to learn the current date or to "
            "measure time. Date arithmetic on dates you construct works normally."
        )
    else:
        clock = "`time.time()` and `datetime.now()` show the host's real time (UTC)."
    if limits.capture_console:
        console = "`print()` output (stdout and stderr, in order) is returned in a `<stdout>` block before the result."
    else:
        console = "`print()` output is discarded: return what you want to see as the value of the last expression."
    lines = [
        f"### Code interpreter (`{name}`)",
        "",
        f"`{name}` runs Python 3 (GraalPy) in a sandboxed interpreter, like a notebook cell. It answers with "
        '`<result>` holding the repr() of the last expression (None when the cell ends with a statement), or '
        '`<error type="...">` holding the message and a traceback with the line numbers of your code (`cell N` is '
        "your N-th call).",
        "",
        f"- {_PYTHON_STATE_IN_PROMPT[config.mode]}",
        "- The standard library is available (json, re, math, statistics, itertools, collections, datetime, "
        "decimal, fractions, ...). No pip packages, no C extensions (numpy, pandas are not available).",
        f"- {console}",
        "- The sandbox is pure computation: no files, network, sockets, subprocesses, threads, environment or "
        "host tools; those raise PermissionError or ImportError. Return values to pass results on.",
        "- Top-level `await` is not supported; `asyncio` cannot run an event loop here.",
        "- Heavy loops run much faster inside a function than at the top level of a call (functions called "
        "repeatedly are JIT-compiled).",
        f"- {clock}",
        f"- Each call may run for {_seconds(limits.timeout)} and keep {_memory(limits.memory_limit)}; past that "
        "it stops with a `Timeout` or `OutOfMemory` error, which says whether the globals were kept. The first "
        "import of a large module can take a second or more.",
        f"- Results, errors and console output are each cut to {limits.max_result_chars} characters; return "
        "summaries rather than large data.",
    ]
    return "\n".join(lines)


def system_prompt(config: PromptConfig) -> str:
    """The section appended to the system message on every model call."""
    if config.python:
        return _python_system_prompt(config)
    name, limits = config.tool_name, config.limits
    if config.clock == "frozen":
        clock = (
            f"The clock is frozen: `Date.now()` and `new Date()` always give {_frozen_instant(limits.frozen_epoch_ms)} "
            "(UTC), so never use them to learn the current date or to measure time. Date arithmetic on dates you "
            "construct works normally."
        )
    else:
        clock = "`Date.now()` and `new Date()` show the host's real time (UTC)."
    if limits.capture_console:
        console = (
            "`console.log`, `info`, `debug`, `warn` and `error` are captured and returned in a `<stdout>` block "
            "before the result."
        )
    else:
        console = "There is no `console`: return what you want to see as the value of the last expression."
    lines = [
        f"### Code interpreter (`{name}`)",
        "",
        f"`{name}` runs JavaScript in a sandboxed GraalVM interpreter. It answers with `<result>` holding the value "
        'of the last expression, or `<error type="...">` holding the message and the `line:column` positions in '
        "your code.",
        "",
        f"- {_STATE_IN_PROMPT[config.mode]}",
        "- TypeScript is accepted: type annotations, interfaces, generics, `as` casts and enums are stripped, "
        "not checked.",
        "- Top-level `let`, `const`, `class` and `function` may be declared again in a later call. Code runs in "
        "strict mode.",
        "- Top-level `await` works; a Promise in the last expression is awaited before the call returns.",
        f"- {console}",
        (
            "- The sandbox has no filesystem, network, `fetch`, `require`, `process` or timers; it reaches out only "
            "through the `tools` functions described below. Return values to pass results on."
            if config.ptc
            else "- The sandbox is pure computation: no filesystem, network, `fetch`, `require`, `process`, timers "
            "or host tools. Return values to pass results on."
        ),
        f"- {clock}",
        f"- Each call may run for {_seconds(limits.timeout)} and keep {_memory(limits.memory_limit)}; past that "
        "it stops with a `Timeout` or `OutOfMemory` error, which says whether the globals were kept.",
        f"- Results, errors and console output are each cut to {limits.max_result_chars} characters; return "
        "summaries rather than large data.",
    ]
    return "\n".join(lines)
