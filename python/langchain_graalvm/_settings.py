"""The package's settings: every ``LANGCHAIN_GRAALVM_*`` variable it reads, in one table, read in one place.

:data:`VARIABLES` gives each variable's name, the :class:`Settings` field it fills, its default, its parser (which
says what a good value is, the text of the error for a bad one) and its meaning; docs/operations.md's table of
variables is rendered from it (``python scripts/settings_table.py`` rewrites it, and a unit test checks it). No other
module of the package reads these variables: they ask :func:`settings`, which parses the environment once for each
distinct set of values (a test's ``monkeypatch.setenv``, or a caller's ``os.environ`` edit before the first
interpreter, is seen at the next call).

A bad value does not fail the import nor every setting: :func:`settings` keeps it and raises
:class:`SettingsError` where the field is used (a bad ``MAX_HEAP`` at the JVM's or a worker's start, a bad
``ISOLATION`` where an interpreter's options are resolved), as the package did before the variables were read here.
An empty value is the same as an unset one.

Apart from its own variables the package reads three of the system's, here too: ``JAVA_HOME`` (one of the places
the JDK finder looks), and ``XDG_CACHE_HOME`` and ``HOME`` (the user's cache folder, the default cache root).

Only the standard library and :mod:`.errors` are imported: ``scripts/setup.sh`` runs the JDK finder before any
dependency is installed.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import SettingsError

PREFIX = "LANGCHAIN_GRAALVM_"
_SYSTEM = ("JAVA_HOME", "XDG_CACHE_HOME", "HOME")

_MIB = 1 << 20
_GIB = 1 << 30
HOST_JIT_MODES = ("graal-c1", "tiered", "c1")
COMPILER_MODES = ("auto", "libgraal", "jargraal")
ISOLATIONS = ("in-process", "process")
SERVER_MODES = ("off", "auto")


# ------------------------------------------------------------------------------------------------ parsers


@dataclasses.dataclass(frozen=True)
class Parser:
    """Turns a variable's text into its value; ``expected`` completes "is not ..." in the error for a bad one."""

    parse: Callable[[str], Any]  # raises ValueError for a bad value
    expected: str


