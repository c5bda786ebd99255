"""Shared fixtures. One JVM serves the whole session (it cannot restart); tests that need a fresh JVM, or none,
run in a subprocess through :func:`run_python`."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_graalvm import Interpreter
from tests.support.pg import PostgresServer

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The attack corpus runs first, on a JVM that has served no other test, as it did before the tests were laid
    # out by folder. Run after the agent tests, one runaway-recursion attack was seen to take over 30 s to unwind
    # (4 s in a fresh JVM): that cost is a finding of its own; the corpus checks containment and error types.
    items.sort(key=lambda item: 0 if item.path.parent.name == "attacks" else 1)


@pytest.fixture
def js() -> Iterator[Interpreter]:
    interpreter = Interpreter(timeout=5.0)
    try:
        yield interpreter
    finally:
        interpreter.close()


def run_python(code: str, *, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh Python process with this venv, and returns the finished process."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    # A real file, not -c, so that spawned multiprocessing children can import the script's functions.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(textwrap.dedent(code))
    try:
        return subprocess.run(
            [sys.executable, script.name],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=full_env,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as exc:
        # subprocess.run killed the child; what it printed until then is what says where it stopped.
        out, err = (_text(exc.output), _text(exc.stderr))
        pytest.fail(f"the child ran past {timeout} s\n--- stdout\n{out[-3000:]}\n--- stderr\n{err[-6000:]}")
    finally:
        os.unlink(script.name)


def _text(data: bytes | str | None) -> str:
    if isinstance(data, bytes):
        return data.decode(errors="replace")
    return data or ""


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session, in a temporary cluster; a failure to start fails the tests."""
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()
