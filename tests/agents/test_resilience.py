"""Crash recovery, signals and fork safety, each in fresh processes.

- A child running an agent over a SQLite checkpointer is killed with SIGKILL in the middle of a turn; a new
  process resumes the thread from its last checkpoint with the globals of every finished turn intact.
- With the JVM started with ``-Xrs``, SIGTERM and SIGINT reach Python's handlers while an eval runs, and the
  cleanup (closing the interpreter, atexit hooks) runs.
- A ``multiprocessing`` child forked after the parent started the JVM gets a clear error instead of a hang; a
  spawned child works.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_python

AGENT_TURN = """
import json, os, sys, time
sys.path.insert(0, {root!r})
from langchain_core.tools import tool
from langgraph.checkpoint.sqlite import SqliteSaver
from langchain_graalvm import CodeInterpreterMiddleware
from tests.support.scripted import build_agent, results_of, thread, turn

@tool
def checkpoint_then_wait() -> str:
    \"\"\"Says it is running, then waits (the parent kills the process meanwhile) unless told not to.\"\"\"
    print("IN-TURN", flush=True)
    if os.environ.get("WAIT") == "1":
        time.sleep(120)
    return "waited"

mode = sys.argv[1]
with SqliteSaver.from_conn_string({db!r}) as saver:
    agent = build_agent(CodeInterpreterMiddleware(snapshot_signing_key="durable"), checkpointer=saver,
                        tools=[checkpoint_then_wait])
    config = thread("crash-thread")
    # Each step's checkpoint is written before the next step starts (LangGraph's default writes it beside the next
    # step, so a kill could lose the first eval's step, and the resumed turn would run that eval again).
    out = agent.invoke(None if mode == "resume" else turn(*json.loads(mode)), config, durability="sync")
    print("RESULTS " + json.dumps(results_of(out)), flush=True)
"""


def _script(db: Path) -> str:
    path = Path(tempfile.mkdtemp()) / "agent_turn.py"
    path.write_text(AGENT_TURN.format(root=str(ROOT), db=str(db)))
    return str(path)


def _run(script: str, arg: str, *, wait: bool = False) -> list[str]:
    env = dict(os.environ, WAIT="1" if wait else "0")
    done = subprocess.run([sys.executable, script, arg], capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULTS "))
    return json.loads(line[len("RESULTS ") :])


def _kill_mid_turn(script: str, cells: list[str], sig: int = signal.SIGKILL) -> int:
    with subprocess.Popen(
        [sys.executable, script, json.dumps(cells)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, WAIT="1"), cwd=ROOT,
    ) as child:
        try:
            assert child.stdout is not None and child.stderr is not None
            for line in child.stdout:
                if line.strip() == "IN-TURN":
                    break
            else:
                pytest.fail("the child ended before its turn began: " + child.stderr.read()[-3000:])
            os.kill(child.pid, sig)
            return child.wait(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()


def test_sigkill_mid_turn_then_a_new_process_resumes_from_the_last_checkpoint(tmp_path: Path) -> None:
    script = _script(tmp_path / "checkpoints.sqlite")
    assert _run(script, json.dumps(["var ledger = [10, 20]; class Acc { total() { return ledger.reduce((a, b) => a + b) } }"])) == [
        "<result>undefined</result>"
    ]
    assert _run(script, json.dumps(["ledger.push(12); var acc = new Acc(); acc.total()"])) == ["<result>42</result>"]
    # The third turn changes a global, then is killed inside a tool call, before the turn could end.
    code = _kill_mid_turn(script, ["ledger.push(1000); ledger.length", "tool:checkpoint_then_wait", "ledger.length"])
    assert code == -signal.SIGKILL
    # A new process resumes the interrupted turn from its last checkpoint: the pending tool call runs again, and
    # the turn finishes on the globals of the last finished turn (a turn's globals are saved when it ends).
    resumed = _run(script, "resume")
    assert resumed == ["<result>4</result>", "waited", "<result>3</result>"]
    # Nothing committed before the crash is lost, and the thread goes on.
    after = _run(script, json.dumps(["[ledger.join(','), acc.total(), acc instanceof Acc]"]))
    assert after == ['<result>["10,20,12", 42, true]</result>']


TERMINATED = """
import atexit, signal, sys, threading, time
from langchain_graalvm import Interpreter

js = Interpreter(timeout=60)
print("warm", js.eval("1 + 1").value, flush=True)
atexit.register(lambda: print("atexit ran", flush=True))
outcome = []
finished = threading.Event()

