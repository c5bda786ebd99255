"""The agent's files inside code: the ``files=`` option and the host side of the guest's ``fs`` calls.

Every call goes through the agent's Deep Agents backend (``BackendProtocol``), never the host file system: a
``StateBackend`` reads and writes the run's ``files`` state through the same LangGraph channels its tools use, so a
file written from code is what ``read_file`` sees next. Paths are checked here, before the backend is asked:
absolute, no ``..`` component, under one of the allowed prefixes, writes only in ``"read-write"`` mode.

A standalone interpreter uses this module too, so it never imports Deep Agents (which loads LangChain) for a
backend it was given: the backend's own classes are looked up among the loaded modules, where they must be if the
backend is one of them.
"""

from __future__ import annotations

import dataclasses
import posixpath
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from .errors import FsError, OptionsError

if TYPE_CHECKING:
    from deepagents.backends.protocol import BackendProtocol

FilesMode = Literal["read", "read-write"]
_MODES = ("read", "read-write")
_DEFAULT_MAX_BYTES = 16 * 1024 * 1024
_WRITES = frozenset({"writeFile", "rm"})
_BACKEND_ERRORS = {
    "file_not_found": ("ENOENT", "no such file or directory"),
    "permission_denied": ("EACCES", "permission denied"),
    "is_directory": ("EISDIR", "illegal operation on a directory"),
    "invalid_path": ("EINVAL", "invalid path"),
}
# The backend methods ``fs`` calls: a backend that is not a ``BackendProtocol`` is taken when it has them.
_BACKEND_METHODS = ("adownload_files", "aupload_files", "als", "aglob")


@dataclasses.dataclass(frozen=True)
class FilesAccess:
    """What code in the interpreter may do with the agent's files.

    Args:
        mode: ``"read"`` (read, list, stat, glob) or ``"read-write"`` (also write and remove).
        prefixes: the path prefixes code may touch, such as ``["/data/"]``; ``None`` (default) allows every path
            of the backend. A prefix is a directory: ``"/data"`` and ``"/data/"`` both allow ``/data/x`` but not
            ``/database``.
        max_bytes: bytes one eval may read and write in all (file contents only). Default 16 MiB.
        backend: the agent's backend. ``None`` (default) is a ``StateBackend``, which is what
            ``create_deep_agent`` uses unless given another one; pass the same backend instance as the agent. Any
            object with a ``BackendProtocol``'s async file methods (``adownload_files``, ``aupload_files``, ``als``,
            ``aglob``, and ``adelete`` for removals) is accepted too.

    Example:
        ```python
        CodeInterpreterMiddleware(files=FilesAccess("read-write", prefixes=["/data/"]))
        ```
    """

    mode: FilesMode = "read"
    prefixes: tuple[str, ...] | None = None
    max_bytes: int = _DEFAULT_MAX_BYTES
    backend: BackendProtocol | None = None

    def __post_init__(self) -> None:
        if self.mode not in _MODES:
            raise OptionsError(f"files mode must be 'read' or 'read-write'; got {self.mode!r}")
        if isinstance(self.max_bytes, bool) or not isinstance(self.max_bytes, int) or self.max_bytes < 1:
            raise OptionsError(f"files max_bytes must be a positive int; got {self.max_bytes!r}")
        if self.prefixes is not None:
            if isinstance(self.prefixes, str) or not isinstance(self.prefixes, Iterable):
                raise OptionsError("files prefixes must be a list of absolute paths such as ['/data/'], or None")
            checked = tuple(_check_prefix(p) for p in self.prefixes)
            if not checked:
                raise OptionsError("files prefixes must not be empty; use None to allow every path")
            object.__setattr__(self, "prefixes", checked)
        if self.backend is not None and not _is_backend(self.backend):
            raise OptionsError(
                "files backend must be a deepagents BackendProtocol instance (StateBackend(), "
                "FilesystemBackend(root_dir=..., virtual_mode=True), ...) or have its async file methods "
                f"({', '.join(_BACKEND_METHODS)}); got {type(self.backend).__name__}"
            )

    @property
    def writable(self) -> bool:
        """Whether code may write and remove files."""
        return self.mode == "read-write"

    def resolved_backend(self) -> BackendProtocol:
        """The backend calls go to (a ``StateBackend`` when none was given)."""
        if self.backend is not None:
            return self.backend
        from deepagents.backends.state import StateBackend

        return StateBackend()


FilesOption = FilesAccess | FilesMode | Mapping[str, Any] | None


