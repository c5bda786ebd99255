"""The Python guest (GraalPy): notebook semantics, isolation, limits and snapshots, through the interpreter API.

GraalPy contexts are costly to start on a busy machine, so most tests share one module-scoped interpreter and use
fresh global names; tests that need their own limits or a fresh context say so.
"""

from __future__ import annotations

import ast
import threading
import time
from collections.abc import Iterator

import pytest

from langchain_graalvm import EvalOutcome, Interpreter, SnapshotError
from langchain_graalvm._runtime._backend import CallChannel, Guest, HostFunctions
from tests.conftest import run_python
from tests.guest.conftest import notebook_value

# Generous: the first import of a standard-library module in a fresh context parses it, which takes seconds on a
# loaded 2-core machine. Limit tests use interpreters of their own with short timeouts.
SLOW = 60.0


@pytest.fixture(scope="module")
def py() -> Iterator[Interpreter]:
    interpreter = Interpreter("python", timeout=SLOW, snapshots=True)
    try:
        yield interpreter
    finally:
        interpreter.close()


@pytest.fixture(scope="module")
def quick() -> Iterator[Interpreter]:
    interpreter = Interpreter("python", timeout=1.0, memory_limit=16 * 2**20)
    interpreter.eval("0")  # builds the context outside the tests' timing
    try:
        yield interpreter
    finally:
        interpreter.close()


# --------------------------------------------------------------------------------------------- REPL semantics


def test_language_is_validated_and_aliased() -> None:
    assert Interpreter("py").language == "python"
    with pytest.raises(ValueError, match="'python'"):
        Interpreter("ruby")


def test_globals_persist_and_the_last_expression_is_the_result(py: Interpreter) -> None:
    assert py.eval("repl_a = 20\nrepl_b = 22").text == "<result>None</result>"
    out = py.eval("def repl_add(x, y):\n    return x + y\n\nrepl_add(repl_a, repl_b)")
    assert out.ok and out.value == "42"
    assert py.eval("repl_add('a', 'b')").value == "'ab'"
    assert py.eval("[repl_a, {'k': (1, 2.5, None, True)}]").value == "[20, {'k': (1, 2.5, None, True)}]"


def test_only_a_final_expression_statement_is_the_value(py: Interpreter) -> None:
    assert py.eval("repl_c = 1\nrepl_c + 1\nrepl_c = 5").value == "None"
    assert py.eval("if True:\n    7").value == "None"
    assert py.eval("repl_c; repl_c * 3").value == "15"


# Cells whose last line looks like an expression but is not the cell's final expression statement, and cells whose
# value a split at the last line would get wrong; GraalPy's value for each must be what CPython's AST gives.
SPLIT_CELLS = [
    "x = 1\nx",
    "x = 1\n\nx + 1\n\n  \n",
    "if False:\n    b = 1\n    b",
    "x = 1 \\\n+ 2",
    "x = 1 \\\n+ 2\nx",
    "s = '''\nx\n'''",
    "s = '''\n1\n'''\ns",
    "x = 5  # note\u2028x + 1",
    "x = 6  # note\u2028\nx + 1",
    "y = 7\ry + 1",
    "y = (1 +\n2)",
    "(1 +\n 2)",
    "x = 1; x",
    "x = [1,\n2]\n# done",
    "\fx = 3\n\fx",
    "def f():\n    return 4\nf()",
    "d = {}\nd",
    "@staticmethod\ndef g():\n    return 1\ng",
    "*xs, = [1, 2]\nxs",
    "z = 1\n-z",
    "lambda: 1",
    "# round 1\nx = 2\nx",
    "# round 1\n\n   # indented\n\t# tab\n1 + 1",
    "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n'é'",
    "# only a comment\\\n3",
    "\f# after a form feed\r\n4",
    "None",
    "x = 3\nNone",
    "print(1)",
    "1;",
    "'doc'",
    "class C:\n    pass",
]


def reference_value(code: str) -> str:
    """What a notebook gives on CPython, as the cell's rendering (a callable as one marker)."""
    value = notebook_value(code, {}, "c")
    return "<callable>" if callable(value) else repr(value)


