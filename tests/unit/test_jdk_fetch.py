"""``langchain-graalvm install --jdk`` against a local HTTP server on 127.0.0.1 that serves a JVM index and a JDK
archive assembled here (a fabricated GraalVM JDK home), with each fault: a wrong checksum, a truncated download,
an interrupted one. Nothing half-installed may ever be found."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from langchain_graalvm._runtime import _compiler, _jvmfinder
from langchain_graalvm.cli import _jdk
from langchain_graalvm.cli.main import main
from langchain_graalvm.errors import FetchError
from tests.support.jdkhomes import make_graalvm

ROOT = Path(__file__).resolve().parents[2]
VERSION = "25.0.1"  # not the pinned JDK, so the published .sha256 file is what the archive is checked against


def _archive(tmp: Path, version: str = VERSION, *, jdk: bool = True) -> bytes:
    home = tmp / "src" / f"graalvm-community-openjdk-{version}+9.1"
    if jdk:
        make_graalvm(home, graalvm_version=version, java_version=version)
    else:
        home.mkdir(parents=True)
        (home / "README").write_text("not a JDK")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(home, arcname=home.name)
    return buffer.getvalue()


class Server:
    """Serves ``routes`` (path -> body); ``mode`` says how the archive's body is sent."""

    def __init__(self) -> None:
        self.routes: dict[str, bytes] = {}
        self.mode = "whole"  # or "truncated" (half, then the connection closes) or "stalled" (half, then waits)
        self.half_sent = threading.Event()
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                body = server.routes.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if not self.path.endswith(".tar.gz") or server.mode == "whole":
                    self.wfile.write(body)
                    return
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                server.half_sent.set()
                if server.mode == "stalled":
                    server.release.wait(60)
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def publish(self, archive: bytes, version: str = VERSION, *, sha256: str | None = None) -> str:
        """Serves ``archive`` as GraalVM Community JDK ``version`` with its .sha256 file; returns the index URL."""
        os_name, arch = _jdk.platform_key()
        name = f"/graalvm-community-jdk-{version}_{os_name}-{arch}_bin.tar.gz"
        digest = sha256 or hashlib.sha256(archive).hexdigest()
        self.routes[name] = archive
        self.routes[name + ".sha256"] = f"{digest}  {name[1:]}\n".encode()
        index = {os_name: {arch: {_jdk.VENDOR: {version: f"tgz+{self.url}{name}"}}}}
        self.routes["/index.json"] = json.dumps(index).encode()
        return self.url + "/index.json"


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.release.set()
        srv.httpd.shutdown()
        srv.httpd.server_close()


@pytest.fixture(autouse=True)
def _cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path / "cache"))
    for var in ("LANGCHAIN_GRAALVM_JAVA_HOME", "JAVA_HOME", _jdk.INDEX_ENV, _compiler.ENV):
        monkeypatch.delenv(var, raising=False)


def _installed() -> list[Path]:
    """What the fetch left in the package's JDK folder (hidden staging folders included)."""
    folder = _jvmfinder.jdks_dir()
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _fetched_candidates() -> list[Path]:
    return [home for why, home in _jvmfinder.candidate_homes() if why.startswith("langchain-graalvm")]


