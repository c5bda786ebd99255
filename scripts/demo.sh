#!/usr/bin/env bash
# Sets everything up, then runs the offline demo on embedded defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m langchain_graalvm demo "$@"
