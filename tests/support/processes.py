"""Processes a test started: waiting for one to end, and signalling one while an eval runs in it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from langchain_graalvm import EvalOutcome, Interpreter
from langchain_graalvm._runtime._jvmfinder import pid_alive


def gone(pid: int, within: float) -> bool:
    """Whether process ``pid`` ends within ``within`` seconds."""
    deadline = time.monotonic() + within
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def stop(pid: int, within: float) -> None:
    """Sends SIGSTOP to ``pid`` and waits until every thread of it has stopped. The kernel stops the threads one
    by one, after the one that takes the signal runs; until then the others still run, and may answer a request."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + within
    while True:
        states = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                stat = (task / "stat").read_text()
            except OSError:  # a thread that ended meanwhile
                continue
            states.append(stat[stat.rindex(")") + 2])
        if states and all(state in "Tt" for state in states):
            return
        assert time.monotonic() < deadline, f"process {pid} did not stop within {within} s: {states}"
        time.sleep(0.01)


def signalled_mid_loop(interp: Interpreter, pid: int, signal: int, *, within: float) -> EvalOutcome:
    """The outcome of a JavaScript endless loop in ``interp`` when process ``pid`` (the test's own worker or server)
    gets ``signal`` a second into it; fails unless the eval returns within ``within`` seconds of the signal."""
    outcomes: list[EvalOutcome] = []
    runner = threading.Thread(target=lambda: outcomes.append(interp.eval("while (true) {}")))
    runner.start()
    time.sleep(1.0)
    os.kill(pid, signal)
    runner.join(within)
    assert not runner.is_alive(), f"the eval did not return after its process got signal {signal}"
    return outcomes[0]
