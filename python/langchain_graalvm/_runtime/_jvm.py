"""The JVM: start it once per process, and the few conversions every Java call needs.

This is the only module that imports :mod:`jpype`. Finding the JDK is :mod:`._jvmfinder`'s job and choosing
its flags :mod:`._launch`'s. A JVM cannot be restarted, so there is one start attempt per process. Importing the
package never starts a JVM; the first interpreter does.
"""

from __future__ import annotations

import dataclasses
import faulthandler
import gc
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import JvmError
from . import _compiler
from ._jvmfinder import JIT_JDK, Jdk, cache_dir, find_jdk
from ._launch import classpath, fast_start, find_runtime_dir, jvm_flags

logger = logging.getLogger("langchain_graalvm")

_SANDBOX_CLASS = "io.github.langchaingraalvm.sandbox.Sandbox"

_lock = threading.Lock()
_started_pid: int | None = None
_began_pid: int | None = None  # set as the one start attempt begins: a fork from then on cannot use the JVM
_start_failure: JvmError | None = None
_jvm_info: JvmInfo | None = None
_on_start: list[Callable[[], None]] = []


@dataclasses.dataclass(frozen=True)
class JvmInfo:
    """What was started: the JDK, the runtime folder and whether guest code is JIT-compiled."""

    jdk: Jdk
    runtime_dir: Path
    jit_requested: bool
    flags: tuple[str, ...]


def forked() -> bool:
    """Whether this process is a fork of the one that started (or began to start) the JVM."""
    return _began_pid is not None and _began_pid != os.getpid()


def _check_fork() -> None:
    if forked():
        raise JvmError(
            "The JVM was started in a parent process and this process is a fork of it. A forked JVM has none of "
            "its threads and any call into it can hang, so langchain-graalvm refuses to use it. Start worker "
            "processes with the "
            "'spawn' method (multiprocessing.get_context('spawn')) or create interpreters only after forking."
        )


def on_start(callback: Callable[[], None]) -> None:
    """Runs ``callback`` once the JVM has started (at once if it already has)."""
    if is_started():
        callback()
    else:
        _on_start.append(callback)


def is_started() -> bool:
    """Whether this process started the JVM."""
    return _started_pid is not None and _started_pid == os.getpid()


def info() -> JvmInfo:
    """Starts the JVM if needed and says what was started."""
    start()
    assert _jvm_info is not None
    return _jvm_info


def start() -> None:
    """Starts the JVM once. Safe to call from many threads."""
    _check_fork()
    if _started_pid is not None:
        return
    with _lock:
        _check_fork()
        if _started_pid is not None:
            return
        if _start_failure is not None:
            raise _start_failure  # a failed start poisons the process: say why again, not "cannot restart"
        _start_locked()
    callbacks, _on_start[:] = list(_on_start), []
    for callback in callbacks:
        callback()


def _start_locked() -> None:
    global _started_pid, _began_pid, _start_failure, _jvm_info
    import jpype

    if jpype.isJVMStarted():
        try:
            jpype.JClass(_SANDBOX_CLASS)
        except Exception as exc:
            raise JvmError(
                "Another library already started a JVM in this process without the langchain-graalvm jars, "
                "and a JVM cannot be restarted or given a new module path. Create a langchain-graalvm "
                "interpreter before that library starts its JVM, or run it in a separate process."
            ) from exc
        _started_pid = _began_pid = os.getpid()
        return
    jdk = find_jdk()
    runtime = find_runtime_dir()
    flags, jit = jvm_flags(jdk, runtime)
    libjvm = jdk.libjvm
    fast = fast_start(jdk, runtime)
    if fast is not None:
        libjvm, flags = fast
    cache_dir().mkdir(parents=True, exist_ok=True)
    if faulthandler.is_enabled():
        # Python's fault handler would catch the SIGSEGVs HotSpot uses for null checks and safepoints.
        logger.warning("Disabling faulthandler: the JVM handles SIGSEGV itself and would be killed by it.")
        faulthandler.disable()
    note = _compiler.choose(jdk, runtime).note
    if note:
        logger.warning("langchain-graalvm: %s", note)
    if not jit:
        reason = (
            f"JDK {jdk.feature} has no matching Graal compiler"
            if jdk.feature != JIT_JDK
            else "the compiler jars are missing from the runtime folder"
        )
        logger.warning(
            "langchain-graalvm runs guest code interpreted (no JIT): %s. Use JDK 25 for compiled guest code.",
            reason,
        )
    _began_pid = os.getpid()
    try:
        jpype.startJVM(
            str(libjvm),
            *flags,
            classpath=classpath(runtime),
            convertStrings=False,
            # With -Xrs nobody installs JVM signal handlers, so Python's own SIGINT/SIGTERM handlers stay.
            interrupt=True,
        )
    except Exception as exc:  # jpype raises RuntimeError or OSError with the JVM's reason on stderr
        _start_failure = JvmError(
            f"The JVM at {jdk.home} failed to start with flags {flags}: {exc}. This process cannot start "
            "another JVM; fix the cause and restart it."
        )
        raise _start_failure from exc
    if threading.current_thread() is not threading.main_thread():
        # The starting thread stays a non-daemon Java thread after its Python thread ends, and the JVM's
        # shutdown at exit would wait for it forever. Detached, it re-attaches as a daemon on its next call.
        jpype.JClass("java.lang.Thread").detach()
    _started_pid = os.getpid()
    _jvm_info = JvmInfo(jdk=jdk, runtime_dir=runtime, jit_requested=jit, flags=tuple(flags))


