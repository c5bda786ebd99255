"""Which Graal compiler runs the guest code's compilations: ``libgraal``, ``jargraal`` or ``none``.

- **libgraal**: the Graal compiler compiled ahead of time into the JDK's ``lib/libjvmcicompiler.so``, which every
  GraalVM JDK 25 (Community and Oracle) ships. It is ready from the first cell: nothing of it has to be loaded or
  compiled by the host JIT, and it compiles outside the Java heap.
- **jargraal**: the compiler jars of the runtime folder on ``--upgrade-module-path`` of a stock JDK 25. They are
  Java bytecode that C1 and C2 have to compile before Graal compiles guest code quickly: a fresh process runs its
  first minutes behind.
- **none**: no compiler (JDK 21 to 24, or no compiler jars): guest code runs in Truffle's interpreter.

In every case C1 and C2 stay the host JIT (``-XX:-UseJVMCICompiler``): Graal compiles only guest code.

Truffle accepts a JDK's libgraal when the JDK is of feature release ``[MIN_JDK, MAX_JDK)`` and the compiler's
version is between ``MIN_COMPILER_VERSION`` and the polyglot version (no forward compatibility); otherwise it
throws at the first engine. These are the constants of the pinned polyglot line's ``OptimizedTruffleRuntime`` and
the rule of its ``HotSpotTruffleRuntimeAccess``; :func:`._jvmfinder.libgraal_problem` applies them before the JVM
starts, so that a JDK whose libgraal cannot serve these jars runs jargraal instead, with one line saying why.

HotSpot loads libgraal into the process that starts the JVM, and a library it cannot load is a fatal error that
ends that process. ``langchain-graalvm install`` and ``doctor`` therefore start a child process on libgraal first
(:func:`langchain_graalvm.cli._jdk.libgraal_trial`); a libgraal that failed there runs jargraal instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path
from typing import Literal

from .._settings import COMPILER_MODES, name_of, settings
from ._jvmfinder import JIT_JDK, POLYGLOT_VERSION, Jdk, cache_dir, libgraal_problem

CompilerName = Literal["libgraal", "jargraal", "none"]
ENV = name_of("compiler")
# Set in the child process of a libgraal trial start: libgraal is what it tries, whatever an earlier trial said.
TRIAL_ENV = name_of("libgraal_trial")
MODES = COMPILER_MODES

# The GraalVM Community JDK that `langchain-graalvm install --jdk` fetches, chosen with the polyglot version: its
# libgraal (25.0.2) is not newer than the polyglot jars (25.0.3), as Truffle requires. The innovation releases
# (GraalVM 25.1 and later on JDK 25.0.3 and later) carry a newer compiler, which polyglot 25.0.3 refuses.
# SHA-256 of each archive as published next to it (``<archive>.sha256``).
PINNED_JDK = "25.0.2"
PINNED_SHA256 = {
    ("linux", "amd64"): "e0be791c8fda4d03b6b0a0cb824fef3149736170057b3a515252b44419606af0",
    ("linux", "arm64"): "b4580d9f223d0a4b3a1757e58b18ff4c1db950e67e105fc5cb741457d2384a71",
}


@dataclasses.dataclass(frozen=True)
class Choice:
    """The compiler asked for, and (when it is not the best the JDK has) the one line that says why."""

    name: CompilerName
    note: str | None = None


def _libgraal_file(jdk: Jdk) -> Path:
    return Path(os.path.realpath(jdk.libjvm)).parent.parent / "libjvmcicompiler.so"


def trial_marker(jdk: Jdk) -> Path:
    """Where the verdict of this JDK's libgraal trial start is kept: named by the library's path, size and time."""
    lib = _libgraal_file(jdk)
    try:
        st = lib.stat()
        stamp = f"{lib}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        stamp = str(lib)
    return cache_dir() / "libgraal-trials" / hashlib.sha256(stamp.encode()).hexdigest()[:20]


def trial_failure(jdk: Jdk) -> str | None:
    """Why this JDK's libgraal failed its trial start (``langchain-graalvm install`` or ``doctor`` ran it in a
    child process), or None when it passed or was not tried: a JDK's own libgraal is taken at its word."""
    try:
        verdict = trial_marker(jdk).read_text().strip()
    except OSError:
        return None
    return None if verdict == "ok" else verdict or "unknown"


def mode() -> str:
    """``LANGCHAIN_GRAALVM_COMPILER``: one of :data:`MODES`."""
    return settings().compiler


def polyglot_version_of(runtime: Path) -> str:
    """The polyglot version of the runtime folder's jars (the pinned one when it cannot be told)."""
    for jar in (runtime / "modules").glob("polyglot-*.jar"):
        return jar.name[len("polyglot-") : -len(".jar")]
    return POLYGLOT_VERSION


def choose(jdk: Jdk, runtime: Path) -> Choice:
    """The compiler the JVM is started for: libgraal where the JDK has one that fits the polyglot jars (unless
    ``LANGCHAIN_GRAALVM_COMPILER=jargraal``), else jargraal where the runtime has the compiler jars, else none."""
    jars = any((runtime / "compiler").glob("*.jar"))
    if jdk.feature != JIT_JDK:
        return Choice("none")
    wanted = mode()
    problem = libgraal_problem(jdk, polyglot_version_of(runtime)) if jdk.libgraal else None
    if jdk.libgraal and problem is None and not settings().libgraal_trial:
        failed = trial_failure(jdk)
        if failed:
            problem = f"it failed its trial start in a child process ({failed})"
    if jdk.libgraal and problem is None and wanted != "jargraal":
        return Choice("libgraal")
    if wanted == "libgraal" and problem is None:
        problem = f"{jdk.home} has no lib/libjvmcicompiler.so"
    if not jars:
        return Choice("none", f"libgraal cannot be used ({problem})" if problem else None)
    if problem is not None and (jdk.libgraal or wanted == "libgraal"):
        return Choice("jargraal", f"libgraal not used, jargraal instead: {problem}")
    return Choice("jargraal")


def libgraal_flags() -> list[str]:
    """The JVMCI options for Truffle compilations through the JDK's libgraal, with C1/C2 kept as the host JIT."""
    return [
        "-XX:+UnlockExperimentalVMOptions",
        "-XX:+EnableJVMCI",
        "-XX:+UseJVMCINativeLibrary",
        "-XX:-UseJVMCICompiler",
    ]


MEANING = {
    "libgraal": "the JDK's native Graal compiler (lib/libjvmcicompiler.so): ready from the first cell, so a fresh "
    "process's first minutes run close to warm speed",
    "jargraal": "the Graal compiler jars on a stock JDK: C1/C2 compile the compiler itself first, so a fresh "
    "process's first minutes run slower and keep the processors busier",
    "none": "no Graal compiler: guest code runs in Truffle's interpreter",
}
