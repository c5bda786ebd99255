"""The guest Python's runner, snapshot codec, console, clock and host calls under CPython (see conftest.py)."""

from __future__ import annotations

import ast
import builtins
import json
import re
import types
from typing import Any

import pytest

from tests.guest.conftest import SANDBOX, GuestFactory, guest_source


def test_the_parts_make_one_function_that_gives_lock_down_and_setup() -> None:
    text = guest_source("python_guest.py")
    assert not [line for line in text.splitlines() if line.lstrip().startswith("# @include")]
    for part in (SANDBOX / "pyguest").glob("*.py"):
        body = part.read_text(encoding="utf-8").strip()
        assert "\n".join("    " + line if line else line for line in body.split("\n")) in text
    tree = ast.parse(text)
    # The module defines only `_guest` and gives it back as its value; everything else is in its scope.
    assert [type(n) for n in tree.body] == [ast.FunctionDef, ast.Expr]
    guest = tree.body[0]
    assert isinstance(guest, ast.FunctionDef) and guest.name == "_guest"
    functions = {n.name for n in guest.body if isinstance(n, ast.FunctionDef)}
    entries = {"setup", "lock_down", "install_console", "freeze_clock", "make_runner", "make_encoder", "make_decoder"}
    assert entries <= functions
    namespace: dict[str, Any] = {}
    exec(compile(text, "python_guest.py", "exec"), namespace)
    assert list(namespace) == ["__builtins__", "_guest"]
    namespace["_guest"]()
    assert list(namespace) == ["__builtins__"]  # it took its own name out of the model's module


def test_run_returns_the_value_and_sends_output(make_guest: GuestFactory) -> None:
    api, host = make_guest()
    assert list(api.run("x = 2\nprint('hi', x)\nx * 21", 1000)) == ["ok", "42", False]
    assert "".join(host.output) == "hi 2\n"
    assert list(api.run("", 100)) == ["ok", "None", False]
    assert list(api.run("'abcdef'", 4)) == ["ok", "'abc", True]
    assert list(api.names()) == ["x"]


