"""The options of one interpreter: defaults, validation and the constants they are checked against, in one place.

:class:`InterpreterOptions` is what every layer passes on: :class:`~langchain_graalvm.Interpreter` builds one from
its keyword arguments, the middleware builds one for the interpreters of its slots (equal options share spare
contexts), the prompt describes its limits, and :mod:`langchain_graalvm._runtime._adapter` maps it, once, to the
Java ``SandboxOptions``. Building one validates it and starts nothing.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Literal

from ._settings import settings
from .errors import OptionsError

Language = Literal["js", "python"]
Clock = Literal["frozen", "host"]
Mode = Literal["thread", "turn", "call"]
Isolation = Literal["in-process", "process"]

LANGUAGES: dict[str, Language] = {
    "js": "js",
    "javascript": "js",
    "typescript": "js",
    "ts": "js",
    "python": "python",
    "py": "python",
}
"""The accepted ``language`` values and the guest each names."""

CLOCKS: tuple[Clock, ...] = ("frozen", "host")
ISOLATIONS: tuple[Isolation, ...] = ("in-process", "process")
"""Where guest code runs: in this process's JVM (the default), or in a worker JVM process of its own."""
MODES: tuple[Mode, ...] = ("thread", "turn", "call")
"""The middleware's persistence modes; ``"thread"`` (the default) keeps globals across turns as a snapshot."""

DEFAULT_MEMORY_LIMIT = 64 * 1024 * 1024
DEFAULT_MAX_CODE_BYTES = 1024 * 1024
"""The largest cell accepted, in bytes of UTF-8: larger code gets a ``CodeTooLarge`` error before it is parsed."""
DEFAULT_MAX_NESTING = 1000
"""The deepest nesting a cell may have: deeper code gets a ``CodeTooDeep`` error before it is parsed."""


def _named(name: str, quoted: bool) -> str:
    # The middleware names its options in backticks, the interpreter plainly: each keeps the messages it has.
    return f"`{name}`" if quoted else name


def resolve_language(language: str, *, quoted: bool = False) -> Language:
    """The guest ``language`` names (``"js"`` or ``"python"``); ValueError for anything else."""
    if language not in LANGUAGES:
        hint = "(JavaScript, TypeScript accepted)" if quoted else "(JavaScript/TypeScript)"
        raise OptionsError(f"{_named('language', quoted)} must be 'js' {hint} or 'python' (GraalPy); got {language!r}")
    return LANGUAGES[language]


def check_clock(clock: str, *, quoted: bool = False) -> None:
    if clock not in CLOCKS:
        raise OptionsError(f"{_named('clock', quoted)} must be 'frozen' or 'host'; got {clock!r}")


def check_frozen_epoch(frozen_epoch_ms: object) -> None:
    """The middleware's check of ``frozen_epoch_ms``: an int, not a bool."""
    if isinstance(frozen_epoch_ms, bool) or not isinstance(frozen_epoch_ms, int):
        raise OptionsError(f"`frozen_epoch_ms` must be an int (milliseconds since 1970-01-01); got {frozen_epoch_ms!r}")


def resolve_isolation(isolation: str | None, *, quoted: bool = False) -> Isolation:
    """``isolation``; when it is None, ``"process"`` with ``LANGCHAIN_GRAALVM_SERVER=auto`` (the server's one switch),
    else ``LANGCHAIN_GRAALVM_ISOLATION``, else ``"in-process"``."""
    source = _named("isolation", quoted)
    if isolation is None:
        current = settings()
        # One of ISOLATIONS: the settings refuse anything else.
        isolation = "process" if current.server == "auto" else current.isolation
    if isolation not in ISOLATIONS:
        raise OptionsError(f"{source} must be 'in-process' or 'process'; got {isolation!r}")
    return isolation


def resolve_mode(mode: str | None) -> Mode:
    """The middleware's mode: ``None`` means ``"thread"``."""
    if mode is None or mode == "thread":
        return "thread"
    if mode in ("turn", "call"):
        return mode  # type: ignore[return-value]
    raise OptionsError("`mode` must be one of 'thread', 'turn', or 'call'.")


def _is_number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


@dataclasses.dataclass(frozen=True)
class InterpreterOptions:
    """Everything an interpreter is made from, validated on construction.

    The fields and defaults are :class:`~langchain_graalvm.Interpreter`'s keyword arguments (see there);
    ``language`` is stored as ``"js"`` or ``"python"`` whatever alias was given, and ``agent_modules`` lets
    JavaScript cells import modules from the agent's files.
    """

    language: Language = "js"
    timeout: float = 5.0
    memory_limit: int = DEFAULT_MEMORY_LIMIT
    max_result_chars: int = 4000
    capture_console: bool = True
    clock: Clock = "frozen"
    frozen_epoch_ms: int = 0
    interrupt_grace: float = 0.5
    snapshots: bool = False
    heap_factor: float = 2.0
    max_wall_time: float = 300.0
    agent_modules: bool = False
    max_code_bytes: int = DEFAULT_MAX_CODE_BYTES
    max_nesting: int = DEFAULT_MAX_NESTING
    isolation: Isolation | None = None

    def __post_init__(self) -> None:
        language = resolve_language(self.language)
        object.__setattr__(self, "isolation", resolve_isolation(self.isolation))
        timeout = self.timeout
        if not _is_number(timeout) or not math.isfinite(timeout):
            raise OptionsError(f"timeout must be a finite number of seconds; got {timeout!r}")
        if timeout <= 0:
            raise OptionsError(f"timeout must be > 0 seconds; got {timeout!r}")
        memory_limit = self.memory_limit
        if isinstance(memory_limit, bool) or not isinstance(memory_limit, int) or memory_limit < 0:
            raise OptionsError(f"memory_limit must be an int >= 0 (bytes; 0 disables it); got {memory_limit!r}")
        if isinstance(self.max_result_chars, bool) or not isinstance(self.max_result_chars, int):
            raise OptionsError(f"max_result_chars must be an int; got {self.max_result_chars!r}")
        check_clock(self.clock)
        if not _is_number(self.heap_factor) or not 1 <= self.heap_factor < math.inf:
            raise OptionsError(f"heap_factor must be a number >= 1; got {self.heap_factor!r}")
        if not _is_number(self.max_wall_time) or not 0 < self.max_wall_time < math.inf:
            raise OptionsError(f"max_wall_time must be a finite number of seconds > 0; got {self.max_wall_time!r}")
        for name in ("max_code_bytes", "max_nesting"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**31:
                raise OptionsError(f"{name} must be an int >= 1; got {value!r}")
        if not isinstance(self.interrupt_grace, (int, float)) or self.interrupt_grace <= 0:
            raise OptionsError(f"interrupt_grace must be > 0 seconds; got {self.interrupt_grace!r}")
        normal = {
            "language": language,
            "timeout": float(timeout),
            "frozen_epoch_ms": int(self.frozen_epoch_ms),
            "interrupt_grace": float(self.interrupt_grace),
            "snapshots": bool(self.snapshots),
            "heap_factor": float(self.heap_factor),
            "max_wall_time": float(self.max_wall_time),
            "agent_modules": bool(self.agent_modules),
        }
        for name, value in normal.items():
            object.__setattr__(self, name, value)
