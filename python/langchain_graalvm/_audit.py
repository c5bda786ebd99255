"""The audit hook: every piece of code an interpreter runs, with its outcome, duration and thread, to a callback
or a logger.

An :class:`~langchain_graalvm.Interpreter` created with ``audit=`` reports each of its evals. The middleware's
``audit=`` reports every eval of its tool, whichever interpreter serves it, tagged with the conversation's
``thread_id``: it sets :func:`scope` around the tool call and the interpreter reads it. Warm-up and snapshot work
that runs no model code is not reported.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ._runtime._adapter import EvalOutcome
from .errors import OptionsError

logger = logging.getLogger("langchain_graalvm.audit")


@dataclasses.dataclass(frozen=True)
class AuditRecord:
    """One executed piece of code.

    Attributes:
        code: the code as the model (or caller) wrote it.
        outcome: what it produced (status, envelope text, value, error, console output).
        duration_s: wall time of the eval in seconds, as measured by the sandbox.
        thread_id: the conversation's LangGraph ``thread_id`` when the middleware ran it, else None.
        tool_call_id: the model's tool call id when the middleware ran it, else None.
        host_thread: the name of the Python thread that asked for the eval.
        finished_at: when the eval finished, in seconds since the epoch (``time.time()``).
        files: the agent's files the eval's ``fs`` calls touched, as ``(operation, path)`` pairs in call order
            (``("readFile", "/data/a.json")``); empty when it made none or has no ``files`` access.
    """

    code: str
    outcome: EvalOutcome
    duration_s: float
    thread_id: str | None
    tool_call_id: str | None
    host_thread: str
    finished_at: float
    files: tuple[tuple[str, str], ...] = ()

    @property
    def status(self) -> str:
        """``"ok"``, ``"error"``, ``"timeout"`` or ``"limit"``."""
        return self.outcome.status


AuditCallback = Callable[[AuditRecord], None]
AuditTarget = AuditCallback | str | logging.Logger | None
"""What ``audit=`` accepts: a callable taking an :class:`AuditRecord`, a logger, or a logger's name."""


@dataclasses.dataclass(frozen=True)
class _Scope:
    auditor: Auditor | None
    thread_id: str | None
    tool_call_id: str | None
    files: list[tuple[str, str]] | None = None


_current: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar("langchain_graalvm_audit", default=None)


class Auditor:
    """Sends :class:`AuditRecord` objects to a callback or a logger; a failing callback is logged, never raised."""

    def __init__(self, target: AuditCallback | logging.Logger) -> None:
        self._target = target

    def emit(self, code: str, outcome: EvalOutcome, files: list[tuple[str, str]] | None = None) -> None:
        scope = _current.get()
        touched = files if files is not None else scope.files if scope else None
        record = AuditRecord(
            code=code,
            outcome=outcome,
            duration_s=outcome.duration_s,
            thread_id=scope.thread_id if scope else None,
            tool_call_id=scope.tool_call_id if scope else None,
            host_thread=threading.current_thread().name,
            finished_at=time.time(),
            files=tuple(touched or ()),
        )
        target = self._target
        if isinstance(target, logging.Logger):
            target.info(
                "eval status=%s duration_ms=%.1f thread_id=%s tool_call_id=%s files=%s code=%r",
                record.status,
                record.duration_s * 1000,
                record.thread_id,
                record.tool_call_id,
                [f"{op} {path}" for op, path in record.files],
                record.code,
                extra={"audit": record},
            )
            return
        try:
            target(record)
        except Exception:  # noqa: BLE001 - the code already ran; a broken hook must not turn it into a failure
            logger.exception("The audit callback raised; the eval's outcome is returned regardless.")


def resolve(target: AuditTarget | Auditor) -> Auditor | None:
    """The auditor for an ``audit=`` argument, or None. Raises ``TypeError`` for anything else."""
    if target is None or isinstance(target, Auditor):
        return target
    if isinstance(target, str):
        if not target:
            raise OptionsError("audit logger name must not be empty")
        return Auditor(logging.getLogger(target))
    if isinstance(target, logging.Logger) or callable(target):
        return Auditor(target)
    raise TypeError(
        "audit must be a callable taking an AuditRecord, a logging.Logger or a logger name; "
        f"got {type(target).__name__}"
    )


@contextlib.contextmanager
def scope(
    auditor: Auditor | None,
    thread_id: str | None,
    tool_call_id: str | None,
    files: list[tuple[str, str]] | None = None,
) -> Iterator[None]:
    """Evals inside this block are reported to ``auditor`` (if any) and tagged with the conversation's ids and,
    with ``files``, the paths the eval's ``fs`` calls touched (a list its host calls fill in)."""
    token = _current.set(_Scope(auditor, thread_id, tool_call_id, files))
    try:
        yield
    finally:
        _current.reset(token)


def report(
    own: Auditor | None, code: str, outcome: EvalOutcome, files: list[tuple[str, str]] | None = None
) -> None:
    """Reports an eval to the interpreter's own auditor and to the one of the enclosing :func:`scope`."""
    scope_ = _current.get()
    if own is not None:
        own.emit(code, outcome, files)
    if scope_ is not None and scope_.auditor is not None and scope_.auditor is not own:
        scope_.auditor.emit(code, outcome)


def thread_id_of(config: Any) -> str | None:
    """The LangGraph ``thread_id`` of a runnable config, as a string, or None."""
    if not isinstance(config, dict):
        return None
    value = (config.get("configurable") or {}).get("thread_id")
    return None if value is None else str(value)
