"""Runs the vendored test262 sample (tests/data/test262, see its PROVENANCE) through an eval tool.

Each test runs as one cell in a fresh context: the harness includes its metadata names (after ``assert.js`` and
``sta.js``), then the test. A negative test passes when the cell fails with the expected error type; an async test
passes when it prints ``Test262:AsyncTestComplete``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import re
from collections.abc import Callable
from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parent.parent / "data" / "test262"
_META = re.compile(r"/\*---(.*?)---\*/", re.S)
_ERROR_TYPE = re.compile(r'<error type="([^"]+)"')
# print() is what doneprintHandle.js reports with; a cell has console.log.
_PRINT = "var print = (...args) => console.log(...args);\n"


@dataclasses.dataclass(frozen=True)
class Case:
    path: str
    source: str
    includes: tuple[str, ...]
    is_async: bool
    negative: str | None

    def harness(self) -> str:
        """The harness cell: the same text for every test with the same includes, so its parse is cached."""
        names = ["assert.js", "sta.js"] + (["doneprintHandle.js"] if self.is_async else []) + list(self.includes)
        return _PRINT + "".join(_harness_file(n) + "\n" for n in dict.fromkeys(names))

    def cell(self) -> str:
        """The harness and the test as one cell."""
        return self.harness() + self.source


@functools.cache
def _harness_file(name: str) -> str:
    return (DATA / "harness" / name).read_text(encoding="utf-8")


def cases() -> list[Case]:
    """Every vendored test, in PROVENANCE order."""
    listed = (DATA / "PROVENANCE").read_text(encoding="utf-8").split("\n\n", 1)[1].split()
    out = []
    for path in listed:
        if not path.startswith("test/"):
            continue
        source = (DATA / path).read_text(encoding="utf-8")
        match = _META.search(source)
        meta = yaml.safe_load(match.group(1)) if match else {}
        negative = meta.get("negative") or {}
        out.append(
            Case(
                path=path,
                source=source,
                includes=tuple(meta.get("includes") or ()),
                is_async="async" in (meta.get("flags") or ()),
                negative=negative.get("type"),
            )
        )
    return out


def verdict(case: Case, envelope: str) -> tuple[bool, str]:
    """Whether ``envelope`` (what the eval tool returned) is a pass, and a short reason when it is not."""
    error = _ERROR_TYPE.search(envelope)
    if case.negative is not None:
        if error and error.group(1) == case.negative:
            return True, ""
        return False, f"expected {case.negative}, got {envelope[:160]!r}"
    if error:
        return False, envelope[:200]
    if case.is_async:
        if "Test262:AsyncTestComplete" in envelope and "Test262:AsyncTestFailure" not in envelope:
            return True, ""
        return False, f"async test did not complete: {envelope[:200]!r}"
    return True, ""


def run_all(
    eval_case: Callable[[Case], str], chosen: list[Case] | None = None, workers: int = 1
) -> dict[str, tuple[bool, str]]:
    """Runs each case through ``eval_case`` (a fresh context per case) and returns path: (passed, reason)."""

    def one(case: Case) -> tuple[bool, str]:
        try:
            envelope = eval_case(case)
        except Exception as exc:  # noqa: BLE001 - a backend that raises fails the case
            envelope = f'<error type="raised">{type(exc).__name__}: {exc}</error>'
        return verdict(case, envelope)

    todo = chosen if chosen is not None else cases()
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip((c.path for c in todo), pool.map(one, todo), strict=True))