@pytest.mark.parametrize("code", SPLIT_CELLS)
def test_graalpy_takes_the_same_final_expression_as_cpythons_ast(py: Interpreter, code: str) -> None:
    # A cell's value is the one GraalPy's Context.eval gives back (PythonGuest.run); it must agree with CPython's AST
    # on each of these, the tricky ones included.
    out = py.eval(code)
    assert out.ok, out.text
    assert ("<callable>" if out.value.startswith(("<function", "<staticmethod")) else out.value) == reference_value(code)


def test_print_and_stderr_are_captured_in_order(py: Interpreter) -> None:
    out = py.eval(
        "import sys\nprint('one')\nprint('two', file=sys.stderr)\nsys.stdout.write('three\\n')\n"
        "sys.stderr.write('four')\nprint()\n'done'"
    )
    # The final newline of the output is dropped, as the envelope adds its own.
    assert out.stdout == "one\ntwo\nthree\nfour"
    assert out.text == "<stdout>\none\ntwo\nthree\nfour\n</stdout>\n<result>'done'</result>"


def test_tracebacks_carry_the_models_line_numbers(py: Interpreter) -> None:
    py.eval("def tb_inner(n):\n    x = 1\n    return x / n\n")
    out = py.eval("y = 3\n\ntb_inner(0)")
    assert out.status == "error" and out.error_type == "ZeroDivisionError"
    assert out.error_message == "division by zero"
    lines = out.error_stack.splitlines()
    cell = lines[0].split('"')[1]
    assert lines[0] == f'  File "{cell}", line 3'
    assert lines[1] == "    tb_inner(0)"
    assert lines[2].endswith(", line 3, in tb_inner") and lines[3] == "    return x / n"
    assert "python_guest" not in out.text  # no frames of the host's runner


def test_syntax_errors_are_clear(py: Interpreter) -> None:
    out = py.eval("x = 1\nprint((x)\n")
    assert out.error_type == "SyntaxError"
    assert "'(' was never closed" in (out.error_message or "") and "line 2" in (out.error_message or "")
    out = py.eval("def f():\nreturn 1")
    assert out.error_type == "IndentationError" and "line 2" in (out.error_message or "")
    out = py.eval("return 5")
    assert out.error_type == "SyntaxError" and "'return' outside function" in (out.error_message or "")
    for code in ("# a null byte \x00 in a comment\nsyn_nul = 1", "syn_nul = '\x00'"):  # as CPython's compiler
        out = py.eval(code)
        assert (out.error_type, out.error_message) == ("SyntaxError", "source code string cannot contain null bytes")
    assert py.eval("'syn_nul' in globals()").value == "False"
    assert py.eval("1 + 1").value == "2"


def test_cells_run_in_the_contexts_main_module_which_holds_none_of_the_guests_names() -> None:
    with Interpreter("python", timeout=SLOW) as fresh:
        # White space alone (Python's, a no-break space included) builds nothing and takes no cell number.
        assert fresh.eval(" \n\t\u00a0").value == "None"
        assert '"cell 1"' in fresh.eval("1 / 0").error_stack
        out = fresh.eval(
            "import __main__, sys\n"
            "(sorted(n for n in globals() if not n.startswith('__')), __main__.__dict__ is globals(),"
            " sys.modules['__main__'] is __main__, __name__)"
        )
        assert out.value == "(['sys'], True, True, '__main__')", out.text
        assert fresh.eval("_guest").error_type == "NameError"


