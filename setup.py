"""Wheel build hook: builds the Java sandbox with Maven and bundles its small jars plus the GraalVM manifest.

``pip wheel .`` and ``python -m build`` run ``build_py``, which runs ``mvn package`` (JDK 21+ found like the
package finds it at run time) into a folder of its own, copies ``classpath/*.jar`` (the sandbox bridge, acorn and
sucrase; well under 1 MB) into ``langchain_graalvm/runtime/classpath`` and records every GraalVM jar (coordinates,
size, SHA-256) in ``langchain_graalvm/runtime/graalvm.json``; the installed package fetches those on first use.
An editable install (``pip install -e .``) skips all this: a checkout uses ``java/target/runtime`` directly.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _load(name: str) -> ModuleType:
    """A module of the package imported without running its __init__ (which needs JPype, not here).

    The package and ``_runtime`` stand in as bare namespaces over their folders, so the module's own relative
    imports (``..errors``, ``._jvmfinder``) resolve as usual.
    """
    folder = ROOT / "python" / "langchain_graalvm"
    for package, path in (("langchain_graalvm", folder), ("langchain_graalvm._runtime", folder / "_runtime")):
        if package not in sys.modules:
            stub = ModuleType(package)
            stub.__path__ = [str(path)]
            sys.modules[package] = stub
    return importlib.import_module(f"langchain_graalvm._runtime.{name}")


class BuildPyWithJars(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        self._bundle_jars()

    def _bundle_jars(self) -> None:
        if shutil.which("mvn") is None:
            raise SystemExit("building the langchain-graalvm wheel needs Apache Maven (`mvn`) and a JDK 21+")
        jvm = _load("_jvmfinder")
        manifests = _load("_manifest")
        jdk = jvm.find_jdk()
        pom = ROOT / "java" / "pom.xml"
        work = Path(self.build_temp if hasattr(self, "build_temp") else "build/tmp").resolve() / "maven-runtime"
        shutil.rmtree(work, ignore_errors=True)
        local_repo = Path(os.environ.get("LANGCHAIN_GRAALVM_BUILD_M2", Path.home() / ".m2" / "repository"))
        cmd = [
            "mvn", "-B", "-q", "-f", str(pom), "-Ppython", "-DskipTests", "package",
            f"-Druntime.dir={work}", f"-Dmaven.repo.local={local_repo}",
        ]
        print("building the Java sandbox:", " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, env={**os.environ, "JAVA_HOME": str(jdk.home)})
        target = Path(self.build_lib) / "langchain_graalvm" / "runtime"
        shutil.rmtree(target, ignore_errors=True)
        (target / "classpath").mkdir(parents=True)
        for jar in sorted((work / "classpath").glob("*.jar")):
            shutil.copyfile(jar, target / "classpath" / jar.name)
        manifest = manifests.build_manifest(work, local_repo, manifests.graalvm_version_of(pom))
        (target / manifests.MANIFEST_NAME).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildPyWithJars})
