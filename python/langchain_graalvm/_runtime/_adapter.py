"""The Java sandbox seen from Python: builds interpreters and turns Java outcomes into plain Python data.

No JPype object leaves this module. Strings cross as Java strings and are converted once, here.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Literal, Protocol

from ..errors import GuestUnavailableError, JvmUnusableError, SnapshotError
from ..options import InterpreterOptions
from . import _jvm, _launch

Status = Literal["ok", "error", "timeout", "limit"]

_PACKAGE = "io.github.langchaingraalvm.sandbox"


@dataclasses.dataclass(frozen=True)
class EvalOutcome:
    """What one eval produced.

    Attributes:
        status: ``"ok"``, ``"error"``, ``"timeout"`` or ``"limit"``.
        text: exactly the envelope the model sees (``<stdout>``, then ``<result>`` or ``<error>``).
        value: the rendered value of the last expression, or None when there was an error.
        stdout: console output, in order, as kept (at most ``max_result_chars`` characters).
        stdout_dropped: console characters that were not kept.
        error_type: ``TypeError``, ``SyntaxError``, ``Timeout``, ``OutOfMemory``, ... or None.
        error_message: the error's message, or None.
        error_stack: stack frames in the model's code, one per line, or ``""``.
        state_reset: True when the interpreter was rebuilt and lost its globals.
        duration_s: wall time of the eval in seconds.
    """

    status: Status
    text: str
    value: str | None
    stdout: str
    stdout_dropped: int
    error_type: str | None
    error_message: str | None
    error_stack: str
    state_reset: bool
    duration_s: float

    @property
    def ok(self) -> bool:
        """Whether the eval completed without an error."""
        return self.status == "ok"


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


def _plain(value: Any) -> str | None:
    return None if value is None else str(value)


def to_python(outcome: Any) -> EvalOutcome:
    """Copies a Java ``EvalOutcome`` into a Python one; its texts hold no lone surrogates (Java escaped them)."""
    return EvalOutcome(
        status=str(outcome.status().wireName()),  # type: ignore[arg-type]
        text=str(outcome.envelope()),
        value=_plain(outcome.value()),
        stdout=str(outcome.stdout()),
        stdout_dropped=int(outcome.stdoutDropped()),
        error_type=_plain(outcome.errorType()),
        error_message=_plain(outcome.errorMessage()),
        error_stack=str(outcome.errorStack()),
        state_reset=bool(outcome.stateReset()),
        duration_s=int(outcome.durationNanos()) / 1e9,
    )


def new_interpreter(config: InterpreterOptions) -> Any:
    """A Java ``GuestInterpreter`` (JavaScript or Python) built from ``config``.

    The one place the options become Java ``SandboxOptions``.
    """
    sandbox_cls = _jvm.jclass(f"{_PACKAGE}.Sandbox")
    options_cls = _jvm.jclass(f"{_PACKAGE}.SandboxOptions")
    clock_cls = _jvm.jclass(f"{_PACKAGE}.SandboxOptions$Clock")
    duration = _jvm.jclass("java.time.Duration")
    builder = (
        options_cls.builder()
        .timeout(duration.ofNanos(max(1, round(config.timeout * 1e9))))
        .interruptGrace(duration.ofNanos(max(1, round(config.interrupt_grace * 1e9))))
        .memoryLimitBytes(config.memory_limit)
        .maxResultChars(config.max_result_chars)
        .captureConsole(config.capture_console)
        .clock(clock_cls.HOST if config.clock == "host" else clock_cls.FROZEN)
        .frozenEpochMillis(config.frozen_epoch_ms)
        .snapshots(config.snapshots)
        .heapFactor(config.heap_factor)
        .maxWallTime(duration.ofNanos(max(1, round(config.max_wall_time * 1e9))))
        .agentModules(config.agent_modules and config.language == "js")
        .maxCodeBytes(config.max_code_bytes)
        .maxNesting(config.max_nesting)
    )
    sandbox = sandbox_cls.shared()
    if config.language == "python":
        if not sandbox.pythonAvailable():
            raise GuestUnavailableError(
                "language='python' needs GraalPy, whose jars are not installed. In a development checkout run "
                "`bash scripts/setup.sh` (it builds them with `mvn -Ppython package` into "
                "java/target/runtime/python); elsewhere put them in <runtime>/python."
            )
        return sandbox.newPythonInterpreter(builder.build())
    return sandbox.newInterpreter(builder.build())


def prepare(java_interpreter: Any) -> None:
    """Builds a JavaScript interpreter's context now, without running a cell."""
    java_interpreter.prepare()


