"""A fresh process's way to its first results, one phase after another: where the cold start goes.

Each phase runs on its own, in order, with the background start off (``LANGCHAIN_GRAALVM_BACKGROUND_START=0``), so
its time is its own: the package and middleware imports, the JVM start (the fast start's JDK image and AOT cache
when ``langchain-graalvm install`` made them), the process's sandbox (the engine), the first context with its
prelude (and snapshot codec with ``--snapshots``, as thread mode has), the first eval, the first cell the cell
compiler must rewrite (``const``: acorn) and the first TypeScript cell (sucrase). Run it a few times: the first
run after a new build has no AOT cache.

    LANGCHAIN_GRAALVM_BACKGROUND_START=0 .venv/bin/python bench/cold_phases.py [--snapshots]
"""

from __future__ import annotations

import os
import sys
import time
import warnings

START = time.perf_counter()


def main() -> None:
    marks: list[tuple[str, float]] = []

    def mark(name: str) -> None:
        marks.append((name, time.perf_counter()))

    warnings.simplefilter("ignore")
    import langchain_graalvm

    mark("import langchain_graalvm")
    from langchain_graalvm import CodeInterpreterMiddleware  # noqa: F401 - the import is the phase

    mark("import the middleware (langchain, deepagents)")
    from langchain_graalvm._runtime import _jvm

    _jvm.start()
    mark("JVM start")
    _jvm.jclass("io.github.langchaingraalvm.sandbox.Sandbox").shared()
    mark("the sandbox (engine)")
    interpreter = langchain_graalvm.Interpreter(prestart=False, snapshots="--snapshots" in sys.argv)
    interpreter.prepare()
    mark("first context" + (" (prelude, snapshot codec)" if "--snapshots" in sys.argv else " (prelude)"))
    interpreter.eval("1 + 1")
    mark("first eval, 1 + 1")
    interpreter.eval("const x = 2; x * 21")
    mark("first cell with const (acorn)")
    interpreter.eval("const y: number = 2; y * 21")
    mark("first TypeScript cell (sucrase)")
    previous = START
    for name, at in marks:
        print(f"{name:48} {1000 * (at - previous):7.0f} ms")
        previous = at
    print(f"{'total':48} {1000 * (previous - START):7.0f} ms, {time.process_time():.2f} CPU s")
    os._exit(0)  # the JVM's threads need no orderly shutdown here


if __name__ == "__main__":
    main()