def test_guest_exceptions_of_every_kind_are_reported(py: Interpreter) -> None:
    assert py.eval("raise KeyError('k')").error_type == "KeyError"
    out = py.eval("raise SystemExit(3)")
    assert (out.error_type, out.error_message) == ("SystemExit", "3")
    out = py.eval("import sys\nexit_kept = 1\nsys.exit('bye')")
    assert (out.error_type, out.error_message) == ("SystemExit", "bye") and "sys.exit('bye')" in out.error_stack
    assert not out.state_reset and py.eval("exit_kept").value == "1"  # the context's exit ends only the cell
    out = py.eval("class BadRepr:\n    def __repr__(self):\n        raise ValueError('no repr')\nBadRepr()")
    assert (out.error_type, out.error_message) == ("ValueError", "no repr") and "in __repr__" in out.error_stack
    out = py.eval("input()")
    assert out.error_type == "EOFError"
    out = py.eval("class Weird(Exception):\n    def __str__(self):\n        raise ValueError()\nraise Weird()")
    assert out.error_type == "Weird" and "str() failed" in (out.error_message or "")


def test_result_is_cut_to_max_result_chars() -> None:
    with Interpreter("python", max_result_chars=100, timeout=SLOW) as small:
        out = small.eval("'x' * 10000")
        assert out.text.startswith("<result>'xxx") and out.text.endswith("[truncated 3921+ chars]</result>")
        assert len(out.text) <= len("<result></result>") + 110  # the marker may run a few characters over
        out = small.eval("for i in range(2000):\n    print('line', i)")
        assert out.stdout_dropped > 0 and len(out.stdout) <= 100
        assert "truncated" in out.text


def test_frozen_clock_hides_the_host_time() -> None:
    with Interpreter("python", frozen_epoch_ms=86_400_000, timeout=SLOW) as frozen:
        out = frozen.eval("import time, datetime\n(time.time(), time.time_ns(), datetime.datetime.now().isoformat())")
        assert out.value == "(86400.0, 86400000000000, '1970-01-02T00:00:00')"
    with Interpreter("python", clock="host", timeout=SLOW) as real:
        assert float(real.eval("import time\ntime.time()").value or 0) > 1.6e9


def test_the_frozen_clock_has_no_back_door() -> None:
    # The functions the frozen ones call are held by the host: found in their closure cells and called with no time,
    # or with None, they still give the frozen instant; so do GraalPy's own clock and a reloaded time module.
    cells = """import time
found = []
for f in (time.localtime, time.gmtime, time.ctime, time.asctime, time.strftime):
    for c in f.__closure__ or ():
        v = c.cell_contents
        if callable(v):
            for args in ((), (None,), (0,), (0, None), (1,), (1, None), (2, '%Y-%m-%d'), (2, '%Y-%m-%d', None)):
                try:
                    r = v(*args)
                except Exception:
                    continue
                found.append(str(getattr(r, 'tm_year', r))[:10] if isinstance(r, (str, tuple)) else type(r).__name__)
sorted(set(found))"""
    with Interpreter("python", frozen_epoch_ms=86_400_000, timeout=SLOW) as frozen:
        assert frozen.eval(cells).value == "['1970', '1970-01-02', 'ForeignNone', 'Fri Jan  2']"
        assert frozen.eval("__graalpython__.time_millis()").value == "86400000"
        reloaded = (
            "import importlib\nt = importlib.reload(time)\n(t.time(), t.gmtime(None).tm_mday, t.strftime('%Y-%m-%d'))"
        )
        assert frozen.eval(reloaded).value == "(86400.0, 2, '1970-01-02')"
        assert frozen.eval("time.strftime('%Y', 'x')").error_type == "TypeError"  # the original's own errors


