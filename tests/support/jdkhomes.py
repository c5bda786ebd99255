"""Fabricated JDK homes: a ``release`` file and placeholder libraries, enough for the finder and the flags."""

from __future__ import annotations

from pathlib import Path


def make_jdk(
    folder: Path,
    java_version: str = "25.0.2",
    *,
    graalvm_version: str | None = None,
    libgraal: bool = False,
    implementor: str = "Eclipse Adoptium",
) -> Path:
    """A JDK home at ``folder``; ``libgraal`` adds a placeholder ``lib/libjvmcicompiler.so``."""
    (folder / "lib" / "server").mkdir(parents=True, exist_ok=True)
    (folder / "lib" / "server" / "libjvm.so").write_bytes(b"placeholder")
    lines = [f'IMPLEMENTOR="{implementor}"', f'JAVA_VERSION="{java_version}"']
    if graalvm_version:
        lines.append(f'GRAALVM_VERSION="{graalvm_version}"')
    (folder / "release").write_text("\n".join(lines) + "\n")
    if libgraal:
        (folder / "lib" / "libjvmcicompiler.so").write_bytes(b"placeholder")
    return folder


def make_graalvm(folder: Path, graalvm_version: str = "25.0.2", java_version: str = "25.0.2") -> Path:
    """A GraalVM Community JDK home with its libgraal."""
    return make_jdk(
        folder, java_version, graalvm_version=graalvm_version, libgraal=True, implementor="GraalVM Community"
    )


def make_runtime(folder: Path, *, compiler_jars: bool = True) -> Path:
    """A runtime folder: the polyglot jar and (by default) the Graal compiler jars, all placeholders."""
    (folder / "modules").mkdir(parents=True, exist_ok=True)
    (folder / "modules" / "polyglot-25.0.3.jar").write_bytes(b"placeholder")
    if compiler_jars:
        (folder / "compiler").mkdir(exist_ok=True)
        (folder / "compiler" / "compiler-25.0.3.jar").write_bytes(b"placeholder")
    return folder


def dress_as_graalvm(real: Path, folder: Path, graalvm_version: str) -> Path:
    """A JDK that runs as ``real`` (links to its files, a copy of its libjvm so that it is its own java.home) but
    says it is GraalVM ``graalvm_version`` and has a placeholder ``lib/libjvmcicompiler.so``."""
    import shutil

    def mirror(source: Path, target: Path, keep: set[str]) -> None:
        target.mkdir(parents=True)
        for entry in source.iterdir():
            if entry.name not in keep:
                (target / entry.name).symlink_to(entry)

    mirror(real, folder, {"lib", "release"})
    mirror(real / "lib", folder / "lib", {"server"})
    mirror(real / "lib" / "server", folder / "lib" / "server", {"libjvm.so"})
    shutil.copy2(real / "lib" / "server" / "libjvm.so", folder / "lib" / "server" / "libjvm.so")
    (folder / "lib" / "libjvmcicompiler.so").write_bytes(b"placeholder")
    (folder / "release").write_text((real / "release").read_text() + f'GRAALVM_VERSION="{graalvm_version}"\n')
    return folder
