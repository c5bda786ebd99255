"""The manifest of the GraalVM jars an installed wheel runs on, and whether a folder holds exactly those jars.

The wheel ships ``runtime/graalvm.json``: every GraalVM jar the build used, with its Maven coordinates, size and
SHA-256 (made at the wheel's build by :func:`build_manifest`). A folder filled by :mod:`._artifacts` is marked
complete with the manifest's digest; :func:`is_complete` checks that marker and the sizes (cheap, at each start),
:func:`verify` every SHA-256 (``langchain-graalvm install --verify`` and ``doctor --verify``).

Apart from the fetch (:mod:`._artifacts`): what the jars must be is decided at build time, how they are fetched
at first use; nothing here touches the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NotRequired, TypedDict

from ..errors import FetchError

MANIFEST_NAME = "graalvm.json"
COMPLETE = ".complete"


class Artifact(TypedDict):
    """One jar of the runtime: its coordinates, where it goes, and what it must hash to."""

    group: str
    artifact: str
    version: str
    classifier: NotRequired[str]  # platform jars, e.g. "linux-amd64"
    file: str
    dirs: list[str]  # "modules" and/or "compiler"
    size: int
    sha256: str


class Manifest(TypedDict):
    graalvm_version: str
    artifacts: list[Artifact]
    # GraalPy's jars (dirs ["python"]): fetched only on request (`langchain-graalvm install --python`).
    python_artifacts: NotRequired[list[Artifact]]


def package_runtime() -> Path:
    """Where an installed wheel keeps its bundled jars and manifest."""
    return Path(__file__).resolve().parent.parent / "runtime"


def load_manifest() -> Manifest | None:
    """The manifest shipped with this installation, or None (a development checkout)."""
    path = package_runtime() / MANIFEST_NAME
    if not path.is_file():
        return None
    data: Manifest = json.loads(path.read_text(encoding="utf-8"))
    return data


def manifest_digest(manifest: Manifest) -> str:
    canonical = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(canonical).hexdigest()


def wanted_artifacts(manifest: Manifest, *, python: bool = False) -> list[Artifact]:
    """The jars to fetch: the JavaScript runtime's, and GraalPy's too with ``python``."""
    return manifest["artifacts"] + (manifest.get("python_artifacts", []) if python else [])


def total_size(manifest: Manifest, *, python: bool = False) -> int:
    return sum(a["size"] for a in wanted_artifacts(manifest, python=python))


def python_marker(folder: Path) -> Path:
    """The marker of GraalPy's jars in a runtime folder (they are fetched apart, on request)."""
    return folder / (COMPLETE + "-python")


def python_complete(folder: Path, manifest: Manifest) -> bool:
    """Whether GraalPy's jars were fetched and verified into ``folder`` (cheap: marker and sizes)."""
    arts = manifest.get("python_artifacts", [])
    try:
        if not arts or python_marker(folder).read_text(encoding="utf-8").strip() != manifest_digest(manifest):
            return False
    except OSError:
        return False
    return all((folder / sub / a["file"]).is_file() and (folder / sub / a["file"]).stat().st_size == a["size"]
               for a in arts for sub in a["dirs"])


def is_complete(folder: Path, manifest: Manifest) -> bool:
    """Whether ``folder`` was filled and verified for ``manifest`` (cheap: marker and file sizes)."""
    marker = folder / COMPLETE
    try:
        if marker.read_text(encoding="utf-8").strip() != manifest_digest(manifest):
            return False
    except OSError:
        return False
    for art in manifest["artifacts"]:
        for sub in art["dirs"]:
            path = folder / sub / art["file"]
            if not path.is_file() or path.stat().st_size != art["size"]:
                return False
    return True


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify(folder: Path, manifest: Manifest) -> list[str]:
    """Problems with the jars in ``folder`` (missing, wrong size, wrong SHA-256); empty when all is well."""
    problems = []
    for art in manifest["artifacts"]:
        for sub in art["dirs"]:
            path = folder / sub / art["file"]
            if not path.is_file():
                problems.append(f"{sub}/{art['file']} is missing")
            elif sha256_of(path) != art["sha256"]:
                problems.append(f"{sub}/{art['file']} does not match its SHA-256 {art['sha256']}")
    return problems


# ------------------------------------------------------------------------------------------ wheel build side


def build_manifest(runtime: Path, local_repo: Path, graalvm_version: str) -> Manifest:
    """The manifest of the jars in ``runtime/modules`` and ``runtime/compiler``, found in ``local_repo``.

    Maven copied each jar from its local repository, whose layout (``group/path/artifact/version/file``) gives the
    coordinates; a jar is matched by name and SHA-256, so a name found twice is never guessed. GraalPy's jars, when
    the build made them (``runtime/python``), are listed apart: they are fetched only on request.
    """
    artifacts = _artifacts_in(runtime, local_repo, ("modules", "compiler"))
    if not artifacts:
        raise FetchError(f"no jars in {runtime}/modules or {runtime}/compiler")
    manifest = Manifest(graalvm_version=graalvm_version, artifacts=artifacts)
    python = _artifacts_in(runtime, local_repo, ("python",))
    if python:
        manifest["python_artifacts"] = python
    return manifest


def _artifacts_in(runtime: Path, local_repo: Path, subs: tuple[str, ...]) -> list[Artifact]:
    wanted: dict[str, dict[str, list[str]]] = {}  # file name -> sha256 -> dirs
    for sub in subs:
        for jar in sorted((runtime / sub).glob("*.jar")):
            wanted.setdefault(jar.name, {}).setdefault(sha256_of(jar), []).append(sub)
    found: dict[tuple[str, str], Artifact] = {}
    for dirpath, _dirs, files in os.walk(local_repo):
        for name in files:
            if name not in wanted:
                continue
            path = Path(dirpath) / name
            digest = sha256_of(path)
            if digest not in wanted[name]:
                continue
            rel = path.relative_to(local_repo).parts
            if len(rel) < 4:
                continue
            group, artifact, version = ".".join(rel[:-3]), rel[-3], rel[-2]
            stem = f"{artifact}-{version}"
            tail = name[len(stem) :] if name.startswith(stem) else ""
            if tail != ".jar" and not (tail.startswith("-") and tail.endswith(".jar")):
                continue
            entry = Artifact(
                group=group,
                artifact=artifact,
                version=version,
                file=name,
                dirs=wanted[name][digest],
                size=path.stat().st_size,
                sha256=digest,
            )
            classifier = tail[1 : -len(".jar")]
            if classifier:
                entry["classifier"] = classifier
            found[(name, digest)] = entry
    missing = [f"{n} ({d[:12]})" for n, ds in wanted.items() for d in ds if (n, d) not in found]
    if missing:
        raise FetchError(f"not found in the local Maven repository {local_repo}: {', '.join(missing)}")
    return sorted(found.values(), key=lambda a: (a["group"], a["artifact"]))


def graalvm_version_of(pom: Path) -> str:
    """The ``graalvm.version`` property of the Java module's POM."""
    root = ET.parse(pom).getroot()
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    value = root.findtext("m:properties/m:graalvm.version", namespaces=ns)
    if not value or not re.fullmatch(r"[0-9][0-9A-Za-z.\-]*", value):
        raise FetchError(f"{pom} has no usable graalvm.version property")
    return value
