"""Fast start: the JDK image that takes the Graal compiler from the module path, and its AOT cache."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from langchain_graalvm._runtime import _faststart, _jvmfinder, _launch
from langchain_graalvm.cli import _install
from langchain_graalvm.errors import FastStartError
from tests.conftest import run_python


def test_fast_flags_put_the_compiler_on_the_module_path_instead_of_upgrading() -> None:
    jdk = _jvmfinder.find_jdk()
    runtime = _launch.find_runtime_dir()
    flags, jit = _launch.jvm_flags(jdk, runtime, fast=True)
    assert jit
    assert not any(f.startswith("--upgrade-module-path") for f in flags)
    assert "--add-modules=org.graalvm.polyglot,jdk.graal.compiler" in flags
    module_path = next(f for f in flags if f.startswith("--module-path="))
    assert "compiler-25.0.3.jar" in module_path and "-XX:+EnableJVMCI" in flags
    plain, _ = _launch.jvm_flags(jdk, runtime)
    assert any(f.startswith("--upgrade-module-path=") for f in plain)


def test_the_cache_key_follows_the_jars_and_options_but_not_the_heap(tmp_path: Path) -> None:
    jdk = _jvmfinder.find_jdk()
    jar = tmp_path / "a.jar"
    jar.write_bytes(b"x")
    flags = [f"--module-path={jar}", "-Xmx2g", "-XX:+EnableJVMCI"]
    key = _faststart.cache_key(jdk, flags, [], compiler="jargraal")
    other_heap = [f"--module-path={jar}", "-Xmx4g", "-XX:+EnableJVMCI"]
    assert _faststart.cache_key(jdk, other_heap, [], compiler="jargraal") == key
    assert _faststart.cache_key(jdk, [*flags, "-Dx=1"], [], compiler="jargraal") != key
    jar.write_bytes(b"xy")
    assert _faststart.cache_key(jdk, flags, [], compiler="jargraal") != key


def test_without_an_image_the_jvm_starts_the_usual_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path))
    jdk = _jvmfinder.find_jdk()
    assert _launch.fast_start(jdk, _launch.find_runtime_dir()) is None
    ready, why = _install.status()
    assert not ready and "no JDK image" in why
    monkeypatch.setenv(_faststart.ENV, "0")
    assert _install.status() == (False, f"off ({_faststart.ENV}=0)")


def test_only_a_cache_that_passed_its_trial_start_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path))
    monkeypatch.delenv(_faststart.TRIAL_ENV, raising=False)
    monkeypatch.delenv(_faststart.TRAIN_ENV, raising=False)
    jdk = _jvmfinder.find_jdk()
    runtime = _launch.find_runtime_dir()
    image = _faststart.image_dir(jdk)
    (image / "lib" / "server").mkdir(parents=True)
    (image / "lib" / "server" / "libjvm.so").write_bytes(b"")
    (image / ".complete").write_text(jdk.version)
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    aot = _faststart.aot_file(_faststart.cache_key(jdk, flags, _launch.classpath(runtime), compiler="jargraal"))
    aot.parent.mkdir(parents=True)
    aot.write_bytes(b"recorded, not tried")
    assert _launch.fast_start(jdk, runtime) is None
    assert _install.status() == (False, f"the AOT cache {aot} has not passed a trial start, or changed since")
    _faststart.trusted_marker(aot).write_text("trial start passed\n")  # a marker not bound to this file
    assert _launch.fast_start(jdk, runtime) is None
    _faststart.mark_trusted(aot)
    started = _launch.fast_start(jdk, runtime)
    assert started is not None and f"-XX:AOTCache={aot}" in started[1]
    assert _install.status()[0]
    # A cache written over after its trial is untried again.
    aot.write_bytes(b"recorded again, not tried")
    assert _launch.fast_start(jdk, runtime) is None
    _faststart.mark_trusted(aot)
    # A trial start names its own cache and makes the JVM use it or fail.
    monkeypatch.setenv(_faststart.TRIAL_ENV, str(tmp_path / "candidate.aot"))
    started = _launch.fast_start(jdk, runtime)
    assert started is not None and started[1][-2:] == [f"-XX:AOTCache={tmp_path / 'candidate.aot'}", "-XX:AOTMode=on"]


@pytest.mark.parametrize("failed_trials", [0, 1, 2])
def test_a_cache_that_fails_its_trial_is_recorded_once_more(
    failed_trials: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path))
    recorded: list[Path] = []
    trials: list[Path] = []

    def train(partial: Path) -> None:
        partial.write_bytes(b"cache %d" % len(recorded))
        _faststart.jvm_temporary(partial).write_bytes(b"the JVM's configuration, sometimes left behind")
        recorded.append(partial)

    def adopt(candidate: Path, out: Path) -> str | None:
        trials.append(candidate)
        if len(trials) <= failed_trials:
            candidate.unlink()
            return f"the trial start from the cache failed (signal 6): trial {len(trials)}"
        os.replace(candidate, out)
        _faststart.mark_trusted(out)
        return None

    monkeypatch.setattr(_install, "build_image", lambda *_a, **_k: tmp_path)
    monkeypatch.setattr(_install, "_train", train)
    monkeypatch.setattr(_install, "adopt", adopt)
    if failed_trials == 2:
        with pytest.raises(FastStartError, match=r"two AOT caches .* failed their trial start.*trial 2"):
            _install.build(log=False)
        assert len(recorded) == 2 and not list((tmp_path / "fast-start" / "aot").glob("*.aot"))
        return
    out = _install.build(log=False)
    assert len(recorded) == failed_trials + 1 and out.read_bytes() == b"cache %d" % failed_trials
    assert _faststart.trusted(out)
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name, out.name + ".trusted"]
    assert _install.build(log=False) == out and len(recorded) == failed_trials + 1  # trusted: nothing to do


def test_a_training_run_whose_jvm_crashes_leaves_its_report_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A JVM can end on a cache it cannot load (seen: a SIGSEGV in HotSpot's AOT class loading during a trial start),
    # and HotSpot writes its report where it was started unless told otherwise: the user's working folder. A heap
    # too small to start the sandbox, with CrashOnOutOfMemoryError, makes the training run's JVM crash for sure.
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGCHAIN_GRAALVM_JVM_OPTIONS", "-Xmx24m -XX:+CrashOnOutOfMemoryError")
    partial = tmp_path / "cache" / "fast-start" / "aot" / "candidate.aot"
    partial.parent.mkdir(parents=True)
    with pytest.raises(FastStartError, match=r"(?s)the AOT training run failed.*JVM crash reports: "):
        _install._train(partial)
    assert not list(work.glob("hs_err_pid*.log"))
    assert list((tmp_path / "cache" / "fast-start" / "crashes").glob("hs_err_pid*.log"))


def test_prune_keeps_the_newest_caches_and_removes_what_dead_installs_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path))
    folder = _faststart.root() / "aot"
    folder.mkdir(parents=True)
    caches = []
    for age, key in enumerate(["d", "c", "b", "a"]):
        aot = folder / f"{key}.aot"
        aot.write_bytes(b"cache")
        _faststart.mark_trusted(aot)
        os.utime(aot, (1_000_000 - age * 100, 1_000_000 - age * 100))
        caches.append(aot)
    # 999999999 is above any pid_max: no process has it.
    gone = [folder / "x.aot.partial-999999999", folder / "x.aot.partial-999999999.config"]
    running = [folder / f"y.aot.partial-{os.getpid()}", folder / f"y.aot.partial-{os.getpid()}.config"]
    for path in gone + running:
        path.write_bytes(b"half made")
    image, dead_image = _faststart.root() / "jdk-25-x", _faststart.root() / "jdk-25-x.partial-999999999"
    for made in (image, dead_image, _faststart.root() / f"jdk-25-y.partial-{os.getpid()}"):
        (made / "lib").mkdir(parents=True)
    _faststart.prune(caches[0])
    left = sorted(p.name for p in folder.iterdir())
    kept = [name for k in "dcb" for name in (f"{k}.aot", f"{k}.aot.trusted")]
    assert left == sorted([*kept, *(p.name for p in running)])
    assert sorted(p.name for p in _faststart.root().iterdir()) == ["aot", "jdk-25-x", f"jdk-25-y.partial-{os.getpid()}"]


def test_image_and_trained_cache_start_with_jit_on_and_class_data_shared(tmp_path: Path) -> None:
    """End to end in fresh processes: link the image, record a cache by a first start, then start from it."""
    cache = tmp_path / "cache"
    env = {"LANGCHAIN_GRAALVM_CACHE": str(cache), "LANGCHAIN_GRAALVM_BACKGROUND_START": "0"}
    report = """
        from langchain_graalvm import Interpreter, runtime_info
        from langchain_graalvm._runtime import _jvm
        print(Interpreter().eval("[1, 2].map((x) => x * 21)").text)
        flags = _jvm.info().flags
        print("jit", runtime_info()["jit"])
        print("upgrade", any(f.startswith("--upgrade-module-path") for f in flags))
        print("aot", [f.split("=")[0] for f in flags if f.startswith("-XX:AOT")])
        print("profiles", "-XX:-AOTRecordTraining" not in flags)
    """
    built = run_python(
        "from langchain_graalvm._runtime import _faststart, _jvmfinder\n"
        "print(_faststart.build_image(_jvmfinder.find_jdk(), log=False))\n",
        env=env,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    image = Path(built.stdout.strip())
    assert (image / "lib" / "server" / "libjvm.so").is_file()
    listed = subprocess.run([str(image / "bin" / "java"), "--list-modules"], capture_output=True, text=True).stdout
    assert "jdk.internal.vm.ci@" in listed and "jdk.graal.compiler@" not in listed  # the placeholder is left out
    # A first start on the image records the cache at exit (this is what `langchain-graalvm install` trains).
    out = cache / "trained.aot"
    # Recording and assembling the cache takes minutes on a small machine (4 to 15 on 2 busy cores).
    proc = run_python(report, env={**env, "LANGCHAIN_GRAALVM_AOT_TRAINING": str(out)}, timeout=1800)
    assert "<result>[21, 42]</result>" in proc.stdout, proc.stdout + proc.stderr
    assert "jit True" in proc.stdout and "upgrade False" in proc.stdout
    assert "aot ['-XX:AOTCacheOutput']" in proc.stdout
    assert "profiles False" in proc.stdout  # recorded without the training run's method profiles
    assert out.is_file() and out.stat().st_size > 10 * 2**20
    jdk = _jvmfinder.find_jdk()
    key = run_python(
        "from langchain_graalvm._runtime import _faststart, _jvmfinder, _launch\n"
        "jdk = _jvmfinder.find_jdk(); rt = _launch.find_runtime_dir()\n"
        "flags = _launch.jvm_flags(jdk, rt, fast=True)[0]\n"
        "print(_faststart.aot_file(_faststart.cache_key(jdk, flags, _launch.classpath(rt), compiler=\"jargraal\")))\n",
        env=env,
    ).stdout.strip()
    # A cache the JVM cannot use fails its trial start (AOTMode=on) with the JVM's reason, and is deleted.
    garbage = cache / "garbage.aot"
    garbage.write_bytes(os.urandom(1 << 20))
    adopt = "from pathlib import Path\nfrom langchain_graalvm.cli import _install\n"
    refused = run_python(adopt + f"print(_install.adopt(Path({str(garbage)!r}), Path({key!r})))", env=env)
    assert "the trial start from the cache failed (exit code 1)" in refused.stdout, refused.stdout + refused.stderr
    assert "Unable to use AOT cache" in refused.stdout and not garbage.exists() and not Path(key).exists()
    # The recorded cache under its key, untried: the next start passes it over, and `install` gives it its trial
    # (recording a new one should the trial fail) and marks it trusted.
    Path(key).parent.mkdir(parents=True, exist_ok=True)
    os.replace(out, key)
    untried = run_python(report, env=env, timeout=600)
    assert "aot []" in untried.stdout, untried.stdout + untried.stderr
    installed = run_python(adopt + "print(_install.build(log=False))", env=env, timeout=1800)
    assert installed.stdout.strip() == key, installed.stdout + installed.stderr
    assert _faststart.trusted(Path(key))
    proc = run_python(report, env=env, timeout=600)
    assert "<result>[21, 42]</result>" in proc.stdout, proc.stdout + proc.stderr
    assert "jit True" in proc.stdout and "upgrade False" in proc.stdout
    assert "aot ['-XX:AOTCache']" in proc.stdout
    assert jdk.feature == 25
