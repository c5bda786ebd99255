"""Command line: ``langchain-graalvm {demo,doctor,repl,install,info,tour}`` (also ``python -m langchain_graalvm``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from langchain_graalvm.errors import DemoError, FetchError, JvmError

TOUR_CELLS = [
    (
        "State persists across calls",
        "const prices: number[] = [12.5, 7, 30];\nlet total = prices.reduce((a, b) => a + b, 0);\ntotal",
    ),
    ("...and can be declared again", "let total = 0; for (const p of prices) total += p * 2; total"),
    ("Top-level await", "const doubled = await Promise.all(prices.map(async (p) => p * 2));\ndoubled"),
    ("Rich values", "new Map([['eu', new Set([1, 2])], ['us', new Date(Date.UTC(2025, 0, 1))]])"),
    ("Console output", "console.log('computing...'); console.warn('careful'); ({ok: true})"),
    (
        "Errors point at your lines",
        "function check(x) {\n  if (x < 0) throw new RangeError('negative: ' + x)\n}\ncheck(-1)",
    ),
    ("No host access", "typeof Java + ' ' + typeof require + ' ' + typeof process + ' ' + Date.now()"),
    ("Deep recursion is a catchable RangeError", "function down(n) { return down(n + 1) }\ndown(0)"),
    ("Timeouts stop runaway code (1 s here)", "while (true) {}"),
    ("...and the globals are still there", "total"),
]

_AGENTS_HINT = "The demo needs the agents extra: pip install 'langchain-graalvm[agents]'"


def _tour(_: argparse.Namespace) -> int:
    from langchain_graalvm import Interpreter, runtime_info

    started = time.perf_counter()
    with Interpreter(timeout=1.0) as js:
        first = js.eval("1 + 1")
        info = runtime_info()
        print(
            f"langchain-graalvm tour: GraalVM {info['graalvm_version']} on JDK {info['java_version']}, "
            f"JIT {'on' if info['jit'] else 'off'} ({info['runtime_name']}); first eval {first.value} "
            f"after {time.perf_counter() - started:.2f} s\n"
        )
        for title, code in TOUR_CELLS:
            out = js.eval(code)
            print(f"## {title}")
            print("  " + code.replace("\n", "\n  "))
            print("  -> " + out.text.replace("\n", "\n     ") + f"   [{out.status}, {out.duration_s * 1000:.1f} ms]\n")
    return 0


def _demo(args: argparse.Namespace) -> int:
    try:
        from langchain_graalvm.cli import _demo
    except ImportError as exc:
        print(f"error: {_AGENTS_HINT} ({exc})", file=sys.stderr)
        return 2
    try:
        _demo.run(args.model, timeout=args.timeout)
    except DemoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _info(_: argparse.Namespace) -> int:
    from langchain_graalvm import runtime_info

    print(json.dumps(runtime_info(), indent=2))
    return 0


def _install(args: argparse.Namespace) -> int:
    from langchain_graalvm._runtime import _artifacts

    if args.jdk:
        from langchain_graalvm.cli._jdk import install_command

        if install_command(index_url=args.jdk_index, progress=not args.quiet) != 0:
            return 1

    manifest = _artifacts.load_manifest()
    if manifest is None:
        from langchain_graalvm._runtime import _launch

        print(
            "This is a development checkout: it uses the jars Maven builds in java/target/runtime "
            "(bash scripts/setup.sh). Nothing to fetch."
        )
        try:
            print(f"runtime: {_launch.find_runtime_dir()}")
        except JvmError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return _install_fast_start(args)
    try:
        folder = _artifacts.fetch(
            manifest, resolver=args.resolver, offline=args.offline, progress=not args.quiet, python=args.python
        )
        problems = _artifacts.verify(folder, manifest) if args.verify else []
    except (FetchError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if problems:
        print("error: the cached jars do not match the manifest:\n  " + "\n  ".join(problems), file=sys.stderr)
        print(f"Delete {folder} and run `langchain-graalvm install` again.", file=sys.stderr)
        return 1
    size = _artifacts.total_size(manifest, python=args.python) / 2**20
    count = len(_artifacts.wanted_artifacts(manifest, python=args.python))
    print(f"GraalVM {manifest['graalvm_version']}: {count} jars ({size:.1f} MiB) in {folder}")
    return _install_fast_start(args)


def _install_fast_start(args: argparse.Namespace) -> int:
    """Builds the fast-start JDK image and AOT cache unless told not to; a failure only costs start-up time."""
    if args.no_fast_start:
        return 0
    from langchain_graalvm.cli import _install as fast_start

    try:
        fast_start.build(log=not args.quiet)
    except Exception as exc:  # noqa: BLE001 - the sandbox works without it, only its first start is slower
        print(f"warning: no fast start ({exc}); the sandbox works, its first start in a process is slower")
    return 0


# ------------------------------------------------------------------------------------------------ doctor


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


def _doctor(args: argparse.Namespace) -> int:
    return doctor(sys.stdout, verify=args.verify)


def doctor(out: TextIO, *, verify: bool = False) -> int:
    """Checks the installation and prints what it found, with a fix for every problem; 1 when unusable."""
    from importlib import metadata

    from langchain_graalvm._runtime import _artifacts, _jvmfinder, _launch

    report = _Report(out)
    try:
        version = metadata.version("langchain-graalvm")
    except metadata.PackageNotFoundError:
        version = "not installed"
    manifest = _artifacts.load_manifest()
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
        size = _artifacts.total_size(manifest) / 2**20
        if not _artifacts.is_complete(folder, manifest):
            report.line("info", "GraalVM jars", f"not in the cache yet; fetching {size:.0f} MiB into {folder}")
        try:
            folder = _artifacts.ensure_runtime()
        except FetchError as exc:
            fix = "run `langchain-graalvm install` where Maven Central is reachable"
            report.line("FAIL", "GraalVM jars", str(exc), fix)
            return 1
        problems = _artifacts.verify(folder, manifest) if verify else []
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
    report.line("ok", "artifact cache", f"LANGCHAIN_GRAALVM_HOME={_artifacts.home()}")
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
    checks = _check_limits()
    for what, how in _LIMITS:
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
    python = _graalpy_available(runtime)
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
    if report.failed:
        print("\nSome checks failed: the sandbox is not usable until they are fixed.", file=out)
        return 1
    print("\nAll checks passed.", file=out)
    return 0


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
    (
        "JVM heap",
        f"-Xmx{os.environ.get('LANGCHAIN_GRAALVM_MAX_HEAP', '2g')} (LANGCHAIN_GRAALVM_MAX_HEAP) for all "
        "interpreters of the process",
    ),
    ("clock", "frozen by default: Date shows a fixed instant, the host time is never seen"),
]


_BOMB = "const t = []; while (true) t.push(new Float64Array(1 << 20))"


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


def _graalpy_available(runtime: Path) -> bool:
    return any(
        p.name.startswith("python-language")
        for folder in ("modules", "python")
        for p in (runtime / folder).glob("*.jar")
    )


# ------------------------------------------------------------------------------------------------ repl

_REPL_HELP = """\
Type code (JavaScript or TypeScript; Python with --language python). Each entry runs as one cell, like one call of
the agent's eval tool, under the same limits. End a line with \\ to continue the cell on the next line. Commands:
.help, .reset (fresh globals), .exit."""


def _repl(args: argparse.Namespace) -> int:
    if args.language == "python":
        from langchain_graalvm._runtime import _launch

        if not _graalpy_available(_launch.find_runtime_dir()):
            print(
                "error: the Python guest (GraalPy) is not installed here: its jars are built with the Maven profile "
                "`python` (bash scripts/setup.sh does that in a checkout); use --language js meanwhile.",
                file=sys.stderr,
            )
            return 2
    return repl(sys.stdin, sys.stdout, timeout=args.timeout, memory_limit=args.memory_limit, language=args.language)


def repl(
    stdin: TextIO, out: TextIO, *, timeout: float = 5.0, memory_limit: int = 64 * 1024 * 1024, language: str = "js"
) -> int:
    """Reads cells from ``stdin`` and prints each one's envelope, as the model would see it."""
    from langchain_graalvm import Interpreter

    interactive = stdin.isatty()
    if interactive:
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:
            pass
    print(
        f"langchain-graalvm repl ({language}): timeout {timeout:g} s, "
        f"memory limit {memory_limit // (1024 * 1024)} MiB. "
        "Type .help for help.",
        file=out,
        flush=True,
    )

    def read(prompt: str) -> str | None:
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        print(prompt, end="", file=out, flush=True)
        line = stdin.readline()
        return None if line == "" else line.rstrip("\n")

    js = Interpreter(language, timeout=timeout, memory_limit=memory_limit)
    try:
        while True:
            line = read("py> " if language == "python" else "js> ")
            if line is None:
                print("", file=out)
                return 0
            lines = [line]
            while lines[-1].endswith("\\"):
                lines[-1] = lines[-1][:-1]
                more = read("... ")
                if more is None:
                    break
                lines.append(more)
            code = "\n".join(lines)
            command = code.strip()
            if not command:
                continue
            if command in (".exit", ".quit"):
                return 0
            if command == ".help":
                print(_REPL_HELP, file=out)
                continue
            if command == ".reset":
                js.close()
                js = Interpreter(language, timeout=timeout, memory_limit=memory_limit)
                print("(globals cleared)", file=out)
                continue
            outcome = js.eval(code)
            print(outcome.text, file=out, flush=True)
    except KeyboardInterrupt:
        print("", file=out)
        return 130
    finally:
        js.close()


