"""The agent's files for the Python guest: the ``files`` object, through a Deep Agent on the state backend and an
``Interpreter`` on a ``FilesystemBackend``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from deepagents.backends import FilesystemBackend

from langchain_graalvm import CodeInterpreterMiddleware, FilesAccess, Interpreter
from tests.agents.test_files import BINARY, read_file, run, write_file
from tests.support.scripted import build_agent

pytestmark = pytest.mark.skipif(
    not __import__("langchain_graalvm._runtime._adapter", fromlist=["runtime_facts"]).runtime_facts()["python_available"],
    reason="the GraalPy jars are not installed",
)


@pytest.fixture(scope="module")
def agent() -> Any:
    mw = CodeInterpreterMiddleware(
        language="python", files=FilesAccess("read-write", prefixes=["/data/"]), timeout=60.0
    )
    return build_agent(mw)


def test_python_reads_raw_text_and_writes_what_read_file_sees(agent: Any) -> None:
    report = json.dumps({"rows": [1, 2, 3]}, indent=2)
    out, state = run(
        agent,
        write_file("/data/r.json", report),
        "import json\nraw = files.read_text('/data/r.json')\n[raw == " + json.dumps(report) + ", json.loads(raw)['rows']]",
        "files.write('/data/sum.txt', 'total=6\\n')\nfiles.listdir('/data')",
        read_file("/data/sum.txt"),
        "files.stat('/data/sum.txt')",
    )
    assert out[1] == "<result>[True, [1, 2, 3]]</result>"
    assert out[2] == "<result>['r.json', 'sum.txt']</result>"
    assert "total=6" in out[3]
    assert out[4] == "<result>{'size': 8, 'is_file': True, 'is_dir': False}</result>"
    assert state["files"]["/data/sum.txt"]["content"] == "total=6\n"


def test_python_errors_are_python_exceptions(agent: Any) -> None:
    out, _ = run(
        agent,
        "def attempt(f):\n    try:\n        f()\n    except Exception as e:\n        return type(e).__name__\n",
        "[attempt(lambda: files.read_text('/etc/passwd')), attempt(lambda: files.read_text('/data/../x')),"
        " attempt(lambda: files.read_text('/data/nope')), attempt(lambda: files.read_text('rel')),"
        " attempt(lambda: files.write('/data/x', 3)), attempt(lambda: setattr(files, 'x', 1))]",
    )
    assert out[1] == (
        "<result>['PermissionError', 'PermissionError', 'FileNotFoundError', 'ValueError', 'TypeError', "
        "'AttributeError']</result>"
    )


def test_python_read_mode_refuses_writes() -> None:
    mw = CodeInterpreterMiddleware(language="python", files="read", timeout=60.0)
    out, _ = run(
        build_agent(mw),
        "try:\n    files.write('/a.txt', 'x')\nexcept PermissionError as e:\n    msg = str(e)\nmsg",
    )
    assert out[0].startswith("<result>\"EACCES: permission denied, open '/a.txt'. The agent's files are read-only")


def test_python_bytes_round_trip_on_disk(tmp_path: Path) -> None:
    (tmp_path / "blob.bin").write_bytes(BINARY)
    backend = FilesystemBackend(root_dir=str(tmp_path), virtual_mode=True)
    with Interpreter("python", timeout=60.0, files=FilesAccess("read-write", backend=backend)) as py:
        out = py.eval("b = files.read_bytes('/blob.bin')\nfiles.write('/copy.bin', b[::-1])\n[len(b), b[:3]]")
        assert out.text == f"<result>[{len(BINARY)}, b'\\x00\\x01\\x02']</result>"
        assert py.eval("files.glob('*.bin')").text == "<result>['/blob.bin', '/copy.bin']</result>"
    assert (tmp_path / "copy.bin").read_bytes() == BINARY[::-1]
