"""The isolation matrix: the attack corpus run through both backends' ``eval`` tools, side by side.

Each backend runs in a worker process of its own, one case after another, each case in a fresh slot of a
middleware built with the case's time and memory limits. A worker that dies or stops answering marks its case
``crashed`` and is restarted at the next case, so one fatal attack costs one row, not the run.

Each case ends in one of:

- ``blocked``: the model got an ``<error>`` (or, where the corpus documents a safe value, that value), and the
  interpreter, or a fresh one, still answers ``1+1``;
- ``raised``: the eval tool raised instead of answering: contained, but the agent run sees an exception;
- ``crashed``: the host process died or hung;
- ``escaped``: the cell got what it was after: a value where the host or the real clock should have been out of
  reach;
- ``not stopped``: a runaway or oversized cell ran to completion instead of being stopped by a limit;
- ``other``: a different answer than the documented one, with nothing escaping (shown in the details).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from collections import Counter
from typing import Any

from .attacks import ATTACKS, EXHAUSTION, HOST_ESCAPE, TIMING, Attack, outcome_from_envelope

BACKENDS = ("graalvm", "quickjs")
OUTCOMES = ("blocked", "raised", "crashed", "escaped", "not stopped", "other")
_STARTUP_S = 180.0


def cases(quick: bool) -> list[Attack]:
    """The corpus's JavaScript cases (the ones both backends run), or with ``quick`` the first three of each
    category."""
    javascript = [attack for attack in ATTACKS if attack.language == "js"]
    if not quick:
        return javascript
    seen: Counter[str] = Counter()
    chosen = []
    for attack in javascript:
        if seen[attack.category] < 3:
            chosen.append(attack)
            seen[attack.category] += 1
    return chosen


def classify(attack: Attack, envelope: str | None, raised: str | None, after_ok: bool) -> str:
    """The matrix outcome of one case from what the model saw."""
    if raised is not None:
        return "raised"
    if envelope is None:
        return "crashed"
    outcome = outcome_from_envelope(envelope)
    kind, _, text = attack.expected.partition(":")
    if outcome.status == "ok":
        if kind == "value" and (not text or outcome.value == text):
            return "blocked" if after_ok else "other"
        if attack.category in (HOST_ESCAPE, TIMING):
            return "escaped"
        if kind in ("timeout", "limit", "reset") or attack.category == EXHAUSTION:
            return "not stopped"
        return "other"
    if outcome.status == "invalid":
        return "other"
    return "blocked" if after_ok else "other"


def _worker(backend: str, quick: bool, start: int) -> None:
    """Runs cases from ``start``, printing one JSON line per case."""
    warnings.simplefilter("ignore")
    from ._benchkit import EvalToolSlot, build_middleware

    chosen = cases(quick)
    print(json.dumps({"ready": True}), flush=True)
    for index in range(start, len(chosen)):
        attack = chosen[index]
        envelope: str | None = None
        raised: str | None = None
        after_ok = False
        try:
            mw = build_middleware(
                backend, "defaults", timeout=attack.timeout, memory_limit=attack.memory_limit, mode="turn"
            )
            slot = EvalToolSlot(mw)
            for cell in attack.prelude:
                slot.eval(cell)
            envelope = slot.eval(attack.code)
            after = slot.eval("1+1")
            after_ok = after == "<result>2</result>"
            if not after_ok:
                after_ok = EvalToolSlot(mw).eval("1+1") == "<result>2</result>"
        except Exception as exc:  # noqa: BLE001 - the eval tool raising is one of the outcomes
            raised = f"{type(exc).__name__}: {exc}"[:300]
        line = {"index": index, "envelope": envelope, "raised": raised, "after_ok": after_ok}
        print(json.dumps(line), flush=True)


_MODULE = "langchain_graalvm.cli._isolation"  # each case batch runs in a fresh process of its own


def _run_backend(backend: str, quick: bool, on_case: Any) -> dict[int, dict[str, Any]]:
    chosen = cases(quick)
    results: dict[int, dict[str, Any]] = {}
    index = 0
    while index < len(chosen):
        proc = subprocess.Popen(
            [sys.executable, "-m", _MODULE, backend, "quick" if quick else "full", str(index)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stdout is not None
        deadline = time.monotonic() + _STARTUP_S
        try:
            while index < len(chosen):
                line = _read_line(proc, deadline)
                if line is None:  # died or hung on this case
                    results[index] = {"envelope": None, "raised": None, "after_ok": False, "crash": True}
                    on_case()
                    index += 1
                    break
                data = json.loads(line)
                if data.get("ready"):
                    deadline = time.monotonic() + _case_allowance(chosen[index])
                    continue
                results[data["index"]] = data
                on_case()
                index = data["index"] + 1
                if index < len(chosen):
                    deadline = time.monotonic() + _case_allowance(chosen[index])
        finally:
            proc.kill()
            proc.wait()
    return results


def _case_allowance(attack: Attack) -> float:
    return 60.0 + 10 * attack.timeout


def _read_line(proc: subprocess.Popen[str], deadline: float) -> str | None:
    import selectors

    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if sel.select(timeout=remaining):
                line = proc.stdout.readline()
                return line or None


def run_matrix(quick: bool = False, progress: bool = True) -> str:
    """Runs the corpus through both backends and returns the Markdown section of the report."""
    from tqdm import tqdm

    chosen = cases(quick)
    per_backend: dict[str, dict[int, dict[str, Any]]] = {}
    with tqdm(total=len(chosen) * len(BACKENDS), unit="case", file=sys.stderr, disable=not progress) as bar:
        for backend in BACKENDS:
            bar.set_description(f"isolation ({backend})")
            per_backend[backend] = _run_backend(backend, quick, lambda: bar.update(1))
    table: dict[str, dict[str, str]] = {b: {} for b in BACKENDS}
    details: dict[str, dict[str, str]] = {b: {} for b in BACKENDS}
    for backend in BACKENDS:
        for index, attack in enumerate(chosen):
            data = per_backend[backend].get(index, {"envelope": None, "raised": None, "after_ok": False})
            table[backend][attack.id] = classify(attack, data.get("envelope"), data.get("raised"), data["after_ok"])
            shown = data.get("raised") or data.get("envelope") or "(no answer: the process died or hung)"
            details[backend][attack.id] = " ".join(str(shown).split())[:70]
    return render(chosen, table, details)


def render(chosen: list[Attack], table: dict[str, dict[str, str]], details: dict[str, dict[str, str]]) -> str:
    lines = ["## Isolation matrix", ""]
    totals = {b: Counter(table[b].values()) for b in BACKENDS}
    lines += [
        f"{len(chosen)} attacks from the project's corpus, each in a fresh slot with the case's limits, through each "
        "backend's `eval` tool with its default settings.",
        "",
        "| outcome | langchain-graalvm | langchain-quickjs |",
        "|---|---:|---:|",
    ]
    for outcome in OUTCOMES:
        lines.append(f"| {outcome} | {totals['graalvm'][outcome]} | {totals['quickjs'][outcome]} |")
    lines += ["", "| category | attacks | graalvm blocked | quickjs blocked |", "|---|---:|---:|---:|"]
    categories = sorted({a.category for a in chosen})
    for category in categories:
        ids = [a.id for a in chosen if a.category == category]
        g = sum(table["graalvm"][i] == "blocked" for i in ids)
        q = sum(table["quickjs"][i] == "blocked" for i in ids)
        lines.append(f"| {category} | {len(ids)} | {g} | {q} |")
    lines += [
        "",
        "<details><summary>Every case</summary>",
        "",
        "| attack | category | langchain-graalvm | langchain-quickjs | graalvm answered | quickjs answered |",
        "|---|---|---|---|---|---|",
    ]
    for attack in chosen:
        g_detail, q_detail = (details[b][attack.id].replace("|", "\\|") for b in BACKENDS)
        lines.append(
            f"| `{attack.id}` | {attack.category} | {table['graalvm'][attack.id]} | {table['quickjs'][attack.id]} "
            f"| {g_detail} | {q_detail} |"
        )
    lines += ["", "</details>"]
    return "\n".join(lines)


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2] == "quick", int(sys.argv[3]))
