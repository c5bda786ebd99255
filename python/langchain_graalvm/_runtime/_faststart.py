"""Fast start: a JDK image that takes the Graal compiler from the module path, and an AOT cache trained on it.

On a stock JDK 25 the Graal compiler goes on ``--upgrade-module-path`` (the JDK ships a placeholder module of the
same name), and that option turns class-data sharing off: every class of the JDK, Truffle, GraalJS and the
compiler is then loaded, verified and linked from jars in each new process. Two things built once remove that:

- a copy of the JDK made by ``jlink`` from its own run-time image, without the placeholder ``jdk.graal.compiler``
  module, so the real compiler can sit on the ordinary module path (``--add-modules=jdk.graal.compiler``) and JIT
  compilation stays on;
- a JDK 25 AOT cache (``-XX:AOTCacheOutput``), recorded by a training run that starts the sandbox and evaluates a
  few cells: the classes arrive loaded and linked. Without the training run's method profiles
  (:data:`RECORDING_FLAGS`): replayed in a new process, they made the host JIT compile about 6 s more by the end
  of the first big cell, which then took twice as long, and the first use of the agent cells longer, for no gain
  in the start itself and about a tenth on steady cells (docs/performance.md, "The first minutes of a process").

``langchain-graalvm install`` builds both into the cache folder (``scripts/setup.sh`` does it for a checkout; the
training run is :mod:`langchain_graalvm.cli._install`'s). The JVM uses them only when the cache was made for exactly
this JDK, these jars and these options (a key over them) and has passed a trial start; otherwise it starts as
before. With libgraal (:mod:`._compiler`) no image is needed: nothing goes on ``--upgrade-module-path``, so the
AOT cache is recorded on the JDK itself; a jlink copy of a GraalVM JDK would also have to carry its libgraal. The
key names the compiler, so a cache recorded with one is never used with the other. The trial is there because the
JVM runs in the caller's process: JDK 25.0.3 was seen to die of SIGSEGV while loading the classes of one freshly
recorded cache (in ``AOTLinkedClassBulkLoader``), and a cache like that must crash a throw-away child process,
never the user's. ``LANGCHAIN_GRAALVM_FAST_START=0`` turns them off.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .._settings import name_of, settings
from ..errors import FastStartError
from ._jvmfinder import cache_dir, sweep_partials

if TYPE_CHECKING:
    from ._jvmfinder import Jdk

ENV = name_of("fast_start")
TRAIN_ENV = name_of("aot_training")
# In a trial start: the cache to start from, whether or not it has passed a trial (the JVM must then use it or fail).
TRIAL_ENV = name_of("aot_trial")
# Modules left out of the image: the placeholder compiler (the reason for the image) and the tools that need the
# JDK's packaged modules to be linked (a run-time image cannot carry them).
_LEFT_OUT = ("jdk.graal.compiler", "jdk.graal.compiler.management", "jdk.jlink", "jdk.jpackage", "jdk.jshell",
             "jdk.jdeps")


# How the training run records the cache: classes only, no method profiles (JEP 515's training data).
RECORDING_FLAGS = ("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining")


def enabled() -> bool:
    return settings().fast_start


def root() -> Path:
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


def cache_key(jdk: Jdk, flags: list[str], classpath: list[str], *, compiler: str) -> str:
    """A digest of everything an AOT cache depends on: the JDK, the compiler (``libgraal`` or ``jargraal``: a
    cache recorded with one is never used with the other), each jar (path, size, time), the JVM options and how
    the cache was recorded."""
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
    blob = json.dumps([jdk.version, str(jdk.home), compiler, options, stamps, RECORDING_FLAGS], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def aot_file(key: str) -> Path:
    return root() / "aot" / f"{key}.aot"


def crash_reports() -> Path:
    """The folder where a training run's or a trial start's JVM writes its crash report (``-XX:ErrorFile``), made if
    missing: the JVM writes one where it was started when its folder does not exist, the user's working folder."""
    folder = root() / "crashes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def trusted_marker(aot: Path) -> Path:
    """The file that says ``aot`` has passed a trial start in a child process."""
    return aot.with_name(aot.name + ".trusted")


def _stamp(aot: Path) -> str:
    st = aot.stat()
    return f"{st.st_size} {st.st_mtime_ns}\n"


def mark_trusted(aot: Path) -> None:
    """Records that ``aot``, as it is now (size and modification time), has passed a trial start."""
    trusted_marker(aot).write_text(_stamp(aot))


def trusted(aot: Path) -> bool:
    """Whether ``aot`` has passed a trial start and has not changed since (a cache written over, or copied in,
    after its trial gets a new one)."""
    try:
        return trusted_marker(aot).read_text() == _stamp(aot)
    except OSError:
        return False


def trial_cache() -> str | None:
    """In a trial start: the AOT cache on trial."""
    trial = settings().aot_trial
    return None if trial is None else str(trial)


def training_output() -> str | None:
    """In a training run: where the AOT cache is to be written."""
    output = settings().aot_training
    return None if output is None else str(output)


def build_image(jdk: Jdk, *, log: bool = True) -> Path:
    """Links the image (about 10 s and 180 MiB), once per JDK."""
    target = image_dir(jdk)
    if image_ready(jdk):
        return target
    jlink = jdk.home / "bin" / "jlink"
    java = jdk.home / "bin" / "java"
    if not jlink.is_file():
        raise FastStartError(f"{jdk.home} has no bin/jlink (a JRE?): fast start needs a full JDK 25")
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
        raise FastStartError(f"jlink failed: {(proc.stderr or proc.stdout).strip()[-500:]}")
    (partial / ".complete").write_text(jdk.version)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target


def jvm_temporary(output: Path) -> Path:
    """The AOT configuration the JVM writes beside ``-XX:AOTCacheOutput`` at the end of a training run, for the
    child JVM that assembles the cache; about as large as the cache, and not always deleted."""
    return output.with_name(output.name + ".config")


def prune(keep: Path, kept: int = 3) -> None:
    """Removes all but the newest few caches (each is 100 to 200 MiB, and a rebuilt jar makes a new one), and the
    caches and images that installs no longer running left half-made."""
    caches = sorted(keep.parent.glob("*.aot"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in caches[kept:]:
        if old != keep:
            old.unlink(missing_ok=True)
            trusted_marker(old).unlink(missing_ok=True)
    sweep_partials(keep.parent)
    sweep_partials(root())  # images
