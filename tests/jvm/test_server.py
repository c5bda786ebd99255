"""The local sandbox server (``LANGCHAIN_GRAALVM_SERVER=auto``): a broker that lends trained worker JVMs, private to
its user, refused when it is not this package's, survived by its clients' evals, and surviving its clients. Each
test starts its own server in a private folder and kills, by pid, only that server and the workers it started."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from langchain_graalvm import Interpreter
from langchain_graalvm._runtime import _remote, _server
from langchain_graalvm._runtime._backend import CallChannel, Guest, HostFunctions
from tests.conftest import ROOT
from tests.support.processes import gone, signalled_mid_loop

SLOW = 60.0
HANG_GUARD = 600.0  # a bound on waiting for a server's training on a loaded machine, never a timing claim


@pytest.fixture
def server_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private server folder (short: a socket's path has at most 107 bytes), this process set to use it."""
    folder = Path(tempfile.mkdtemp(prefix="lgs", dir="/tmp"))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER_DIR", str(folder))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER", "auto")
    monkeypatch.delenv("LANGCHAIN_GRAALVM_ISOLATION", raising=False)
    monkeypatch.setattr(_server, "_refused", None)
    started: list[int] = []
    monkeypatch.setattr(_server, "_spawn", _recording(_server._spawn, started))
    workers: set[int] = set()
    monkeypatch.setattr(_server, "status", _watching(_server.status, workers))
    yield folder
    if started:
        with contextlib.suppress(Exception):  # the last word on its workers (idle ones end with it anyway)
            _server.status()
    pid_file = folder / "server.pid"
    if pid_file.exists():  # a server this test started through the CLI
        started.append(int(pid_file.read_text()))
    for pid in [*started, *workers]:  # only the server this test started, and the workers that server started
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _recording(spawn: Callable[[Path, int], int], started: list[int]) -> Callable[[Path, int], int]:
    def spawn_and_record(path: Path, idle_s: int) -> int:
        pid = spawn(path, idle_s)
        started.append(pid)
        return pid

    return spawn_and_record


def _watching(status: Callable[[], dict[str, Any] | None], workers: set[int]) -> Callable[[], dict[str, Any] | None]:
    def status_and_record() -> dict[str, Any] | None:
        facts = status()
        if facts is not None:
            workers.update(int(w["pid"]) for w in facts["workers"])
        return facts

    return status_and_record


def _client(code: str, env: dict[str, str]) -> subprocess.Popen[str]:
    script = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    script.write(textwrap.dedent(code))
    script.close()
    return subprocess.Popen(
        [sys.executable, script.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **env}, cwd=ROOT,
    )


def _env(folder: Path) -> dict[str, str]:
    return {"LANGCHAIN_GRAALVM_SERVER_DIR": str(folder), "LANGCHAIN_GRAALVM_SERVER": "auto"}