def _is_protocol(backend: Any) -> bool:
    """Whether ``backend`` is a Deep Agents ``BackendProtocol``."""
    protocol = sys.modules.get("deepagents.backends.protocol")
    return protocol is not None and isinstance(backend, protocol.BackendProtocol)


def _is_backend(backend: Any) -> bool:
    """Whether ``backend`` can serve ``fs`` calls."""
    return _is_protocol(backend) or all(callable(getattr(backend, name, None)) for name in _BACKEND_METHODS)


def is_state_backend(backend: Any) -> bool:
    """Whether ``backend`` keeps its files in an agent run's state (a Deep Agents ``StateBackend``)."""
    state = sys.modules.get("deepagents.backends.state")
    return state is not None and isinstance(backend, state.StateBackend)


def _deletes(backend: Any) -> bool:
    """Whether ``backend`` can remove files (a ``BackendProtocol`` need not implement ``delete``)."""
    if _is_protocol(backend):
        from deepagents.backends.protocol import _supports_delete  # loaded already: the backend is one of its classes

        return _supports_delete(backend)
    return callable(getattr(backend, "adelete", None))


def _check_prefix(prefix: Any) -> str:
    if not isinstance(prefix, str) or not prefix.startswith("/"):
        raise OptionsError(f"a files prefix must be an absolute path such as '/data/'; got {prefix!r}")
    if ".." in prefix.split("/") or "\x00" in prefix:
        raise OptionsError(f"a files prefix must not contain '..' or NUL; got {prefix!r}")
    normal = posixpath.normpath(prefix)
    return "/" if normal in ("/", "//") else normal.rstrip("/") + "/"


def check_files_option(files: Any) -> FilesAccess | None:
    """Validates ``files=``: a :class:`FilesAccess`, a mode string, a mapping of its fields, or None."""
    if files is None or isinstance(files, FilesAccess):
        return files
    if isinstance(files, str):
        return FilesAccess(files)  # type: ignore[arg-type]
    if isinstance(files, Mapping):
        unknown = set(files) - {f.name for f in dataclasses.fields(FilesAccess)}
        if unknown:
            raise OptionsError(f"unknown files option(s): {', '.join(sorted(map(str, unknown)))}")
        return FilesAccess(**dict(files))
    raise OptionsError(
        "`files` must be None, 'read', 'read-write', a FilesAccess, or a mapping like "
        f"{{'mode': 'read', 'prefixes': ['/data/']}}; got {type(files).__name__}"
    )


def _allowed_text(access: FilesAccess) -> str:
    return ", ".join(access.prefixes) if access.prefixes else "/"


def normalise(access: FilesAccess, raw: Any, syscall: str, *, write: bool) -> str:
    """The absolute, normalised path ``raw`` names, once it is allowed; else :class:`FsError`."""
    if not isinstance(raw, str) or not raw:
        raise FsError("EINVAL", f"EINVAL: {syscall} needs a path string such as '/data/input.json'", None, syscall)
    if "\x00" in raw:
        raise FsError("EINVAL", f"EINVAL: the path contains a NUL character, {syscall} {raw!r}", raw, syscall)
    if not raw.startswith("/"):
        raise FsError(
            "EINVAL",
            f"EINVAL: relative paths are not supported, {syscall} '{raw}'. Use an absolute path of the agent's "
            f"files, such as '/{raw.lstrip('./')}'.",
            raw,
            syscall,
        )
    if ".." in raw.split("/"):
        raise FsError(
            "EACCES", f"EACCES: '..' is not allowed in paths, {syscall} '{raw}'. Name the file directly.", raw, syscall
        )
    path = posixpath.normpath(raw)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    if not _under_prefixes(access, path):
        raise FsError(
            "EACCES",
            f"EACCES: permission denied, {syscall} '{path}'. Code may only use paths under {_allowed_text(access)}.",
            path,
            syscall,
        )
    if write and not access.writable:
        raise FsError(
            "EACCES",
            f"EACCES: permission denied, {syscall} '{path}'. The agent's files are read-only from code; use the "
            "write_file or edit_file tool instead.",
            path,
            syscall,
        )
    return path


def _under_prefixes(access: FilesAccess, path: str) -> bool:
    if access.prefixes is None:
        return True
    with_slash = path if path.endswith("/") else path + "/"
    return any(with_slash.startswith(prefix) for prefix in access.prefixes)


def _backend_error(error: str, path: str, syscall: str) -> FsError:
    code, words = _BACKEND_ERRORS.get(error, ("EIO", error))
    hint = " List its directory to check the path." if code == "ENOENT" else ""
    if code == "ENOENT" and syscall == "import":
        hint = (
            " Modules are imported from the agent's files by absolute path, like '/lib/util.js'; the file API is "
            "the global `fs`, not a module."
        )
    return FsError(code, f"{code}: {words}, {syscall} '{path}'.{hint}", path, syscall)