def _bench(args: argparse.Namespace) -> int:
    from langchain_graalvm.cli import benchmark

    return benchmark.run(args)


# ------------------------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="langchain-graalvm", description="A sandboxed GraalVM code interpreter.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="a Deep Agent using the sandbox over several turns (offline by default)")
    demo.add_argument("--model", metavar="PROVIDER:NAME", help="run against a real chat model (needs its API key)")
    demo.add_argument("--timeout", type=float, default=2.0, help="eval timeout in seconds (default 2)")
    demo.set_defaults(func=_demo)

    doc = sub.add_parser("doctor", help="check the JDK, GraalVM, JIT, sandbox and limits; non-zero when unusable")
    doc.add_argument("--verify", action="store_true", help="also hash every cached GraalVM jar")
    doc.set_defaults(func=_doctor)

    rep = sub.add_parser("repl", help="an interactive sandboxed REPL with the agent tool's limits")
    rep.add_argument("--language", choices=["js", "python"], default="js")
    rep.add_argument("--timeout", type=float, default=5.0, help="seconds per cell (default 5)")
    rep.add_argument("--memory-limit", type=int, default=64 * 1024 * 1024, help="bytes per cell (default 64 MiB)")
    rep.set_defaults(func=_repl)

    inst = sub.add_parser("install", help="fetch and verify the GraalVM jars now instead of on first use")
    inst.add_argument(
        "--resolver",
        choices=["auto", "mvn", "jgo"],
        default="auto",
        help="Maven when `mvn` is on the PATH, else jgo (default auto)",
    )
    inst.add_argument("--offline", action="store_true", help="use only local Maven repositories")
    inst.add_argument("--verify", action="store_true", help="hash every jar again after the fetch")
    inst.add_argument("--quiet", action="store_true", help="no progress bar")
    inst.add_argument("--python", action="store_true", help="also fetch the GraalPy jars (the Python guest)")
    inst.add_argument("--jdk", action="store_true", help="also fetch GraalVM Community JDK 25 (with libgraal)")
    inst.add_argument("--jdk-index", metavar="URL", help="the JVM index to find it in (default: coursier's)")
    inst.add_argument(
        "--no-fast-start", action="store_true", help="skip the JDK image and AOT cache that cut the JVM's start"
    )
    inst.set_defaults(func=_install)

    sub.add_parser("info", help="print the runtime: GraalVM, JDK, JIT").set_defaults(func=_info)
    sub.add_parser("tour", help="a quick tour of the interpreter, without an agent").set_defaults(func=_tour)
    bench = sub.add_parser("bench", help="compare with langchain-quickjs: performance report or isolation matrix")
    bench.set_defaults(func=_bench)
    from langchain_graalvm.cli.benchmark import add_arguments

    add_arguments(bench)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
