#!/usr/bin/env bash
# Sets up a development checkout: finds JDK 25, builds the Java module with Maven (fetching GraalVM from Maven
# Central), and creates .venv with the package and its test tools installed. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "error: Python 3.11+ is required ($PYTHON is $("$PYTHON" --version 2>&1))." >&2
  exit 1
fi

# The package's own finder chooses the JDK (LANGCHAIN_GRAALVM_JAVA_HOME, JAVA_HOME, /usr/lib/jvm/*, the JDKs that
# `langchain-graalvm install --jdk` fetched; JDK 25 with a fitting libgraal first): the build uses the JDK the
# package will run on. It imports only the standard library.
if ! JDK=$(PYTHONPATH=python "$PYTHON" - <<'PY'
import sys
from langchain_graalvm._runtime._jvmfinder import find_jdk
from langchain_graalvm.errors import JvmError
try:
    print(find_jdk().home)
except JvmError as exc:
    sys.exit(f"error: {exc}")
PY
); then
  echo "       Then run this again." >&2
  exit 1
fi
if [ ! -x "$JDK/bin/javac" ]; then
  echo "error: $JDK has no bin/javac: building needs a full JDK (set LANGCHAIN_GRAALVM_JAVA_HOME to one)." >&2
  exit 1
fi
echo "==> JDK: $JDK" >&2

if ! command -v mvn >/dev/null 2>&1; then
  echo "==> installing Maven from Debian packages" >&2
  apt-get update -qq && apt-get install -y -qq maven >/dev/null
fi

if [ -z "${LANGCHAIN_GRAALVM_PG_BIN:-}" ] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  # The scale-out tests start a throw-away PostgreSQL cluster of their own; the package's default cluster is not
  # created.
  echo "==> installing PostgreSQL from Debian packages" >&2
  mkdir -p /etc/postgresql-common
  [ -f /etc/postgresql-common/createcluster.conf ] || echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Options::=--force-confold \
    postgresql >/dev/null
fi

echo "==> building the Java module (GraalVM jars come from Maven Central on the first run)" >&2
# -Ppython also builds the optional GraalPy jars into java/target/runtime/python (about 125 MB).
JAVA_HOME="$JDK" mvn -B -q -f java/pom.xml -Ppython -DskipTests package

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv" >&2
  "$PYTHON" -m venv .venv
fi
echo "==> installing the package and its dev tools into .venv" >&2
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
if [ "${LANGCHAIN_GRAALVM_FAST_START:-1}" != "0" ]; then
  # A JDK image and an AOT cache that cut each new process's JVM start (LANGCHAIN_GRAALVM_FAST_START=0 skips it).
  echo "==> building the fast start (a few minutes the first time)" >&2
  .venv/bin/python -m langchain_graalvm install --quiet || echo "warning: no fast start; the first start is slower" >&2
fi
echo "==> ready: .venv/bin/python -c 'from langchain_graalvm import Interpreter'" >&2