def _heap_size(text: str) -> int:
    units = {"": 1, "k": 1 << 10, "m": _MIB, "g": _GIB}
    text = text.strip().lower()
    number, unit = (text[:-1], text[-1]) if text[-1:] in ("k", "m", "g") else (text, "")
    if not number.isdigit() or int(number) * units[unit] < 64 * _MIB:
        raise ValueError(text)
    return -(-int(number) * units[unit] // _MIB) * _MIB


HEAP_SIZE = Parser(_heap_size, "a heap size of at least 64m, such as 768m or 2g")
"""One rule for both heaps (``MAX_HEAP`` and ``WORKER_HEAP``), in bytes: digits with an optional ``k``, ``m`` or
``g``, at least 64 MiB, rounded up to whole MiB. It is the stricter of the two rules the package had (a worker's):
a JVM given less than 64 MiB cannot hold the engine, and a worker's ``-Xmx`` is written in MiB."""


def choice(*allowed: str) -> Parser:
    """One of ``allowed``, compared without case or surrounding blanks."""

    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in allowed:
            raise ValueError(text)
        return value

    return Parser(parse, f"one of {', '.join(allowed)}")


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _flag(text: str) -> bool:
    value = text.strip().lower()
    if value not in _TRUE + _FALSE:
        raise ValueError(text)
    return value in _TRUE


FLAG = Parser(_flag, f"one of {', '.join(_TRUE + _FALSE)}")


def whole(low: int, unit: str = "") -> Parser:
    """A whole number of at least ``low`` (``unit`` names what it counts, for the error)."""

    def parse(text: str) -> int:
        value = text.strip()
        if not value.isdigit() or int(value) < low:
            raise ValueError(text)
        return int(value)

    return Parser(parse, f"a whole number{f' of {unit}' if unit else ''} >= {low}")


PATH = Parser(Path, "a path")
TEXT = Parser(str, "a text")
WORDS = Parser(lambda text: tuple(text.split()), "a list of options")


def heap_text(size: int) -> str:
    """``size`` bytes as ``-Xmx`` takes it: ``2g``, ``768m``."""
    return f"{size // _GIB}g" if size % _GIB == 0 else f"{size // _MIB}m"


# ------------------------------------------------------------------------------------------------ the table


@dataclasses.dataclass(frozen=True)
class Variable:
    """One ``LANGCHAIN_GRAALVM_*`` variable: what it fills, its value when unset, how it is read, what it means."""

    name: str
    field: str
    default: Any
    parser: Parser
    meaning: str
    shown_default: str = ""  # how the docs show the default; empty: the default is not shown
    internal: bool = False  # set by the package for a child process it starts, not by users

    @property
    def error(self) -> str:
        """The error's text for a bad value, with ``{value}`` in place of the value."""
        return f"{self.name}={{value!r}} is not {self.parser.expected}."


def _var(short: str, default: Any, parser: Parser, shown: str, meaning: str, *, internal: bool = False) -> Variable:
    return Variable(PREFIX + short, short.lower(), default, parser, meaning, shown, internal)


VARIABLES: tuple[Variable, ...] = (
    _var("JAVA_HOME", None, PATH, "(search)", "the JDK to start"),
    _var("RUNTIME", None, PATH, "(cache, or `java/target/runtime` in a checkout)",
         "a folder with `modules/` and `compiler/` jars"),
    _var("CACHE", None, PATH, "`~/.cache/langchain-graalvm`",
         "the package's cache: the fetched GraalVM jars, GraalVM's resource cache, the fast start, the JDKs "
         "`install --jdk` fetched (`jdks/`) and the server's folder (`server/`); under `$XDG_CACHE_HOME` when that "
         "is set"),
    _var("HOME", None, PATH, "`LANGCHAIN_GRAALVM_CACHE`",
         "an older name for where the fetched GraalVM jars are kept, when they are to be kept apart from the cache"),
    _var("OFFLINE", False, FLAG, "`0`", "`1`: never download; a missing cache is an error"),
    _var("MAX_HEAP", 2 * _GIB, HEAP_SIZE, "`2g`",
         "the JVM's `-Xmx` (at least `64m`)"),
    _var("JVM_OPTIONS", (), WORDS, "",
         "extra JVM options, after the package's own (the last of a repeated option wins); with the default host "
         "JIT the VM's own tty output goes to stderr (`-XX:+DisplayVMOutputToStderr`: the line `1 compiler "
         "directives added` there at each start, and a diagnostic such as `-XX:+PrintCompilation`)"),
    _var("HOST_JIT", "graal-c1", choice(*HOST_JIT_MODES), "`graal-c1`",
         "how HotSpot compiles the host's code: `graal-c1` (C1 then C2, but C1 alone for the Graal compiler's own "
         "code when it is jargraal: a fresh process's first rounds faster, steady cells a little slower), `tiered` "
         "(C1 then C2 for everything: the best steady state of a long-lived process) or `c1` (C1 alone: a fresh "
         "process's first cells faster still, warm cells slower, and a memory bomb may be stopped by its timeout "
         "instead of the memory limit); `doctor` and `runtime_info()` name the mode that runs; see "
         "[performance](performance.md#the-host-jit)"),
    _var("COMPILER", "auto", choice(*COMPILER_MODES), "`auto`",
         "the Graal compiler for guest code: `auto` (the JDK's libgraal when it fits the polyglot jars, else "
         "jargraal), `libgraal` or `jargraal` (see [install](install.md#the-graal-compiler-libgraal-or-jargraal))"),
    _var("JDK_INDEX", None, TEXT, "coursier's JVM index",
         "where `langchain-graalvm install --jdk` looks up the GraalVM Community JDK's archive"),
    _var("BACKGROUND_START", True, FLAG, "`1`",
         "`0`: start the JVM on the first eval instead of when an interpreter or middleware is built"),
    _var("FAST_START", True, FLAG, "`1`",
         "`0`: never use the fast-start JDK image and AOT cache (see [cold start](#cold-start))"),
    _var("ISOLATION", "in-process", choice(*ISOLATIONS), "`in-process`",
         "`process`: every interpreter without its own `isolation=` runs in a sandbox worker ([workers](workers.md))"),
    _var("SERVER", "off", choice(*SERVER_MODES), "`off`",
         "`auto`: every interpreter without its own `isolation=` runs in a worker JVM lent by the user's local "
         "sandbox server, started on first use; a server that cannot be used falls back to private workers, with "
         "one warning ([workers](workers.md#the-local-server))"),
    _var("SERVER_DIR", None, PATH, "`<cache>/server`", "the local server's private folder (mode 0700)"),
    _var("SERVER_IDLE", 1800, whole(1, "seconds"), "`1800`",
         "seconds without a client after which the local server exits"),
    _var("WORKER_HEAP", None, HEAP_SIZE, "from `memory_limit`",
         "a private worker's `-Xmx` (at least `64m`); without it, room for the interpreter's `memory_limit`, or "
         "`LANGCHAIN_GRAALVM_MAX_HEAP` for a `memory_limit` of 0"),
    _var("MAX_WORKERS", 16, whole(1), "`16`",
         "the most private workers alive at once ([workers](workers.md#the-pool))"),
    _var("WORKER_WAIT", 60, whole(0, "seconds"), "`60`",
         "seconds an interpreter waits for a worker when `MAX_WORKERS` are in use, before a clear error"),
    _var("WORKER_SPARES", 1, whole(0), "`1`", "private workers started ahead of need"),
    _var("WORKER_IDLE", 300, whole(1, "seconds"), "`300`", "seconds after which an idle private worker stops"),
    _var("GUESTS_PER_WORKER", 1, whole(1), "`1`",
         "interpreters that may share one private worker: less memory, less isolation (a worker killed for one "
         "takes the others' globals with it)"),
    _var("AOT_TRAINING", None, PATH, "",
         "where the training run of `install` writes its AOT cache", internal=True),
    _var("AOT_TRIAL", None, PATH, "",
         "the AOT cache the trial start of `install` must start from", internal=True),
    _var("LIBGRAAL_TRIAL", False, FLAG, "",
         "`1` in the child process that tries a JDK's libgraal: it is used whatever an earlier trial said",
         internal=True),
)
"""Every ``LANGCHAIN_GRAALVM_*`` variable the package reads, in the order the docs list them."""

_BY_FIELD: Mapping[str, Variable] = {v.field: v for v in VARIABLES}


def name_of(field: str) -> str:
    """The variable that fills ``field`` (``"fast_start"`` -> ``LANGCHAIN_GRAALVM_FAST_START``): for messages, and
    for the environment of a child process."""
    return _BY_FIELD[field].name


# ------------------------------------------------------------------------------------------------ the settings


@dataclasses.dataclass(frozen=True)
class _Invalid:
    message: str


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Settings:
    """The package's settings, one field per row of :data:`VARIABLES` (in its order), then the system's.

    Reading a field whose variable holds a bad value raises :class:`SettingsError`; the other fields still read.
    """

    java_home: Path | None
    runtime: Path | None
    cache: Path | None
    home: Path | None
    offline: bool
    max_heap: int
    jvm_options: tuple[str, ...]
    host_jit: str
    compiler: str
    jdk_index: str | None
    background_start: bool
    fast_start: bool
    isolation: str
    server: str
    server_dir: Path | None
    server_idle: int
    worker_heap: int | None
    max_workers: int
    worker_wait: int
    worker_spares: int
    worker_idle: int
    guests_per_worker: int
    aot_training: Path | None
    aot_trial: Path | None
    libgraal_trial: bool
    # The system's: JAVA_HOME, and the user's cache folder ($XDG_CACHE_HOME, else ~/.cache).
    system_java_home: Path | None
    user_cache: Path

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if type(value) is _Invalid:
            raise SettingsError(value.message)  # a new exception each time: no traceback piles up on one
        return value

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={object.__getattribute__(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"Settings({shown})"

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """The settings ``environ`` (a mapping like :data:`os.environ`) holds."""
        values: dict[str, Any] = {}
        for var in VARIABLES:
            text = environ.get(var.name, "")
            if text == "":
                values[var.field] = var.default
                continue
            try:
                values[var.field] = var.parser.parse(text)
            except ValueError:
                values[var.field] = _Invalid(var.error.format(value=text))
        values["system_java_home"] = Path(environ["JAVA_HOME"]) if environ.get("JAVA_HOME") else None
        home = Path(environ["HOME"]) if environ.get("HOME") else Path.home()
        values["user_cache"] = Path(environ.get("XDG_CACHE_HOME") or home / ".cache")
        return cls(**values)

    @property
    def cache_folder(self) -> Path:
        """The package's cache root: ``LANGCHAIN_GRAALVM_CACHE``, else ``langchain-graalvm`` in the user's cache."""
        return self.cache or self.user_cache / "langchain-graalvm"

    @property
    def jars_folder(self) -> Path:
        """Where fetched GraalVM jars are kept: ``LANGCHAIN_GRAALVM_HOME`` (the older name), else the cache root."""
        return self.home or self.cache_folder

    @property
    def server_folder(self) -> Path:
        """The local server's folder: ``LANGCHAIN_GRAALVM_SERVER_DIR``, else ``server/`` in the cache root."""
        return self.server_dir or self.cache_folder / "server"


@functools.lru_cache(maxsize=8)
def _settings_of(items: tuple[tuple[str, str], ...]) -> Settings:
    return Settings.from_environ(dict(items))


def settings() -> Settings:
    """This process's settings, parsed once for each distinct set of the variables' values in :data:`os.environ`."""
    # Only the keys are decoded to pick ours: os.environ.get of an absent name raises and catches a KeyError, which
    # for the ~28 names took three times as long. 10 to 20 us for a usual environment, and no parsing after the first.
    environ = os.environ
    return _settings_of(tuple(sorted((k, environ[k]) for k in environ if k.startswith(PREFIX) or k in _SYSTEM)))


# ------------------------------------------------------------------------------------------------ the docs' table

_BEGIN = "<!-- settings table: made from python/langchain_graalvm/_settings.py by scripts/settings_table.py -->"
_END = "<!-- end of the settings table -->"


def markdown_table() -> str:
    """docs/operations.md's table of variables (the internal ones last, marked as such)."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for var in sorted(VARIABLES, key=lambda v: v.internal):
        meaning = f"internal: {var.meaning}" if var.internal else var.meaning
        rows.append(f"| `{var.name}` | {var.shown_default} | {meaning} |")
    return "\n".join(rows) + "\n"


def with_table(document: str) -> str:
    """``document`` with the text between its two markers replaced by :func:`markdown_table`."""
    head, begin, rest = document.partition(_BEGIN)
    _, end, tail = rest.partition(_END)
    if not begin or not end:
        raise ValueError(f"the document has no {_BEGIN!r} ... {_END!r} markers")
    return f"{head}{_BEGIN}\n{markdown_table()}{_END}{tail}"
