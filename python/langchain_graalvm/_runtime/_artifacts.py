"""The GraalVM jars of an installed package: a manifest shipped in the wheel, fetched into a user cache on first use.

The wheel carries the small jars (the sandbox bridge, the parser and the TypeScript stripper) under
``langchain_graalvm/runtime/classpath`` and a manifest, ``runtime/graalvm.json``, naming every GraalVM jar the
build used (Maven coordinates, size and SHA-256). The GraalVM jars themselves (about 85 MiB) are fetched from Maven
Central into ``LANGCHAIN_GRAALVM_HOME`` (default: ``langchain-graalvm`` under the user's cache dir) by Maven when
``mvn`` is on the PATH, else by jgo's pure-Python resolver. Both check Maven Central's checksums; every jar is then
checked against the SHA-256 the wheel recorded before the folder is used. A complete folder needs no network, so a
pre-filled cache works offline.

A development checkout needs none of this: it uses ``java/target/runtime``, which Maven builds in place.

This module only uses the standard library at import time; :mod:`tqdm` and :mod:`jgo` are imported when needed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from ..errors import FetchError, JvmError, OptionsError
from ._jvmfinder import find_jdk

logger = logging.getLogger("langchain_graalvm")

MANIFEST_NAME = "graalvm.json"
_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
_COMPLETE = ".complete"
Resolver = Literal["auto", "mvn", "jgo"]


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


def user_cache_base() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "langchain-graalvm"


def home() -> Path:
    """``LANGCHAIN_GRAALVM_HOME``: where fetched GraalVM jars are kept."""
    env = os.environ.get("LANGCHAIN_GRAALVM_HOME")
    return Path(env) if env else user_cache_base()


def manifest_digest(manifest: Manifest) -> str:
    canonical = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(canonical).hexdigest()


def runtime_home(manifest: Manifest) -> Path:
    """The folder (with ``modules/`` and ``compiler/``) that holds the jars of ``manifest``."""
    return home() / f"graalvm-{manifest['graalvm_version']}-{manifest_digest(manifest)[:12]}"


def wanted_artifacts(manifest: Manifest, *, python: bool = False) -> list[Artifact]:
    """The jars to fetch: the JavaScript runtime's, and GraalPy's too with ``python``."""
    return manifest["artifacts"] + (manifest.get("python_artifacts", []) if python else [])


def total_size(manifest: Manifest, *, python: bool = False) -> int:
    return sum(a["size"] for a in wanted_artifacts(manifest, python=python))


def _python_marker(folder: Path) -> Path:
    return folder / (_COMPLETE + "-python")


def python_complete(folder: Path, manifest: Manifest) -> bool:
    """Whether GraalPy's jars were fetched and verified into ``folder`` (cheap: marker and sizes)."""
    arts = manifest.get("python_artifacts", [])
    try:
        if not arts or _python_marker(folder).read_text(encoding="utf-8").strip() != manifest_digest(manifest):
            return False
    except OSError:
        return False
    return all((folder / sub / a["file"]).is_file() and (folder / sub / a["file"]).stat().st_size == a["size"]
               for a in arts for sub in a["dirs"])


def is_complete(folder: Path, manifest: Manifest) -> bool:
    """Whether ``folder`` was filled and verified for ``manifest`` (cheap: marker and file sizes)."""
    marker = folder / _COMPLETE
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


def ensure_runtime(*, quiet: bool = False) -> Path:
    """The verified GraalVM folder for this installation, fetching it first if needed (first use)."""
    manifest = load_manifest()
    if manifest is None:
        raise FetchError("this installation has no GraalVM manifest (a development checkout uses java/target/runtime)")
    folder = runtime_home(manifest)
    if is_complete(folder, manifest):
        return folder
    if os.environ.get("LANGCHAIN_GRAALVM_OFFLINE", "") not in ("", "0"):
        raise FetchError(
            f"The GraalVM jars are not in {folder} and LANGCHAIN_GRAALVM_OFFLINE is set. Run "
            "`langchain-graalvm install` where Maven Central is reachable, then copy that folder (or the whole "
            f"{home()}) to this machine, or point LANGCHAIN_GRAALVM_HOME at a filled cache."
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
        _python_marker(folder).write_text(manifest_digest(manifest) + "\n", encoding="utf-8")
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
        (staging / _COMPLETE).write_text(manifest_digest(manifest) + "\n", encoding="utf-8")
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
    return os.environ.get("JAVA_HOME")


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

