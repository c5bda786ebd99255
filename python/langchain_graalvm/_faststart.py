"""Fast start: a JDK image that takes the Graal compiler from the module path, and an AOT cache trained on it.

On a stock JDK 25 the Graal compiler goes on ``--upgrade-module-path`` (the JDK ships a placeholder module of the
same name), and that option turns class-data sharing off: every class of the JDK, Truffle, GraalJS and the
compiler is then loaded, verified and linked from jars in each new process. Two things built once remove that:

- a copy of the JDK made by ``jlink`` from its own run-time image, without the placeholder ``jdk.graal.compiler``
  module, so the real compiler can sit on the ordinary module path (``--add-modules=jdk.graal.compiler``) and JIT
  compilation stays on;
- a JDK 25 AOT cache (``-XX:AOTCacheOutput``), recorded by a training run that starts the sandbox and evaluates a
  few cells: the classes arrive loaded and linked, with their method profiles.

``langchain-graalvm install`` builds both into the cache folder (``scripts/setup.sh`` does it for a checkout). The
JVM uses them only when the cache was made for exactly this JDK, these jars and these options (a key over them);
otherwise it starts as before. ``LANGCHAIN_GRAALVM_FAST_START=0`` turns them off.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._jvm import Jdk

ENV = "LANGCHAIN_GRAALVM_FAST_START"
_TRAIN_ENV = "LANGCHAIN_GRAALVM_AOT_TRAINING"
# Modules left out of the image: the placeholder compiler (the reason for the image) and the tools that need the
# JDK's packaged modules to be linked (a run-time image cannot carry them).
_LEFT_OUT = ("jdk.graal.compiler", "jdk.graal.compiler.management", "jdk.jlink", "jdk.jpackage", "jdk.jshell",
             "jdk.jdeps")


def enabled() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def root() -> Path:
    from ._jvm import cache_dir

    return cache_dir() / "fast-start"


def image_dir(jdk: Jdk) -> Path:
    """Where the image made from ``jdk`` lives."""
    tag = hashlib.sha256(str(jdk.home.resolve()).encode()).hexdigest()[:10]
    return root() / f"jdk-{jdk.version}-{tag}"


def image_ready(jdk: Jdk) -> bool:
    return (image_dir(jdk) / "lib" / "server" / "libjvm.so").is_file() and (image_dir(jdk) / ".complete").is_file()


def compiler_module_jars(runtime: Path) -> list[str]:
    """The compiler jars that are not already modules of the runtime (the rest are the same files)."""
    present = {p.name for p in (runtime / "modules").glob("*.jar")}
    return sorted(str(p) for p in (runtime / "compiler").glob("*.jar") if p.name not in present)


def cache_key(jdk: Jdk, flags: list[str], classpath: list[str]) -> str:
    """A digest of everything an AOT cache depends on: the JDK, each jar (path, size, time) and the JVM options."""
    jars: list[str] = []
    for flag in flags:
        if flag.startswith("--module-path="):
            jars += flag.split("=", 1)[1].split(os.pathsep)
    jars += classpath
    stamps = []
    for jar in jars:
        try:
            st = os.stat(jar)
            stamps.append([jar, st.st_size, st.st_mtime_ns])
        except OSError:
            stamps.append([jar, -1, -1])
    options = [f for f in flags if not f.startswith("-Xmx")]
    blob = json.dumps([jdk.version, str(jdk.home), options, stamps], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def aot_file(key: str) -> Path:
    return root() / "aot" / f"{key}.aot"


def training_output() -> str | None:
    """In a training run: where the AOT cache is to be written."""
    return os.environ.get(_TRAIN_ENV) or None


def build_image(jdk: Jdk, *, log: bool = True) -> Path:
    """Links the image (about 10 s and 180 MiB), once per JDK."""
    target = image_dir(jdk)
    if image_ready(jdk):
        return target
    jlink = jdk.home / "bin" / "jlink"
    java = jdk.home / "bin" / "java"
    if not jlink.is_file():
        raise RuntimeError(f"{jdk.home} has no bin/jlink (a JRE?): fast start needs a full JDK 25")
    listed = subprocess.run([str(java), "--list-modules"], capture_output=True, text=True, check=True).stdout
    modules = [line.split("@", 1)[0] for line in listed.split()]
    keep = [m for m in modules if m and m not in _LEFT_OUT]
    partial = target.with_name(target.name + f".partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    if log:
        print(f"linking a JDK image without the placeholder compiler module into {target} ...", file=sys.stderr)
    proc = subprocess.run(
        [str(jlink), "--add-modules", ",".join(keep), "--output", str(partial)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise RuntimeError(f"jlink failed: {(proc.stderr or proc.stdout).strip()[-500:]}")
    (partial / ".complete").write_text(jdk.version)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target


_TRAINING_CELLS = (
    "1 + 1",
    "const xs: number[] = [1, 2, 3]; xs.map((x) => ({ x, y: [x, String(x)] }))",
    "console.log('hi'); new Map([[1, {a: 1}]])",
    "async function f() { return 1 }; await f()",
    "throw new TypeError('boom')",
)


def train() -> None:
    """The training run's workload (run in a child process with the training variable set)."""
    from .interpreter import Interpreter

    with Interpreter(snapshots=True, prestart=False) as js:
        js.snapshot()
        for cell in _TRAINING_CELLS:
            js.eval(cell)
        js.snapshot()
    with Interpreter(prestart=False) as js:
        js.eval("void 0")
    from ._bridge import runtime_facts

    if runtime_facts()["python_available"]:
        with Interpreter("python", prestart=False) as py:
            py.eval("")
            py.eval("1 + 1")
            py.eval("import json\njson.dumps({'a': [1, 2]})")