def work():
    try:
        outcome.append(js.eval("while (true) {}"))
    finally:
        finished.set()

def stop(signum, frame):
    print("handler got", signal.Signals(signum).name, flush=True)
    js.cancel()
    raise SystemExit(0)

signal.signal(signal.SIGTERM, stop)
# (An Event, not Thread.join: a join interrupted by a signal handler's exception can leave the thread looking
# finished on Python 3.11.)
worker = threading.Thread(target=work)
worker.start()
try:
    print("looping", flush=True)
    while not finished.wait(0.1):
        pass
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    js.cancel()
finally:
    finished.wait(30)
    print("eval ended:", outcome[0].error_type if outcome else None, flush=True)
    js.close()
    print("closed", flush=True)
"""


@pytest.mark.parametrize(("sig", "handled"), [(signal.SIGTERM, "handler got SIGTERM"), (signal.SIGINT, "KeyboardInterrupt")])
def test_signals_reach_python_handlers_and_cleanup_runs(sig: int, handled: str) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(TERMINATED)
    lines: list[str] = []
    with subprocess.Popen(
        [sys.executable, f.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    ) as child:
        try:
            assert child.stdout is not None
            for line in child.stdout:
                lines.append(line.strip())
                if line.strip() == "looping":
                    break
            time.sleep(1.0)  # the guest is now spinning in its worker thread
            child.send_signal(sig)
            out, err = child.communicate(timeout=60)
        finally:
            os.unlink(f.name)
            if child.poll() is None:
                child.kill()
                child.wait()
    lines += out.splitlines()
    assert child.returncode == 0, err[-2000:]
    assert lines[0] == "warm 2"
    assert handled in lines
    assert "eval ended: Cancelled" in lines
    assert lines[-2:] == ["closed", "atexit ran"], lines


def test_sigint_during_an_eval_on_the_main_thread_arrives_when_the_eval_ends() -> None:
    proc = run_python(
        """
        import os, signal, threading, time
        from langchain_graalvm import Interpreter
        js = Interpreter(timeout=2)
        js.eval("1")
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        started = time.monotonic()
        try:
            out = js.eval("while (true) {}")
            print("eval returned", out.error_type, flush=True)
            time.sleep(5)
            print("no interrupt", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt after", round(time.monotonic() - started), "s", flush=True)
        finally:
            js.close()
        """,
        timeout=120,
    )
    # The guest spins in Java; Python runs its handler as soon as the call returns, at the 2 s timeout.
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "no interrupt" not in proc.stdout
    assert "KeyboardInterrupt after" in proc.stdout, proc.stdout + proc.stderr


def test_multiprocessing_fork_child_gets_a_clear_error_and_spawn_works() -> None:
    proc = run_python(
        """
        import multiprocessing as mp

        def use(q):
            import faulthandler, gc
            # A child that hangs prints every thread's stack and ends, so that a failure says where it stopped.
            # Armed here, not in the parent: a fork child would wait forever to cancel the parent's watchdog.
            faulthandler.dump_traceback_later(90, exit=True)
            # Importing the agent stack allocates enough to trigger Python's collector, which once asked the
            # parent's (absent) JVM threads for a collection and hung the child.
            from langchain_graalvm import Interpreter, JvmError, CodeInterpreterMiddleware
            gc.collect()
            try:
                q.put(("value", Interpreter().eval("6 * 7").value))
            except JvmError as e:
                q.put(("error", str(e)))

        if __name__ == "__main__":
            from langchain_graalvm import Interpreter
            with Interpreter() as js:
                print("parent", js.eval("1 + 1").value, flush=True)
            for method in ("fork", "spawn"):
                ctx = mp.get_context(method)
                q = ctx.Queue()
                p = ctx.Process(target=use, args=(q,))
                p.start()
                p.join(120)
                if p.exitcode is None:
                    p.kill()
                print(method, "exit", p.exitcode, q.get(timeout=5) if p.exitcode == 0 else None, flush=True)
            import faulthandler
            faulthandler.dump_traceback_later(60, exit=True)  # the parent's own exit, JVM shutdown included
        """,
        timeout=330,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "parent 2"
    failed = (lines, proc.stderr[-8000:])  # a child that hung printed its threads' stacks on stderr
    assert lines[1].startswith("fork exit 0 ('error', ") and "The JVM was started in a parent process" in lines[1], failed
    assert lines[2] == "spawn exit 0 ('value', '42')", failed
