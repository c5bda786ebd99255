"""Rewrites the table of environment variables in docs/operations.md from the package's settings table.

    python scripts/settings_table.py           # rewrite docs/operations.md
    python scripts/settings_table.py --check   # exit 1 when docs/operations.md differs from the table

The table is :data:`langchain_graalvm._settings.VARIABLES`; tests/unit/test_settings.py fails when the doc is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "operations.md"
sys.path.insert(0, str(ROOT / "python"))

from langchain_graalvm._settings import with_table  # noqa: E402 - after the checkout's package is on the path


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    wanted = with_table(text)
    if argv == ["--check"]:
        if wanted != text:
            print(f"{DOC} is stale: run `python scripts/settings_table.py`", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