def _until(check: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG_GUARD
    while True:
        facts = _server.status()
        assert facts is not None, "the server is gone"
        if check(facts):
            return facts
        assert time.monotonic() < deadline, f"the server never got to: {what}; {facts}"
        time.sleep(0.5)


def _trained(facts: dict[str, Any]) -> bool:
    return any(w["state"] == "idle" and w["training"]["state"] == "trained" for w in facts["workers"])


def _pid_of(interp: Interpreter) -> int:
    guest = interp._guest
    assert isinstance(guest, _remote.WorkerGuest) and guest.in_server, guest
    return guest.worker_pid


def test_the_one_switch_gives_a_fresh_client_a_trained_worker_and_no_jpype(server_dir: Path) -> None:
    _server.start()
    facts = _until(_trained, "a trained idle worker")
    trained = {w["pid"] for w in facts["workers"] if w["training"]["state"] == "trained"}
    client = _client(
        """
        import sys
        from langchain_graalvm import Interpreter
        with Interpreter() as js:  # no isolation=: the server's switch alone
            print("eval", js.eval("6 * 7").text, js._guest.worker_pid, js._guest.in_server)
        print("jpype loaded", "jpype" in sys.modules, "_jpype" in sys.modules)
        """,
        _env(server_dir),
    )
    out, err = client.communicate(timeout=HANG_GUARD)
    assert client.returncode == 0, out + err
    words = out.split("\n")[0].split()
    assert words[1] == "<result>42</result>" and words[3] == "True", out + err
    assert int(words[2]) in trained, (out, facts)
    assert "jpype loaded False False" in out, out + err
    assert err == "", err  # nothing of ours on the user's stderr


def test_two_clients_at_once_each_get_a_worker_of_their_own(server_dir: Path) -> None:
    _server.start()
    code = """
        from langchain_graalvm import Interpreter
        with Interpreter(prestart=False) as js:
            js.eval("var mine = 'secret'")
            others = [js.eval("typeof theirs").value for _ in range(20)]
            js.eval("var theirs = 'not for you'")
            print("worker", js._guest.worker_pid, js._guest.in_server)
            print("others", sorted(set(others)))
    """
    clients = [_client(code, _env(server_dir)) for _ in range(2)]
    outputs = [c.communicate(timeout=HANG_GUARD) for c in clients]
    pids = set()
    for (out, err), client in zip(outputs, clients, strict=True):
        assert client.returncode == 0, out + err
        assert "others ['undefined']" in out, out
        line = next(x for x in out.splitlines() if x.startswith("worker"))
        assert line.endswith("True"), out
        pids.add(int(line.split()[1]))
    assert len(pids) == 2, outputs


def test_kill_9_of_a_lent_worker_mid_eval_ends_that_eval_and_keeps_the_other_sessions_globals(
    server_dir: Path,
) -> None:
    with Interpreter(timeout=SLOW, prestart=False) as js, Interpreter(timeout=SLOW, prestart=False) as other:
        other.eval("var theirs = 'kept'")
        js.eval("var kept = 1")
        pid = _pid_of(js)
        assert pid != _pid_of(other)
        out = signalled_mid_loop(js, pid, signal.SIGKILL, within=60)
        assert out.error_type == "InternalError" and out.state_reset, out.text
        assert f"pid {pid}" in out.text and "SIGKILL" in out.text and "globals" in out.text, out.text
        assert js.eval("typeof kept").value == "undefined"
        assert _pid_of(js) != pid
        assert other.eval("theirs").value == "kept"


class _BlockingTool:
    """An eval's host functions with one tool, ``slow``, answered with 42 once ``release`` is set."""

    def __init__(self) -> None:
        self.called = threading.Event()
        self.release = threading.Event()

    def bind(self, guest: Guest) -> CallChannel:
        import json

        channel = guest.open_calls(HostFunctions(tools=("slow",), expose_tools=True))

        def collect() -> None:
            while (batch := channel.poll(50)) is not None:
                for call_id, *_ in json.loads(batch):
                    self.called.set()
                    self.release.wait(HANG_GUARD)
                    guest.complete_host_calls([call_id], f"[[{call_id},true,42]]")

        threading.Thread(target=collect, daemon=True).start()
        return channel


def test_kill_9_of_a_lent_worker_mid_host_call_ends_the_eval(server_dir: Path) -> None:
    with Interpreter(timeout=SLOW, prestart=False) as js:
        host = _BlockingTool()
        outcomes: list[Any] = []
        runner = threading.Thread(target=lambda: outcomes.append(js.eval("await tools.slow({})", host=host)))
        runner.start()
        assert host.called.wait(HANG_GUARD), "the tool call never reached the host"
        os.kill(_pid_of(js), signal.SIGKILL)
        runner.join(HANG_GUARD)
        host.release.set()
        assert not runner.is_alive()
        assert outcomes[0].error_type == "InternalError" and "SIGKILL" in outcomes[0].text, outcomes[0].text
        assert js.eval("6 * 7").value == "42"


def test_the_server_killed_mid_eval_does_not_end_the_eval_and_the_next_interpreter_gets_another(
    server_dir: Path,
) -> None:
    facts = _server.start()
    with Interpreter(timeout=SLOW, prestart=False) as js:
        host = _BlockingTool()
        outcomes: list[Any] = []
        runner = threading.Thread(
            target=lambda: outcomes.append(js.eval("var got = await tools.slow({}); got + 1", host=host)))
        runner.start()
        assert host.called.wait(HANG_GUARD), "the tool call never reached the host"
        pid = _pid_of(js)
        os.kill(facts["pid"], signal.SIGKILL)
        assert gone(facts["pid"], SLOW)
        host.release.set()  # the eval's host call is answered after its server died
        runner.join(HANG_GUARD)
        assert not runner.is_alive()
        assert outcomes[0].value == "43", outcomes[0].text
        assert js.eval("got").value == "42"  # the same worker, its globals kept
    assert gone(pid, SLOW), "the lent worker outlived its client's release and its dead server"
    with Interpreter(timeout=SLOW, prestart=False) as js:
        assert js.eval("1 + 1").value == "2"
        guest = js._guest
        assert isinstance(guest, _remote.WorkerGuest)
        assert not guest.in_server or guest._worker.server_pid != facts["pid"]  # type: ignore[attr-defined]


def test_a_stuck_builtin_kills_its_lent_worker(server_dir: Path) -> None:
    with Interpreter(timeout=1.0, prestart=False) as js:
        js.eval("var kept = 1")
        pid = _pid_of(js)
        out = js.eval("Array.from({length: 2 ** 31})")
        assert not out.ok and out.state_reset, out.text
        assert gone(pid, SLOW), "the lent worker holding the stuck guest was not killed"
        assert js.eval("typeof kept").value == "undefined"
    _until(lambda f: pid not in {w["pid"] for w in f["workers"]}, "the stuck worker forgotten")


def test_heap_exhaustion_stays_in_the_lent_worker(server_dir: Path) -> None:
    with Interpreter(timeout=SLOW, memory_limit=64 << 20, prestart=False) as js:
        js.eval("var marker = 1")
        out = js.eval("var keep = []; while (true) keep.push(new Array(1e5).fill(7))")
        assert not out.ok and out.error_type in ("OutOfMemory", "InternalError"), out.text
        assert js.eval("2 + 2").value == "4"


def test_a_worker_that_dies_while_training_is_replaced_and_never_lent(server_dir: Path) -> None:
    _server.start()
    facts = _until(lambda f: any(w["state"] == "training" and w["training"]["cells"] >= 1 for w in f["workers"]),
                   "a worker in training")
    victim = next(w["pid"] for w in facts["workers"] if w["state"] == "training")
    os.kill(victim, signal.SIGKILL)
    after = _until(lambda f: f["replaced"] >= 1 and f["workers"], "the dead worker replaced")
    assert victim not in {w["pid"] for w in after["workers"]}
    with Interpreter(timeout=SLOW, prestart=False) as js:
        assert js.eval("6 * 7").value == "42"
        assert _pid_of(js) != victim


def test_a_client_that_dies_mid_eval_has_its_worker_killed_and_the_server_serves_on(server_dir: Path) -> None:
    facts = _server.start()
    client = _client(
        """
        from langchain_graalvm import Interpreter
        js = Interpreter(timeout=600, prestart=False)
        js.eval("1")
        print("worker", js._guest.worker_pid, flush=True)
        js.eval("while (true) {}")
        """,
        _env(server_dir),
    )
    assert client.stdout is not None
    line = client.stdout.readline()
    assert line.startswith("worker"), line + client.stderr.read()  # type: ignore[union-attr]
    pid = int(line.split()[1])
    client.kill()
    client.communicate()
    assert gone(pid, SLOW), "the dead client's worker was not killed"
    _until(lambda f: f["replaced"] >= 1, "the dead client's worker counted as replaced")
    with Interpreter(timeout=SLOW, prestart=False) as js:
        assert js.eval("6 * 7").value == "42"
        assert js._guest._worker.server_pid == facts["pid"]  # type: ignore[union-attr]


def test_a_server_of_another_build_is_refused_once_and_private_workers_run(
    server_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _server.start()
    monkeypatch.setattr(_server, "build_id", lambda: "another-build")
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm"):
        for _ in range(2):
            with Interpreter(timeout=SLOW, prestart=False) as js:
                assert js.eval("1 + 1").value == "2"
                assert not js._guest.in_server  # type: ignore[union-attr]
    refused = [r.getMessage() for r in caplog.records if "not using the sandbox server" in r.getMessage()]
    assert len(refused) == 1 and "another build" in refused[0], refused


@pytest.mark.parametrize("change", ["mode", "owner"])
def test_a_folder_others_can_enter_or_own_is_refused(server_dir: Path, change: str) -> None:
    if change == "mode":
        server_dir.chmod(0o755)
        expected = "it must be 0700"
    else:
        if os.getuid() != 0:
            pytest.fail("changing the folder's owner needs root; this machine's tests run as root")
        os.chown(server_dir, 12345, 12345)
        expected = "belongs to uid 12345"
    with pytest.raises(_server.ServerRefused, match=expected):
        _server.attach(start=True)
    assert not _server.socket_path().exists()  # nothing was started there


def test_an_idle_server_exits_with_its_workers(server_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER_IDLE", "3")
    facts = _server.start()
    with Interpreter(timeout=SLOW, prestart=False) as js:
        assert js.eval("6 * 7").value == "42"
    workers = [w["pid"] for w in _server.status()["workers"]]  # type: ignore[index]
    assert gone(facts["pid"], SLOW), "the idle server did not exit"
    assert all(gone(pid, SLOW) for pid in workers), "an idle server's workers outlived it"
    assert not _server.socket_path().exists()


def test_server_cli_start_status_stop_and_doctor(server_dir: Path) -> None:
    env = {**os.environ, **_env(server_dir)}
    cli = [sys.executable, "-m", "langchain_graalvm.cli.main", "server"]
    started = subprocess.run([*cli, "start"], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert started.returncode == 0, started.stdout + started.stderr
    pid = int(started.stdout.split("pid ")[1].split(",")[0])
    facts = _until(lambda f: bool(f["workers"]), "a worker")
    status = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert f'"pid": {pid}' in status.stdout and '"training"' in status.stdout, status.stdout + status.stderr
    from langchain_graalvm.cli import _doctor

    out = io.StringIO()
    _doctor._report_isolation(_doctor._Report(out))
    assert f"sandbox server: pid {pid}" in out.getvalue(), out.getvalue()
    assert f"worker {facts['workers'][0]['pid']}" in out.getvalue(), out.getvalue()
    stopped = subprocess.run([*cli, "stop"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert f"stopped: pid {pid}" in stopped.stdout, stopped.stdout + stopped.stderr
    assert gone(pid, 30.0)
    none = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert none.returncode == 3 and "no sandbox server is running" in none.stdout


def test_a_client_that_exits_with_its_interpreter_open_gives_its_worker_back_warm(server_dir: Path) -> None:
    _server.start()
    client = _client(
        """
        from langchain_graalvm import Interpreter
        js = Interpreter(timeout=600, prestart=False)
        js.eval("var left = 'open'")
        print("worker", js._guest.worker_pid, flush=True)
        """,  # no close: the process just exits
        _env(server_dir),
    )
    out, err = client.communicate(timeout=HANG_GUARD)
    assert client.returncode == 0 and out.startswith("worker"), out + err
    pid = int(out.split()[1])
    facts = _until(lambda f: any(w["pid"] == pid and w["state"] in ("idle", "training") for w in f["workers"]),
                   "the worker back, idle")
    assert facts["replaced"] == 0, facts
    with Interpreter(timeout=SLOW, prestart=False) as js:
        assert js.eval("typeof left").value == "undefined"  # whichever worker it got, nothing of the last client's
