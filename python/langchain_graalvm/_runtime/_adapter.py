"""The seam between the interpreter and the sandbox: :func:`new_interpreter` builds a guest of the backend the
options choose (see :mod:`._backend`), and this module is the in-process backend, the Java sandbox seen from
Python through JPype.

No JPype object leaves this module. Strings cross as Java strings and are converted once, here.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..errors import GuestUnavailableError, JvmUnusableError, SnapshotError
from ..options import InterpreterOptions
from . import _jvm, _launch
from ._backend import (
    PYTHON_MISSING,
    CallChannel,
    EvalOutcome,
    Guest,
    HostBinding,
    HostFunctions,
    decode_snapshot,
    host_error_outcome,
)

__all__ = ["CallChannel", "EvalOutcome", "Guest", "HostBinding", "new_interpreter"]

_PACKAGE = "io.github.langchaingraalvm.sandbox"


def text_of(value: Any) -> str:
    """A Java string as Python text; lone surrogates become visible ``\\uXXXX`` escapes instead of raising."""
    return _jvm.to_str(value)


def call_with_text(method: Any, text: str, *rest: Any) -> Any:
    """Calls a Java method whose first argument is ``text``, also when ``text`` holds lone surrogates."""
    try:
        return method(text, *rest)
    except UnicodeEncodeError:
        # JPype encodes Python text as UTF-8 and refuses lone surrogates; they cross as exact UTF-16 instead.
        return method(_jvm.java_string(text), *rest)


def to_python(outcome: Any) -> EvalOutcome:
    """Copies a Java ``EvalOutcome`` into a Python one, in one call: its fields as the worker protocol sends them
    (one JPype call per field cost about as much as all of the package's Python work on a small cell)."""
    unpacked: EvalOutcome = _wire().unpack_outcome(bytes(_java_wire().outcome(outcome)))
    return unpacked


@functools.cache
def _java_wire() -> Any:
    return _jvm.jclass(f"{_PACKAGE}.worker.Wire")


def _wire() -> Any:
    """:mod:`._wire`, imported on first use: the package imports with the standard library alone (scripts/setup.sh
    imports it before msgpack is installed)."""
    from . import _wire

    return _wire


def new_interpreter(config: InterpreterOptions) -> Guest:
    """A guest interpreter (JavaScript or Python) built from ``config``, in the backend ``config.isolation`` names:
    in this process's JVM, or in a worker process of its own."""
    if config.isolation == "process":
        from . import _remote

        return _remote.WorkerGuest(config)
    return InProcessGuest(_new_java_interpreter(config))


def check_not_forked(config: InterpreterOptions) -> None:
    """Raises the fork error for an in-process guest in a fork of the process that started (or began to start)
    the JVM; a worker guest is this process's own."""
    if config.isolation == "in-process":
        _jvm.attach_check()


def _new_java_interpreter(config: InterpreterOptions) -> Any:
    """A Java ``GuestInterpreter`` built from ``config`` by ``Wire.newGuest``, which builds a worker's too."""
    if config.language == "python" and not _jvm.jclass(f"{_PACKAGE}.Sandbox").shared().pythonAvailable():
        raise GuestUnavailableError(PYTHON_MISSING)
    return _java_wire().newGuest(_wire().pack_options(config))


class InProcessGuest:
    """A Java ``GuestInterpreter`` in this process's JVM (the :class:`Guest` of the in-process backend)."""

    def __init__(self, java: Any) -> None:
        self._java = java

    def is_closed(self) -> bool:
        _jvm.attach_check()  # before isClosed(): a forked child must not call into the parent's JVM at all
        return bool(self._java.isClosed())

    def lost_unreported(self) -> bool:
        return False  # the JVM is this process's: a context is only ever lost during an eval, which says so

    def prepare(self) -> None:
        """Builds a JavaScript interpreter's context now, without running a cell."""
        _jvm.attach_check()
        self._java.prepare()

    def eval(self, code: str, host: HostBinding | None) -> EvalOutcome:
        """Runs one cell; JPype releases the GIL while Java waits for the guest thread."""
        _jvm.attach_check()
        java = self._java
        try:
            if host is None:
                return to_python(call_with_text(java.eval, code))
            channel = host.bind(self)
            assert isinstance(channel, _JavaChannel)
            return to_python(call_with_text(java.eval, code, channel.bridge))
        except _jvm.jclass(f"{_PACKAGE}.SandboxBrokenException") as exc:
            raise JvmUnusableError(text_of(exc.getMessage())) from None
        except _jvm.jclass("java.lang.OutOfMemoryError"):
            # The heap filled while Java waited on the guest (a builtin filled it in one step): the eval ends here.
            return self._out_of_heap()

    def _out_of_heap(self) -> EvalOutcome:
        try:
            self._java.cancel()
            closed = bool(self._java.isClosed())
        except Exception:  # noqa: BLE001 - the heap may still be full: the outcome is all that matters now
            closed = False
        return host_error_outcome(
            "OutOfMemory",
            "The JVM's heap ran out while this eval ran, and it was stopped."
            + (" The interpreter was restarted: all globals from earlier calls are gone." if closed else ""),
            state_reset=closed,
            duration_s=0.0,
            status="limit",
        )

    def cancel(self) -> None:
        if not _jvm.forked():  # a fork runs no eval of its own
            _jvm.track_thread()
            self._java.cancel()

    def close(self) -> None:
        if _jvm.forked():
            _jvm.keep_in_fork(self._java)  # the parent's context: neither closed nor released from here
        else:
            _jvm.track_thread()
            self._java.close()

    def snapshot(self, max_bytes: int | None) -> bytes:
        """The interpreter's globals as UTF-8 JSON bytes."""
        _jvm.attach_check()
        try:
            text = self._java.snapshot(max_bytes if max_bytes else 0)
        except _snapshot_exception() as exc:
            raise SnapshotError(text_of(exc.getMessage()), too_large=bool(exc.tooLarge())) from None
        return text_of(text).encode("utf-8")

    def restore(self, payload: bytes) -> list[str]:
        """Restores globals from ``payload``; returns their names."""
        _jvm.attach_check()
        text = decode_snapshot(payload)
        try:
            names = call_with_text(self._java.restore, text)
        except _snapshot_exception() as exc:
            raise SnapshotError(text_of(exc.getMessage())) from None
        return [text_of(n) for n in names]

    def open_calls(self, functions: HostFunctions) -> CallChannel:
        """A Java ``HostBridge`` (``Wire.bridge``, as a worker builds it) whose calls are collected from a
        ``HostCallQueue``."""
        wire = _wire()
        queue = _jvm.jclass(f"{_PACKAGE}.HostCallQueue")()
        return _JavaChannel(_java_wire().bridge(queue, wire.pack_bridge(wire.bridge_spec(functions))), queue)

    def complete_host_calls(self, call_ids: list[int], batch_json: str) -> None:
        ids = _jvm.long_array(call_ids)
        call_with_text(lambda text: self._java.completeHostCalls(ids, text), batch_json)

    def imports_modules(self) -> bool:
        return bool(self._java.importsModules())

    def complete_module_read(self, call_id: int, ok: bool, text: str) -> None:
        call_with_text(lambda t: self._java.completeModuleRead(call_id, ok, t), text)


class _JavaChannel:
    """An eval's ``HostCallQueue`` and the ``HostBridge`` that feeds it."""

    def __init__(self, bridge: Any, queue: Any) -> None:
        self.bridge = bridge
        self._queue = queue

    def poll(self, timeout_ms: int) -> str | None:
        _jvm.track_thread()
        batch = self._queue.poll(timeout_ms)
        return None if batch is None else text_of(batch)

    def close(self) -> None:
        self._queue.close()


def unusable_reason() -> str | None:
    """Why this process's JVM can no longer run guest code, or None while it can."""
    reason = _jvm.jclass(f"{_PACKAGE}.Sandbox").unusableReason()
    return None if reason is None else text_of(reason)


def _snapshot_exception() -> Any:
    return _jvm.jclass(f"{_PACKAGE}.SnapshotException")


def running_compiler(jit: bool) -> str:
    """Which Graal compiler the running JVM gives Truffle: ``none`` when the engine runs interpreted, else
    ``libgraal`` when the JVM has its JVMCI native library on (Truffle then compiles through it), else ``jargraal``.
    Asked of the JVM (its ``UseJVMCINativeLibrary`` option), not taken from what it was started with."""
    if not jit:
        return "none"
    return "libgraal" if _vm_option("UseJVMCINativeLibrary") == "true" else "jargraal"


def running_host_jit() -> str:
    """How the running JVM compiles the host's own code (see ``_launch.host_jit``): ``c1`` when it stops at C1,
    ``graal-c1`` when it holds the package's directives that leave the Graal compiler to C1, else ``tiered``."""
    if _vm_option("TieredStopAtLevel") == "1":
        return "c1"
    # A diagnostic option, which the JVM's option bean shows only when unlocked: the last one given is in force.
    runtime = _jvm.jclass("java.lang.management.ManagementFactory").getRuntimeMXBean()
    flag = "-XX:CompilerDirectivesFile="
    given = [str(a)[len(flag):] for a in runtime.getInputArguments() if str(a).startswith(flag)]
    return "graal-c1" if given and Path(given[-1]).name == _launch.GRAAL_C1_DIRECTIVES.name else "tiered"


def _vm_option(name: str) -> str:
    management = _jvm.jclass("java.lang.management.ManagementFactory")
    bean_type = _jvm.jclass("com.sun.management.HotSpotDiagnosticMXBean")
    return str(management.getPlatformMXBean(bean_type.class_).getVMOption(name).getValue())


def runtime_facts() -> dict[str, Any]:
    """The GraalVM version, runtime name, JIT state and Graal compiler of this process's sandbox."""
    sandbox = _jvm.jclass(f"{_PACKAGE}.Sandbox").shared()
    info = _jvm.info()
    jit = bool(sandbox.jitEnabled())
    return {
        "graalvm_version": str(sandbox.graalvmVersion()),
        "runtime_name": str(sandbox.runtimeName()),
        "jit": jit,
        "compiler": running_compiler(jit),
        "host_jit": running_host_jit(),
        "sandbox_policy": str(sandbox.sandboxPolicy()),
        "unwind_guard": str(sandbox.unwindGuard()),
        "python_available": bool(sandbox.pythonAvailable()),
        "unusable": unusable_reason(),
        "java_home": str(info.jdk.home),
        "java_version": info.jdk.version,
        "runtime_dir": str(info.runtime_dir),
    }