def test_a_guest_cannot_take_the_host_processs_signals() -> None:
    # GraalPy installs signal handlers for the whole process: a guest's handler for SIGUSR1 once replaced the host's,
    # and its timers fired after the eval. In a process of its own, the host's handlers must still run afterwards.
    proc = run_python(
        """
        import os, signal, time
        from langchain_graalvm import Interpreter
        seen = []
        signal.signal(signal.SIGUSR1, lambda s, f: seen.append(s))  # SIGUSR2 is the JVM's own (suspend/resume)
        hostile = [
            "import signal\\nsignal.signal(signal.SIGUSR1, lambda s, f: None)",
            "import _signal\\n_signal.signal(10, lambda s, f: None)",
            "signal.signal(signal.SIGALRM, lambda s, f: None)",
            "signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)",
            "signal.alarm(1)",
            "signal.signal(signal.SIGINT, print)",
        ]
        with Interpreter("python", timeout=120) as py:
            for code in hostile:
                out = py.eval(code)
                print("cell", out.status, out.error_type, "Java" in out.text)
            time.sleep(1.5)  # a timer the guest armed would have fired by now
            os.kill(os.getpid(), signal.SIGUSR1)
            for _ in range(100):
                if seen:
                    break
                time.sleep(0.05)
            print("host handlers", sorted(seen))
            print("after", py.eval("1 + 1").text)
        """,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[:6] == ["cell error PermissionError False"] * 6, proc.stdout
    assert lines[6] == "host handlers [10]", proc.stdout
    assert lines[7] == "after <result>2</result>", proc.stdout


# --------------------------------------------------------------------------------------------- isolation


@pytest.mark.parametrize(
    ("code", "error_type", "words"),
    [
        pytest.param("open('/etc/passwd').read()", "PermissionError", "Operation not permitted", id="open"),
        pytest.param("import os\nos.listdir('/')", "PermissionError", "Operation not permitted", id="listdir"),
        pytest.param("import os\nos.getcwd()", "PermissionError", "no file system access", id="getcwd"),
        pytest.param("import os\nos.system('id')", "PermissionError", "cannot start processes", id="os.system"),
        pytest.param("import subprocess\nsubprocess.run(['id'])", "PermissionError", "not permitted", id="subprocess"),
        pytest.param("import socket\nsocket.socket()", "PermissionError", "no network access", id="socket"),
        pytest.param(
            "import socket\nsocket.create_connection(('127.0.0.1', 9))", "PermissionError", "not permitted",
            id="connect",
        ),
        pytest.param("import ctypes", "ImportError", "_ctypes", id="ctypes"),
        pytest.param("import java\njava.type('java.lang.System')", "NotImplementedError", "host lookup", id="java"),
        pytest.param(
            "import polyglot\npolyglot.eval(language='js', string='1')", "RuntimeError", "polyglot", id="polyglot"
        ),
        pytest.param("__graalpython__.read_file('/etc/passwd')", "PermissionError", "not permitted", id="graal-read"),
        pytest.param(
            "import threading\nthreading.Thread(target=print).start()", "PermissionError", "cannot start threads",
            id="thread",
        ),
    ],
)
def test_host_access_fails_with_a_clear_error(py: Interpreter, code: str, error_type: str, words: str) -> None:
    py.eval("iso_kept = 'still here'")
    out = py.eval(code)
    assert out.status == "error", out.text
    assert out.error_type == error_type, out.text
    assert words.lower() in out.text.lower(), out.text
    assert not out.state_reset
    assert py.eval("iso_kept").value == "'still here'"


def test_the_guest_sees_no_host_environment_or_host_objects(py: Interpreter) -> None:
    assert py.eval("import os\n'PATH' in os.environ or 'HOME' in os.environ").value == "False"
    out = py.eval("__graalpython__.build_java_class(object, 'X', 'java.lang.Object')")
    assert out.status == "error" and not out.state_reset


def test_asyncio_cannot_run_an_event_loop(py: Interpreter) -> None:
    # asyncio's loop needs a self-pipe socket; the sandbox has none. Documented in the prompt.
    out = py.eval("import asyncio\nasync def co():\n    return 1\nasyncio.run(co())")
    assert out.status == "error" and out.error_type == "PermissionError", out.text
    # Coroutines themselves work: a host-driven send() loop can run them.
    out = py.eval("c = co()\ntry:\n    c.send(None)\nexcept StopIteration as s:\n    r = s.value\nr")
    assert out.value == "1"


# --------------------------------------------------------------------------------------------- limits


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("while True:\n    pass", id="loop"),
        pytest.param("try:\n    while True: pass\nfinally:\n    while True: pass", id="loop-in-finally"),
        pytest.param(
            "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass", id="catch-all"
        ),
    ],
)
def test_timeouts_stop_the_guest_and_the_interpreter_recovers(quick: Interpreter, code: str) -> None:
    # No regex case: GraalPy's re runs on TRegex, which matches (a*)*b against 'a' * 40 at once.
    quick.eval("lim_kept = 'yes'")
    started = time.monotonic()
    out = quick.eval(code)
    assert out.status == "timeout", out.text
    assert out.error_type == "Timeout" and "1 s timeout" in (out.error_message or "")
    assert time.monotonic() - started < 20
    assert quick.eval("1 + 1").value == "2"
    if not out.state_reset:
        assert quick.eval("lim_kept").value == "'yes'"


