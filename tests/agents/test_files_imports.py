"""ES modules from the agent's files: ``import()`` and static ``import`` in cells, through real Deep Agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from deepagents.backends import FilesystemBackend

from langchain_graalvm import CodeInterpreterMiddleware, FilesAccess, Interpreter
from tests.agents.test_files import run, write_file
from tests.support.scripted import build_agent

STATS = """import { sq } from "./util.js";
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const squares = (xs) => xs.map(sq);
export default "stats";
"""
UTIL = "export const sq = (x) => x * x;\n"


def edit_file(path: str, old: str, new: str) -> str:
    return "tool:edit_file " + json.dumps({"file_path": path, "old_string": old, "new_string": new})


@pytest.fixture(scope="module")
def agent() -> Any:
    mw = CodeInterpreterMiddleware(files=FilesAccess("read", prefixes=["/lib/"]), timeout=10.0)
    return build_agent(mw)


def test_state_module_is_imported_statically_and_dynamically_and_sees_an_edit(agent: Any) -> None:
    out, _ = run(
        agent,
        write_file("/lib/util.js", UTIL),
        write_file("/lib/stats.js", STATS),
        'import { mean, squares } from "/lib/stats.js";\nimport label from "/lib/stats.js";\n'
        "[mean([4, 6]), squares([3]), label]",
        "mean([1, 2])",  # imported names are globals of the REPL, like any const
        edit_file("/lib/util.js", "x * x", "x * x * 10"),
        'const m = await import("/lib/stats.js"); m.squares([3])',
    )
    assert out[2] == '<result>[5, [9], "stats"]</result>'
    assert out[3] == "<result>1.5</result>"
    assert out[5] == "<result>[90]</result>"


def test_imports_keep_line_numbers_and_a_syntax_error_in_a_cell_still_reads_as_one(agent: Any) -> None:
    out, _ = run(
        agent,
        write_file("/lib/util.js", UTIL),
        'import {\n  sq,\n} from "/lib/util.js";\nnull.x',
        'import { sq } from "/lib/util.js"; export const y = 1',
    )
    assert out[1].startswith('<error type="TypeError">') and "cell:4:" in out[1]
    assert out[2].startswith('<error type="SyntaxError">')


def test_imports_outside_the_prefixes_and_missing_modules_are_refused(agent: Any) -> None:
    out, _ = run(
        agent,
        write_file("/secret/mod.js", "export const key = 's3cr3t';"),
        'await import("/secret/mod.js").then((m) => m.key, (e) => e.message)',
        'await import("/lib/../secret/mod.js").then((m) => m.key, (e) => e.message)',
        'await import("/lib/missing.js").then(() => "loaded", (e) => e.message)',
        'await import("https://example.com/x.js").then(() => "loaded", (e) => e.message)',
    )
    assert "EACCES: permission denied, import '/secret/mod.js'" in out[1]
    assert "s3cr3t" not in out[2] and "EACCES" in out[2]
    assert "ENOENT: no such file or directory, import '/lib/missing.js'" in out[3]
    assert "loaded" not in out[4]


def test_a_module_cannot_reach_fs_beyond_the_bridge(agent: Any) -> None:
    out, _ = run(
        agent,
        write_file("/lib/probe.js", "export const kinds = [typeof fs, typeof require, typeof process];"),
        'import { kinds } from "/lib/probe.js"; kinds',
    )
    assert out[1] == '<result>["object", "undefined", "undefined"]</result>'


def test_without_files_there_is_no_module_file_system() -> None:
    with Interpreter() as js:
        out = js.eval('await import("/lib/stats.js").then(() => "loaded", (e) => e.message)').text
    assert "loaded" not in out and "not allowed" in out


def test_disk_typescript_module_and_relative_imports(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "util.js").write_text(UTIL)
    (tmp_path / "lib" / "stats.js").write_text(STATS)
    (tmp_path / "lib" / "fmt.ts").write_text(
        'import { mean } from "./stats.js";\n'
        "export function report(xs: number[]): string {\n  return `mean=${mean(xs)}`;\n}\n"
    )
    backend = FilesystemBackend(root_dir=str(tmp_path), virtual_mode=True)
    mw = CodeInterpreterMiddleware(files=FilesAccess("read", backend=backend), timeout=10.0)
    out, _ = run(
        build_agent(mw, backend=backend),
        'import { report } from "/lib/fmt.ts"; report([1, 2, 3, 6])',
        'const { report: r2 } = await import("/lib/fmt.ts"); r2([2])',
    )
    assert out == ["<result>mean=3</result>", "<result>mean=2</result>"]


def test_module_bytes_count_against_the_eval_budget(tmp_path: Path) -> None:
    (tmp_path / "big.js").write_text("export const s = '" + "x" * 5000 + "';\n")
    backend = FilesystemBackend(root_dir=str(tmp_path), virtual_mode=True)
    with Interpreter(files=FilesAccess("read", max_bytes=4096, backend=backend)) as js:
        out = js.eval('await import("/big.js").then(() => "loaded", (e) => e.message)').text
    assert "EFBIG" in out and "loaded" not in out


def test_imported_functions_are_globals_saved_by_source_and_fs_is_not_in_snapshots() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from tests.support.scripted import results_of, thread, turn

    mw = CodeInterpreterMiddleware(files="read", timeout=10.0)
    agent = build_agent(mw, checkpointer=InMemorySaver())
    config = thread()
    first = turn(
        write_file("/lib/util.js", UTIL),
        write_file("/lib/stats.js", STATS),
        'import { mean, squares } from "/lib/stats.js"; mean([1, 3])',
    )
    assert results_of(agent.invoke(first, config))[2] == "<result>2</result>"
    state = agent.get_state(config).values
    assert b'"fs"' not in state["_graalvm_snapshot"]
    out = results_of(agent.invoke(turn("mean([2, 4])", "typeof fs.readFile", "squares([2])"), config))
    assert out[:2] == ["<result>3</result>", "<result>function</result>"]
    assert out[2].startswith('<error type="ReferenceError">sq is not defined')
