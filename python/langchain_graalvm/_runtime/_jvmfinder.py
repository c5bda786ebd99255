"""Finding a JDK: where one is looked for, which one is chosen, and where GraalVM keeps its caches.

Apart from starting the JVM (:mod:`._jvm`) so that the wheel build, ``doctor`` and the artifact fetch can find a
JDK without JPype: this module reads the file system and the settings (:mod:`.._settings`) only.

A JDK 25 with libgraal (``lib/libjvmcicompiler.so``: every GraalVM JDK 25, Community or Oracle, has it) whose
compiler fits the polyglot jars is preferred to one without: see :mod:`._compiler`. ``scripts/setup.sh`` asks
:func:`find_jdk` too, so that a checkout builds with the JDK the package will run on.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import re
import shutil
from pathlib import Path

from .._settings import settings
from ..errors import JvmError

MIN_JDK = 21
JIT_JDK = 25


@dataclasses.dataclass(frozen=True)
class Jdk:
    """A JDK on disk and its feature version."""

    home: Path
    version: str
    feature: int
    graalvm_version: str | None = None  # GRAALVM_VERSION of a GraalVM JDK's release file
    implementor: str | None = None
    libgraal: bool = False  # lib/libjvmcicompiler.so is there

    @property
    def libjvm(self) -> Path:
        return self.home / "lib" / "server" / "libjvm.so"


def _read_release(home: Path) -> dict[str, str] | None:
    """The ``KEY="value"`` lines of a JDK's ``release`` file, or None without one."""
    try:
        text = (home / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return dict(re.findall(r'^([A-Z_]+)="([^"]*)"', text, re.MULTILINE))


def _feature(version: str) -> int:
    head = version.split(".", 1)[0].split("-", 1)[0].split("+", 1)[0]
    if head == "1":  # 1.8 style
        return int(version.split(".")[1])
    return int(head) if head.isdigit() else 0


def inspect_jdk(home: str | os.PathLike[str]) -> Jdk | None:
    """The JDK at ``home``, or None when it is not a usable JDK."""
    path = Path(home)
    release = _read_release(path)
    version = release.get("JAVA_VERSION") if release else None
    if release is None or version is None:
        return None
    jdk = Jdk(
        home=path,
        version=version,
        feature=_feature(version),
        graalvm_version=release.get("GRAALVM_VERSION") or None,
        implementor=release.get("IMPLEMENTOR") or None,
        # HotSpot loads it from java.home/lib, and takes java.home from libjvm's real path.
        libgraal=(Path(os.path.realpath(path / "lib" / "server" / "libjvm.so")).parent.parent
                  / "libjvmcicompiler.so").is_file(),
    )
    return jdk if jdk.libjvm.is_file() else None


def jdks_dir() -> Path:
    """Where ``langchain-graalvm install --jdk`` puts the JDKs it fetches (one folder or link per JDK)."""
    return cache_dir() / "jdks"


def candidate_homes() -> list[tuple[str, Path]]:
    """Where a JDK is looked for, in order, with the reason each is looked at."""
    found: list[tuple[str, Path]] = []
    current = settings()
    for var, value in (("LANGCHAIN_GRAALVM_JAVA_HOME", current.java_home), ("JAVA_HOME", current.system_java_home)):
        if value is not None:
            found.append((var, value))
    for home in sorted(glob.glob("/usr/lib/jvm/*")):
        found.append(("/usr/lib/jvm", Path(home)))
    for fetched in sorted(jdks_dir().glob("*"), reverse=True):
        if not fetched.name.startswith("."):  # a fetch in progress or left behind is never a candidate
            found.append(("langchain-graalvm install --jdk", fetched))
    return found


# ------------------------------------------------------------------ whether a JDK's libgraal fits the polyglot jars
# The polyglot version the package is built against (java/pom.xml's graalvm.version; a unit test keeps them equal).
POLYGLOT_VERSION = "25.0.3"
# Truffle 25.0's compatibility window for a JDK's libgraal (OptimizedTruffleRuntime of truffle-runtime 25.0.3).
MIN_JDK = 21
MAX_JDK = 26
MIN_COMPILER_VERSION = (23, 1, 2)


def version_tuple(version: str) -> tuple[int, ...]:
    """``25.0.2`` -> (25, 0, 2); anything after the numbers (``-dev``, ``+10.1``) is ignored."""
    match = re.match(r"\d+(?:\.\d+)*", version.strip())
    return tuple(int(p) for p in match.group(0).split(".")) if match else ()


def libgraal_problem(jdk: Jdk, polyglot_version: str = POLYGLOT_VERSION) -> str | None:
    """Why the libgraal of ``jdk`` cannot compile for polyglot ``polyglot_version``, or None when it can.

    A JDK with ``lib/libjvmcicompiler.so`` but no ``GRAALVM_VERSION`` in its ``release`` file (a libgraal built
    for a stock JDK) is taken at its word: Truffle checks it at the first engine.
    """
    if not jdk.libgraal:
        return f"{jdk.home} has no lib/libjvmcicompiler.so"
    if not MIN_JDK <= jdk.feature < MAX_JDK:
        return f"polyglot {polyglot_version} accepts libgraal on JDK {MIN_JDK} to {MAX_JDK - 1}, not {jdk.feature}"
    if jdk.graalvm_version is None:
        return None
    compiler = version_tuple(jdk.graalvm_version)
    if compiler > version_tuple(polyglot_version):
        return (
            f"its libgraal {jdk.graalvm_version} is newer than the polyglot jars {polyglot_version}, "
            "which Truffle refuses"
        )
    if compiler < MIN_COMPILER_VERSION:
        return f"its libgraal {jdk.graalvm_version} is older than {'.'.join(map(str, MIN_COMPILER_VERSION))}"
    return None


def _rank(jdk: Jdk) -> tuple[bool, bool]:
    """Higher is better: JDK 25 (guest code compiled), then a libgraal that fits the polyglot jars. A GraalVM JDK
    whose libgraal does not fit gains nothing: its JVMCI may not take the compiler jars either."""
    usable_libgraal = jdk.feature == JIT_JDK and jdk.libgraal and libgraal_problem(jdk) is None
    return jdk.feature == JIT_JDK, usable_libgraal


def find_jdk() -> Jdk:
    """The JDK to start: ``LANGCHAIN_GRAALVM_JAVA_HOME`` if set; else, among ``JAVA_HOME``, /usr/lib/jvm/* and the
    JDKs ``langchain-graalvm install --jdk`` fetched, a JDK 25 first, one whose libgraal fits the polyglot jars
    before one without, then the newest."""
    explicit = settings().java_home
    if explicit is not None:
        jdk = inspect_jdk(explicit)
        if jdk is None or jdk.feature < MIN_JDK:
            raise JvmError(
                f"LANGCHAIN_GRAALVM_JAVA_HOME={explicit} is not a JDK {MIN_JDK} or newer "
                "(it needs a 'release' file and lib/server/libjvm.so). Point it at a JDK 25, for example "
                "/usr/lib/jvm/temurin-25-jdk-amd64, or unset it and run `langchain-graalvm install --jdk`."
            )
        return jdk
    usable: list[Jdk] = []
    seen: set[Path] = set()
    for _, home in candidate_homes():
        real = home.resolve()
        if real in seen:
            continue
        seen.add(real)
        jdk = inspect_jdk(home)
        if jdk is not None and jdk.feature >= MIN_JDK:
            usable.append(jdk)
    if not usable:
        raise JvmError(
            f"No JDK {MIN_JDK}+ was found (looked at LANGCHAIN_GRAALVM_JAVA_HOME, JAVA_HOME, /usr/lib/jvm/* and "
            f"{jdks_dir()}). Run `langchain-graalvm install --jdk` to fetch GraalVM Community JDK 25 into "
            "the package's cache, or install any JDK 25 (for example the Debian/Ubuntu package temurin-25-jdk) and "
            "set LANGCHAIN_GRAALVM_JAVA_HOME to its folder."
        )
    # max() keeps the first of equals: JAVA_HOME wins among equals because candidate_homes lists it first.
    return max(usable, key=lambda j: (*_rank(j), j.feature))


def cache_dir() -> Path:
    """The package's cache root (``LANGCHAIN_GRAALVM_CACHE``): GraalVM's resources, the fast start, the JDKs."""
    return settings().cache_folder


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_PARTIAL = re.compile(r"\.partial-(\d+)")


def sweep_partials(folder: Path) -> None:
    """Removes what processes that are gone left half-made in ``folder``: the caches stage their work under names
    holding ``.partial-<pid>`` (a JDK download, a JDK image, an AOT cache and the JVM's temporary beside it)."""
    if not folder.is_dir():
        return
    for left in folder.iterdir():
        found = _PARTIAL.search(left.name)
        if found is None or pid_alive(int(found.group(1))):
            continue
        if left.is_dir() and not left.is_symlink():
            shutil.rmtree(left, ignore_errors=True)
        else:
            left.unlink(missing_ok=True)