def test_memory_limit_stops_the_guest() -> None:
    with Interpreter("python", timeout=SLOW, memory_limit=16 * 2**20) as interp:
        assert interp.eval("mem_kept = 1").ok
        out = interp.eval("hog = []\nwhile True:\n    hog.append(bytearray(1 << 20))")
        assert out.status == "limit" and out.error_type == "OutOfMemory", out.text
        assert out.state_reset and "16 MiB memory limit" in (out.error_message or "")
        # Short-lived garbage does not count.
        assert interp.eval("sum(len(bytearray(1 << 20)) for _ in range(200))").value == str(200 << 20)


def test_recursion_limit_raises_recursion_error_and_keeps_state() -> None:
    # GraalPy goes past sys.getrecursionlimit() until its thread's stack runs out (about 7,100 frames of 34 MiB);
    # raising the RecursionError took 0.5 to 1.2 s on an idle machine, more than the `quick` interpreter's 1 s.
    # Those frames hold about 58 MiB of heap at the deepest point: a collection there counts it against the memory
    # limit (an OutOfMemory, which is that limit's behaviour), so the interpreters get room for the whole stack.
    room = 512 * 2**20
    with Interpreter("python", timeout=SLOW, memory_limit=room) as py:
        py.eval("rec_kept = 1")
        out = py.eval("def down(n):\n    return down(n + 1)\ndown(0)")
        assert out.error_type == "RecursionError", out.text
        assert "Previous line repeated" in out.error_stack
        assert not out.state_reset and py.eval("rec_kept").value == "1"
    with Interpreter("python", timeout=1.0, memory_limit=room) as quick:
        quick.eval("def down(n):\n    return down(n + 1)")
        # Past the Java stack: GraalPy still raises RecursionError, or the deep recursion runs out of time.
        out = quick.eval("import sys\nsys.setrecursionlimit(10**7)\ndown(0)")
        assert out.error_type in ("RecursionError", "Timeout"), out.text
        assert quick.eval("2 + 2").value == "4"


def test_cancel_stops_a_running_eval() -> None:
    import threading

    with Interpreter("python", timeout=SLOW) as interp:
        interp.eval("0")
        timer = threading.Timer(1.0, interp.cancel)
        timer.start()
        out = interp.eval("while True:\n    pass")
        timer.join()
        assert out.error_type == "Cancelled", out.text


# --------------------------------------------------------------------------------------------- snapshots

SNAPSHOT_SETUP = [
    "import json, math\nfrom collections import Counter\nfrom decimal import Decimal\n"
    "from datetime import datetime, date, time as dtime, timedelta, timezone\nimport functools",
    "data = {'a': [1, 2.5, None, True, 'é\\udcff'], 'big': -2**80, 'nan': float('nan'), 'inf': float('-inf'),"
    " 't': (1, 'x'), 's': {1, 2}, 'fs': frozenset([3]), 'b': b'\\x00\\xff', 'ba': bytearray(b'hi'),"
    " 'dt': datetime(2024, 2, 29, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=2))), 'naive': datetime(2024, 1, 1),"
    " 'd': date(2024, 1, 2), 'tm': dtime(1, 2, 3), 'td': timedelta(days=-1, seconds=3), 'dec': Decimal('1.10'),"
    " 'c': 1+2j, 3: 'int key', (1, 2): 'tuple key', None: 0}\n"
    "shared = [1]\npair = [shared, shared]\ncyc = []\ncyc.append(cyc)\nloop = {}\nloop['self'] = loop",
    "gen = (i for i in range(3))\nanon = lambda x: x\nsq = math.sqrt\nC = Counter",
    "@functools.lru_cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\n"
    "class Point:\n    def __init__(self, x):\n        self.x = x\n\n"
    "    def double(self):\n        return Point(self.x * 2)\n\n"
    "p = Point(3)\nhandlers = [fib, Point]\nnested = [1, [gen]]\n\ndef boom():\n    return 1 / 0",
]


