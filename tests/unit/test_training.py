"""The package's own training cells: both languages, broad, and new source on every round."""

from __future__ import annotations

import pytest

from langchain_graalvm._runtime import _training


@pytest.mark.parametrize(("language", "markers"), [
    ("js", ["JSON.", "new Map", "new Set", "class ", "new Date", "matchAll", "await ", "tools.echo", "tools.add"]),
    ("python", ["import json", "import re", "datetime", "collections", "statistics", "tools.echo"]),
])
def test_the_cells_cover_their_ground(language: str, markers: list[str]) -> None:
    text = "\n".join(_training.cells(language))
    assert len(_training.cells(language)) >= 6
    for marker in markers:
        assert marker in text, marker


@pytest.mark.parametrize("language", ["js", "python"])
def test_every_round_is_new_source(language: str) -> None:
    for cell in _training.cells(language):
        rounds = {_training.fill(cell, n) for n in range(_training.ROUNDS)}
        assert "__N__" not in "".join(rounds) and "__S__" not in "".join(rounds)
        if "__N__" in cell or "__S__" in cell:
            assert len(rounds) == _training.ROUNDS, cell


def test_a_full_training_counts_every_cell_of_every_round() -> None:
    assert _training.total(("js", "python")) == _training.ROUNDS * (
        len(_training.cells("js")) + len(_training.cells("python")))
    assert _training.Progress(("js",)).as_dict() == {
        "state": "untrained", "cells": 0, "of": _training.total(("js",)), "failed": 0, "seconds": 0.0}
