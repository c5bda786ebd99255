"""The standalone interpreter: a sandboxed, persistent JavaScript REPL usable without any agent."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Mapping
from types import TracebackType
from typing import Any

from . import _audit, _files
from ._audit import AuditTarget
from ._files import FilesAccess
from ._hostcalls import CallPump
from ._loop import private_loop
from ._output import OutputCallback, check_callback
from ._runtime import _adapter, _prestart
from ._runtime._adapter import EvalOutcome, Guest, HostBinding
from ._runtime._pools import shared_pool
from .errors import InterpreterClosedError, OptionsError
from .options import (
    DEFAULT_MAX_CODE_BYTES,
    DEFAULT_MAX_NESTING,
    DEFAULT_MEMORY_LIMIT,
    Clock,
    InterpreterOptions,
    Isolation,
)


def _shared_executor() -> concurrent.futures.ThreadPoolExecutor:
    """Threads that wait in Java for async evals."""
    return shared_pool("eval", 32)


class Interpreter:
    """A persistent, sandboxed JavaScript (or Python) REPL running in its own GraalVM context.

    Globals persist across :meth:`eval` calls. Each call is bounded by ``timeout`` (guest execution time) and
    ``memory_limit`` (memory the guest keeps during the call). The guest has no file system, network, host clock,
    environment, threads or Java access. TypeScript type annotations are accepted.

    Example:
        ```python
        with Interpreter() as js:
            js.eval("const xs = [1, 2, 3]")
            print(js.eval("xs.map(x => x * 2)").text)  # <result>[2, 4, 6]</result>
        ```

    Args:
        language: the guest language; ``"js"`` (``"javascript"`` and ``"typescript"`` are accepted aliases), or
            ``"python"`` (GraalPy, Python 3.12, with notebook semantics; needs the optional GraalPy jars).
        timeout: seconds of guest execution allowed per call.
        memory_limit: memory the guest may keep during one call, in QuickJS-equivalent bytes (see ``heap_factor``);
            0 disables the limit.
        max_result_chars: characters kept of the result, the error and the console output, each.
        capture_console: whether the guest gets a ``console`` object.
        clock: ``"frozen"`` (``Date`` shows ``frozen_epoch_ms``, the host time is never seen) or ``"host"``.
        frozen_epoch_ms: the instant a frozen clock shows, in milliseconds since 1970-01-01T00:00:00Z.
        interrupt_grace: seconds an interrupted guest gets to stop before its context is closed by force.
        snapshots: prepare every context for :meth:`snapshot` and :meth:`restore` (a few ms per context).
        max_wall_time: seconds one call may take in all, waits on tools and subagents included (``timeout``
            counts guest execution only). Default 300.
        heap_factor: JVM heap allowed per byte of ``memory_limit``. GraalJS objects are larger than QuickJS's,
            so the default of 2 lets programs written for a QuickJS limit run under the same number.
        max_code_bytes: the largest cell accepted, in bytes of UTF-8 (default 1 MiB); larger code gets a
            ``CodeTooLarge`` error before anything parses it, and the globals are kept.
        max_nesting: the deepest nesting a cell may have (default 1000): brackets, template substitutions,
            regular expression groups and the operators chained in one expression. Deeper code gets a
            ``CodeTooDeep`` error before anything parses it, and the globals are kept.
        audit: receives every eval as an :class:`~langchain_graalvm.AuditRecord` (code, outcome, duration,
            thread): a callable, a :class:`logging.Logger`, or a logger's name (records go out at INFO level).
            A callable that raises is logged and does not affect the eval.
        files: the files of a Deep Agents backend inside code (off by default): a
            :class:`~langchain_graalvm.FilesAccess` with its ``backend`` set (for example
            ``FilesystemBackend(root_dir=..., virtual_mode=True)``), or a mapping of its fields. JavaScript gets
            ``fs``, Python ``files``. A ``StateBackend`` needs an agent run, so it is refused here.
        prestart: build the context (starting the JVM first, if needed) in a background thread now, so the first
            call finds it ready. ``None`` (default): yes, unless ``LANGCHAIN_GRAALVM_BACKGROUND_START=0``. Errors
            (no JDK, missing jars) are raised by the first call, never by the background thread.
        isolation: where the guest runs. ``"in-process"``: in a GraalVM context of this process's JVM.
            ``"process"``: in a worker JVM process of its own, from this process's pool, whose heap is capped from
            ``memory_limit`` and which is killed and replaced if it crashes, runs out of heap or is left stuck
            (see docs/workers.md). ``None`` (default): ``LANGCHAIN_GRAALVM_ISOLATION``, else ``"in-process"``.
        on_output: ``on_output(stream, text)`` receives what the guest prints while the cell runs: ``stream`` is
            ``"stdout"`` (JavaScript's ``console.log/info/debug/trace``, Python's ``sys.stdout``) or ``"stderr"``
            (``console.warn/error``, ``sys.stderr``). Output comes in order across both streams, batched: what
            the guest prints within 25 ms, and whatever piled up while the callback was busy, arrives as one call
            per run of one stream. It runs on a thread of its own, never the guest's, so a slow callback cannot
            stall the cell; one that raises is logged once per eval (logger ``langchain_graalvm``) and the eval
            goes on. An eval returns once its output was delivered, waiting at most 2 s for a slow callback,
            which then goes on in the background. At most 1,000,000 characters are streamed per eval, then one
            ``"[output past 1000000 characters is not streamed]"`` notice. The outcome's envelope is the same
            with or without it. Not callable: ``OptionsError``.

    !!! warning
        ``timeout`` bounds guest execution, and ``memory_limit`` is measured at garbage collections: it is
        approximate, and a single allocation larger than the JVM heap still fails the allocation, not the host.
    """

    def __init__(
        self,
        language: str = "js",
        *,
        timeout: float = 5.0,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        max_result_chars: int = 4000,
        capture_console: bool = True,
        clock: Clock = "frozen",
        frozen_epoch_ms: int = 0,
        interrupt_grace: float = 0.5,
        snapshots: bool = False,
        heap_factor: float = 2.0,
        max_wall_time: float = 300.0,
        max_code_bytes: int = DEFAULT_MAX_CODE_BYTES,
        max_nesting: int = DEFAULT_MAX_NESTING,
        audit: AuditTarget = None,
        files: FilesAccess | Mapping[str, Any] | None = None,
        _agent_modules: bool = False,
        prestart: bool | None = None,
        isolation: Isolation | None = None,
        on_output: OutputCallback | None = None,
    ) -> None:
        access = _check_standalone_files(files)
        output = check_callback(on_output)
        options = InterpreterOptions(
            language=language,  # type: ignore[arg-type]  # an alias; the options resolve it
            timeout=timeout,
            memory_limit=memory_limit,
            max_result_chars=max_result_chars,
            capture_console=capture_console,
            clock=clock,
            frozen_epoch_ms=frozen_epoch_ms,
            interrupt_grace=interrupt_grace,
            snapshots=snapshots,
            heap_factor=heap_factor,
            max_wall_time=max_wall_time,
            max_code_bytes=max_code_bytes,
            max_nesting=max_nesting,
            # Imports from the agent's files, served by an eval's host bridge (the middleware's, or our own).
            agent_modules=_agent_modules or access is not None,
            isolation=isolation,
        )
        self._setup(options, access, audit, prestart, output)

    @classmethod
    def from_options(
        cls,
        options: InterpreterOptions,
        *,
        audit: AuditTarget = None,
        files: FilesAccess | Mapping[str, Any] | None = None,
        prestart: bool | None = None,
        on_output: OutputCallback | None = None,
    ) -> Interpreter:
        """An interpreter made from ``options`` (validated already); the other arguments are as for the class."""
        self = cls.__new__(cls)
        self._setup(options, _check_standalone_files(files), audit, prestart, check_callback(on_output))
        return self

    def _setup(
        self,
        options: InterpreterOptions,
        files: FilesAccess | None,
        audit: AuditTarget,
        prestart: bool | None,
        on_output: OutputCallback | None,
    ) -> None:
        self._files = files
        self._on_output = on_output
        self.options = options
        self.language = options.language
        self.timeout = options.timeout
        self.memory_limit = options.memory_limit
        self.max_result_chars = options.max_result_chars
        self._auditor = _audit.resolve(audit)
        self._guest: Guest | None = None
        self._guest_lock = threading.Lock()
        self._closed = False
        self._pending: _prestart.Pending | None = None
        if _prestart.wanted(prestart):
            in_process = options.isolation != "process"
            self._pending = _prestart.Pending(_prestart.submit(self._warm, in_process=in_process))

    def _warm(self) -> None:
        if self._closed or _prestart.exiting():
            return
        self._prepare(self._guest_now())

    def prepare(self) -> None:
        """Builds the context now, so the first call does not wait for it. No cell is run, counted or audited.

        With snapshots on, an empty snapshot builds it (a restore may still follow, as no cell ran); a Python
        interpreter runs an empty cell, which does not count as a cell. When the background start is already
        building it, this waits for that instead of building it a second time.
        """
        self._prepare(self._interpreter())

    def _prepare(self, guest: Guest) -> None:
        if self.language == "python":
            guest.eval("", None)
        elif self.options.snapshots:
            guest.snapshot(None)
        else:
            guest.prepare()

    def _interpreter(self) -> Guest:
        pending, self._pending = self._pending, None
        if pending is not None:
            if pending.forked:
                # The parent's warm-up thread may have held the lock when it forked; this process has no such thread.
                self._guest_lock = threading.Lock()
            pending.wait()
        return self._guest_now()

    def _guest_now(self) -> Guest:
        if self._closed:
            raise InterpreterClosedError("the interpreter is closed")
        # First of all, in a fork of a process whose JVM started: not even a lock the parent held may be waited on.
        _adapter.check_not_forked(self.options)
        guest = self._guest
        # A guest closes itself when it was stuck in a builtin that ignores interrupts and was given up, or lost its
        # worker (that eval's outcome said the globals were gone): the next call gets a fresh one. A worker lost
        # between evals is kept for one more call, whose outcome says the globals are gone.
        if guest is None or guest.is_closed():
            with self._guest_lock:
                if self._closed:
                    raise InterpreterClosedError("the interpreter is closed")
                if self._guest is None or self._guest.is_closed():
                    self._guest = _adapter.new_interpreter(self.options)
                    if self._closed:  # closed meanwhile (close() does not wait for a background build)
                        self._guest.close()
                        self._guest = None
                        raise InterpreterClosedError("the interpreter is closed")
                guest = self._guest
        return guest

    def eval(self, code: str, *, host: HostBinding | None = None) -> EvalOutcome:
        """Runs ``code`` and returns its outcome. Guest errors, timeouts and limits never raise.

        ``host`` gives the cell host functions (``tools.*``, ``task``); the middleware passes it, and it takes the
        place of the interpreter's own ``files`` and ``on_output``.
        """
        if not isinstance(code, str):
            raise TypeError(f"code must be a str; got {type(code).__name__}")
        guest = self._interpreter()
        own = self._own_host(None) if host is None else None
        try:
            outcome = guest.eval(code, own or host)
        finally:
            if own is not None:
                own.close()
        if own is not None:
            own.flush_output()
        _audit.report(self._auditor, code, outcome, own.files_touched if own is not None else None)
        return outcome

    def _own_host(self, loop: asyncio.AbstractEventLoop | None) -> CallPump | None:
        """The host calls of one eval when the interpreter has ``files`` or ``on_output`` of its own; None
        otherwise."""
        if self._files is None and self._on_output is None:
            return None
        files = _files.FileCalls(self._files) if self._files is not None else None
        return CallPump(loop or private_loop(), files, self._on_output)

    async def aeval(self, code: str, *, host: HostBinding | None = None) -> EvalOutcome:
        """Like :meth:`eval`, without blocking the event loop. Cancelling it stops the guest."""
        if not isinstance(code, str):
            raise TypeError(f"code must be a str; got {type(code).__name__}")
        guest = self._guest
        if self._closed or guest is None or guest.is_closed():
            # A new guest builds a context, and the first one starts the JVM (or a worker): seconds, off the loop.
            guest = await asyncio.to_thread(self._interpreter)
        loop = asyncio.get_running_loop()
        own = self._own_host(loop) if host is None else None
        touched = own.files_touched if own is not None else None
        future = loop.run_in_executor(_shared_executor(), guest.eval, code, own or host)
        try:
            outcome = await asyncio.shield(future)
        except asyncio.CancelledError:
            # The Java call keeps running in its thread until the guest is told to stop.
            guest.cancel()
            await asyncio.wait([future])
            if not future.cancelled() and future.exception() is None:
                _audit.report(self._auditor, code, future.result(), touched)
            raise
        finally:
            if own is not None:
                own.close()
        if own is not None:
            await own.aflush_output()
        _audit.report(self._auditor, code, outcome, touched)
        return outcome

    def snapshot(self, max_bytes: int | None = None) -> bytes:
        """The model's globals as a versioned JSON payload (UTF-8 bytes).

        Data values round-trip exactly; functions and classes are recreated from their source; anything else
        becomes a residue that throws ``Value for 'NAME' was not restored because it is not serializable
        (type: TYPE).`` when touched after :meth:`restore`.

        Raises:
            SnapshotError: the payload would exceed ``max_bytes``, or the guest made it fail or time out.
            RuntimeError: the interpreter was created without ``snapshots=True``, is closed, or is evaluating.
        """
        return self._interpreter().snapshot(max_bytes)

    def restore(self, payload: bytes) -> list[str]:
        """Restores globals saved by :meth:`snapshot`; call it before evaluating anything.

        Raises:
            SnapshotError: the payload is corrupt or foreign; nothing was changed.
        """
        if not isinstance(payload, (bytes, bytearray)):
            raise TypeError(f"payload must be bytes; got {type(payload).__name__}")
        return self._interpreter().restore(bytes(payload))

    def cancel(self) -> None:
        """Stops the running eval, if any. It returns a ``Cancelled`` error."""
        if self._guest is not None:
            self._guest.cancel()

    @property
    def alive(self) -> bool:
        """False once the interpreter is closed, or its globals were lost since the last eval (its sandbox worker
        died; the next eval says so and runs in a new one). Asks nothing of the guest: the worker's end is seen
        when it happens."""
        guest = self._guest
        return not self._closed and (guest is None or not guest.lost_unreported())

    def close(self) -> None:
        """Stops any running eval and frees the context. Idempotent."""
        self._closed = True
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.cancel()
        guest, self._guest = self._guest, None
        if guest is not None:
            guest.close()

    def __enter__(self) -> Interpreter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown may have torn the JVM down already
            pass


def _check_standalone_files(files: Any) -> FilesAccess | None:
    access = _files.check_files_option(files)
    if access is None:
        return None
    if access.backend is None:
        raise OptionsError(
            "Interpreter(files=...) needs a backend: FilesAccess('read', backend=FilesystemBackend(root_dir=..., "
            "virtual_mode=True)), or another deepagents BackendProtocol instance"
        )
    if _files.is_state_backend(access.backend):
        raise OptionsError(
            "a StateBackend keeps files in an agent run's state, which a standalone Interpreter does not have; use "
            "CodeInterpreterMiddleware(files=...) in the agent, or another backend here"
        )
    return access


def runtime_info() -> dict[str, Any]:
    """Facts about this process's sandbox runtime: GraalVM version, runtime name, JIT, JDK. Starts the JVM."""
    return _adapter.runtime_facts()
