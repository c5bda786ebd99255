"""``langchain-graalvm doctor``: checks the installation, runs each cheap limit once, and says how to fix what fails."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

from langchain_graalvm._settings import heap_text, settings
from langchain_graalvm.errors import FetchError, JvmError


class _Report:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failed = False

    def line(self, level: str, what: str, detail: str, fix: str | None = None) -> None:
        if level == "FAIL":
            self.failed = True
        print(f"[{level:<4}] {what}: {detail}", file=self.out)
        if fix:
            print(f"       fix: {fix}", file=self.out)


_NO_JDK_FIX = (
    "install JDK 25: `langchain-graalvm install --jdk` fetches GraalVM Community JDK 25 (with "
    "LANGCHAIN_GRAALVM_JAVA_HOME unset), or set LANGCHAIN_GRAALVM_JAVA_HOME to a JDK 25's folder"
)


def doctor(out: TextIO, *, verify: bool = False) -> int:
    """Checks the installation and prints what it found, with a fix for every problem; 1 when unusable."""
    from importlib import metadata

    from langchain_graalvm._runtime import _artifacts, _jvmfinder, _launch, _manifest

    report = _Report(out)
    try:
        version = metadata.version("langchain-graalvm")
    except metadata.PackageNotFoundError:
        version = "not installed"
    manifest = _manifest.load_manifest()
    origin = "installed wheel" if manifest else "development checkout"
    report.line("ok", "package", f"langchain-graalvm {version} ({origin}), Python {sys.version.split()[0]}")

    try:
        jdk = _jvmfinder.find_jdk()
    except JvmError as exc:
        report.line("FAIL", "JDK", str(exc), _NO_JDK_FIX)
        return 1
    level = "ok" if jdk.feature == 25 else "warn"
    fix = None if jdk.feature == 25 else "use JDK 25 (LANGCHAIN_GRAALVM_JAVA_HOME) for JIT-compiled guest code"
    report.line(level, "JDK", f"{jdk.home} (version {jdk.version})", fix)

    if manifest is not None:
        folder = _artifacts.runtime_home(manifest)
        size = _manifest.total_size(manifest) / 2**20
        if not _manifest.is_complete(folder, manifest):
            report.line("info", "GraalVM jars", f"not in the cache yet; fetching {size:.0f} MiB into {folder}")
        try:
            folder = _artifacts.ensure_runtime()
        except FetchError as exc:
            fix = "run `langchain-graalvm install` where Maven Central is reachable"
            report.line("FAIL", "GraalVM jars", str(exc), fix)
            return 1
        problems = _manifest.verify(folder, manifest) if verify else []
        if problems:
            fix = f"delete {folder} and run `langchain-graalvm install`"
            report.line("FAIL", "GraalVM jars", "; ".join(problems), fix)
            return 1
        checked = "SHA-256 verified" if verify else "sizes checked; --verify hashes them"
        report.line("ok", "GraalVM jars", f"{folder} ({len(manifest['artifacts'])} jars, {size:.1f} MiB, {checked})")
    try:
        runtime = _launch.find_runtime_dir()
    except JvmError as exc:
        fix = "run `bash scripts/setup.sh` (checkout) or `langchain-graalvm install`"
        report.line("FAIL", "GraalVM jars", str(exc), fix)
        return 1
    if manifest is None:
        report.line("ok", "GraalVM jars", f"{runtime} (built by Maven)")
    report.line("ok", "artifact cache", f"{_artifacts.home()} (LANGCHAIN_GRAALVM_CACHE, or LANGCHAIN_GRAALVM_HOME)")
    report.line("ok", "resource cache", f"{_jvmfinder.cache_dir() / 'resources'} (LANGCHAIN_GRAALVM_CACHE)")

    from langchain_graalvm.cli._jdk import libgraal_trial

    trial = libgraal_trial(jdk, runtime)  # before this process starts its JVM on it
    if trial:
        report.line("warn", "libgraal", trial, "set LANGCHAIN_GRAALVM_COMPILER=jargraal, or use another GraalVM JDK")
    try:
        from langchain_graalvm import Interpreter, runtime_info

        started = time.perf_counter()
        facts = runtime_info()
        jvm_s = time.perf_counter() - started
        with Interpreter(timeout=5.0) as js:
            started = time.perf_counter()
            smoke = js.eval("[6 * 7, typeof Java, typeof require].join(' ')")
            elapsed = time.perf_counter() - started
    except Exception as exc:  # noqa: BLE001 - anything here means the sandbox is unusable
        fix = "fix the error above, then run `langchain-graalvm doctor` again"
        report.line("FAIL", "sandbox", f"{type(exc).__name__}: {exc}", fix)
        return 1
    report.line("ok", "GraalVM", f"{facts['graalvm_version']} ({facts['runtime_name']} runtime)")
    if facts.get("unusable"):
        report.line("FAIL", "JVM", str(facts["unusable"]), "restart the process (JvmUnusableError)")
        return 1
    jit_reason = _jit_reason(jdk, runtime, bool(facts["jit"]), str(facts["compiler"]))
    report.line(
        "ok" if facts["jit"] else "warn",
        "JIT",
        jit_reason,
        None if facts["jit"] else "use JDK 25 with the Graal compiler jars (the default install)",
    )
    from langchain_graalvm.cli._jdk import doctor_compiler_line

    report.line(*doctor_compiler_line(jdk, runtime, str(facts["compiler"])))
    report.line("ok", "host JIT", f"{facts['host_jit']}: {_launch.HOST_JIT_MEANING[str(facts['host_jit'])]}")
    report.line(
        "ok",
        "sandbox policy",
        f"{facts['sandbox_policy']}: no host classes, file system, network, threads, "
        "processes, environment, native access or other languages",
    )
    guard = str(facts["unwind_guard"])
    if guard == "on" or not facts["jit"]:
        # Interpreted guest code has no compiled frames to deoptimise: nothing to guard.
        meaning = "a runaway recursion unwinds compiled frames without deoptimising each"
        report.line("ok", "unwind guard", f"on: {meaning}" if guard == "on" else f"{guard} (not needed without JIT)")
    else:
        report.line(
            "warn",
            "unwind guard",
            f"{guard}; a runaway recursion can then outlast its timeout and lose the globals",
            "start the JVM through the package (it adds the options), or see docs/java.md",
        )
    checks = _check_limits()
    for what, how in _limits():
        problem = checks.get(what)
        if problem is None:
            report.line("ok", f"limit: {what}", how + (" (checked just now)" if what in checks else ""))
        else:
            report.line("FAIL", f"limit: {what}", f"{how}; but: {problem}", "report this with `langchain-graalvm info`")
    if smoke.value == "42 undefined undefined":
        timing = f"JVM start {jvm_s:.1f} s, first eval {elapsed:.1f} s"
        report.line("ok", "smoke test", f"`6 * 7` = 42, no Java and no require ({timing})")
    else:
        report.line("FAIL", "smoke test", smoke.text, "report this with the output of `langchain-graalvm info`")
    python = graalpy_available(runtime)
    report.line(
        "info",
        "GraalPy",
        "available"
        if python
        else "not available: the Python guest is not part of this install (only --language js); "
        + ("`langchain-graalvm install --python` fetches it" if manifest else "`bash scripts/setup.sh` builds it"),
    )
    from langchain_graalvm.cli import _install as fast_start

    fast, how = fast_start.status()
    report.line("ok" if fast else "info", "fast start", how, None if fast else "run `langchain-graalvm install`")
    _report_isolation(report)
    if report.failed:
        print("\nSome checks failed: the sandbox is not usable until they are fixed.", file=out)
        return 1
    print("\nAll checks passed.", file=out)
    return 0


def _limits() -> list[tuple[str, str]]:
    """Each limit and how it is enforced (the JVM heap's as this process's settings give it)."""
    heap = f"-Xmx{heap_text(settings().max_heap)} (LANGCHAIN_GRAALVM_MAX_HEAP) for all interpreters of the process"
    return [*_LIMITS[:5], ("JVM heap", heap), *_LIMITS[5:]]


_LIMITS = [
    (
        "time",
        "timeout per eval (default 5 s): a watchdog thread interrupts the context at the deadline and closes it "
        "by force after a grace period; the globals survive an interrupt",
    ),
    (
        "memory",
        "memory_limit per eval (default 64 MiB x heap_factor 2): the watchdog samples the bytes the guest "
        "thread allocates and the heap after GC, and stops the eval past the limit",
    ),
    ("stack", "each interpreter runs on its own 34 MiB guest thread: deep recursion is a catchable RangeError"),
    ("output", "max_result_chars (default 4000) caps the result, the error and console output, each"),
    (
        "code size",
        "max_code_bytes (default 1 MiB) and max_nesting (default 1000 levels) are checked before any parsing: "
        "larger or deeper code gets CodeTooLarge or CodeTooDeep, and the globals are kept",
    ),
    ("clock", "frozen by default: Date shows a fixed instant, the host time is never seen"),
]


_BOMB = "const t = []; while (true) t.push(new Float64Array(1 << 20))"


def _report_isolation(report: _Report) -> None:
    """The tier guests run in, and the local server's state (asked without starting one)."""
    from langchain_graalvm._runtime import _server
    from langchain_graalvm.errors import GraalVMError
    from langchain_graalvm.options import resolve_isolation

    try:
        isolation = resolve_isolation(None)
        mode = _server.mode()
    except GraalVMError as exc:
        report.line("FAIL", "isolation", str(exc), "set LANGCHAIN_GRAALVM_ISOLATION / LANGCHAIN_GRAALVM_SERVER right")
        return
    report.line("info", "isolation", f"{isolation} by default (LANGCHAIN_GRAALVM_ISOLATION); server {mode}")
    try:
        facts = _server.status()
    except GraalVMError as exc:
        report.line("warn", "sandbox server", str(exc), "`langchain-graalvm server stop`, then start it again")
        return
    if facts is None:
        report.line("info", "sandbox server", f"not running ({_server.socket_path()})")
    else:
        workers = facts["workers"]
        report.line(
            "ok",
            "sandbox server",
            f"pid {facts['pid']}, {len(workers)} workers, {facts['leases']} lent, {facts['replaced']} replaced "
            f"({_server.socket_path()})",
        )
        for worker in workers:
            training = worker["training"]
            report.line(
                "info",
                "sandbox server",
                f"worker {worker['pid']}: {worker['state']}, training {training['state']} "
                f"({training['cells']}/{training['of']} cells), heap {int(worker['heap']) >> 20} MiB, "
                f"RSS {int(worker['rss']) >> 20} MiB",
            )


