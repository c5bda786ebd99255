"""The GraalVM jars of an installed package: a manifest shipped in the wheel, fetched into a user cache on first use.

The wheel carries the small jars (the sandbox bridge, the parser and the TypeScript stripper) under
``langchain_graalvm/runtime/classpath`` and a manifest, ``runtime/graalvm.json``, naming every GraalVM jar the
build used (Maven coordinates, size and SHA-256). The GraalVM jars themselves (about 85 MiB) are fetched from Maven
Central into the package's cache folder (:func:`home`: ``LANGCHAIN_GRAALVM_CACHE``) by Maven when
``mvn`` is on the PATH, else by jgo's pure-Python resolver. Both check Maven Central's checksums; every jar is then
checked against the SHA-256 the wheel recorded before the folder is used. A complete folder needs no network, so a
pre-filled cache works offline.

A development checkout needs none of this: it uses ``java/target/runtime``, which Maven builds in place.

The manifest and the checks of a filled folder are :mod:`._manifest`'s; this module fetches. It only uses the
standard library at import time; :mod:`tqdm` and :mod:`jgo` are imported when needed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from .._settings import settings
from ..errors import FetchError, JvmError, OptionsError
from ._jvmfinder import find_jdk
from ._manifest import (
    COMPLETE,
    Artifact,
    Manifest,
    is_complete,
    load_manifest,
    manifest_digest,
    python_complete,
    python_marker,
    sha256_of,
    total_size,
)

logger = logging.getLogger("langchain_graalvm")

_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
Resolver = Literal["auto", "mvn", "jgo"]


def home() -> Path:
    """Where fetched GraalVM jars are kept: the cache root (``LANGCHAIN_GRAALVM_CACHE``), unless the older
    ``LANGCHAIN_GRAALVM_HOME`` names another folder."""
    return settings().jars_folder


def runtime_home(manifest: Manifest) -> Path:
    """The folder (with ``modules/`` and ``compiler/``) that holds the jars of ``manifest``."""
    return home() / f"graalvm-{manifest['graalvm_version']}-{manifest_digest(manifest)[:12]}"


def ensure_runtime(*, quiet: bool = False) -> Path:
    """The verified GraalVM folder for this installation, fetching it first if needed (first use)."""
    manifest = load_manifest()
    if manifest is None:
        raise FetchError("this installation has no GraalVM manifest (a development checkout uses java/target/runtime)")
    folder = runtime_home(manifest)
    if is_complete(folder, manifest):
        return folder
    if settings().offline:
        raise FetchError(
            f"The GraalVM jars are not in {folder} and LANGCHAIN_GRAALVM_OFFLINE is set. Run "
            "`langchain-graalvm install` where Maven Central is reachable, then copy that folder (or the whole "
            f"{home()}) to this machine, or point LANGCHAIN_GRAALVM_CACHE at a filled cache."
        )
    if not quiet:
        print(
            f"langchain-graalvm: first use, fetching GraalVM {manifest['graalvm_version']} "
            f"({total_size(manifest) / 2**20:.0f} MiB) from Maven Central into {folder}",
            file=sys.stderr,
        )
    return fetch(manifest, progress=not quiet)


def fetch(
    manifest: Manifest,
    *,
    resolver: Resolver = "auto",
    offline: bool = False,
    progress: bool = True,
    python: bool = False,
) -> Path:
    """Fetches and verifies every jar of ``manifest`` into :func:`runtime_home`; returns that folder.

    With ``python``, GraalPy's jars too (into its ``python/``), with the same progress bar and checks.
    """
    folder = runtime_home(manifest)
    if python and not manifest.get("python_artifacts"):
        raise FetchError("this installation's manifest names no GraalPy jars (the wheel was built without them)")
    if is_complete(folder, manifest):
        if python and not python_complete(folder, manifest):
            _fetch_python(manifest, folder, resolver=resolver, offline=offline, progress=progress)
        return folder
    _fetch_runtime(manifest, folder, resolver=resolver, offline=offline, progress=progress)
    if python and not python_complete(folder, manifest):
        _fetch_python(manifest, folder, resolver=resolver, offline=offline, progress=progress)
    return folder


def _fetch_python(manifest: Manifest, folder: Path, *, resolver: Resolver, offline: bool, progress: bool) -> None:
    """Adds GraalPy's verified jars to a complete runtime folder, through a staging folder moved in at once."""
    only = Manifest(graalvm_version=manifest["graalvm_version"], artifacts=manifest.get("python_artifacts", []))
    staging = folder.parent / f".staging-{uuid.uuid4().hex[:8]}"
    try:
        _fill(only, staging, resolver=resolver, offline=offline, progress=progress)
        target = folder / "python"
        if target.exists() and python_complete(folder, manifest):
            return  # another process finished first
        shutil.rmtree(target, ignore_errors=True)
        os.replace(staging / "python", target)
        python_marker(folder).write_text(manifest_digest(manifest) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _fill(manifest: Manifest, staging: Path, *, resolver: Resolver, offline: bool, progress: bool) -> None:
    """Fetches the jars of ``manifest`` into ``staging``, each checked against its SHA-256."""
    chosen = _choose_resolver(resolver)
    staging.mkdir(parents=True)
    with _progress_bar(total_size(manifest), progress) as advance:
        if chosen == "mvn":
            located = _fetch_with_maven(manifest, staging, offline=offline, advance=advance)
        else:
            located = _fetch_with_jgo(manifest, offline=offline, advance=advance)
    for art in manifest["artifacts"]:
        source = located[_key(art)]
        actual = sha256_of(source)
        if actual != art["sha256"] or source.stat().st_size != art["size"]:
            raise FetchError(
                f"{art['group']}:{art['artifact']}:{art['version']} from {source} has SHA-256 {actual}, "
                f"expected {art['sha256']}: refusing to use it. Delete that file and run "
                "`langchain-graalvm install` again."
            )
        for sub in art["dirs"]:
            (staging / sub).mkdir(exist_ok=True)
            shutil.copyfile(source, staging / sub / art["file"])


def _fetch_runtime(manifest: Manifest, folder: Path, *, resolver: Resolver, offline: bool, progress: bool) -> None:
    """Fills ``folder`` with the runtime's verified jars, through a staging folder moved in at once."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".staging-{uuid.uuid4().hex[:8]}"
    try:
        _fill(manifest, staging, resolver=resolver, offline=offline, progress=progress)
        (staging / COMPLETE).write_text(manifest_digest(manifest) + "\n", encoding="utf-8")
        if folder.exists():  # an older partial fill, or another process finished first
            if is_complete(folder, manifest):
                return
            shutil.rmtree(folder)
        try:
            os.replace(staging, folder)
        except OSError:
            if not is_complete(folder, manifest):  # not another process's finished fill: a real failure
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _key(art: Artifact) -> str:
    """The artifact's coordinates, ``group:artifact:version`` or ``group:artifact:jar:classifier:version``."""
    classifier = art.get("classifier")
    if classifier:
        return f"{art['group']}:{art['artifact']}:jar:{classifier}:{art['version']}"
    return f"{art['group']}:{art['artifact']}:{art['version']}"


def _repo_path(art: Artifact) -> str:
    return f"{art['group'].replace('.', '/')}/{art['artifact']}/{art['version']}/{art['file']}"


def _choose_resolver(resolver: Resolver) -> Literal["mvn", "jgo"]:
    if resolver not in ("auto", "mvn", "jgo"):
        raise OptionsError(f"resolver must be 'auto', 'mvn' or 'jgo'; got {resolver!r}")
    has_mvn = shutil.which("mvn") is not None
    if resolver == "mvn" or (resolver == "auto" and has_mvn):
        if not has_mvn:
            raise FetchError("`mvn` is not on the PATH. Install Apache Maven 3.6+ or use the jgo resolver.")
        return "mvn"
    try:
        import jgo.maven  # noqa: F401
    except ImportError as exc:
        raise FetchError(
            "Neither Maven (`mvn`) nor jgo is available to fetch the GraalVM jars. Install Apache Maven "
            "(for example `apt-get install maven`) or `pip install jgo==3.2.0`, then run `langchain-graalvm install`."
        ) from exc
    return "jgo"


@contextlib.contextmanager
def _progress_bar(total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    if not enabled:
        yield lambda _n: None
        return
    from tqdm import tqdm

    with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc="GraalVM jars", file=sys.stderr) as bar:
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            n = max(0, min(n, total - done))
            done += n
            bar.update(n)

        yield advance
        advance(total)


def _maven_pom(manifest: Manifest) -> bytes:
    """A throw-away POM whose dependencies are exactly the manifest's jars (no transitive ones)."""
    project = ET.Element("project", xmlns="http://maven.apache.org/POM/4.0.0")
    for tag, text in (
        ("modelVersion", "4.0.0"),
        ("groupId", "io.github.langchain-graalvm"),
        ("artifactId", "langchain-graalvm-fetch"),
        ("version", "0"),
        ("packaging", "pom"),
    ):
        ET.SubElement(project, tag).text = text
    deps = ET.SubElement(project, "dependencies")
    for art in manifest["artifacts"]:
        dep = ET.SubElement(deps, "dependency")
        ET.SubElement(dep, "groupId").text = art["group"]
        ET.SubElement(dep, "artifactId").text = art["artifact"]
        ET.SubElement(dep, "version").text = art["version"]
        if art.get("classifier"):
            ET.SubElement(dep, "classifier").text = art["classifier"]
        exclusion = ET.SubElement(ET.SubElement(dep, "exclusions"), "exclusion")
        ET.SubElement(exclusion, "groupId").text = "*"
        ET.SubElement(exclusion, "artifactId").text = "*"
    return bytes(ET.tostring(project, xml_declaration=True, encoding="utf-8"))


def _maven_java_home() -> str | None:
    with contextlib.suppress(JvmError):
        return str(find_jdk().home)
    java_home = settings().system_java_home
    return None if java_home is None else str(java_home)


def _fetch_with_maven(
    manifest: Manifest, staging: Path, *, offline: bool, advance: Callable[[int], None]
) -> dict[str, Path]:
    work = staging / "maven"
    work.mkdir()
    (work / "pom.xml").write_bytes(_maven_pom(manifest))
    out = work / "jars"
    cmd = [
        "mvn",
        "-B",
        "--strict-checksums",
        "-f",
        str(work / "pom.xml"),
        f"{_DEPENDENCY_PLUGIN}:copy-dependencies",
        f"-DoutputDirectory={out}",
        "-Dmdep.useRepositoryLayout=true",
    ]
    if offline:
        cmd.insert(1, "--offline")
    env = dict(os.environ)
    java_home = _maven_java_home()
    if java_home:
        env["JAVA_HOME"] = java_home
    sizes = {_repo_path(a): a["size"] for a in manifest["artifacts"]}
    log: list[str] = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            log.append(line)
            if "Downloaded from" in line:
                for path, size in sizes.items():
                    if f"/{path} " in line:
                        advance(size)
    if proc.returncode != 0:
        tail = "".join(log[-25:])
        raise FetchError(f"Maven could not fetch the GraalVM jars (exit {proc.returncode}):\n{tail}")
    return {_key(a): out / _repo_path(a) for a in manifest["artifacts"]}


def _fetch_with_jgo(manifest: Manifest, *, offline: bool, advance: Callable[[int], None]) -> dict[str, Path]:
    from jgo.maven import MavenContext, PythonResolver

    @contextlib.contextmanager
    def on_download(_name: str, _size: int) -> Iterator[Callable[[int], None]]:
        yield advance

    context = MavenContext(resolver=PythonResolver(progress_callback=on_download), offline=offline)
    located: dict[str, Path] = {}
    for art in manifest["artifacts"]:
        try:
            path = context.create_dependency(_key(art)).artifact.resolve()
        except Exception as exc:  # noqa: BLE001 - jgo raises RuntimeError, requests errors, OSError, ...
            raise FetchError(f"jgo could not fetch {_key(art)}: {exc}") from exc
        located[_key(art)] = Path(path)
    return located


def describe(manifest: Manifest | None = None) -> dict[str, Any]:
    """Facts for ``doctor``: where the jars are expected and whether they are there."""
    manifest = manifest or load_manifest()
    if manifest is None:
        return {"installed_from": "development checkout"}
    folder = runtime_home(manifest)
    return {
        "installed_from": "wheel",
        "graalvm_version": manifest["graalvm_version"],
        "home": str(home()),
        "folder": str(folder),
        "complete": is_complete(folder, manifest),
        "download_bytes": total_size(manifest),
        "jars": len(manifest["artifacts"]),
    }
