"""Command line: ``langchain-graalvm {demo,doctor,repl,install,info,tour}`` (also ``python -m langchain_graalvm``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

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


def _server(args: argparse.Namespace) -> int:
    from langchain_graalvm._runtime import _server
    from langchain_graalvm.errors import GraalVMError

    try:
        if args.verb == "start":
            if args.idle is not None:
                os.environ["LANGCHAIN_GRAALVM_SERVER_IDLE"] = str(args.idle)
            started = _server.start()
            print(f"sandbox server running: pid {started['pid']}, socket {_server.socket_path()}")
            return 0
        if args.verb == "stop":
            pid = _server.stop()
            print("no sandbox server was running" if pid is None else f"sandbox server stopped: pid {pid}")
            return 0
        facts = _server.status()
    except GraalVMError as exc:
        print(f"langchain-graalvm server {args.verb}: {exc}", file=sys.stderr)
        return 1
    if facts is None:
        print(f"no sandbox server is running (socket {_server.socket_path()})")
        return 3
    print(json.dumps({"socket": str(_server.socket_path()), **facts}, indent=2))
    return 0


def _install(args: argparse.Namespace) -> int:
    from langchain_graalvm._runtime import _artifacts, _manifest

    if args.jdk:
        from langchain_graalvm.cli._jdk import install_command

        if install_command(index_url=args.jdk_index, progress=not args.quiet) != 0:
            return 1

    manifest = _manifest.load_manifest()
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
        problems = _manifest.verify(folder, manifest) if args.verify else []
    except (FetchError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if problems:
        print("error: the cached jars do not match the manifest:\n  " + "\n  ".join(problems), file=sys.stderr)
        print(f"Delete {folder} and run `langchain-graalvm install` again.", file=sys.stderr)
        return 1
    size = _manifest.total_size(manifest, python=args.python) / 2**20
    count = len(_manifest.wanted_artifacts(manifest, python=args.python))
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


def _doctor(args: argparse.Namespace) -> int:
    from langchain_graalvm.cli._doctor import doctor

    return doctor(sys.stdout, verify=args.verify)


# ------------------------------------------------------------------------------------------------ repl

_REPL_HELP = """\
Type code (JavaScript or TypeScript; Python with --language python). Each entry runs as one cell, like one call of
the agent's eval tool, under the same limits. End a line with \\ to continue the cell on the next line. Commands:
.help, .reset (fresh globals), .exit."""


def _repl(args: argparse.Namespace) -> int:
    if args.language == "python":
        from langchain_graalvm._runtime import _launch
        from langchain_graalvm.cli._doctor import graalpy_available

        if not graalpy_available(_launch.find_runtime_dir()):
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

    srv = sub.add_parser("server", help="the local sandbox server that lends trained worker JVMs (SERVER=auto)")
    srv.add_argument("verb", choices=["start", "stop", "status"])
    srv.add_argument("--idle", type=int, help="start: seconds without a client before it exits (default 1800)")
    srv.set_defaults(func=_server)

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
