"""The guest Python on its own: python_guest.py put together from its parts as the host does it, run on CPython.

The host (CellCompiler.resource) replaces each line that is only `# @include PATH` with the resource PATH, indented
as the line is; GraalPy then evaluates the one module, whose value is its `_guest` function. Here the same text is
executed in a fresh namespace, `_guest()` gives lock_down and setup, and setup() is called with stand-ins for the
host's callables and a module of its own for the model, so the runner, the snapshot codec and the host calls are
tested without a JVM. setup() installs its console as sys.stdout/sys.stderr and may freeze the time module; the
fixture puts all of that back.

`Guest.run` stands in for the host's half of a cell (PythonGuest.run): GraalPy evaluates the cell in the model's
module and gives back the value of its final expression statement (the module itself when there is none), then the
guest's finish() or fail() make the outcome. The JVM tests check GraalPy's own rule against the AST's.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

SANDBOX = Path(__file__).resolve().parents[2] / "java/src/main/resources/io/github/langchaingraalvm/sandbox"
_INCLUDE = re.compile(r"^([ \t]*)(?://|#) @include (\S+)[ \t]*$", re.MULTILINE)


def guest_source(name: str) -> str:
    """The resource as the host reads it, with its parts put in."""

    def put_in(m: re.Match[str]) -> str:
        part = guest_source(m.group(2)).removesuffix("\n")
        return "\n".join(m.group(1) + line if line else line for line in part.split("\n"))

    return _INCLUDE.sub(put_in, (SANDBOX / name).read_text(encoding="utf-8"))


class Host:
    """Stand-ins for what the host passes in: the console's emit, and start/wait of host calls."""

    def __init__(self) -> None:
        self.output: list[str] = []
        self.streams: list[str] = []
        self.calls: list[tuple[str, str, str]] = []
        self.answers: dict[int, str] = {}
        self.refuse: str | None = None

    def emit(self, text: str, stream: str) -> None:
        self.output.append(text)
        self.streams.append(stream)

    def start(self, kind: str, name: str, text: str) -> int | str:
        if self.refuse is not None:
            return self.refuse
        self.calls.append((kind, name, text))
        return len(self.calls)

    def wait(self, call_id: int) -> str:
        return self.answers[call_id]


def notebook_value(code: str, ns: dict[str, Any], filename: str) -> Any:
    """Runs ``code`` in ``ns`` as a notebook cell, as CPython's AST splits it: its last expression statement is the
    value (None without one), everything else runs first."""
    tree = ast.parse(code, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), ns)
    return eval(compile(ast.Expression(last.value), filename, "eval"), ns) if last is not None else None


def may_define(code: str) -> bool:
    """The host's PythonGuest.mayDefine: whether a line of the cell may start a top-level def or class."""
    return any(code.startswith(s) or "\n" + s in code for s in ("def", "class", "async", "@", "\f"))


class Guest:
    """The guest's Api with the host's half of running a cell (see the module's docstring)."""

    def __init__(self, api: Any, main: types.ModuleType) -> None:
        self.api = api
        self.main = main
        self.cells = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.api, name)

    def run(self, code: str, budget: int) -> list[Any]:
        if not code.strip():
            return ["ok", "None", False]
        self.cells += 1
        n = self.cells
        defines = may_define(code)
        try:
            value = notebook_value(code, self.main.__dict__, f"cell {n}")
        except BaseException as e:  # noqa: BLE001 - what the cell raised goes to the guest, as the host hands it
            return list(self.api.fail(n, code, e, defines))
        try:
            shown = self.api.finish(n, code, self.main if value is None else value, budget, defines)
        except BaseException as e:  # noqa: BLE001 - a __repr__ that raised
            return list(self.api.fail(n, code, e, defines))
        assert type(shown) is str and shown[:1] in ("=", "+"), shown
        return ["ok", shown[1:], shown[0] == "+"]

    def restore(self, payload: str) -> Any:
        names = self.api.restore(payload)
        self.cells = max(self.cells, self.api.cells())
        return names


GuestFactory = Callable[..., tuple[Guest, Host]]


def host_seal(epoch_ms: int) -> Callable[..., Any]:
    """The host's `seal` (PythonGuest.sealedClock): keeps gmtime, asctime and strftime and calls them only with
    a time given, a missing or None time being the frozen instant."""

    def seal(gmtime: Any, asctime: Any, strftime: Any) -> Callable[..., Any]:
        def frozen(args: tuple[Any, ...], at: int) -> Any:
            return gmtime(epoch_ms / 1000.0) if len(args) <= at or args[at] is None else args[at]

        def sealed(*args: Any) -> Any:
            which = args[0] if args else None
            if which == 0 and len(args) <= 2:
                return gmtime(epoch_ms / 1000.0 if len(args) < 2 or args[1] is None else args[1])
            if which == 1 and len(args) <= 2:
                return asctime(frozen(args, 1))
            if which == 2 and len(args) in (2, 3):
                return strftime(args[1], frozen(args, 2))
            return None

        return sealed

    return seal


@pytest.fixture
def make_guest(monkeypatch: pytest.MonkeyPatch) -> Iterator[GuestFactory]:
    """Makes fresh guests: make_guest(capture=True, frozen_clock=False, epoch_ms=0) -> (api, host)."""
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        monkeypatch.setattr(sys, name, getattr(sys, name))
    for name in ("time", "time_ns", "localtime", "gmtime", "ctime", "asctime", "strftime"):
        monkeypatch.setattr(time, name, getattr(time, name))
    code = compile(guest_source("python_guest.py"), "python_guest.py", "exec")

    def make(capture: bool = True, frozen_clock: bool = False, epoch_ms: int = 0) -> tuple[Guest, Host]:
        namespace: dict[str, Any] = {"__name__": "python_guest"}
        exec(code, namespace)
        _lock_down, setup = namespace["_guest"]()
        assert "_guest" not in namespace
        host = Host()
        main = types.ModuleType("__main__")
        main.__dict__["__builtins__"] = builtins
        api = setup(host.emit, capture, frozen_clock, epoch_ms, host_seal(epoch_ms), main)
        return Guest(api, main), host

    yield make