def eval_blocking(java_interpreter: Any, code: str, host: HostBinding | None = None) -> EvalOutcome:
    """Runs one cell; JPype releases the GIL while Java waits for the guest thread.

    With ``host``, the cell gets the host functions it describes, and its calls are handed to it.
    """
    _jvm.attach_check()
    try:
        if host is None:
            return to_python(call_with_text(java_interpreter.eval, code))
        return to_python(call_with_text(java_interpreter.eval, code, host.java_bridge(java_interpreter)))
    except _jvm.jclass(f"{_PACKAGE}.SandboxBrokenException") as exc:
        raise JvmUnusableError(text_of(exc.getMessage())) from None


def unusable_reason() -> str | None:
    """Why this process's JVM can no longer run guest code, or None while it can."""
    reason = _jvm.jclass(f"{_PACKAGE}.Sandbox").unusableReason()
    return None if reason is None else text_of(reason)


class HostBinding(Protocol):
    """Host functions for one eval: builds the Java ``HostBridge`` for the interpreter the eval runs in."""

    def java_bridge(self, java_interpreter: Any) -> Any:
        """The ``HostBridge`` whose handler completes calls through ``java_interpreter.completeHostCall``."""
        ...


def new_queued_host_bridge(
    tool_names: list[str],
    *,
    expose_tools: bool,
    expose_task: bool,
    max_tool_calls: int | None,
    expose_fs: bool = False,
    random_seed: int | None = None,
) -> tuple[Any, Any]:
    """A Java ``HostBridge`` whose calls are collected from the ``HostCallQueue`` returned with it; ``random_seed``
    (in [0, 2**53)) seeds the guest's random numbers for the eval, None leaves them the engine's."""
    queue = _jvm.jclass(f"{_PACKAGE}.HostCallQueue")()
    seed = None if random_seed is None else _jvm.jclass("java.lang.Long")(random_seed)
    bridge = _jvm.jclass(f"{_PACKAGE}.HostBridge")(
        queue, _jvm.string_list(tool_names), expose_tools, expose_task, max_tool_calls or 0, expose_fs, seed
    )
    return bridge, queue


def complete_host_calls(java_interpreter: Any, call_ids: list[int], batch_json: str) -> None:
    """Settles a batch of host calls (``batch_json``: ``[[id, ok, value], ...]``)."""
    ids = _jvm.long_array(call_ids)
    call_with_text(lambda text: java_interpreter.completeHostCalls(ids, text), batch_json)


def _snapshot_exception() -> Any:
    return _jvm.jclass(f"{_PACKAGE}.SnapshotException")


def snapshot(java_interpreter: Any, max_bytes: int | None) -> bytes:
    """The interpreter's globals as UTF-8 JSON bytes."""
    _jvm.attach_check()
    try:
        text = java_interpreter.snapshot(max_bytes if max_bytes else 0)
    except _snapshot_exception() as exc:
        raise SnapshotError(text_of(exc.getMessage()), too_large=bool(exc.tooLarge())) from None
    return text_of(text).encode("utf-8")


def restore(java_interpreter: Any, payload: bytes) -> list[str]:
    """Restores globals from ``payload``; returns their names."""
    _jvm.attach_check()
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"invalid snapshot: not UTF-8 ({exc})") from None
    try:
        names = java_interpreter.restore(text)
    except _snapshot_exception() as exc:
        raise SnapshotError(text_of(exc.getMessage())) from None
    return [text_of(n) for n in names]


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
        "python_available": bool(sandbox.pythonAvailable()),
        "unusable": unusable_reason(),
        "java_home": str(info.jdk.home),
        "java_version": info.jdk.version,
        "runtime_dir": str(info.runtime_dir),
    }
