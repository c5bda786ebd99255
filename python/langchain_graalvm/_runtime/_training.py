"""Training a sandbox worker before it is handed out: the package's own cells (``training/*.cells``), broad rather
than deep, run in a fresh guest per round so that the JVM has loaded, and the Graal compiler compiled, what an
agent's first cells use (JSON, arrays, Map and Set, classes, dates, regular expressions, string work, async code and
``tools.*`` calls in JavaScript; json, re, datetime, collections and statistics in Python).

Every round is new source (``__N__`` and ``__S__`` change), so the engine's source caches do not simply hit. The
``tools.*`` calls of a training cell are answered here, by whoever trains the worker (``echo`` returns its input,
``add`` the sum of ``a`` and ``b``). Between two cells the trainer asks ``pause()``; while it says so (a client's
worker is busy) the next cell waits, so training takes only cores nobody else uses.
"""

from __future__ import annotations

import functools
import json
import queue
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..options import InterpreterOptions
from ._wire import Connection, WorkerError, WorkerLost

ROUNDS = 3
"""Rounds of each language's cells a worker runs before it counts as trained."""

_FOLDER = Path(__file__).with_name("training")
_SEPARATOR = "----"
_WORDS = ("alpha", "bravo", "delta", "kilo", "lima", "oscar", "tango", "zulu")
_SPEC = {
    "tools": ["echo", "add"], "exposeTools": True, "exposeTask": False, "maxToolCalls": 0, "exposeFs": False,
    "randomSeed": None, "reportWaits": False, "streamOutput": False,
}


@functools.cache
def cells(language: str) -> tuple[str, ...]:
    """The training cells of ``language`` (``js`` or ``python``), their placeholders unfilled."""
    text = (_FOLDER / f"{'js' if language == 'js' else 'python'}.cells").read_text("utf-8")
    marker = ("// " if language == "js" else "# ") + _SEPARATOR
    parts = [p.strip("\n") for p in text.split(marker + "\n")]
    return tuple(p for p in parts[1:] if p.strip())  # the first part is the file's own comment


def total(languages: tuple[str, ...]) -> int:
    """How many cells a full training of ``languages`` runs."""
    return ROUNDS * sum(len(cells(language)) for language in languages)


def fill(cell: str, round_no: int) -> str:
    """A cell's source for one round: new literals every round."""
    rng = random.Random(round_no * 7919 + len(cell))
    n = str(rng.randint(2, 9) + 10 * round_no)
    return cell.replace("__N__", n).replace("__S__", rng.choice(_WORDS) + str(round_no))


class Progress:
    """A training's state, as ``server status`` and ``doctor`` show it."""

    def __init__(self, languages: tuple[str, ...]) -> None:
        self.languages = languages
        self.total = total(languages)
        self.run = 0
        self.failed = 0
        self.state = "untrained"  # untrained, training, trained, stopped (handed out first), failed
        self.seconds = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.state, "cells": self.run, "of": self.total, "failed": self.failed,
                "seconds": round(self.seconds, 2)}


def train(
    conn: Connection,
    progress: Progress,
    *,
    pause: Callable[[], bool] = lambda: False,
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """Runs the training on ``conn``'s worker, cell by cell, recording ``progress``. Returns early once ``stop()``
    says so; raises :class:`WorkerLost` when the worker dies."""
    progress.state = "training"
    started = time.monotonic()
    try:
        for round_no in range(ROUNDS):
            for language in progress.languages:
                if not _round(conn, language, round_no, progress, pause, stop):
                    progress.state = "stopped"
                    return
        progress.state = "trained"
    finally:
        progress.seconds += time.monotonic() - started


def _round(
    conn: Connection, language: str, round_no: int, progress: Progress,
    pause: Callable[[], bool], stop: Callable[[], bool],
) -> bool:
    options = InterpreterOptions(language=language, timeout=30.0, isolation="process")  # type: ignore[arg-type]
    gid, _ = conn.new_guest(options)
    try:
        for cell in cells(language):
            while pause() and not stop():
                time.sleep(0.1)
            if stop():
                return False
            if not _ok(_eval(conn, gid, fill(cell, round_no))):
                progress.failed += 1
            progress.run += 1
    finally:
        try:
            conn.close_guest(gid)
        except WorkerError:
            pass
    return True


def _ok(fields: dict[str, Any]) -> bool:
    return fields.get("status") == "ok"


def _eval(conn: Connection, gid: int, code: str) -> dict[str, Any]:
    """One cell, its ``tools.*`` calls answered here."""
    calls: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(conn.eval(gid, code, _SPEC, deadline=90.0, calls=calls))
        except BaseException as exc:  # noqa: BLE001 - handed to the trainer
            failure.append(exc)
        finally:
            calls.put(None)

    runner = threading.Thread(target=run, name="graalvm-training-eval", daemon=True)
    runner.start()
    while (batch := calls.get()) is not None:
        answers = [_answer(entry) for entry in json.loads(batch) if entry[0] != 0]
        if answers:
            text = "[" + ",".join(f"[{cid},true,{value}]" for cid, value in answers) + "]"
            conn.complete(gid, [cid for cid, _ in answers], text)
    runner.join()
    if failure:
        if isinstance(failure[0], (WorkerLost, WorkerError)):
            raise failure[0]
        raise WorkerLost(f"a training cell failed: {failure[0]}")
    return dict(result[0])


def _answer(entry: list[Any]) -> tuple[int, str]:
    call_id, _kind, name, raw = entry
    try:
        args = json.loads(raw)
    except ValueError:
        args = {}
    if name == "add" and isinstance(args, dict):
        value: Any = {"sum": (args.get("a") or 0) + (args.get("b") or 0)}
    else:
        value = args
    return int(call_id), json.dumps(value)


def cpu_ticks(pid: int) -> int:
    """The CPU time process ``pid`` has used, in clock ticks (0 once it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])