def _check_limits() -> dict[str, str | None]:
    """Runs each cheap limit once for real; None for a limit that held, else what happened instead."""
    from langchain_graalvm import Interpreter

    results: dict[str, str | None] = {}
    with Interpreter(timeout=0.3) as js:
        out = js.eval("while (true) {}")
        results["time"] = None if out.status == "timeout" else f"an endless loop ended with {out.text}"
    with Interpreter(timeout=30.0, memory_limit=16 * 1024 * 1024) as js:
        out = js.eval(_BOMB)
        results["memory"] = None if out.error_type == "OutOfMemory" else f"an allocation loop ended with {out.text}"
    with Interpreter() as js:
        out = js.eval("function down(n) { return down(n + 1) }\ntry { down(0) } catch (e) { e instanceof RangeError }")
        results["stack"] = None if out.value == "true" else f"deep recursion ended with {out.text}"
        out = js.eval("Date.now()")
        results["clock"] = None if out.value == "0" else f"Date.now() showed {out.value}"
    with Interpreter(max_result_chars=100) as js:
        out = js.eval("'x'.repeat(100000)")
        results["output"] = None if len(out.text) < 1000 else f"a 100000-character result came back as {len(out.text)}"
        out = js.eval("1 + " * 200_000 + "1")
        deep = out.error_type == "CodeTooDeep"
        results["code size"] = None if deep else f"an 800 KB expression ended with {out.text}"
    return results


def _jit_reason(jdk: Any, runtime: Path, jit: bool, running: str) -> str:
    compiler = any((runtime / "compiler").glob("*.jar"))
    if jit and running == "libgraal":
        return f"on: JDK {jdk.feature} compiles guest code with its libgraal ({jdk.home / 'lib'}) through JVMCI"
    if jit:
        return f"on: JDK {jdk.feature} loads the Graal compiler ({runtime / 'compiler'}) through JVMCI"
    if jdk.feature != 25:
        return f"off: JDK {jdk.feature} has no matching Graal compiler (JDK 25 has); guest code runs interpreted"
    if not compiler:
        return f"off: no compiler jars in {runtime / 'compiler'}; guest code runs interpreted"
    return "off: the Graal compiler did not load (check LANGCHAIN_GRAALVM_JVM_OPTIONS); guest code runs interpreted"


def graalpy_available(runtime: Path) -> bool:
    return any(
        p.name.startswith("python-language")
        for folder in ("modules", "python")
        for p in (runtime / folder).glob("*.jar")
    )
