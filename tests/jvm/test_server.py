"""The local sandbox server (``LANGCHAIN_GRAALVM_SERVER=auto``): shared by client processes, private to its user,
refused when it is not this package's, and survived by its clients. Each test starts its own server in a private
folder and stops it, by pid, at the end."""

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
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_graalvm import Interpreter
from langchain_graalvm._runtime import _remote, _server
from tests.conftest import ROOT
from tests.support.processes import gone, signalled_mid_loop

SLOW = 60.0


@pytest.fixture
def server_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private server folder (short: a socket's path has at most 107 bytes), this process set to use it."""
    folder = Path(tempfile.mkdtemp(prefix="lgs", dir="/tmp"))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER_DIR", str(folder))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER", "auto")
    monkeypatch.setattr(_server, "_connection", None)
    started: list[int] = []
    monkeypatch.setattr(_server, "_spawn", _recording(_server._spawn, started))
    yield folder
    if _server._connection is not None:
        _server._connection.close()
    for pid in started:  # only the servers this test started
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _recording(spawn, started: list[int]):  # type: ignore[no-untyped-def]
    def spawn_and_record(path: Path, idle_s: int) -> int:
        pid = spawn(path, idle_s)
        started.append(pid)
        return pid

    return spawn_and_record


def _client(code: str, env: dict[str, str]) -> subprocess.Popen[str]:
    script = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    script.write(textwrap.dedent(code))
    script.close()
    return subprocess.Popen(
        [sys.executable, script.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **env}, cwd=ROOT,
    )


def test_two_client_processes_share_the_server_and_never_each_others_contexts(server_dir: Path) -> None:
    facts = _server.start()
    env = {"LANGCHAIN_GRAALVM_SERVER_DIR": str(server_dir), "LANGCHAIN_GRAALVM_SERVER": "auto"}
    code = """
        import sys
        from langchain_graalvm import Interpreter
        name = sys.argv[0][-12:]
        with Interpreter(isolation="process", prestart=False) as js:
            js.eval("var mine = 'secret'")
            others = [js.eval("typeof theirs").value for _ in range(20)]
            js.eval("var theirs = 'not for you'")
            print("server", js._guest.worker_pid, js._guest.in_server)
            print("others", sorted(set(others)))
    """
    clients = [_client(code, env) for _ in range(2)]
    outputs = [c.communicate(timeout=300) for c in clients]
    for (out, err), client in zip(outputs, clients, strict=True):
        assert client.returncode == 0, out + err
        assert f"server {facts['pid']} True" in out, out + err
        assert "others ['undefined']" in out, out


def test_a_fresh_client_finds_the_warm_server_and_its_engine(server_dir: Path) -> None:
    facts = _server.start()
    with Interpreter(isolation="process", timeout=SLOW, prestart=False) as js:
        assert js.eval("6 * 7").value == "42"
        guest = js._guest
        assert isinstance(guest, _remote.WorkerGuest) and guest.in_server
        assert guest.worker_pid == facts["pid"]
        assert _server.status()["guests"] == 1  # type: ignore[index]
        from langchain_graalvm.cli import _doctor

        out = io.StringIO()
        _doctor._report_isolation(_doctor._Report(out))
        assert f"[ok  ] sandbox server: pid {facts['pid']}, 1 client sessions, 1 interpreters" in out.getvalue()


def test_a_fresh_client_of_the_server_never_loads_jpype(server_dir: Path) -> None:
    # Neither the background start (on by default) nor the eval needs the in-process JVM's bridge, which costs a
    # fresh process about 0.1 s (JPype imports NumPy when it is installed).
    facts = _server.start()
    env = {"LANGCHAIN_GRAALVM_SERVER_DIR": str(server_dir), "LANGCHAIN_GRAALVM_SERVER": "auto"}
    code = """
        import sys
        from langchain_graalvm import Interpreter
        with Interpreter(isolation="process") as js:
            print("eval", js.eval("6 * 7").text, js._guest.worker_pid)
        print("jpype loaded", "jpype" in sys.modules, "_jpype" in sys.modules)
    """
    client = _client(code, env)
    out, err = client.communicate(timeout=300)
    assert client.returncode == 0, out + err
    assert f"eval <result>42</result> {facts['pid']}" in out, out + err
    assert "jpype loaded False False" in out, out + err


def test_the_server_gone_mid_eval_ends_that_eval_and_the_next_starts_another(server_dir: Path) -> None:
    facts = _server.start()
    with Interpreter(isolation="process", timeout=SLOW, prestart=False) as js:
        js.eval("var kept = 1")
        out = signalled_mid_loop(js, facts["pid"], signal.SIGKILL, within=30)
        assert out.error_type == "InternalError" and out.state_reset, out.text
        assert "closed the connection" in out.text, out.text
        assert js.eval("typeof kept").value == "undefined"
        assert js._guest.worker_pid != facts["pid"]  # type: ignore[union-attr]


