"""Finding a JDK: where one is looked for, which one is chosen, and where GraalVM keeps its caches.

Apart from starting the JVM (:mod:`._jvm`) so that the wheel build, ``doctor`` and the artifact fetch can find a
JDK without JPype: this module reads the file system and environment only.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import re
from pathlib import Path

from ..errors import JvmError

MIN_JDK = 21
JIT_JDK = 25


@dataclasses.dataclass(frozen=True)
class Jdk:
    """A JDK on disk and its feature version."""

    home: Path
    version: str
    feature: int

    @property
    def libjvm(self) -> Path:
        return self.home / "lib" / "server" / "libjvm.so"


def _read_release(home: Path) -> str | None:
    try:
        text = (home / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = re.search(r'^JAVA_VERSION="([^"]+)"', text, re.MULTILINE)
    return match.group(1) if match else None


def _feature(version: str) -> int:
    head = version.split(".", 1)[0].split("-", 1)[0].split("+", 1)[0]
    if head == "1":  # 1.8 style
        return int(version.split(".")[1])
    return int(head) if head.isdigit() else 0


def inspect_jdk(home: str | os.PathLike[str]) -> Jdk | None:
    """The JDK at ``home``, or None when it is not a usable JDK."""
    path = Path(home)
    version = _read_release(path)
    if version is None:
        return None
    jdk = Jdk(home=path, version=version, feature=_feature(version))
    return jdk if jdk.libjvm.is_file() else None


def candidate_homes() -> list[tuple[str, Path]]:
    """Where a JDK is looked for, in order, with the reason each is looked at."""
    found: list[tuple[str, Path]] = []
    for var in ("LANGCHAIN_GRAALVM_JAVA_HOME", "JAVA_HOME"):
        value = os.environ.get(var)
        if value:
            found.append((var, Path(value)))
    for home in sorted(glob.glob("/usr/lib/jvm/*")):
        found.append(("/usr/lib/jvm", Path(home)))
    return found


def find_jdk() -> Jdk:
    """The JDK to start: an explicit one if set, else the newest under /usr/lib/jvm, preferring 25."""
    explicit = os.environ.get("LANGCHAIN_GRAALVM_JAVA_HOME")
    if explicit:
        jdk = inspect_jdk(explicit)
        if jdk is None or jdk.feature < MIN_JDK:
            raise JvmError(
                f"LANGCHAIN_GRAALVM_JAVA_HOME={explicit} is not a JDK {MIN_JDK} or newer "
                "(it needs a 'release' file and lib/server/libjvm.so). Point it at a JDK 25, for example "
                "/usr/lib/jvm/temurin-25-jdk-amd64."
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
            f"No JDK {MIN_JDK}+ was found (looked at LANGCHAIN_GRAALVM_JAVA_HOME, JAVA_HOME and /usr/lib/jvm/*). "
            "Install JDK 25 (for example the Debian/Ubuntu package temurin-25-jdk, or any OpenJDK 25 build) and "
            "set LANGCHAIN_GRAALVM_JAVA_HOME to its folder. JDK 25 runs guest code JIT-compiled; JDK 21-24 run "
            "it interpreted."
        )
    exact = [j for j in usable if j.feature == JIT_JDK]
    if exact:
        return exact[0]
    # JAVA_HOME wins among equals because candidate_homes lists it first.
    return max(usable, key=lambda j: j.feature)


def cache_dir() -> Path:
    """Where GraalVM unpacks its internal resources: under the user's cache dir unless overridden."""
    env = os.environ.get("LANGCHAIN_GRAALVM_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "langchain-graalvm"
