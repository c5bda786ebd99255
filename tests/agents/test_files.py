"""The agent's files inside code (``files=``): ``fs`` through real Deep Agents, with the default state backend and a
``FilesystemBackend`` on a temporary folder."""

from __future__ import annotations

import asyncio
import base64
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from deepagents.backends import FilesystemBackend
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage, ToolMessage

from langchain_graalvm import AuditRecord, CodeInterpreterMiddleware, FilesAccess, Interpreter
from tests.support.scripted import ScriptedChatModel, build_agent, results_of, thread, turn

REPORT = {"rows": [{"city": "Oslo", "t": -3.5}, {"city": "Lima", "t": 19}], "note": "line one\nline two"}
BINARY = bytes(range(256)) + b"\x00\xff\xfe" * 100


def write_file(path: str, content: str) -> str:
    return "tool:write_file " + json.dumps({"file_path": path, "content": content})


def read_file(path: str) -> str:
    return "tool:read_file " + json.dumps({"file_path": path})


def run(agent: Any, *cells: str, use_async: bool = False, files: dict[str, Any] | None = None) -> tuple[list[str], Any]:
    inputs: dict[str, Any] = turn(*cells)
    if files is not None:
        inputs["files"] = files
    cfg = thread()
    state = asyncio.run(agent.ainvoke(inputs, cfg)) if use_async else agent.invoke(inputs, cfg)
    return results_of(state), state


def tool_messages(state: Any, name: str) -> list[str]:
    return [str(m.content) for m in state["messages"] if isinstance(m, ToolMessage) and m.name == name]


# ------------------------------------------------------------------------------------------------ state backend


@pytest.fixture(scope="module")
def state_agent() -> Any:
    return build_agent(CodeInterpreterMiddleware(files="read-write", timeout=10.0))


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_state_file_written_by_write_file_is_read_raw_from_code(state_agent: Any, use_async: bool) -> None:
    text = json.dumps(REPORT, indent=2)
    out, _ = run(
        state_agent,
        write_file("/data/report.json", text),
        "const raw = await fs.readFile('/data/report.json', 'utf8'); [raw.length, JSON.parse(raw).rows[0].t]",
        "(await fs.readFile('/data/report.json', 'utf8')) === " + json.dumps(text),
        use_async=use_async,
    )
    assert out[1] == f"<result>[{len(text)}, -3.5]</result>"
    assert out[2] == "<result>true</result>"


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_state_file_written_from_code_is_read_by_read_file_in_the_next_step(state_agent: Any, use_async: bool) -> None:
    out, state = run(
        state_agent,
        "await fs.writeFile('/out/summary.md', '# Summary\\nmean: 7.25\\n'); 'written'",
        read_file("/out/summary.md"),
        use_async=use_async,
    )
    assert out[0] == "<result>written</result>"
    assert "mean: 7.25" in out[1] and "# Summary" in out[1]
    assert state["files"]["/out/summary.md"]["content"] == "# Summary\nmean: 7.25\n"


def test_state_binary_file_round_trips_byte_for_byte(state_agent: Any) -> None:
    # The state backend keeps a file that is not UTF-8 as base64 text with encoding "base64".
    seeded = {"content": base64.b64encode(BINARY).decode(), "encoding": "base64"}
    out, state = run(
        state_agent,
        "const b = await fs.readFile('/in/blob.bin'); [b.length, b[0], b[255], b[256], b[257]]",
        "const copy = await fs.readFile('/in/blob.bin'); copy[0] = 42; await fs.writeFile('/out/blob.bin', copy);"
        " 'ok'",
        "const back = await fs.readFile('/out/blob.bin'); [back.length, back[0], back[1], back[300]]",
        files={"/in/blob.bin": seeded},
    )
    assert out[0] == f"<result>[{len(BINARY)}, 0, 255, 0, 255]</result>"
    assert out[1] == "<result>ok</result>"
    assert out[2] == f"<result>[{len(BINARY)}, 42, 1, {BINARY[300]}]</result>"
    stored = state["files"]["/out/blob.bin"]
    assert stored["encoding"] == "base64"
    assert base64.b64decode(stored["content"]) == bytes([42]) + BINARY[1:]