class FileCalls:
    """The ``fs`` calls of one eval: its byte budget, and the paths it touched (for the audit hook)."""

    def __init__(self, access: FilesAccess) -> None:
        self.access = access
        self.backend = access.resolved_backend()
        self.bytes_used = 0
        self.touched: list[tuple[str, str]] = []

    def _charge(self, size: int, path: str, syscall: str) -> None:
        if self.bytes_used + size > self.access.max_bytes:
            raise FsError(
                "EFBIG",
                f"EFBIG: {syscall} '{path}' would pass this eval's budget of {self.access.max_bytes} bytes of file "
                f"data ({self.bytes_used} used). Read or write less per call, or split the work over several calls.",
                path,
                syscall,
            )
        self.bytes_used += size

    async def run(self, op: str, args: Mapping[str, Any]) -> Any:
        """Runs one ``fs`` call; raises :class:`FsError` for anything the guest should see as an fs error."""
        if op == "glob":
            return await self._glob(args)
        syscall = {"readFile": "open", "writeFile": "open", "readdir": "scandir", "stat": "stat", "rm": "rm"}.get(
            op, "import"
        )
        path = normalise(self.access, args.get("path"), syscall, write=op in _WRITES)
        self.touched.append(("import" if op == "module" else op, path))
        if op == "readFile":
            return await self._read(path, args.get("encoding"))
        if op == "module":
            return await self._read(path, "utf8", "import")
        if op == "writeFile":
            return await self._write(path, args.get("data"))
        if op == "readdir":
            return await self._readdir(path)
        if op == "stat":
            return await self._stat(path)
        return await self._rm(path, bool(args.get("recursive")))

    async def _read(self, path: str, encoding: Any, syscall: str = "open") -> Any:
        (response,) = await self.backend.adownload_files([path])
        if response.error or response.content is None:
            raise _backend_error(str(response.error or "file_not_found"), path, syscall)
        content = bytes(response.content)
        self._charge(len(content), path, syscall)
        if encoding == "utf8":
            return content.decode("utf-8", errors="replace")
        return content

    async def _write(self, path: str, data: Any) -> None:
        if isinstance(data, str):
            content = data.encode("utf-8")
        elif isinstance(data, (bytes, bytearray)):
            content = bytes(data)
        else:
            raise FsError("EINVAL", "EINVAL: fs.writeFile takes a string or a Uint8Array", path, "open")
        if path == "/" or path.endswith("/"):
            raise _backend_error("is_directory", path, "open")
        self._charge(len(content), path, "open")
        (response,) = await self.backend.aupload_files([(path, content)])
        if response.error:
            raise _backend_error(str(response.error), path, "open")

    async def _entries(self, path: str, syscall: str) -> list[tuple[str, Mapping[str, Any]]]:
        result = await self.backend.als(path)
        if result.error is not None or result.entries is None:
            if "not_a_directory" in str(result.error):
                raise FsError("ENOTDIR", f"ENOTDIR: not a directory, {syscall} '{path}'", path, syscall)
            raise _backend_error("file_not_found", path, syscall)
        base = path.rstrip("/") + "/"
        out: list[tuple[str, Mapping[str, Any]]] = []
        for entry in result.entries:
            name = str(entry.get("path", ""))
            if name.rstrip("/").startswith(base) or path == "/":
                out.append((name, entry))
        return out

    async def _readdir(self, path: str) -> list[str]:
        entries = await self._entries(path, "scandir")
        if not entries and path != "/":
            info = await self._stat(path, "scandir")
            if info["isFile"]:
                raise FsError("ENOTDIR", f"ENOTDIR: not a directory, scandir '{path}'", path, "scandir")
        return sorted({posixpath.basename(name.rstrip("/")) for name, _ in entries})

    async def _stat(self, path: str, syscall: str = "stat") -> dict[str, Any]:
        if path == "/":
            return {"size": 0, "isFile": False, "isDirectory": True}
        parent = posixpath.dirname(path)
        result = await self.backend.als(parent)
        for entry in result.entries or ():
            name = str(entry.get("path", ""))
            if name.rstrip("/") == path:
                is_dir = bool(entry.get("is_dir")) or name.endswith("/")
                size = 0 if is_dir else int(entry.get("size") or 0)
                return {"size": size, "isFile": not is_dir, "isDirectory": is_dir}
        raise _backend_error("file_not_found", path, syscall)

    async def _rm(self, path: str, recursive: bool) -> None:
        info = await self._stat(path, "rm")
        if info["isDirectory"] and not recursive:
            raise FsError(
                "EISDIR",
                f"EISDIR: '{path}' is a directory; pass {{recursive: true}} to remove it and its files.",
                path,
                "rm",
            )
        if not _deletes(self.backend):
            raise FsError("ENOTSUP", f"ENOTSUP: the agent's backend cannot delete files, rm '{path}'", path, "rm")
        result = await self.backend.adelete(path)
        if result.error:
            raise _backend_error("file_not_found", path, "rm")

    async def _glob(self, args: Mapping[str, Any]) -> list[str]:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise FsError("EINVAL", "EINVAL: fs.glob needs a pattern string such as '/data/**/*.csv'", None, "glob")
        where = args.get("path")
        root = normalise(self.access, where, "glob", write=False) if where is not None else None
        self.touched.append(("glob", root or pattern))
        result = await self.backend.aglob(pattern, root)
        if result.error is not None:
            raise FsError("EINVAL", f"EINVAL: fs.glob('{pattern}'): {result.error}", root, "glob")
        paths = [str(m.get("path", "")) for m in result.matches or ()]
        return sorted(p for p in paths if p.startswith("/") and _under_prefixes(self.access, p))