@pytest.fixture(scope="module")
def restored(py: Interpreter) -> Iterator[tuple[Interpreter, bytes, list[str]]]:
    with Interpreter("python", timeout=SLOW, snapshots=True) as source:
        for cell in SNAPSHOT_SETUP:
            assert source.eval(cell).ok
        payload = source.snapshot()
    target = Interpreter("python", timeout=SLOW, snapshots=True)
    names = target.restore(payload)
    try:
        yield target, payload, names
    finally:
        target.close()


def test_snapshot_payload_is_a_versioned_ascii_literal_without_pickle(
    restored: tuple[Interpreter, bytes, list[str]],
) -> None:
    _, payload, names = restored
    assert payload.isascii()
    root = ast.literal_eval(payload.decode())
    assert root["py"] == 1 and set(root) == {"py", "cells", "src", "fn", "g", "h", "res"}
    assert b"pickle" not in payload
    assert set(names) >= {"data", "pair", "cyc", "fib", "Point", "json", "sq", "C", "handlers", "boom"}
    assert {"gen", "anon", "p", "nested"}.isdisjoint(names)


def test_snapshot_round_trips_data_exactly(restored: tuple[Interpreter, bytes, list[str]]) -> None:
    target, _, _ = restored
    out = target.eval("data")
    assert out.value == (
        "{'a': [1, 2.5, None, True, 'é\\udcff'], 'big': -1208925819614629174706176, 'nan': nan, 'inf': -inf, "
        "'t': (1, 'x'), 's': {1, 2}, 'fs': frozenset({3}), 'b': b'\\x00\\xff', 'ba': bytearray(b'hi'), "
        "'dt': datetime.datetime(2024, 2, 29, 3, 4, 5, 6, tzinfo=datetime.timezone(datetime.timedelta(seconds=7200))), "
        "'naive': datetime.datetime(2024, 1, 1, 0, 0), 'd': datetime.date(2024, 1, 2), 'tm': datetime.time(1, 2, 3), "
        "'td': datetime.timedelta(days=-1, seconds=3), 'dec': Decimal('1.10'), 'c': (1+2j), 3: 'int key', "
        "(1, 2): 'tuple key', None: 0}"
    )
    assert target.eval("[type(v).__name__ for v in data.values()][:8]").value == (
        "['list', 'int', 'float', 'float', 'tuple', 'set', 'frozenset', 'bytes']"
    )
    assert target.eval("(pair[0] is pair[1], cyc[0] is cyc, loop['self'] is loop)").value == "(True, True, True)"


def test_snapshot_recreates_functions_classes_and_imports(restored: tuple[Interpreter, bytes, list[str]]) -> None:
    target, _, _ = restored
    assert target.eval("fib(60)").value == "1548008755920"
    assert target.eval("fib.cache_info().hits > 0").value == "True"  # the decorator ran again
    assert target.eval("Point(2).double().x").value == "4"
    assert target.eval("handlers[0] is fib and handlers[1] is Point").value == "True"
    assert target.eval("(sq(16), C('aab')['a'], json.dumps([1]), math.pi > 3)").value == "(4.0, 2, '[1]', True)"
    out = target.eval("boom()")
    assert out.error_type == "ZeroDivisionError"
    # The function keeps its original cell and line (the fourth setup cell, line 17).
    assert '"cell 4", line 17, in boom\n    return 1 / 0' in out.error_stack
    # The target's own cells are numbered after the snapshot's, so their lines never replace the function's.
    assert int(out.error_stack.split('"cell ')[1].split('"')[0]) > 4