def test_state_listing_stat_glob_and_rm(state_agent: Any) -> None:
    out, state = run(
        state_agent,
        "await fs.writeFile('/w/a.csv', 'x,y\\n1,2\\n'); await fs.writeFile('/w/sub/b.csv', 'z');"
        " await fs.writeFile('/w/c.txt', 'hello'); await fs.readdir('/w')",
        "const s = await fs.stat('/w/c.txt'); const d = await fs.stat('/w/sub'); [s.size, s.isFile(), d.isDirectory()]",
        "await fs.glob('/w/**/*.csv')",
        "await fs.rm('/w/c.txt'); await fs.rm('/w/sub').catch((e) => e.code)",
        "await fs.rm('/w/sub', {recursive: true}); await fs.readdir('/w')",
        "await fs.stat('/w/c.txt').catch((e) => [e.code, e.syscall])",
    )
    assert out[0] == '<result>["a.csv", "c.txt", "sub"]</result>'
    assert out[1] == "<result>[5, true, true]</result>"
    assert out[2] == '<result>["/w/a.csv", "/w/sub/b.csv"]</result>'
    assert out[3] == "<result>EISDIR</result>"
    assert out[4] == '<result>["a.csv"]</result>'
    assert out[5] == '<result>["ENOENT", "stat"]</result>'
    assert "/w/c.txt" not in state["files"] or state["files"]["/w/c.txt"] is None


def test_files_are_off_by_default_and_the_prompt_says_nothing_of_them() -> None:
    chat = ScriptedChatModel()
    agent = build_agent(CodeInterpreterMiddleware(), model=chat)
    out, _ = run(agent, "typeof fs")
    assert out == ["<result>undefined</result>"]
    assert "fs.readFile" not in system_text(chat)


def test_prompt_describes_fs_and_the_prefixes_when_enabled() -> None:
    chat = ScriptedChatModel()
    mw = CodeInterpreterMiddleware(files=FilesAccess("read", prefixes=["/data", "/skills/"]))
    agent = build_agent(mw, model=chat)
    out, _ = run(agent, "typeof fs.readFile")
    assert out == ["<result>function</result>"]
    prompt = system_text(chat)
    assert "await fs.readFile(path, 'utf8')" in prompt
    assert "`/data/`, `/skills/`" in prompt
    assert "read-only from code" in prompt


def system_text(chat: ScriptedChatModel) -> str:
    content = chat.seen[0][0].content
    if isinstance(content, str):
        return content
    return "".join(block["text"] if isinstance(block, dict) else str(block) for block in content)


# ------------------------------------------------------------------------------------------------ permissions


@pytest.fixture(scope="module")
def read_only_agent() -> Any:
    return build_agent(CodeInterpreterMiddleware(files=FilesAccess("read", prefixes=["/data/"]), timeout=10.0))


def test_read_mode_refuses_writes_and_removals(read_only_agent: Any) -> None:
    out, state = run(
        read_only_agent,
        write_file("/data/a.txt", "keep"),
        "await fs.writeFile('/data/a.txt', 'changed').catch((e) => [e.code, e.message])",
        "await fs.rm('/data/a.txt').catch((e) => e.code)",
        "await fs.readFile('/data/a.txt', 'utf8')",
    )
    assert out[1].startswith('<result>["EACCES", "EACCES: permission denied, open \'/data/a.txt\'. The agent\'s files')
    assert "use the write_file or edit_file tool instead" in out[1]
    assert out[2] == "<result>EACCES</result>"
    assert out[3] == "<result>keep</result>"
    assert state["files"]["/data/a.txt"]["content"] == "keep"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        pytest.param("/secret/key.txt", "EACCES", id="outside-prefix"),
        pytest.param("/database/x", "EACCES", id="prefix-is-a-directory"),
        pytest.param("/data/../secret/key.txt", "EACCES", id="dot-dot"),
        pytest.param("/data/./../secret/key.txt", "EACCES", id="dot-then-dot-dot"),
        pytest.param("data/report.json", "EINVAL", id="relative"),
        pytest.param("./data/report.json", "EINVAL", id="dot-relative"),
        pytest.param("/data/x\u0000/../../secret/key.txt", "EINVAL", id="nul"),
        pytest.param("", "EINVAL", id="empty"),
    ],
)
def test_paths_outside_the_prefixes_and_traversal_are_refused(read_only_agent: Any, path: str, code: str) -> None:
    out, _ = run(
        read_only_agent,
        write_file("/secret/key.txt", "s3cr3t"),
        f"await fs.readFile({json.dumps(path)}, 'utf8').catch((e) => e.code)",
    )
    assert out[1] == f"<result>{code}</result>"


def test_glob_and_readdir_never_list_paths_outside_the_prefixes(read_only_agent: Any) -> None:
    out, _ = run(
        read_only_agent,
        write_file("/secret/key.txt", "s3cr3t"),
        write_file("/data/a.txt", "a"),
        "await fs.glob('**/*.txt')",
        "await fs.readdir('/').catch((e) => e.code)",
    )
    assert out[2] == '<result>["/data/a.txt"]</result>'
    assert out[3] == "<result>EACCES</result>"


