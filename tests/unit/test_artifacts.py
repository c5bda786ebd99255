"""The GraalVM jars of an installed package: the manifest, the fetch by Maven or jgo, checksums, offline use."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from langchain_graalvm._runtime import _artifacts, _manifest
from langchain_graalvm._runtime._manifest import Artifact, Manifest
from langchain_graalvm.errors import FetchError
from tests.conftest import ROOT

RUNTIME = ROOT / "java" / "target" / "runtime"
LOCAL_REPO = Path.home() / ".m2" / "repository"


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    """The manifest of this checkout's build, made the way the wheel build makes it."""
    return _manifest.build_manifest(RUNTIME, LOCAL_REPO, _manifest.graalvm_version_of(ROOT / "java" / "pom.xml"))


def small(manifest: Manifest, *names: str) -> Manifest:
    """A manifest of a few small jars, so a real fetch stays quick."""
    arts = [a for a in manifest["artifacts"] if a["artifact"] in names]
    assert len(arts) == len(names)
    return Manifest(graalvm_version=manifest["graalvm_version"], artifacts=arts)


def test_manifest_names_every_graalvm_jar_with_coordinates_and_sha256(manifest: Manifest) -> None:
    by_name = {(a["group"], a["artifact"]): a for a in manifest["artifacts"]}
    assert by_name[("org.graalvm.compiler", "compiler")]["dirs"] == ["compiler"]
    assert by_name[("org.graalvm.polyglot", "polyglot")]["dirs"] == ["modules"]
    assert sorted(by_name[("org.graalvm.sdk", "word")]["dirs"]) == ["compiler", "modules"]
    files = {(d, a["file"]) for a in manifest["artifacts"] for d in a["dirs"]}
    on_disk = {(d, p.name) for d in ("modules", "compiler") for p in (RUNTIME / d).glob("*.jar")}
    assert files == on_disk
    polyglot = by_name[("org.graalvm.polyglot", "polyglot")]
    assert polyglot["sha256"] == _manifest.sha256_of(RUNTIME / "modules" / polyglot["file"])
    assert manifest["graalvm_version"] == "25.0.3"


def test_maven_fetch_fills_and_verifies_the_cache(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    want = small(manifest, "word", "collections")
    folder = _artifacts.fetch(want, resolver="mvn", offline=True, progress=False)
    assert folder.parent == tmp_path / "home"
    assert _manifest.is_complete(folder, want)
    assert _manifest.verify(folder, want) == []
    assert sorted(p.name for p in (folder / "compiler").iterdir()) == ["collections-25.0.3.jar", "word-25.0.3.jar"]
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".staging")]
    # A second fetch finds the folder complete and needs no resolver at all.
    monkeypatch.setenv("PATH", "/nonexistent")
    assert _artifacts.fetch(want, resolver="mvn", progress=False) == folder


