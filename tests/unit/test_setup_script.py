"""scripts/setup.sh chooses its JDK through the package's own finder, before it builds or installs anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_setup_stops_with_the_finders_error_before_building(tmp_path: Path) -> None:
    env = {**os.environ, "LANGCHAIN_GRAALVM_JAVA_HOME": str(tmp_path / "no-jdk"), "PATH": os.environ["PATH"]}
    proc = subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.sh")], capture_output=True, text=True, env=env, timeout=120,
        check=False,
    )
    assert proc.returncode == 1
    assert f"error: LANGCHAIN_GRAALVM_JAVA_HOME={tmp_path / 'no-jdk'} is not a JDK 21 or newer" in proc.stderr
    assert "install --jdk" in proc.stderr
    assert "==> building" not in proc.stderr and "==> JDK:" not in proc.stderr


def test_the_package_and_its_finder_import_with_the_standard_library_alone() -> None:
    """setup.sh runs the finder before any dependency is installed: a third-party import at a module's top level
    anywhere on the package's import path stops it (msgpack did, for the outcome's copy)."""
    code = "import langchain_graalvm, langchain_graalvm._runtime._adapter, langchain_graalvm._runtime._jvmfinder"
    proc = subprocess.run(
        [sys.executable, "-S", "-c", code],  # -S: no site-packages, the standard library alone
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "python")}, timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