def test_the_per_eval_byte_cap_stops_reads_and_writes() -> None:
    agent = build_agent(CodeInterpreterMiddleware(files=FilesAccess("read-write", max_bytes=1000)))
    out, _ = run(
        agent,
        "await fs.writeFile('/a.txt', 'x'.repeat(600)); await fs.writeFile('/b.txt', 'y'.repeat(600))"
        ".catch((e) => [e.code, e.message])",
        "await fs.readFile('/a.txt', 'utf8').then((t) => t.length)",
        "await fs.readFile('/a.txt'); await fs.readFile('/a.txt').catch((e) => e.code)",
    )
    assert out[0].startswith('<result>["EFBIG", "EFBIG: open \'/b.txt\' would pass this eval\'s budget of 1000 bytes')
    assert out[1] == "<result>600</result>"  # the budget is per eval
    assert out[2] == "<result>EFBIG</result>"


@pytest.mark.parametrize(
    ("files", "message"),
    [
        pytest.param("write", "files mode must be 'read' or 'read-write'", id="mode"),
        pytest.param({"mode": "read", "prefixes": "/data/"}, "files prefixes must be a list", id="prefix-str"),
        pytest.param({"mode": "read", "prefixes": ["data/"]}, "must be an absolute path", id="prefix-relative"),
        pytest.param({"mode": "read", "prefixes": ["/a/../b"]}, "must not contain '..'", id="prefix-dotdot"),
        pytest.param({"mode": "read", "prefixes": []}, "must not be empty", id="prefix-empty"),
        pytest.param({"mode": "read", "max_bytes": 0}, "max_bytes must be a positive int", id="max-bytes"),
        pytest.param({"mode": "read", "prefix": ["/a/"]}, "unknown files option(s): prefix", id="unknown-key"),
        pytest.param({"mode": "read", "backend": object()}, "BackendProtocol instance", id="backend"),
        pytest.param(True, "`files` must be None, 'read', 'read-write'", id="bool"),
    ],
)
def test_files_option_is_validated_at_construction(files: Any, message: str) -> None:
    with pytest.raises(ValueError, match=None) as info:
        CodeInterpreterMiddleware(files=files)
    assert message in str(info.value)


def test_standalone_interpreter_needs_a_backend_that_is_not_state() -> None:
    from deepagents.backends import StateBackend

    with pytest.raises(ValueError, match="needs a backend"):
        Interpreter(files="read")
    with pytest.raises(ValueError, match="StateBackend keeps files"):
        Interpreter(files=FilesAccess("read", backend=StateBackend()))


# ------------------------------------------------------------------------------------------------ filesystem backend


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "agent"
    (root / "data").mkdir(parents=True)
    (root / "data" / "blob.bin").write_bytes(BINARY)
    (tmp_path / "outside.txt").write_text("host secret")
    return root


def disk_agent(root: Path, mode: str = "read-write", **kw: Any) -> Any:
    backend = FilesystemBackend(root_dir=str(root), virtual_mode=True)
    mw = CodeInterpreterMiddleware(files=FilesAccess(mode, backend=backend), timeout=10.0)  # type: ignore[arg-type]
    return build_agent(mw, backend=backend, **kw)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_disk_file_written_by_write_file_is_read_raw_and_binary_round_trips(folder: Path, use_async: bool) -> None:
    text = json.dumps(REPORT, indent=2)
    out, _ = run(
        disk_agent(folder),
        write_file("/data/report.json", text),
        "JSON.parse(await fs.readFile('/data/report.json', 'utf8')).note",
        "const b = await fs.readFile('/data/blob.bin'); await fs.writeFile('/data/copy.bin', b); b.length",
        use_async=use_async,
    )
    assert out[1] == '<result>line one\nline two</result>'
    assert out[2] == f"<result>{len(BINARY)}</result>"
    assert (folder / "data" / "copy.bin").read_bytes() == BINARY
    assert (folder / "data" / "report.json").read_text() == text


def test_disk_file_written_from_code_is_read_by_read_file_in_the_next_step(folder: Path) -> None:
    out, _ = run(
        disk_agent(folder),
        "await fs.writeFile('/notes/today.txt', 'alpha\\nbeta\\n'); await fs.readdir('/notes')",
        read_file("/notes/today.txt"),
    )
    assert out[0] == '<result>["today.txt"]</result>'
    assert "alpha" in out[1] and "beta" in out[1]
    assert (folder / "notes" / "today.txt").read_text() == "alpha\nbeta\n"


