"""The runtime never loads the agents or the tooling: importing the package or the interpreter leaves them out.

Each check runs in a fresh process, so what this test session has already imported cannot hide an eager import.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_python

RUNTIME_ENTRIES = ["langchain_graalvm", "langchain_graalvm.interpreter", "langchain_graalvm.errors"]
KEPT_OUT = ("langchain_graalvm.agents", "langchain_graalvm.cli", "langchain_graalvm.middleware")


@pytest.mark.parametrize("module", RUNTIME_ENTRIES)
def test_runtime_import_loads_neither_agents_nor_cli(module: str) -> None:
    proc = run_python(
        f"import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith('langchain_graalvm'))))\n"
    )
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    eager = [m for m in loaded if m.startswith(KEPT_OUT)]
    assert eager == [], f"importing {module} loaded {eager}"


def test_runtime_import_loads_no_agent_framework() -> None:
    proc = run_python(
        "import json, sys\n"
        "import langchain_graalvm, langchain_graalvm.interpreter\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert not {"deepagents", "langchain", "langgraph"} & set(json.loads(proc.stdout))


AGENT_FRAMEWORK = ("langchain_core", "langchain", "langgraph", "deepagents", "pydantic")

# A backend of its own, with only the methods `fs` calls: a Deep Agents backend would load LangChain itself.
_DIRECTORY_BACKEND = """
import asyncio, json, sys, types
from pathlib import Path


class DirectoryBackend:
    def __init__(self, root):
        self.root = Path(root)

    async def adownload_files(self, paths):
        out = []
        for path in paths:
            file = self.root / path.lstrip("/")
            found = file.is_file()
            out.append(types.SimpleNamespace(
                content=file.read_bytes() if found else None, error=None if found else "file_not_found"))
        return out

    async def aupload_files(self, files):
        raise AssertionError("no write expected")

    async def als(self, path):
        raise AssertionError("no listing expected")

    async def aglob(self, pattern, path=None):
        raise AssertionError("no glob expected")


def framework_loaded():
    return sorted({m.split(".")[0] for m in sys.modules} & set(%(framework)r))
"""


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [
        pytest.param(
            "js",
            "const m = await import('/lib/m.js'); m.twice(await fs.readFile('/data/n.txt', 'utf8'))",
            "<result>2121</result>",
            id="js-fs-and-import",
        ),
        pytest.param("python", "files.read_text('/data/n.txt') * 2", "<result>'2121'</result>", id="python-files"),
    ],
)
def test_an_interpreter_with_files_loads_no_agent_framework(
    tmp_path: Path, language: str, code: str, expected: str
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "n.txt").write_text("21")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "m.js").write_text("export function twice(s) { return s + s }")
    proc = run_python(
        _DIRECTORY_BACKEND % {"framework": AGENT_FRAMEWORK}
        + f"from langchain_graalvm import FilesAccess, Interpreter\n"
        # A generous timeout: GraalPy's first cell, on a busy machine, was seen to pass the default 5 s.
        f"files = FilesAccess(backend=DirectoryBackend({str(tmp_path)!r}))\n"
        f"with Interpreter({language!r}, timeout=120.0, files=files) as it:\n"
        f"    built = framework_loaded()\n"
        f"    out = it.eval({code!r})\n"
        f"print(json.dumps({{'built': built, 'text': out.text, 'after': framework_loaded(),\n"
        f"    'agents': sorted(m for m in sys.modules if m.startswith('langchain_graalvm.agents'))}}))\n",
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout)
    assert seen["text"] == expected
    assert seen["built"] == [], f"building the interpreter loaded {seen['built']}"
    assert seen["after"] == [], f"an eval reading files loaded {seen['after']}"
    assert seen["agents"] == []
