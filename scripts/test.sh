#!/usr/bin/env bash
# Runs every test: lint and type checks of the Python package (ruff, mypy --strict), the Java sandbox's JUnit 5
# tests through Maven Surefire, the snapshot codec's Node tests when Node is installed, then the Python tests with
# pytest (among them a wheel built and installed into a fresh venv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
JDK=$(.venv/bin/python -c 'from langchain_graalvm._runtime._jvmfinder import find_jdk; print(find_jdk().home)')

echo "==> ruff and mypy (the Python package)" >&2
.venv/bin/ruff check python
.venv/bin/mypy

echo "==> JUnit (mvn verify)" >&2
JAVA_HOME="$JDK" mvn -B -f java/pom.xml -Ppython verify

if command -v node >/dev/null 2>&1; then
  echo "==> node --test (snapshot codec)" >&2
  node --test java/src/test/js/
else
  echo "==> node is not installed: the snapshot codec's Node tests are skipped (JUnit and pytest still cover it)" >&2
fi

echo "==> pytest" >&2
.venv/bin/python -m pytest "$@"