def test_disk_backend_keeps_the_host_file_system_unreachable(folder: Path) -> None:
    (folder / "data" / "link.txt").symlink_to(folder.parent / "outside.txt")
    out, _ = run(
        disk_agent(folder),
        "await fs.readFile('/outside.txt', 'utf8').catch((e) => e.code)",
        "await fs.readFile('/etc/passwd', 'utf8').catch((e) => e.code)",
        "await fs.readFile('/data/link.txt', 'utf8').catch((e) => e.name + ': ' + e.message)",
        "await fs.readFile('/../outside.txt', 'utf8').catch((e) => e.code)",
        "await fs.writeFile('/../escape.txt', 'x').catch((e) => e.code)",
    )
    assert out[0] == "<result>ENOENT</result>"
    assert out[1] == "<result>ENOENT</result>"
    assert "host secret" not in out[2]
    assert out[3] == "<result>EACCES</result>"
    assert out[4] == "<result>EACCES</result>"
    assert not (folder.parent / "escape.txt").exists()


def test_standalone_interpreter_with_a_filesystem_backend(folder: Path) -> None:
    records: list[AuditRecord] = []
    backend = FilesystemBackend(root_dir=str(folder), virtual_mode=True)
    access = FilesAccess("read-write", prefixes=["/data/"], backend=backend)
    with Interpreter(files=access, audit=records.append) as js:
        assert js.eval("(await fs.readFile('/data/blob.bin')).length").text == f"<result>{len(BINARY)}</result>"
        assert js.eval("await fs.writeFile('/data/n.txt', 'ünï'); await fs.readFile('/data/n.txt')").text == (
            "<result>Uint8Array(5) [195, 188, 110, 195, 175]</result>"
        )

        async def later() -> str:
            return (await js.aeval("await fs.readFile('/data/n.txt', 'utf8')")).text

        assert asyncio.run(later()) == "<result>ünï</result>"
    assert [r.files for r in records] == [
        (("readFile", "/data/blob.bin"),),
        (("writeFile", "/data/n.txt"), ("readFile", "/data/n.txt")),
        (("readFile", "/data/n.txt"),),
    ]


# ------------------------------------------------------------------------------------------------ tracing, audit


class ChainRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.runs: dict[uuid.UUID, tuple[str, uuid.UUID | None]] = {}

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: uuid.UUID,
                       parent_run_id: uuid.UUID | None = None, **kwargs: Any) -> None:
        self.runs[run_id] = (kwargs.get("name") or (serialized or {}).get("name", ""), parent_run_id)

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: uuid.UUID,
                      parent_run_id: uuid.UUID | None = None, **kwargs: Any) -> None:
        self.runs[run_id] = ((serialized or {}).get("name", ""), parent_run_id)


def test_fs_calls_are_child_runs_of_the_eval_and_audited() -> None:
    recorder = ChainRecorder()
    records: list[AuditRecord] = []
    agent = build_agent(CodeInterpreterMiddleware(files="read-write", audit=records.append))
    state = agent.invoke(
        {"messages": [HumanMessage(json.dumps(["await fs.writeFile('/t.txt', 'x'); await fs.readdir('/')"]))]},
        {**thread(), "callbacks": [recorder]},
    )
    assert results_of(state) == ['<result>["t.txt"]</result>']
    evals = [rid for rid, (name, _) in recorder.runs.items() if name == "eval"]
    fs_parents = sorted((name, parent) for name, parent in recorder.runs.values() if name.startswith("fs."))
    assert len(evals) == 1
    assert fs_parents == [("fs.readdir", evals[0]), ("fs.writeFile", evals[0])]
    assert records[-1].files == (("writeFile", "/t.txt"), ("readdir", "/"))


def test_file_bytes_count_against_the_memory_limit_and_the_output_budget(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x" * (4 << 20))
    backend = FilesystemBackend(root_dir=str(tmp_path), virtual_mode=True)
    access = FilesAccess("read", backend=backend, max_bytes=1 << 30)
    with Interpreter(files=access, memory_limit=16 << 20, max_result_chars=100, timeout=60.0) as js:
        printed = js.eval("console.log(await fs.readFile('/big.txt', 'utf8')); 'printed'")
        assert printed.value == "printed" and len(printed.stdout) == 100 and printed.stdout_dropped == (4 << 20) - 100
        kept = js.eval("const keep = []; for (let i = 0; i < 40; i++) keep.push(await fs.readFile('/big.txt', 'utf8'));"
                       " keep.length")
        assert kept.status == "limit" and kept.error_type == "OutOfMemory", kept.text
        assert js.eval("1 + 1").text == "<result>2</result>"