def build(*, log: bool = True) -> Path:
    """Builds the image and the AOT cache for this JDK and runtime; returns the cache file."""
    from . import _jvm

    jdk = _jvm.find_jdk()
    if jdk.feature != 25:
        raise RuntimeError(f"fast start needs JDK 25; {jdk.home} is JDK {jdk.feature}")
    build_image(jdk, log=log)
    runtime = _jvm.find_runtime_dir()
    flags, _ = _jvm.jvm_flags(jdk, runtime, fast=True)
    key = cache_key(jdk, flags, _jvm._classpath(runtime))
    out = aot_file(key)
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + f".partial-{os.getpid()}")
    if log:
        print(f"training the AOT cache {out} (a first start and a few cells) ...", file=sys.stderr)
    env = dict(os.environ, **{_TRAIN_ENV: str(partial), "LANGCHAIN_GRAALVM_BACKGROUND_START": "0"})
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", "from langchain_graalvm import _faststart; _faststart.train()"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"the AOT training run failed: {(proc.stderr or proc.stdout).strip()[-800:]}")
    partial.rename(out)
    _prune(out)
    if log:
        size = out.stat().st_size / 2**20
        print(f"AOT cache ready: {size:.0f} MiB in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def _prune(keep: Path, kept: int = 3) -> None:
    """Removes all but the newest few caches: each is 100 to 200 MiB, and a rebuilt jar makes a new one."""
    caches = sorted(keep.parent.glob("*.aot"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in caches[kept:]:
        if old != keep:
            old.unlink(missing_ok=True)


def status() -> tuple[bool, str]:
    """Whether the next JVM start uses the fast start, and what was found (for ``doctor``)."""
    from . import _jvm

    if not enabled():
        return False, f"off ({ENV}=0)"
    try:
        jdk = _jvm.find_jdk()
        runtime = _jvm.find_runtime_dir()
    except _jvm.JvmError as exc:
        return False, str(exc)
    if jdk.feature != 25:
        return False, f"needs JDK 25 (found {jdk.feature})"
    if not image_ready(jdk):
        return False, f"no JDK image in {image_dir(jdk)}"
    flags, _ = _jvm.jvm_flags(jdk, runtime, fast=True)
    out = aot_file(cache_key(jdk, flags, _jvm._classpath(runtime)))
    if not out.is_file():
        return False, f"no AOT cache for these jars and options in {out.parent}"
    return True, f"AOT cache {out} on the JDK image {image_dir(jdk)}"
