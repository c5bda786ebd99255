"""Every exception of the package, under one root.

Catch :class:`GraalVMError` for anything this package raises on purpose. Each class also keeps the built-in base
callers caught before the tree existed (``except RuntimeError`` still catches a :class:`JvmError`, ``except
ValueError`` a :class:`SnapshotError`).

Errors inside the guest never raise: they come back as an :class:`~langchain_graalvm.EvalOutcome`. The tree::

    GraalVMError
    ├── JvmError                 (RuntimeError) no usable JDK, a failed JVM start, a forked JVM, a foreign JVM
    │   └── JvmUnusableError                    the JVM can no longer run guest code (only a new process helps)
    ├── FetchError               (RuntimeError) the GraalVM jars or a GraalVM JDK could not be fetched or verified
    ├── GuestUnavailableError    (RuntimeError) language="python" without the GraalPy jars
    ├── InterpreterClosedError   (RuntimeError) an interpreter or interpreter slot used after close()
    ├── OptionsError             (ValueError)   an option or argument given to the package is not valid
    │   └── SettingsError       (also JvmError) a ``LANGCHAIN_GRAALVM_*`` variable whose value cannot be used
    ├── SnapshotError            (ValueError)   a snapshot too large or stopped, or a payload refused on restore
    ├── FastStartError           (RuntimeError) the fast-start image or its AOT cache could not be built
    ├── DemoError                (RuntimeError) ``langchain-graalvm demo`` cannot run as asked
    ├── WorkloadError            (RuntimeError) a benchmark backend gave a workload's wrong result
    ├── HostCallError                           a host call's failure, reported to the guest under a type name
    ├── FsError                                 a failed ``fs`` call, reported Node-style (code, path, syscall)
    └── ApprovalRequired                        a tool that needs human approval, called from code

The last three never reach the caller of ``eval``: the guest sees them as thrown errors.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ApprovalRequired",
    "DemoError",
    "FastStartError",
    "FetchError",
    "FsError",
    "GraalVMError",
    "GuestUnavailableError",
    "HostCallError",
    "InterpreterClosedError",
    "JvmError",
    "JvmUnusableError",
    "OptionsError",
    "SettingsError",
    "SnapshotError",
    "WorkloadError",
]


class GraalVMError(Exception):
    """The root of every exception langchain-graalvm raises."""


class JvmError(GraalVMError, RuntimeError):
    """The JVM could not be found, started, or used in this process."""


class JvmUnusableError(JvmError):
    """The JVM of this process can no longer run guest code: a class the engine needs failed to initialise.

    Raised by every eval from then on, of every interpreter, and shown by ``langchain-graalvm doctor``; only a new
    process recovers. The sandbox initialises the classes a first failure could break before any guest code runs,
    so this is a last resort, never a cell's outcome.
    """


class FetchError(GraalVMError, RuntimeError):
    """The GraalVM jars, or a GraalVM JDK (``install --jdk``), could not be fetched or verified."""


class GuestUnavailableError(GraalVMError, RuntimeError):
    """The guest language asked for is not installed (GraalPy's jars for ``language="python"``)."""


class InterpreterClosedError(GraalVMError, RuntimeError):
    """An interpreter, or an agent's interpreter slot, was used after it was closed."""


class OptionsError(GraalVMError, ValueError):
    """An option or argument given to an interpreter, the middleware or the jar fetch is not valid.

    Raised when the object is built, before anything starts; the message names the option and what it accepts.
    """



class SettingsError(OptionsError, JvmError):
    """A ``LANGCHAIN_GRAALVM_*`` variable whose value the package cannot use; the message names it and its value.

    Raised where the setting is used, never at import. An :class:`OptionsError`, and a :class:`JvmError` too: a bad
    JVM setting (``MAX_HEAP``, ``HOST_JIT``, ``COMPILER``) raised ``JvmError`` at the JVM's start before the
    variables were read in one place, and callers catching either keep working.
    """

class SnapshotError(GraalVMError, ValueError):
    """A snapshot could not be made (too large, or stopped) or restored (corrupt or foreign payload)."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


class FastStartError(GraalVMError, RuntimeError):
    """The fast-start JDK image or its AOT cache could not be built (``langchain-graalvm install``)."""


class DemoError(GraalVMError, RuntimeError):
    """The demo cannot run as asked (a missing package, API key or malformed model name)."""


class WorkloadError(GraalVMError, RuntimeError):
    """A backend did not produce the workload's expected result."""


class HostCallError(GraalVMError):
    """An error a host call reports to the guest under a chosen type name."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(message)
        self.type_name = type_name


class ApprovalRequired(GraalVMError):
    """A tool that needs human approval was called from the interpreter."""


class FsError(GraalVMError):
    """A failed ``fs`` call, reported to the guest as a Node-style error (``code``, ``path``, ``syscall``)."""

    def __init__(self, code: str, message: str, path: str | None = None, syscall: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.path = path
        self.syscall = syscall

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "Error", "message": str(self), "code": self.code}
        if self.path is not None:
            out["path"] = self.path
        if self.syscall is not None:
            out["syscall"] = self.syscall
        return out
