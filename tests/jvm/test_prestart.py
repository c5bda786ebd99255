"""Background start: the JVM and a first context are built when an interpreter or middleware is made, safely.

Each case runs in a fresh process, since it needs a JVM that has not started (or never can).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_python

_FIRST_USE = """
import time
from langchain_graalvm import Interpreter, JvmError
from langchain_graalvm._runtime import _jvm
js = Interpreter()
time.sleep(1.0)  # the background start has failed by now
try:
    js.eval('1')
    print('evaluated')
except JvmError as e:
    print('ERR', e)
try:
    Interpreter().eval('1')
except JvmError as e:
    print('ERR AGAIN', e)
print('started', _jvm.is_started())
"""


def _no_thread_traceback(stderr: str) -> None:
    assert "Exception in thread" not in stderr and "Traceback" not in stderr, stderr


def test_no_jdk_is_reported_by_the_first_eval_not_lost_in_the_thread() -> None:
    proc = run_python(_FIRST_USE, env={"LANGCHAIN_GRAALVM_JAVA_HOME": "/nonexistent/jdk"})
    assert "ERR LANGCHAIN_GRAALVM_JAVA_HOME=/nonexistent/jdk is not a JDK 21 or newer" in proc.stdout, proc.stderr
    assert "ERR AGAIN LANGCHAIN_GRAALVM_JAVA_HOME=/nonexistent/jdk" in proc.stdout, proc.stderr
    assert "started False" in proc.stdout
    _no_thread_traceback(proc.stderr)


def test_bad_runtime_folder_is_reported_by_the_first_eval(tmp_path: Path) -> None:
    (tmp_path / "modules").mkdir()  # a folder that looks half right: no jars in it
    proc = run_python(_FIRST_USE, env={"LANGCHAIN_GRAALVM_RUNTIME": str(tmp_path)})
    assert f"ERR The GraalVM runtime jars were not found (looked in {tmp_path}" in proc.stdout, proc.stderr
    assert "started False" in proc.stdout
    _no_thread_traceback(proc.stderr)


def test_the_middleware_tool_reports_a_missing_jdk_on_its_first_eval() -> None:
    proc = run_python(
        """
        import time, warnings
        warnings.simplefilter("ignore")
        from langchain_graalvm import CodeInterpreterMiddleware, JvmError
        from langchain_graalvm.cli._benchkit import EvalToolSlot
        slot = EvalToolSlot(CodeInterpreterMiddleware())
        time.sleep(1.0)
        try:
            print('OUT', slot.eval('1 + 1'))
        except JvmError as e:
            print('ERR', e)
        """,
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": "/nonexistent/jdk"},
    )
    # The model reads why the cell did not run; the agent's run goes on; the agent's log has the error once, from
    # the tool, and no thread of the background start printed one of its own.
    expected = (
        'OUT <error type="SandboxUnavailable">the cell did not run: JvmError: '
        "LANGCHAIN_GRAALVM_JAVA_HOME=/nonexistent/jdk is not a JDK"
    )
    assert expected in proc.stdout, proc.stdout + proc.stderr
    assert "Exception in thread" not in proc.stderr, proc.stderr
    assert proc.stderr.count("the eval tool could not run a cell") == 1, proc.stderr


def test_building_starts_the_jvm_in_the_background_and_the_first_eval_uses_that_context() -> None:
    proc = run_python(
        """
        import time, warnings
        warnings.simplefilter("ignore")
        from langchain_graalvm import CodeInterpreterMiddleware, Interpreter
        from langchain_graalvm._runtime import _jvm
        from langchain_graalvm.agents import _spares
        js = Interpreter()
        deadline = time.time() + 300
        while js._pending is not None and not js._pending._future.done() and time.time() < deadline:
            time.sleep(0.05)
        print('started before any eval', _jvm.is_started(), js._guest is not None)
        print('eval', js.eval('1 + 1').text)
        mw = CodeInterpreterMiddleware()
        pool = _spares.shared_pool()
        while mw._spec not in pool._spares or not pool._spares[mw._spec]:
            time.sleep(0.05)
            if time.time() > deadline:
                break
        print('spare ready', len(pool._spares.get(mw._spec, ())))
        """,
        timeout=300,
    )
    assert "started before any eval True True" in proc.stdout, proc.stdout + proc.stderr
    assert "eval <result>2</result>" in proc.stdout
    assert "spare ready 1" in proc.stdout


def test_opt_out_starts_nothing_until_the_first_eval() -> None:
    proc = run_python(
        """
        import time, warnings
        warnings.simplefilter("ignore")
        from langchain_graalvm import CodeInterpreterMiddleware, Interpreter
        from langchain_graalvm._runtime import _jvm
        js = Interpreter(); mw = CodeInterpreterMiddleware()
        time.sleep(3.0)
        print('started', _jvm.is_started())
        print('eval', js.eval('1 + 1').text)
        print('started', _jvm.is_started())
        """,
        env={"LANGCHAIN_GRAALVM_BACKGROUND_START": "0"},
        timeout=300,
    )
    assert "started False" in proc.stdout and "started True" in proc.stdout, proc.stdout + proc.stderr
    assert "eval <result>2</result>" in proc.stdout


def test_exit_during_the_warm_up_is_clean() -> None:
    proc = run_python(
        """
        import sys, warnings
        warnings.simplefilter("ignore")
        from langchain_graalvm import CodeInterpreterMiddleware, Interpreter
        mw = CodeInterpreterMiddleware()
        js = Interpreter()
        print('leaving', flush=True)
        sys.exit(0)
        """,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    assert "leaving" in proc.stdout
    _no_thread_traceback(proc.stderr)


def test_exit_while_the_jvm_is_starting_is_clean() -> None:
    proc = run_python(
        """
        import time, warnings
        warnings.simplefilter("ignore")
        from langchain_graalvm import Interpreter
        from langchain_graalvm._runtime import _jvm
        js = Interpreter()
        while _jvm._began_pid is None:
            time.sleep(0.005)
        print('leaving while starting', flush=True)
        """,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    assert "leaving while starting" in proc.stdout
    _no_thread_traceback(proc.stderr)


def test_fork_after_the_background_start_is_a_clear_error() -> None:
    proc = run_python(
        """
        import os, time
        from langchain_graalvm import Interpreter, JvmError
        from langchain_graalvm._runtime import _jvm
        js = Interpreter()
        while not _jvm.is_started():
            time.sleep(0.05)
        pid = os.fork()
        if pid == 0:
            try:
                js.eval('2')
                print('child evaluated', flush=True)
            except JvmError as e:
                print('child error:', str(e)[:60], flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print('parent', js.eval('3').value, flush=True)
        """,
        timeout=180,
    )
    assert "child error: The JVM was started in a parent process" in proc.stdout, proc.stdout + proc.stderr
    assert "parent 3" in proc.stdout


def test_fork_while_the_jvm_is_starting_neither_hangs_nor_uses_the_half_started_jvm() -> None:
    proc = run_python(
        """
        import os, time
        from langchain_graalvm import Interpreter, JvmError
        from langchain_graalvm._runtime import _jvm
        js = Interpreter()
        while _jvm._began_pid is None:
            time.sleep(0.001)
        pid = os.fork()
        if pid == 0:
            try:
                Interpreter().eval('2')
                print('child evaluated', flush=True)
            except JvmError as e:
                print('child error:', str(e)[:60], flush=True)
            try:
                js.eval('2')
            except JvmError as e:
                print('child error again:', str(e)[:60], flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print('parent', js.eval('3').value, flush=True)
        """,
        timeout=180,
    )
    assert "child error: The JVM was started in a parent process" in proc.stdout, proc.stdout + proc.stderr
    assert "child error again: The JVM was started in a parent process" in proc.stdout
    assert "parent 3" in proc.stdout


def test_background_start_is_on_by_default_and_the_variable_turns_it_off() -> None:
    from langchain_graalvm._runtime import _prestart

    saved = os.environ.pop(_prestart.ENV, None)
    try:
        assert _prestart.enabled()
        assert _prestart.wanted(None) and not _prestart.wanted(False)
        os.environ[_prestart.ENV] = "0"
        assert not _prestart.enabled() and _prestart.wanted(True)
    finally:
        os.environ.pop(_prestart.ENV, None)
        if saved is not None:
            os.environ[_prestart.ENV] = saved


def test_prepare_right_after_building_waits_for_the_background_start() -> None:
    from langchain_graalvm import Interpreter

    # The background start prepares each of these at once; prepare() must wait for it, not race it.
    for snapshots in (True, False, True, False):
        js = Interpreter(snapshots=snapshots, prestart=True)
        try:
            js.prepare()
            js.prepare()
            assert js.eval("40 + 2").text == "<result>42</result>"
        finally:
            js.close()
