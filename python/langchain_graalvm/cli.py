"""Command line: ``langchain-graalvm demo`` and ``langchain-graalvm info``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

DEMO_CELLS = [
    ("State persists across calls", "const prices: number[] = [12.5, 7, 30];\nlet total = prices.reduce((a, b) => a + b, 0);\ntotal"),
    ("...and can be declared again", "let total = 0; for (const p of prices) total += p * 2; total"),
    ("Top-level await", "const doubled = await Promise.all(prices.map(async (p) => p * 2));\ndoubled"),
    ("Rich values", "new Map([['eu', new Set([1, 2])], ['us', new Date(Date.UTC(2025, 0, 1))]])"),
    ("Console output", "console.log('computing...'); console.warn('careful'); ({ok: true})"),
    ("Errors point at your lines", "function check(x) {\n  if (x < 0) throw new RangeError('negative: ' + x)\n}\ncheck(-1)"),
    ("No host access", "typeof Java + ' ' + typeof require + ' ' + typeof process + ' ' + Date.now()"),
    ("Deep recursion is a catchable RangeError", "function down(n) { return down(n + 1) }\ndown(0)"),
    ("Timeouts stop runaway code (1 s here)", "while (true) {}"),
    ("...and the globals are still there", "total"),
]


def _demo(_: argparse.Namespace) -> int:
    from langchain_graalvm import Interpreter, runtime_info

    started = time.perf_counter()
    with Interpreter(timeout=1.0) as js:
        first = js.eval("1 + 1")
        info = runtime_info()
        print(f"langchain-graalvm demo: GraalVM {info['graalvm_version']} on JDK {info['java_version']}, "
              f"JIT {'on' if info['jit'] else 'off'} ({info['runtime_name']}); first eval {first.value} "
              f"after {time.perf_counter() - started:.2f} s\n")
        for title, code in DEMO_CELLS:
            out = js.eval(code)
            print(f"## {title}")
            print("  " + code.replace("\n", "\n  "))
            print("  -> " + out.text.replace("\n", "\n     ") + f"   [{out.status}, {out.duration_s * 1000:.1f} ms]\n")
    return 0


def _info(_: argparse.Namespace) -> int:
    from langchain_graalvm import runtime_info

    print(json.dumps(runtime_info(), indent=2))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from langchain_graalvm import benchmark

    return benchmark.run(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="langchain-graalvm", description="A sandboxed GraalVM code interpreter.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="run the offline demo").set_defaults(func=_demo)
    sub.add_parser("info", help="print the runtime: GraalVM, JDK, JIT").set_defaults(func=_info)
    bench = sub.add_parser("bench", help="compare with langchain-quickjs: performance report or isolation matrix")
    bench.set_defaults(func=_bench)
    from langchain_graalvm.benchmark import add_arguments

    add_arguments(bench)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
