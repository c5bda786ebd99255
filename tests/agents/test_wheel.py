"""The built wheel in a fresh virtual environment outside the checkout: first-use fetch, doctor, demo, offline use.

Building the wheel runs Maven (from the local repository the checkout's setup filled); installing it pulls the
agents extra from the package index (or pip's cache).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


class Installed:
    def __init__(self, root: Path, wheel: Path) -> None:
        self.root = root
        self.wheel = wheel
        self.bin = root / "venv" / "bin"
        self.home = root / "home"

    def run(self, *args: str, env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("LANGCHAIN_GRAALVM_", "VIRTUAL_ENV", "PYTHON"))}
        base.update({"LANGCHAIN_GRAALVM_HOME": str(self.home), "PATH": f"{self.bin}:{os.environ.get('PATH', '')}"})
        base.update(env or {})
        return subprocess.run(list(args), input=stdin, capture_output=True, text=True, timeout=timeout, env=base, cwd=self.root)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    assert not root.resolve().is_relative_to(ROOT)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)], check=True, timeout=900)
    (wheel,) = dist.glob("langchain_graalvm-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    pip = [str(root / "venv" / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, f"{wheel}[agents]"], check=True, timeout=900)
    return Installed(root, wheel)


def test_wheel_carries_the_bridge_jar_and_manifest_not_graalvm(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert "langchain_graalvm/runtime/classpath/langchain-graalvm-sandbox-0.1.0.jar" in names
    assert "langchain_graalvm/runtime/graalvm.json" in names
    assert "langchain_graalvm/py.typed" in names
    assert "langchain_graalvm/_runtime/graal_c1.json" in names
    assert not [n for n in names if "truffle" in n or "polyglot-" in n]
    assert installed.wheel.stat().st_size < 2_000_000


def test_doctor_fetches_on_first_use_then_passes(installed: Installed) -> None:
    proc = installed.run("langchain-graalvm", "doctor")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(installed wheel)" in proc.stdout
    assert "first use, fetching GraalVM 25.0.3" in proc.stderr
    assert f"[ok  ] GraalVM jars: {installed.home}/graalvm-25.0.3-" in proc.stdout
    assert "[ok  ] JIT: on" in proc.stdout
    assert "All checks passed." in proc.stdout
    where = installed.run(str(installed.bin / "python"), "-c", "import langchain_graalvm; print(langchain_graalvm.__file__)")
    assert where.stdout.startswith(str(installed.root / "venv")), where.stdout


def test_demo_runs_from_the_installed_wheel(installed: Installed) -> None:
    proc = installed.run(str(installed.bin / "python"), "-m", "langchain_graalvm", "demo")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "tool eval>\n    <result>2580.40</result>" in proc.stdout
    assert "<result>total is still 2580.4</result>" in proc.stdout


def test_install_verify_and_offline_use_without_maven(installed: Installed) -> None:
    proc = installed.run("langchain-graalvm", "install", "--verify", "--quiet", "--no-fast-start")
    assert proc.returncode == 0, proc.stderr
    assert "GraalVM 25.0.3:" in proc.stdout and str(installed.home) in proc.stdout
    offline = {"LANGCHAIN_GRAALVM_OFFLINE": "1", "PATH": str(installed.bin)}  # no mvn, no network needed
    repl = installed.run(str(installed.bin / "python"), "-m", "langchain_graalvm", "repl", env=offline, stdin="let x = 20\nx + 22\n")
    assert repl.returncode == 0, repl.stderr
    assert "<result>42</result>" in repl.stdout


def test_an_empty_cache_offline_is_a_clear_error(installed: Installed, tmp_path: Path) -> None:
    env = {"LANGCHAIN_GRAALVM_OFFLINE": "1", "LANGCHAIN_GRAALVM_HOME": str(tmp_path / "empty")}
    proc = installed.run(str(installed.bin / "python"), "-c", "from langchain_graalvm import Interpreter; Interpreter().eval('1')", env=env)
    assert proc.returncode != 0
    assert "LANGCHAIN_GRAALVM_OFFLINE is set" in proc.stderr and "langchain-graalvm install" in proc.stderr


def test_install_python_fetches_graalpy_and_the_python_guest_runs(installed: Installed) -> None:
    doctor = installed.run("langchain-graalvm", "doctor")
    assert "`langchain-graalvm install --python` fetches it" in doctor.stdout, doctor.stdout
    proc = installed.run("langchain-graalvm", "install", "--python", "--verify", "--quiet", "--no-fast-start", timeout=900)
    assert proc.returncode == 0, proc.stderr
    (folder,) = installed.home.glob("graalvm-25.0.3-*")
    assert (folder / ".complete-python").is_file() and any((folder / "python").glob("python-language-*.jar"))
    py = installed.run(str(installed.bin / "python"), "-c", "from langchain_graalvm import Interpreter; print(Interpreter('python').eval('6 * 7').text)", env={"LANGCHAIN_GRAALVM_OFFLINE": "1"}, timeout=600)
    assert "<result>42</result>" in py.stdout, py.stdout + py.stderr