def test_the_fetched_jdk_is_verified_installed_and_preferred(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = server.publish(_archive(tmp_path))
    home = _jdk.install_jdk(version=VERSION, index_url=index, progress=False)
    assert home == _jvmfinder.jdks_dir() / f"graalvm-community-{VERSION}"
    assert (home / "lib" / "libjvmcicompiler.so").is_file()
    assert _installed() == [home]  # no staging folder or archive left
    monkeypatch.setattr(_jvmfinder.glob, "glob", lambda _pattern: [])
    jdk = _jvmfinder.find_jdk()
    assert jdk.home == home and jdk.libgraal and jdk.graalvm_version == VERSION
    # A second install finds it and fetches nothing.
    server.routes.clear()
    assert _jdk.install_jdk(version=VERSION, index_url=index, progress=False) == home


def test_a_wrong_checksum_is_refused_and_nothing_is_installed(server: Server, tmp_path: Path) -> None:
    index = server.publish(_archive(tmp_path), sha256="0" * 64)
    with pytest.raises(FetchError, match="refusing to use it"):
        _jdk.install_jdk(version=VERSION, index_url=index, progress=False)
    assert _installed() == [] and _fetched_candidates() == []


def test_the_pinned_jdk_is_checked_against_its_pinned_checksum(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's own .sha256 file matches its (fabricated) archive: the pinned digest is what refuses it.
    monkeypatch.setattr(_jdk, "platform_key", lambda: ("linux", "amd64"))
    index = server.publish(_archive(tmp_path, _compiler.PINNED_JDK), _compiler.PINNED_JDK)
    with pytest.raises(FetchError, match=f"expected {_compiler.PINNED_SHA256['linux', 'amd64']}"):
        _jdk.install_jdk(index_url=index, progress=False)
    assert _installed() == []


def test_a_truncated_download_is_refused_and_nothing_is_installed(server: Server, tmp_path: Path) -> None:
    index = server.publish(_archive(tmp_path))
    server.mode = "truncated"
    with pytest.raises(FetchError, match="broke off"):
        _jdk.install_jdk(version=VERSION, index_url=index, progress=False, timeout=30)
    assert _installed() == [] and _fetched_candidates() == []


def test_an_archive_that_holds_no_jdk_is_refused(server: Server, tmp_path: Path) -> None:
    index = server.publish(_archive(tmp_path, jdk=False))
    with pytest.raises(FetchError, match="does not hold a JDK 25"):
        _jdk.install_jdk(version=VERSION, index_url=index, progress=False)
    assert _installed() == []


def test_a_version_the_index_does_not_list_is_named(server: Server, tmp_path: Path) -> None:
    index = server.publish(_archive(tmp_path))
    with pytest.raises(FetchError, match=re.escape("lists no GraalVM Community JDK 25.0.9")):
        _jdk.install_jdk(version="25.0.9", index_url=index, progress=False)


def test_plain_http_is_refused_except_to_this_machine() -> None:
    with pytest.raises(FetchError, match="only https"):
        _jdk.install_jdk(version=VERSION, index_url="http://example.invalid/index.json", progress=False)


def test_an_interrupted_fetch_leaves_nothing_usable_and_the_next_one_succeeds(server: Server, tmp_path: Path) -> None:
    index = server.publish(_archive(tmp_path))
    server.mode = "stalled"
    child = subprocess.Popen(
        [sys.executable, "-c", f"from langchain_graalvm.cli import _jdk; _jdk.install_jdk(version={VERSION!r}, "
         f"index_url={index!r}, progress=False)"],
        cwd=ROOT,
        env=dict(os.environ),
    )
    try:
        assert server.half_sent.wait(120), "the child never got half the archive"
        deadline = time.monotonic() + 60
        while not any((p / "archive.tgz").is_file() for p in _installed()) and time.monotonic() < deadline:
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)  # killed mid-download: no clean-up of its own runs
        child.wait(60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    left = _installed()
    assert len(left) == 1 and left[0].name.startswith(".partial-"), left
    assert _fetched_candidates() == []
    server.mode = "whole"
    home = _jdk.install_jdk(version=VERSION, index_url=index, progress=False)
    assert _installed() == [home]  # the dead process's staging folder is gone too


def test_install_jdk_on_the_command_line_refuses_a_bad_archive(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = server.publish(_archive(tmp_path, _compiler.PINNED_JDK), _compiler.PINNED_JDK, sha256="0" * 64)
    assert main(["install", "--jdk", "--jdk-index", index, "--quiet", "--no-fast-start"]) == 1
    err = capsys.readouterr().err
    assert f"error: GraalVM Community JDK {_compiler.PINNED_JDK}:" in err and "SHA-256" in err
    assert _installed() == []