@pytest.mark.parametrize(
    ("name", "type_name"),
    [("gen", "generator"), ("anon", "function"), ("p", "Point"), ("nested", "list containing generator")],
)
def test_unserializable_values_become_residues(
    restored: tuple[Interpreter, bytes, list[str]], name: str, type_name: str
) -> None:
    target, _, _ = restored
    out = target.eval(f"def touch():\n    return {name}\ntouch()")
    assert out.error_type == "NameError"
    # The same words as the JavaScript residue.
    assert out.error_message == (
        f"Value for '{name}' was not restored because it is not serializable (type: {type_name})."
    )


def test_residues_survive_another_snapshot_until_assigned(restored: tuple[Interpreter, bytes, list[str]]) -> None:
    target, _, _ = restored
    again = Interpreter("python", timeout=SLOW, snapshots=True)
    try:
        again.restore(target.snapshot())
        assert "not serializable (type: generator)" in again.eval("gen").text
        assert again.eval("gen = 5\ngen").value == "5"
        root = ast.literal_eval(again.snapshot().decode())
        assert "gen" not in root["res"] and "p" in root["res"]
    finally:
        again.close()


def test_bad_payloads_are_refused(py: Interpreter) -> None:
    good = ast.literal_eval(py.snapshot().decode())
    fresh = Interpreter("python", timeout=SLOW, snapshots=True)
    try:
        with Interpreter(snapshots=True) as js:
            js.eval("var q = 1")
            with pytest.raises(SnapshotError, match="not a Python snapshot"):
                fresh.restore(js.snapshot())
        with pytest.raises(SnapshotError, match="invalid snapshot"):
            fresh.restore(b"\x80\x04\x95 pickle")
        with pytest.raises(SnapshotError, match="unsupported version"):
            fresh.restore(repr({**good, "py": 2}).encode())
        evil = {**good, "fn": [["cell 1", 1, "f", "import os\ndef f():\n    pass\n"]], "g": ["f", ["F", 0]]}
        with pytest.raises(SnapshotError, match="not a single def or class"):
            fresh.restore(repr(evil).encode())
        with pytest.raises(SnapshotError, match="unknown value tag"):
            fresh.restore(repr({**good, "g": ["x", ["pickle", "gASVAA=="]]}).encode())
        # Only literals are read: a call in the payload is refused, never evaluated.
        with pytest.raises(SnapshotError, match="unexpected Call"):
            fresh.restore(b"{'py': 1, 'g': __import__('os').system('id')}")
        assert fresh.eval("'x' in globals() or 'f' in globals()").value == "False"
    finally:
        fresh.close()
    with pytest.raises(SnapshotError, match="larger than 50 bytes") as exc:
        py.snapshot(max_bytes=50)
    assert exc.value.too_large


def test_a_javascript_interpreter_refuses_a_python_snapshot(restored: tuple[Interpreter, bytes, list[str]]) -> None:
    _, payload, _ = restored
    with Interpreter(snapshots=True) as js, pytest.raises(SnapshotError, match="invalid snapshot"):
        js.restore(payload)


# --------------------------------------------------------------------------------------------- resource cache