def test_a_server_of_another_build_is_refused_in_one_line_and_private_workers_run(
    server_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _server.start()
    monkeypatch.setattr(_server, "build_id", lambda: "another-build")
    with caplog.at_level(logging.WARNING, logger="langchain_graalvm"):
        with Interpreter(isolation="process", timeout=SLOW, prestart=False) as js:
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
    assert not (server_dir / "sandbox-p1.sock").exists()  # nothing was started there


def test_a_dead_clients_session_is_closed_and_an_idle_server_exits(
    server_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER_IDLE", "3")
    facts = _server.start()
    env = {"LANGCHAIN_GRAALVM_SERVER_DIR": str(server_dir), "LANGCHAIN_GRAALVM_SERVER": "auto"}
    client = _client(
        """
        import os
        from langchain_graalvm import Interpreter
        js = Interpreter(isolation="process", prestart=False)
        print("value", js.eval("var big = new Array(1000).fill(7); big.length").value, flush=True)
        os._exit(0)  # no close: the server must notice the session's end on its own
        """,
        env,
    )
    out, err = client.communicate(timeout=300)
    assert "value 1000" in out, out + err
    assert gone(facts["pid"], 60.0), "the idle server did not exit"
    assert not (server_dir / "sandbox-p1.sock").exists()


def test_server_stop_ends_it() -> None:
    folder = Path(tempfile.mkdtemp(prefix="lgs", dir="/tmp"))
    env = {**os.environ, "LANGCHAIN_GRAALVM_SERVER_DIR": str(folder)}
    cli = [sys.executable, "-m", "langchain_graalvm.cli.main", "server"]
    try:
        started = subprocess.run([*cli, "start"], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
        assert started.returncode == 0, started.stdout + started.stderr
        pid = int(started.stdout.split("pid ")[1].split(",")[0])
        status = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
        assert f'"pid": {pid}' in status.stdout, status.stdout + status.stderr
        stopped = subprocess.run([*cli, "stop"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
        assert f"stopped: pid {pid}" in stopped.stdout, stopped.stdout + stopped.stderr
        assert gone(pid, 30.0)
        none = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
        assert none.returncode == 3 and "no sandbox server is running" in none.stdout
    finally:
        pid_file = folder / "server.pid"
        if pid_file.exists():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(folder, ignore_errors=True)


def _threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))


def test_a_silent_client_and_one_that_reads_no_answers_hold_up_only_their_own_sessions(server_dir: Path) -> None:
    import socket

    import msgpack

    facts = _server.start()
    with Interpreter(isolation="process", timeout=SLOW, prestart=False) as js:
        assert js.eval("1").value == "1"  # this process's own session, kept for the process
    sessions = _settled_sessions()
    before = _threads(facts["pid"])
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    flooding = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        silent.connect(str(_server.socket_path()))  # connects, never says a word
        flooding.connect(str(_server.socket_path()))
        flooding.setblocking(False)
        requests = b"".join(msgpack.packb(["facts", rid]) for rid in range(1, 6001))
        sent = 0
        with contextlib_suppress_blocking():
            while sent < len(requests):
                sent += flooding.send(requests[sent:sent + 65536])
        # The client above reads none of its answers: its session stops taking requests once its in-flight bound
        # is reached, instead of leaving a thread per request blocked on its full socket.
        with Interpreter(isolation="process", timeout=SLOW, prestart=False) as js:
            assert js.eval("6 * 7").value == "42"
            assert js.eval("[1, 2, 3].map(x => x * 2).join()").value == "2,4,6"
        # The server reads the 6000 requests over seconds; wait until its thread count stops growing.
        threads, steady, deadline = _threads(facts["pid"]), 0, time.monotonic() + 60
        while steady < 4 and threads < before + 1024 + 64 and time.monotonic() < deadline:
            time.sleep(0.5)
            now = _threads(facts["pid"])
            steady = steady + 1 if now == threads else 0
            threads = now
        assert threads < before + 1024 + 64, (before, threads)
    finally:
        silent.close()
        flooding.close()
    # Both sessions end with their sockets.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _settled_sessions() > sessions:
        time.sleep(0.2)
    assert _settled_sessions() == sessions


def _settled_sessions() -> int:
    """The server's session count as a status request sees it, without an earlier status request's session: each
    ``status`` call is a session of its own, which the server counts until its thread has seen the socket close, a
    moment after the answer, so on a loaded machine the next call can still count it (once seen: 3 instead of 2)."""
    counts = []
    for _ in range(3):
        counts.append(int(_server.status()["sessions"]))  # type: ignore[index]
        time.sleep(0.2)
    return min(counts)


@contextlib.contextmanager
def contextlib_suppress_blocking() -> Iterator[None]:
    """Stops sending, quietly, once the server stops reading (the socket's buffers are full)."""
    try:
        yield
    except BlockingIOError:
        pass
