"""``langchain-graalvm install``'s fast start: link the JDK image, train the AOT cache, and say whether it is used.

The training run is a child process that runs :func:`train` with the training variable set; the JVM it starts
writes the AOT cache as it exits (see :mod:`langchain_graalvm._runtime._faststart`). A second child process then
starts from the new cache and evaluates a cell (:func:`adopt`); only a cache that passes that trial is used, and one
that fails it is recorded again once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from .._runtime import _compiler, _faststart, _jvmfinder, _launch
from .._runtime._faststart import ENV, aot_file, build_image, cache_key, enabled, image_dir, image_ready
from .._settings import settings
from ..errors import FastStartError, JvmError

_TRIAL = (
    "from langchain_graalvm import Interpreter\n"
    "print(Interpreter(prestart=False).eval('[1, 2].map((x) => x * 21)').text)\n"
)
_TRIAL_OUTPUT = "<result>[21, 42]</result>"
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


def adopt(candidate: Path, out: Path) -> str | None:
    """Starts a child process from the AOT cache ``candidate`` and evaluates a cell; on success moves it to ``out``
    and marks it trusted. Returns None then, or why the trial failed (the candidate is deleted)."""
    env = _child_env(_faststart.TRIAL_ENV, candidate)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _TRIAL], capture_output=True, text=True, env=env, timeout=600, check=False
        )
    except subprocess.TimeoutExpired:
        candidate.unlink(missing_ok=True)
        return "the trial start did not finish in 600 s"
    if proc.returncode != 0 or _TRIAL_OUTPUT not in proc.stdout:
        candidate.unlink(missing_ok=True)
        how = f"exit code {proc.returncode}" if proc.returncode >= 0 else f"signal {-proc.returncode}"
        said = (proc.stdout + proc.stderr).strip().splitlines()
        return f"the trial start from the cache failed ({how}): " + " / ".join(said[:12])[-800:] + _reports()
    os.replace(candidate, out)
    _faststart.mark_trusted(out)
    return None


def _child_env(variable: str, cache: Path) -> dict[str, str]:
    """The environment of a training run or a trial start: ``variable`` (one of the two) names the cache, the
    other is unset, the child starts its JVM on first use, not in the background, and a crash of that JVM (a
    cache it cannot load can end it) leaves its report in the cache's crash folder, not in the working folder."""
    env = {k: v for k, v in os.environ.items() if k not in (_faststart.TRAIN_ENV, _faststart.TRIAL_ENV)}
    report = f"-XX:ErrorFile={_faststart.crash_reports() / 'hs_err_pid%p.log'}"
    options = " ".join([*settings().jvm_options, report])
    return {
        **env,
        variable: str(cache),
        "LANGCHAIN_GRAALVM_BACKGROUND_START": "0",
        "LANGCHAIN_GRAALVM_JVM_OPTIONS": options,
    }


def _reports() -> str:
    """Where the crash reports of training runs and trial starts are, when there are any."""
    folder = _faststart.crash_reports()
    return f" (JVM crash reports: {folder})" if any(folder.glob("hs_err_pid*.log")) else ""


def _train(partial: Path) -> None:
    env = _child_env(_faststart.TRAIN_ENV, partial)
    proc = subprocess.run(
        [sys.executable, "-c", "from langchain_graalvm.cli import _install; _install.train()"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise FastStartError(f"the AOT training run failed: {(proc.stderr or proc.stdout).strip()[-800:]}{_reports()}")


def build(*, log: bool = True) -> Path:
    """Builds the image and the AOT cache for this JDK and runtime; returns the cache file.

    A cache that fails its trial start is recorded once more; a second failure raises :class:`FastStartError` and
    leaves the fast start off (the JVM then starts the usual way).
    """
    jdk = _jvmfinder.find_jdk()
    if jdk.feature != 25:
        raise FastStartError(f"fast start needs JDK 25; {jdk.home} is JDK {jdk.feature}")
    runtime = _launch.find_runtime_dir()
    compiler = _compiler.choose(jdk, runtime).name
    if compiler == "none":
        raise FastStartError("fast start needs a Graal compiler: libgraal in the JDK or the compiler jars")
    if compiler == "libgraal":
        from ._jdk import libgraal_trial

        failed = libgraal_trial(jdk, runtime)  # a libgraal that fails is replaced by jargraal from now on
        if failed:
            print(f"libgraal of {jdk.home} failed its trial start, jargraal is used: {failed}", file=sys.stderr)
            compiler = _compiler.choose(jdk, runtime).name
    if compiler == "jargraal":  # libgraal starts from the JDK itself
        build_image(jdk, log=log)
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    key = cache_key(jdk, flags, _launch.classpath(runtime), compiler=compiler)
    out = aot_file(key)
    if _faststart.trusted(out):
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if out.is_file():
        # A cache recorded before trial starts existed: it gets its trial now, under a candidate's name.
        candidate = _candidate(out)
        os.replace(out, candidate)
        if adopt(candidate, out) is None:
            return out
    for attempt in range(2):
        partial = _candidate(out)
        if log:
            again = " again" if attempt else ""
            print(f"training the AOT cache {out}{again} (a first start and a few cells) ...", file=sys.stderr)
        try:
            _train(partial)
        finally:
            _faststart.jvm_temporary(partial).unlink(missing_ok=True)
        failed = adopt(partial, out)
        if failed is None:
            break
        if log:
            print(f"discarded the new AOT cache: {failed}", file=sys.stderr)
    else:
        raise FastStartError(
            f"two AOT caches recorded here failed their trial start; the JVM will start without one. Last: {failed}"
        )
    _faststart.prune(out)
    if log:
        size = out.stat().st_size / 2**20
        print(f"AOT cache ready: {size:.0f} MiB in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def _candidate(out: Path) -> Path:
    return out.with_name(out.name + f".partial-{os.getpid()}")


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
    compiler = _compiler.choose(jdk, runtime).name
    if compiler == "none":
        return False, "needs a Graal compiler (libgraal in the JDK, or the compiler jars)"
    if compiler == "jargraal" and not image_ready(jdk):
        return False, f"no JDK image in {image_dir(jdk)}"
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    out = aot_file(cache_key(jdk, flags, _launch.classpath(runtime), compiler=compiler))
    if not out.is_file():
        return False, f"no AOT cache for these jars, options and compiler ({compiler}) in {out.parent}"
    if not _faststart.trusted(out):
        return False, f"the AOT cache {out} has not passed a trial start, or changed since"
    base = f"the JDK image {image_dir(jdk)}" if compiler == "jargraal" else f"the JDK {jdk.home}"
    return True, f"AOT cache {out} ({compiler}) on {base}"