def trace_summary(value: Any) -> Any:
    """What a trace shows of an ``fs`` call's input or output: file contents as their size only."""
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": len(value)}
    if isinstance(value, str):
        return value if len(value) <= 200 else {"chars": len(value)}
    if isinstance(value, Mapping):
        return {str(k): trace_summary(v) for k, v in value.items()}
    if isinstance(value, list) and len(value) > 100:
        return {"entries": len(value)}
    return value


def prompt_section(access: FilesAccess | None, tool_name: str, language: str) -> str:
    """The system-prompt section describing the agent's files inside code; empty when ``files`` is off."""
    if access is None:
        return ""
    where = (
        f"Only paths under {', '.join(f'`{p}`' for p in access.prefixes)} may be used."
        if access.prefixes
        else "Any path of the agent's files may be used."
    )
    writes = (
        "Writes and removals land in the agent's files at once: `read_file` and the next turn see them."
        if access.writable
        else "The files are read-only from code: writes and removals fail with `EACCES`."
    )
    budget = f"At most {access.max_bytes} bytes of file data are read and written per `{tool_name}` call."
    if language == "python":
        api = [
            "`files.read_text(path)` returns the exact text, `files.read_bytes(path)` the bytes, "
            "`files.write(path, str_or_bytes)`, `files.listdir(path)`, `files.stat(path)` "
            "(`{'size', 'is_file', 'is_dir'}`), `files.remove(path, recursive=False)` and "
            "`files.glob(pattern, path=None)`.",
            "A failure raises `FileNotFoundError`, `PermissionError`, `IsADirectoryError`, ... with a message "
            "saying what to do.",
        ]
        name = "files"
    else:
        api = [
            "`await fs.readFile(path, 'utf8')` returns the exact text (no line numbers, no truncation) and "
            "`await fs.readFile(path)` the bytes as a `Uint8Array`; `await fs.writeFile(path, textOrBytes)`, "
            "`await fs.readdir(path)` (names), `await fs.stat(path)` (`size`, `isFile()`, `isDirectory()`), "
            "`await fs.rm(path, {recursive})` and `await fs.glob(pattern, {cwd})` (absolute paths).",
            "A failure rejects with a Node-style error whose `code` is `ENOENT`, `EACCES`, `EISDIR`, ... and whose "
            "message says what to do.",
            "ES modules among the files can be imported by absolute path: `import { f } from '/lib/util.js'` or "
            "`await import('/lib/util.js')` (`.ts` modules too); each call reads them afresh.",
        ]
        name = "fs"
    lines = [
        "",
        "",
        f"### The agent's files inside the interpreter (`{name}`)",
        "",
        f"Code run by `{tool_name}` can read the files the file tools (`ls`, `read_file`, `write_file`, ...) work "
        f"on, through the global `{name}`. Paths are absolute, like `/data/input.json`; `..` is refused.",
        "",
        *(f"- {line}" for line in api),
        f"- {where}",
        f"- {writes}",
        f"- {budget}",
        "- Parse files in code (`JSON.parse`, CSV splitting) and return only what the user needs."
        if language != "python"
        else "- Parse files in code (`json.loads`, `csv`) and return only what the user needs.",
    ]
    return "\n".join(lines)