def test_errors_carry_the_cells_own_frames(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    api.run("def f(n):\n    return 1 / n", 100)
    kind, name, message, stack = api.run("f(0)", 100)
    assert (kind, name, message) == ("error", "ZeroDivisionError", "division by zero")
    assert stack == '  File "cell 2", line 1\n    f(0)\n  File "cell 1", line 2, in f\n    return 1 / n'
    kind, name, message, stack = api.run("if True\n  pass", 100)
    assert (kind, name, stack) == ("error", "SyntaxError", "")
    assert "(line 1" in message


def test_an_error_in_a_final_expression_keeps_its_line(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    kind, name, _, stack = api.run("x = 0\n\n1 / x", 100)
    assert (kind, name, stack) == ("error", "ZeroDivisionError", '  File "cell 1", line 3\n    1 / x')


def test_a_cell_that_opens_with_comments_keeps_its_errors_and_lines(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    assert list(api.run("# round 1\n# the lookup\n1 / 0", 100)) == [
        "error", "ZeroDivisionError", "division by zero", '  File "cell 1", line 3\n    1 / 0']
    assert list(api.run("# a comment\n  x = 1\nx", 100))[:2] == ["error", "IndentationError"]
    null_byte = list(api.run("# a null byte \x00 in a comment\n1", 100))
    assert null_byte[:2] in (["error", "SyntaxError"], ["error", "ValueError"])


def test_a_def_in_a_cell_that_ends_in_an_expression_is_kept_for_snapshots(make_guest: GuestFactory) -> None:
    a, _ = make_guest()
    assert a.run("from collections import defaultdict\ndef twice(x):\n    return 2 * x\ntwice(2)", 100)[1] == "4"
    assert a.run("class K:\n    n = 3\nK.n", 100)[1] == "3"
    b, _ = make_guest()
    assert set(b.restore(a.snapshot(-1))) == {"defaultdict", "twice", "K"}
    assert b.run("twice(K.n)", 100)[1] == "6"


def test_a_replaced_builtin_does_not_change_rendering(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    real_repr = builtins.repr
    try:
        outcome = list(api.run("import builtins\nbuiltins.repr = lambda v: 'evil'\n[1]", 100))
    finally:
        builtins.repr = real_repr
    assert outcome == ["ok", "[1]", False]


def test_each_write_names_its_stream(make_guest: GuestFactory) -> None:
    api, host = make_guest()
    api.run("import sys\nprint('a')\nprint('b', file=sys.stderr)\nsys.stdout.write('c')", 100)
    assert [(s, t) for s, t in zip(host.streams, host.output, strict=True) if t != "\n"] == [
        ("stdout", "a"),
        ("stderr", "b"),
        ("stdout", "c"),
    ]


def test_console_without_capture_sends_nothing(make_guest: GuestFactory) -> None:
    api, host = make_guest(capture=False)
    api.run("print('quiet')", 100)
    assert host.output == []
    assert list(api.run("import sys\nsys.stdout.write(1)", 100))[:2] == ["error", "TypeError"]


def test_frozen_clock(make_guest: GuestFactory) -> None:
    api, _ = make_guest(frozen_clock=True, epoch_ms=86_400_000)
    assert list(api.run("import time\n(time.time(), time.time_ns(), time.gmtime().tm_mday)", 100))[1] == (
        "(86400.0, 86400000000000, 2)"
    )


def test_frozen_clock_keeps_no_original_within_reach(make_guest: GuestFactory) -> None:
    api, _ = make_guest(frozen_clock=True, epoch_ms=86_400_000)
    code = (
        "import time\n[c.cell_contents for f in (time.localtime, time.ctime, time.strftime) for c in f.__closure__"
        " if type(c.cell_contents).__name__ == 'builtin_function_or_method']"
    )
    assert list(api.run(code, 100))[1] == "[]"
    sealed = "dict(zip(time.localtime.__code__.co_freevars, time.localtime.__closure__))['sealed'].cell_contents"
    assert list(api.run(f"{sealed}(0).tm_mday", 100))[1] == "2"


def test_lock_down_refuses_process_wide_functions() -> None:
    namespace: dict[str, Any] = {"__name__": "lockdown"}
    exec(compile(guest_source("pyguest/lockdown.py"), "lockdown.py", "exec"), namespace)
    signal = types.ModuleType("_signal")
    signal.signal = signal.getsignal = print  # type: ignore[attr-defined]
    posix = types.ModuleType("posix")
    posix.system = posix.kill = posix.getpid = print  # type: ignore[attr-defined]
    namespace["lock_down"]({"_signal": signal, "posix": posix})
    assert signal.getsignal is print and posix.getpid is print  # type: ignore[attr-defined]
    for call, text in ((signal.signal, "signals (signal.signal)"), (posix.system, "processes (os.system)")):  # type: ignore[attr-defined]
        with pytest.raises(PermissionError, match=re.escape(text)):
            call(10, print)
        assert not call.__closure__ or all(c.cell_contents is not print for c in call.__closure__)
    with pytest.raises(PermissionError, match=re.escape("os.kill")):
        posix.kill(1, 10)  # type: ignore[attr-defined]


def test_snapshot_round_trip_into_a_fresh_guest(make_guest: GuestFactory) -> None:
    a, _ = make_guest()
    a.run("import math\nfrom math import sqrt\nimport datetime, decimal", 100)
    a.run("data = {'a': [1, 2.5, None], 't': (1, 'x'), 'b': b'\\x00', 's': {3}, 'big': 2**70, 'c': 1+2j}", 100)
    a.run("when = datetime.date(2024, 5, 6)\nd = decimal.Decimal('1.10')\nnan = float('nan')", 100)
    a.run("shared = [1]\npair = [shared, shared]\ndef twice(x):\n    return 2 * x\nclass K:\n    pass", 100)
    a.run("k = K()\ng = (i for i in [])", 100)
    text = a.snapshot(-1)
    b, _ = make_guest()
    restored = list(b.restore(text))
    assert set(restored) == {
        "math",
        "sqrt",
        "datetime",
        "decimal",
        "data",
        "when",
        "d",
        "nan",
        "shared",
        "pair",
        "twice",
        "K",
    }
    check = "(data, when, d, nan != nan, pair[0] is pair[1], twice(4), K.__name__, sqrt(9.0), math.pi > 3)"
    assert b.run(check, 1000)[1] == (
        "({'a': [1, 2.5, None], 't': (1, 'x'), 'b': b'\\x00', 's': {3}, 'big': 1180591620717411303424, 'c': (1+2j)}, "
        "datetime.date(2024, 5, 6), Decimal('1.10'), True, True, 8, 'K', 3.0, True)"
    )
    kind, name, message, _ = b.run("k", 100)
    assert (kind, name, message) == (
        "error",
        "NameError",
        "Value for 'k' was not restored because it is not serializable (type: K).",
    )
    assert "'k': 'K'" in b.snapshot(-1)  # still a residue


def test_snapshot_limits_and_bad_payloads(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    api.run("x = 'y' * 1000", 100)
    with pytest.raises(ValueError, match="snapshot exceeds maxBytes"):
        api.snapshot(100)
    for payload, why in [
        ('{"v":1,"g":[],"h":[],"s":[]}', "was it taken from a JavaScript interpreter"),
        ("__import__('os')", "not a Python snapshot"),
        ("{'py': 2}", "unsupported version"),
        ("{'py': 1, 'fn': [], 'g': ['x'], 'h': [], 'res': {}, 'src': {}, 'cells': 0}", "odd globals list"),
        (
            "{'py': 1, 'fn': [['cell 1', 1, 'f', 'import os']], 'g': [], 'h': [], 'res': {}, 'src': {}, 'cells': 1}",
            "not a single def or class statement",
        ),
    ]:
        with pytest.raises(ValueError, match=why):
            api.restore(payload)


def test_tools_task_and_files_are_host_calls(make_guest: GuestFactory) -> None:
    api, host = make_guest()
    api.install_host_calls(host.start, host.wait, "lookup,other", True, True)
    host.answers[1] = "1" + json.dumps({"answer": {"\u0000bigint": "12345678901234567890"}})
    assert api.run("tools.lookup(q='x', data=b'\\x01')", 100)[1] == "{'answer': 12345678901234567890}"
    assert host.calls[0] == ("tool", "lookup", '{"q": "x", "data": {"\\u0000bytes": [1]}}')
    host.answers[2] = "0" + json.dumps({"type": "ValueError", "message": "missing"})
    assert list(api.run("tools.other(1)", 100))[1:3] == ["ValueError", "missing"]
    host.answers[3] = "0" + json.dumps({"type": "QuotaExceeded", "message": "no"})
    assert list(api.run("tools.other()", 100))[1:3] == ["QuotaExceeded", "no"]
    host.answers[4] = "T" + "the tool took too long"
    assert list(api.run("tools.other()", 100))[1:3] == ["TimeoutError", "the tool took too long"]
    host.answers[5] = "1" + json.dumps("the answer")
    assert api.run("task('find it', 'general-purpose')", 100)[1] == "'the answer'"
    assert host.calls[4] == ("task", "task", '{"description": "find it", "subagentType": "general-purpose"}')
    host.answers[6] = "0" + json.dumps({"code": "ENOENT", "message": "no such file"})
    assert list(api.run("files.read_text('/data/a.txt')", 100))[1:3] == ["FileNotFoundError", "no such file"]
    host.answers[7] = "1" + json.dumps({"size": 3, "isFile": True, "isDirectory": False})
    assert api.run("files.stat('/data/a.txt')", 100)[1] == "{'size': 3, 'is_file': True, 'is_dir': False}"
    assert list(api.run("tools.nope()", 100))[1] == "AttributeError"
    assert list(api.run("tools.x = 1", 100))[2] == "tools is read-only"
    host.refuse = "ValueError\u0000too many calls"
    assert list(api.run("tools.lookup()", 100))[1:3] == ["ValueError", "too many calls"]
    assert list(api.names()) == []  # tools, task and files are not the model's


def test_define_binds_a_host_value_that_is_not_the_models(make_guest: GuestFactory) -> None:
    api, _ = make_guest()
    api.define("answer", 42)
    assert api.run("answer", 100)[1] == "42"
    assert list(api.names()) == []
