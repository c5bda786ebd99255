"""The runtime never loads the agents or the tooling: importing the package or the interpreter leaves them out.

Each check runs in a fresh process, so what this test session has already imported cannot hide an eager import.
"""

from __future__ import annotations

import json

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
