"""The attack corpus of the fs bridge (``_attacks.FILES_ATTACKS``): through an :class:`Interpreter` on a
``FilesystemBackend`` in a temporary folder (with a host file beside it that must stay unreachable), and through
the eval tool of a Deep Agent on its default state backend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deepagents.backends import FilesystemBackend

from langchain_graalvm import CodeInterpreterMiddleware, FilesAccess, Interpreter
from langchain_graalvm.cli import attacks as corpus
from tests.support.scripted import build_agent, results_of, thread, turn


def test_the_files_corpus_is_well_formed() -> None:
    ids = [a.id for a in corpus.FILES_ATTACKS]
    assert len(ids) == len(set(ids)) >= 25
    assert not set(ids) & {a.id for a in corpus.ATTACKS}


@pytest.mark.parametrize("attack", corpus.FILES_ATTACKS, ids=lambda a: f"{a.category}:{a.id}")
def test_files_attack_is_contained_on_disk(attack: corpus.Attack, tmp_path: Path) -> None:
    root = tmp_path / "agent"
    for path, text in corpus.FILES_SEED.items():
        (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / path.lstrip("/")).write_text(text)
    (tmp_path / "host-secret.txt").write_text("host secret")
    (root / "data" / "escape.txt").symlink_to(tmp_path / "host-secret.txt")
    backend = FilesystemBackend(root_dir=str(root), virtual_mode=True)
    access = FilesAccess("read", prefixes=list(corpus.FILES_PREFIXES), backend=backend)
    with Interpreter(timeout=max(attack.timeout, 10.0), memory_limit=attack.memory_limit, files=access) as js:
        failures = corpus.run_attack(attack, js.eval)
        leak = js.eval("await fs.readFile('/data/escape.txt', 'utf8').then((t) => t, () => 'refused')")
    assert not failures, f"{attack.id} ({attack.description}): " + "; ".join(failures)
    assert "host secret" not in leak.text
    assert (root / "data" / "seed.txt").read_text() == "seed"
    assert sorted(p.name for p in (root / "data").iterdir()) == ["escape.txt", "seed.txt"]


@pytest.fixture(scope="module")
def agent() -> Any:
    mw = CodeInterpreterMiddleware(files=FilesAccess("read", prefixes=list(corpus.FILES_PREFIXES)), timeout=10.0)
    return build_agent(mw)


@pytest.mark.parametrize("attack", corpus.FILES_ATTACKS, ids=lambda a: f"{a.category}:{a.id}")
def test_files_attack_is_contained_through_the_eval_tool(attack: corpus.Attack, agent: Any) -> None:
    inputs = turn(*corpus.turn_cells(attack))
    inputs["files"] = {path: {"content": text, "encoding": "utf-8"} for path, text in corpus.FILES_SEED.items()}
    state = agent.invoke(inputs, thread())
    failures = corpus.run_attack_on_envelopes(attack, results_of(state))
    assert not failures, f"{attack.id}: " + "; ".join(failures)
    assert {p: f["content"] for p, f in state["files"].items() if f} == corpus.FILES_SEED
