"""``langchain-graalvm install``'s fast start: link the JDK image, train the AOT cache, and say whether it is used.

The training run is a child process that runs :func:`train` with the training variable set; the JVM it starts
writes the AOT cache as it exits (see :mod:`langchain_graalvm._runtime._faststart`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from .._runtime import _faststart, _jvmfinder, _launch
from .._runtime._faststart import ENV, aot_file, build_image, cache_key, enabled, image_dir, image_ready
from ..errors import FastStartError, JvmError

_TRAINING_CELLS = (
    "1 + 1",
    "const xs: number[] = [1, 2, 3]; xs.map((x) => ({ x, y: [x, String(x)] }))",
    "console.log('hi'); new Map([[1, {a: 1}]])",
    "async function f() { return 1 }; await f()",
    "throw new TypeError('boom')",
)


def train() -> None:
    """The training run's workload (run in a child process with the training variable set)."""
    from langchain_graalvm import Interpreter
    from langchain_graalvm._runtime._adapter import runtime_facts

    with Interpreter(snapshots=True, prestart=False) as js:
        js.snapshot()
        for cell in _TRAINING_CELLS:
            js.eval(cell)
        js.snapshot()
    with Interpreter(prestart=False) as js:
        js.eval("void 0")
    if runtime_facts()["python_available"]:
        with Interpreter("python", prestart=False) as py:
            py.eval("")
            py.eval("1 + 1")
            py.eval("import json\njson.dumps({'a': [1, 2]})")


def build(*, log: bool = True) -> Path:
    """Builds the image and the AOT cache for this JDK and runtime; returns the cache file."""
    jdk = _jvmfinder.find_jdk()
    if jdk.feature != 25:
        raise FastStartError(f"fast start needs JDK 25; {jdk.home} is JDK {jdk.feature}")
    build_image(jdk, log=log)
    runtime = _launch.find_runtime_dir()
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    key = cache_key(jdk, flags, _launch.classpath(runtime))
    out = aot_file(key)
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + f".partial-{os.getpid()}")
    if log:
        print(f"training the AOT cache {out} (a first start and a few cells) ...", file=sys.stderr)
    env = dict(os.environ, **{_faststart.TRAIN_ENV: str(partial), "LANGCHAIN_GRAALVM_BACKGROUND_START": "0"})
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", "from langchain_graalvm.cli import _install; _install.train()"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise FastStartError(f"the AOT training run failed: {(proc.stderr or proc.stdout).strip()[-800:]}")
    partial.rename(out)
    _faststart.prune(out)
    if log:
        size = out.stat().st_size / 2**20
        print(f"AOT cache ready: {size:.0f} MiB in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def status() -> tuple[bool, str]:
    """Whether the next JVM start uses the fast start, and what was found (for ``doctor``)."""
    if not enabled():
        return False, f"off ({ENV}=0)"
    try:
        jdk = _jvmfinder.find_jdk()
        runtime = _launch.find_runtime_dir()
    except JvmError as exc:
        return False, str(exc)
    if jdk.feature != 25:
        return False, f"needs JDK 25 (found {jdk.feature})"
    if not image_ready(jdk):
        return False, f"no JDK image in {image_dir(jdk)}"
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    out = aot_file(cache_key(jdk, flags, _launch.classpath(runtime)))
    if not out.is_file():
        return False, f"no AOT cache for these jars and options in {out.parent}"
    return True, f"AOT cache {out} on the JDK image {image_dir(jdk)}"