def test_stdlib_unpacks_into_our_cache_with_a_read_only_home(tmp_path: object) -> None:
    import os
    from pathlib import Path

    base = Path(str(tmp_path))
    home = base / "home"
    home.mkdir()
    home.chmod(0o555)
    cache = base / "cache"
    proc = run_python(
        """
        from langchain_graalvm import Interpreter
        with Interpreter("python", timeout=120) as py:
            print(py.eval("import json\\njson.dumps({'ok': 1})").text)
            print(py.eval("__graalpython__.home").value)
        """,
        env={"HOME": str(home), "LANGCHAIN_GRAALVM_CACHE": str(cache), "XDG_CACHE_HOME": str(home / ".cache")},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "<result>'{\"ok\": 1}'</result>"
    assert lines[1].startswith("'" + str(cache / "resources"))
    assert any((cache / "resources").rglob("json/__init__.py"))
    assert not os.listdir(home)


def test_a_name_rebound_after_its_def_is_saved_as_data(py: Interpreter) -> None:
    py.eval("def rebound():\n    return 1\nrebound = 3\nalso_three = 3")
    with Interpreter("python", timeout=SLOW, snapshots=True) as target:
        target.restore(py.snapshot())
        assert target.eval("(rebound, also_three)").value == "(3, 3)"


def test_a_builtin_that_never_checks_for_interrupts_is_given_up() -> None:
    # GraalPy's sum() over a range is one Java loop with no interrupt check, so neither the interrupt nor the
    # forced close can stop it. The eval must still return, and the next one must run in a fresh interpreter. The
    # stuck loop keeps a core busy until its process ends, so it runs in a process of its own.
    proc = run_python(
        """
        from langchain_graalvm import Interpreter
        with Interpreter("python", timeout=1.0) as py:
            py.eval("kept = 1")
            out = py.eval("sum(range(10 ** 18))")
            print("stuck", out.status, out.error_type, out.state_reset)
            print("message", out.error_message)
            print("next", py.eval("1 + 1").text, py.eval("'kept' in globals()").text)
        """,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)
    assert lines["stuck"] == "timeout Timeout True", proc.stdout
    assert "does not check for interrupts" in lines["message"], proc.stdout
    assert lines["next"] == "<result>2</result> <result>False</result>", proc.stdout


class _Seeded:
    """Host functions of an eval whose random numbers are seeded, as for a cell under review."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def bind(self, guest: Guest) -> CallChannel:  # no host calls are made: nobody polls the channel
        return guest.open_calls(HostFunctions(random_seed=self.seed))


def test_a_replaced_random_seed_neither_hangs_nor_unseeds_the_next_seeded_cell() -> None:
    with Interpreter("python", timeout=SLOW) as interp:
        replaced = "import random\nrandom.seed = lambda *a: any(iter(int, 1))\nkept = 5"
        assert interp.eval(replaced).ok
        outcomes: list[EvalOutcome] = []
        draw = "[kept, random.random(), random.gauss(0, 1)]"
        cells = threading.Thread(
            target=lambda: outcomes.extend(
                [interp.eval(draw, host=_Seeded(7)), interp.eval(draw, host=_Seeded(7)), interp.eval(draw)]
            ),
            daemon=True,
        )
        cells.start()
        cells.join(SLOW * 4)
        if cells.is_alive():
            interp.cancel()
            pytest.fail("a seeded cell ran on past its timeout")
        first, again, plain = outcomes
        assert first.ok and first.value.startswith("[5, "), first.text
        assert again.value == first.value
        assert plain.ok and plain.value != first.value, plain.text


def test_a_process_that_runs_only_python_never_starts_the_javascript_warm_up() -> None:
    # The warm-up parses the JavaScript guest code, loads the cell compiler and runs JavaScript cells; in a process
    # that only runs Python it took CPU and the Truffle compile queue from the model's Python cells. It starts with
    # the first JavaScript interpreter: right after it is made, the thread is parsing the JavaScript guest code.
    proc = run_python(
        """
        from langchain_graalvm import Interpreter
        from langchain_graalvm._runtime import _jvm

        def warm_up_threads():
            threads = _jvm.jclass("java.lang.Thread").getAllStackTraces().keySet()
            return sum(1 for t in threads if str(t.getName()) == "graalvm-sandbox-warmup")

        with Interpreter("python", timeout=120) as py:
            print("python", py.eval("sum(range(10))").text, warm_up_threads())
            with Interpreter("python", timeout=120) as other:
                other.eval("1")
            print("still", warm_up_threads())
            js = Interpreter(timeout=120, prestart=False)
            js._guest_now()  # the Java interpreter, without a context yet
            print("javascript", warm_up_threads())
            print("eval", js.eval("6 * 7").text)
            js.close()
        """,
        env={"LANGCHAIN_GRAALVM_BACKGROUND_START": "0"},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert proc.stdout.splitlines() == [
        "python <result>45</result> 0", "still 0", "javascript 1", "eval <result>42</result>",
    ], proc.stdout