def _unlock_in_child() -> None:
    """A fork taken while another thread held the start lock must not wait for that thread: it does not exist."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_unlock_in_child)


_gc_was_enabled = True


def _pause_gc_for_fork() -> None:
    global _gc_was_enabled
    _gc_was_enabled = gc.isenabled()
    gc.disable()


def _resume_gc_in_parent() -> None:
    if _gc_was_enabled:
        gc.enable()


def _forget_jvm_in_child() -> None:
    """Unhooks JPype from Python's garbage collector in a forked child, then lets it collect again.

    JPype asks the JVM for a collection from a ``gc.callbacks`` hook when Python collects. A forked child has the
    JVM's memory but none of its threads, so that request waits forever for the VM thread: any Python code that
    allocates enough to trigger a collection would hang the child. The collector is off from just before the fork
    until this runs, since the child's other fork handlers (``threading``'s, registered before this module's, runs
    first) allocate too.

    When the parent had started its JVM, every object the child inherits is also moved out of the collector's
    reach (``gc.freeze``): a Java object of the parent's that lay in a garbage cycle at the moment of the fork would
    otherwise be released by the child's first collection, with a JNI call into a JVM that has no threads here.
    The child's own garbage is collected as usual.
    """
    gc.callbacks[:] = [cb for cb in gc.callbacks if getattr(cb, "__module__", None) != "_jpype"]
    if _began_pid is not None:
        gc.freeze()
    if _gc_was_enabled:
        gc.enable()


os.register_at_fork(
    before=_pause_gc_for_fork, after_in_parent=_resume_gc_in_parent, after_in_child=_forget_jvm_in_child
)


def jclass(name: str) -> Any:
    """A Java class, starting the JVM first."""
    start()
    track_thread()
    import jpype

    return jpype.JClass(name)


def attach_check() -> None:
    """Raises the fork error if this process is a fork of the one that started the JVM.

    Call it before any Java call that may run in a fork: in the child, even a call as small as ``isClosed()`` can
    wait forever, for a safepoint or a lock that one of the parent's JVM threads (none of which exist here) held
    at the moment of the fork. It also has the calling thread detached from the JVM when it ends
    (:func:`track_thread`).
    """
    _check_fork()
    track_thread()


class _DetachAtEnd:
    """Held in a thread-local slot of a Python thread that calls Java; freed as the thread ends, it detaches it."""

    __slots__ = ("_detach",)

    def __init__(self, detach: Callable[[], None]) -> None:
        self._detach = detach

    def __del__(self) -> None:
        # Runs in the ending thread, with the GIL, as Python clears the thread's state; at interpreter exit, the
        # states of daemon threads still running are cleared from the main thread, which stays attached.
        if _started_pid == os.getpid() and threading.get_ident() != threading.main_thread().ident:
            try:
                self._detach()
            except Exception:  # noqa: BLE001 - a thread's end must not fail; at worst it stays attached
                pass


_thread_slot = threading.local()


def track_thread() -> None:
    """Has the calling Python thread detached from the JVM when it ends.

    JPype attaches every Python thread that calls Java and never detaches it. When the thread ends, the JVM keeps a
    thread whose native stack is gone: every ended thread that called an interpreter stays in the JVM's thread
    list, and a thread dump (``jcmd <pid> Thread.print``, ``jstack``, a flight recording's periodic dump) reads
    each listed thread's state through its freed stack and crashes the process with SIGSEGV once glibc has
    unmapped it. The main thread never ends before the JVM does, and a thread that Java started (a Java thread
    calling back into Python) belongs to Java: neither is detached.
    """
    if _started_pid is None or getattr(_thread_slot, "held", None) is not None:
        return  # nothing to attach to yet, or the thread is known
    current = threading.current_thread()
    if current is threading.main_thread() or isinstance(current, threading._DummyThread):
        _thread_slot.held = False
    else:
        import jpype

        _thread_slot.held = _DetachAtEnd(jpype.JClass("java.lang.Thread").detach)


_kept_in_fork: list[Any] = []


def keep_in_fork(java_object: Any) -> None:
    """Keeps a Java object of the parent's JVM referenced for the rest of a forked child's life.

    Releasing it would be a JNI call into a JVM whose threads are gone (see :func:`attach_check`).
    """
    _kept_in_fork.append(java_object)


_UNICODE_TEXT = "io.github.langchaingraalvm.sandbox.text.UnicodeText"


def to_str(value: Any) -> str:
    """A Java string as a Python ``str``; unpaired UTF-16 surrogates are shown as ``\\uXXXX`` escapes.

    JPype decodes Java strings as UTF-8: it raises on a lone surrogate (which a guest makes by slicing an emoji in
    half) and joins two unpaired ones into a wrong character. Java escapes them first, so no data is dropped or
    changed and nothing raises.
    """
    return str(jclass(_UNICODE_TEXT).visible(value))


def java_string(text: str) -> Any:
    """``text`` as a Java string, code unit for code unit, lone surrogates included (JPype refuses those)."""
    import jpype

    units = text.encode("utf-16-le", "surrogatepass")
    return jclass(_UNICODE_TEXT).fromUtf16LE(jpype.JArray(jpype.JByte)(units))


def long_array(items: list[int]) -> Any:
    """A Java ``long[]`` holding ``items``."""
    import jpype

    return jpype.JArray(jpype.JLong)(items)


def string_list(items: list[str]) -> Any:
    """A ``java.util.List<String>`` holding ``items``."""
    import jpype

    return jclass("java.util.Arrays").asList(jpype.JArray(jpype.JString)(items))