def test_jgo_downloads_from_maven_central_with_progress(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("M2_REPO", str(tmp_path / "m2"))  # an empty local repository: jgo must download
    want = small(manifest, "word", "nativeimage")
    folder = _artifacts.fetch(want, resolver="jgo", progress=True)
    assert _manifest.verify(folder, want) == []
    assert (tmp_path / "m2" / "org" / "graalvm" / "sdk" / "word" / "25.0.3" / "word-25.0.3.jar").is_file()
    assert "GraalVM jars: 100%" in capsys.readouterr().err


def test_a_jar_that_does_not_match_its_sha256_is_refused(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    art = small(manifest, "word")["artifacts"][0]
    forged = Manifest(graalvm_version="25.0.3", artifacts=[Artifact(**{**art, "sha256": "0" * 64})])  # type: ignore[typeddict-item]
    with pytest.raises(FetchError, match="refusing to use it"):
        _artifacts.fetch(forged, resolver="mvn", offline=True, progress=False)
    folder = _artifacts.runtime_home(forged)
    assert not folder.exists()
    assert not any((tmp_path / "home").iterdir())  # no staging folder left behind


def test_a_damaged_cache_is_not_complete_and_verify_names_the_jar(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    want = small(manifest, "word")
    folder = _artifacts.fetch(want, resolver="mvn", offline=True, progress=False)
    jar = folder / "modules" / "word-25.0.3.jar"
    data = bytearray(jar.read_bytes())
    data[100] ^= 0xFF
    jar.write_bytes(bytes(data))
    assert _manifest.verify(folder, want) == ["modules/word-25.0.3.jar does not match its SHA-256 " + want["artifacts"][0]["sha256"]]
    jar.write_bytes(bytes(data[:-1]))
    assert not _manifest.is_complete(folder, want)


def test_offline_without_a_filled_cache_is_a_clear_error(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_OFFLINE", "1")
    monkeypatch.setattr(_artifacts, "load_manifest", lambda: small(manifest, "word"))
    with pytest.raises(FetchError, match="LANGCHAIN_GRAALVM_OFFLINE is set.*langchain-graalvm install"):
        _artifacts.ensure_runtime(quiet=True)


def test_without_maven_or_jgo_the_error_says_what_to_install(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path))
    real_import = builtins.__import__

    def no_jgo(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("jgo"):
            raise ImportError("No module named 'jgo'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_jgo)
    with pytest.raises(FetchError, match="Install Apache Maven"):
        _artifacts.fetch(small(manifest, "word"), progress=False)
    with pytest.raises(FetchError, match="`mvn` is not on the PATH"):
        _artifacts.fetch(small(manifest, "word"), resolver="mvn", progress=False)


def test_maven_failure_shows_its_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    missing = Manifest(
        graalvm_version="0",
        artifacts=[Artifact(group="org.graalvm.sdk", artifact="word", version="0.0.404", file="word-0.0.404.jar",
                            dirs=["modules"], size=1, sha256="0" * 64)],
    )
    with pytest.raises(FetchError, match="Maven could not fetch the GraalVM jars") as info:
        _artifacts.fetch(missing, resolver="mvn", offline=True, progress=False)
    assert "word" in str(info.value)


def test_manifest_written_by_the_wheel_build_is_json_the_package_reads(manifest: Manifest) -> None:
    text = json.dumps(manifest)
    assert json.loads(text) == manifest
    assert _manifest.manifest_digest(json.loads(text)) == _manifest.manifest_digest(manifest)
    assert os.path.basename(_artifacts.runtime_home(manifest)).startswith("graalvm-25.0.3-")


def test_concurrent_first_fetches_end_with_one_complete_folder(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    want = small(manifest, "word", "collections")
    with ThreadPoolExecutor(2) as pool:
        folders = list(pool.map(lambda _: _artifacts.fetch(want, resolver="mvn", offline=True, progress=False), range(2)))
    assert folders[0] == folders[1]
    assert _manifest.verify(folders[0], want) == []
    assert [p.name for p in (tmp_path / "home").iterdir()] == [folders[0].name]


@pytest.mark.parametrize("resolver", ["mvn", "jgo"])
def test_a_jar_with_a_classifier_is_named_and_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resolver: str) -> None:
    # Platform jars carry a classifier (artifact-version-classifier.jar); a sources jar is the same shape.
    from jgo.maven import MavenContext

    seed = tmp_path / "seed-m2"
    coordinate = "org.graalvm.sdk:word:jar:sources:25.0.3"
    source = Path(MavenContext(repo_cache=seed).create_dependency(coordinate).artifact.resolve())
    assert source.name == "word-25.0.3-sources.jar"
    runtime = tmp_path / "runtime"
    (runtime / "modules").mkdir(parents=True)
    (runtime / "modules" / source.name).write_bytes(source.read_bytes())
    built = _manifest.build_manifest(runtime, seed, "25.0.3")
    (art,) = built["artifacts"]
    assert (art["group"], art["artifact"], art["version"], art.get("classifier")) == (
        "org.graalvm.sdk", "word", "25.0.3", "sources")
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    if resolver == "jgo":
        monkeypatch.setenv("M2_REPO", str(tmp_path / "m2"))  # an empty local repository: a real download
    folder = _artifacts.fetch(built, resolver=resolver, progress=False)  # type: ignore[arg-type]
    assert _manifest.verify(folder, built) == []
    assert (folder / "modules" / source.name).read_bytes() == source.read_bytes()


def with_python(manifest: Manifest, *names: str) -> Manifest:
    """A small runtime manifest plus a few small GraalPy jars."""
    want = small(manifest, "word", "collections")
    want["python_artifacts"] = [a for a in manifest.get("python_artifacts", []) if a["artifact"] in names]
    assert len(want["python_artifacts"]) == len(names)
    return want


def test_manifest_lists_graalpy_jars_apart_for_install_python(manifest: Manifest) -> None:
    python = {a["artifact"]: a for a in manifest.get("python_artifacts", [])}
    assert python["python-language"]["dirs"] == ["python"]
    assert python["python-language"]["sha256"] == _manifest.sha256_of(RUNTIME / "python" / python["python-language"]["file"])
    assert not {a["artifact"] for a in manifest["artifacts"]} & set(python)
    on_disk = {p.name for p in (RUNTIME / "python").glob("*.jar")}
    assert {a["file"] for a in python.values()} == on_disk


def test_install_python_adds_verified_graalpy_jars_to_the_runtime_folder(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    want = with_python(manifest, "json", "xz")
    folder = _artifacts.fetch(want, resolver="mvn", offline=True, progress=False)
    assert not (folder / "python").exists() and not _manifest.python_complete(folder, want)
    assert _artifacts.fetch(want, resolver="mvn", offline=True, progress=False, python=True) == folder
    assert _manifest.python_complete(folder, want)
    assert sorted(p.name for p in (folder / "python").iterdir()) == ["json-25.0.3.jar", "xz-25.0.3.jar"]
    assert _manifest.sha256_of(folder / "python" / "xz-25.0.3.jar") == _manifest.sha256_of(RUNTIME / "python" / "xz-25.0.3.jar")
    assert _manifest.total_size(want, python=True) > _manifest.total_size(want)
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".staging")]


def test_install_python_refuses_a_graalpy_jar_that_does_not_match(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    want = with_python(manifest, "xz")
    want["python_artifacts"][0] = Artifact(**{**want["python_artifacts"][0], "sha256": "0" * 64})
    with pytest.raises(FetchError, match="refusing to use it"):
        _artifacts.fetch(want, resolver="mvn", offline=True, progress=False, python=True)
    folder = _artifacts.runtime_home(want)
    assert _manifest.is_complete(folder, want)  # the JavaScript runtime is unharmed
    assert not (folder / "python").exists() and not _manifest.python_complete(folder, want)


def test_install_python_without_graalpy_in_the_manifest_is_a_clear_error(manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_HOME", str(tmp_path / "home"))
    with pytest.raises(FetchError, match="names no GraalPy jars"):
        _artifacts.fetch(small(manifest, "word"), resolver="mvn", offline=True, progress=False, python=True)
