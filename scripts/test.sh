#!/usr/bin/env bash
# Runs every test: lint and type checks of the Python package (ruff, mypy --strict) and of the guest Python (ruff,
# mypy), the Java sandbox's JUnit 5 tests through Maven Surefire, ESLint and the Node tests of the guest JavaScript
# when Node is installed, then the Python tests with pytest (among them the guest Python on CPython, tests/guest/,
# and a wheel built and installed into a fresh venv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
JDK=$(.venv/bin/python -c 'from langchain_graalvm._runtime._jvmfinder import find_jdk; print(find_jdk().home)')

echo "==> ruff and mypy (the Python package)" >&2
.venv/bin/ruff check python
.venv/bin/mypy

# The guest Python (run on GraalPy; its parts are modules of their own for the checkers, see python_guest.py).
GUEST=java/src/main/resources/io/github/langchaingraalvm/sandbox
echo "==> ruff and mypy (the guest Python)" >&2
.venv/bin/ruff check "$GUEST" tests/guest
MYPYPATH="$GUEST" .venv/bin/mypy -p pyguest

echo "==> JUnit (mvn verify)" >&2
JAVA_HOME="$JDK" mvn -B -f java/pom.xml -Ppython verify

if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  echo "==> ESLint and node --test (the guest JavaScript: prelude, snapshot codec, cell tooling)" >&2
  (cd java && npm ci --no-audit --no-fund --loglevel=error && npx --no-install eslint)
  node --test java/src/test/js/
else
  # JUnit and pytest still run the guest JavaScript inside GraalJS; only its lint and its own Node tests are lost.
  echo "==> node/npm are not installed: ESLint and the guest JavaScript's Node tests are skipped" >&2
fi

echo "==> pytest" >&2
.venv/bin/python -m pytest "$@"

# The worker tier runs the interpreter and tool-calling suites again, every guest in a worker process of its own
# (tests/jvm/test_workers.py covers its faults, one interpreter per worker, in the run above). Four interpreters
# share a worker here: each test's middleware keeps its parked slots, and one worker each would pass the pool's
# default bound of 16 workers.
echo "==> pytest through sandbox workers (LANGCHAIN_GRAALVM_ISOLATION=process)" >&2
LANGCHAIN_GRAALVM_ISOLATION=process LANGCHAIN_GRAALVM_GUESTS_PER_WORKER=4 .venv/bin/python -m pytest \
  tests/jvm/test_api.py tests/agents/test_ptc.py tests/agents/test_middleware_snapshots.py "$@"
