"""The JDK finder's choice among JDK homes (fabricated ones), the compiler chosen for each, its flags, and the fast
start's cache keyed by compiler. No JVM is started."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from langchain_graalvm._runtime import _compiler, _faststart, _jvmfinder, _launch
from langchain_graalvm.errors import JvmError
from tests.support.jdkhomes import make_graalvm, make_jdk, make_runtime

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in ("LANGCHAIN_GRAALVM_JAVA_HOME", "JAVA_HOME", _compiler.ENV, _compiler.TRIAL_ENV,
                "LANGCHAIN_GRAALVM_JVM_OPTIONS", _faststart.ENV, _faststart.TRAIN_ENV, _faststart.TRIAL_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANGCHAIN_GRAALVM_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's own /usr/lib/jvm is left out: the homes are the test's alone."""
    monkeypatch.setattr(_jvmfinder.glob, "glob", lambda _pattern: [])


def test_release_fields_of_a_graalvm_jdk_are_read(tmp_path: Path) -> None:
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g", "25.0.2"))
    assert jdk is not None
    facts = (jdk.feature, jdk.graalvm_version, jdk.implementor, jdk.libgraal)
    assert facts == (25, "25.0.2", "GraalVM Community", True)
    stock = _jvmfinder.inspect_jdk(make_jdk(tmp_path / "t", "25.0.3"))
    assert stock is not None and (stock.graalvm_version, stock.libgraal) == (None, False)


@pytest.mark.usefixtures("only")
def test_a_fetched_graalvm_jdk_is_preferred_to_a_stock_java_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JAVA_HOME", str(make_jdk(tmp_path / "temurin", "25.0.3")))
    graal = make_graalvm(_jvmfinder.jdks_dir() / "graalvm-community-25.0.2")
    assert _jvmfinder.find_jdk().home == graal


@pytest.mark.usefixtures("only")
def test_any_jdk_with_libjvmcicompiler_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", str(make_jdk(tmp_path / "temurin", "25.0.3")))
    built = make_jdk(_jvmfinder.jdks_dir() / "own-libgraal", "25.0.3", libgraal=True)
    assert _jvmfinder.find_jdk().home == built


@pytest.mark.usefixtures("only")
def test_the_explicit_java_home_wins_over_a_libgraal_jdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stock = make_jdk(tmp_path / "temurin", "25.0.3")
    make_graalvm(_jvmfinder.jdks_dir() / "graalvm-community-25.0.2")
    monkeypatch.setenv("LANGCHAIN_GRAALVM_JAVA_HOME", str(stock))
    assert _jvmfinder.find_jdk().home == stock


@pytest.mark.usefixtures("only")
def test_a_libgraal_newer_than_the_polyglot_jars_is_not_preferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stock = make_jdk(tmp_path / "temurin", "25.0.3")
    monkeypatch.setenv("JAVA_HOME", str(stock))
    make_graalvm(_jvmfinder.jdks_dir() / "graalvm-community-25.0.3", graalvm_version="25.1.3", java_version="25.0.3")
    assert _jvmfinder.find_jdk().home == stock


@pytest.mark.usefixtures("only")
def test_jdk_25_still_beats_a_libgraal_jdk_of_another_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stock = make_jdk(tmp_path / "temurin", "25.0.3")
    monkeypatch.setenv("JAVA_HOME", str(make_graalvm(tmp_path / "graal21", "23.1.2", java_version="21.0.2")))
    (tmp_path / "jvm").mkdir()
    monkeypatch.setattr(_jvmfinder.glob, "glob", lambda _pattern: [str(stock)])
    assert _jvmfinder.find_jdk().home == stock


@pytest.mark.usefixtures("only")
def test_a_fetch_left_half_done_is_never_a_candidate() -> None:
    make_graalvm(_jvmfinder.jdks_dir() / ".partial-4242-25.0.2" / "x" / "graalvm")
    make_graalvm(_jvmfinder.jdks_dir() / ".partial-4243-25.0.2")
    assert not any(".partial" in str(home) for _, home in _jvmfinder.candidate_homes())


@pytest.mark.usefixtures("only")
def test_no_jdk_at_all_names_the_command_that_fixes_it() -> None:
    with pytest.raises(JvmError, match=re.escape("Run `langchain-graalvm install --jdk`")):
        _jvmfinder.find_jdk()


@pytest.mark.parametrize(
    ("java", "graal", "problem"),
    [
        ("25.0.2", "25.0.2", None),
        ("25.0.3", "25.0.3", None),
        ("25.0.1", None, None),
        ("25.0.3", "25.1.3", "newer than the polyglot jars 25.0.3"),
        ("25.0.4.1", "25.3.4.1", "newer than the polyglot jars 25.0.3"),
        ("25.0.1", "23.1.1", "older than 23.1.2"),
        ("26.0.1", "25.0.2", "JDK 21 to 25, not 26"),
    ],
)
def test_truffles_rule_for_a_jdks_libgraal(tmp_path: Path, java: str, graal: str | None, problem: str | None) -> None:
    jdk = _jvmfinder.inspect_jdk(make_jdk(tmp_path, java, graalvm_version=graal, libgraal=True))
    assert jdk is not None
    found = _jvmfinder.libgraal_problem(jdk, "25.0.3")
    assert found == problem if problem is None else (found is not None and problem in found)


def test_the_pinned_polyglot_version_is_the_one_maven_builds() -> None:
    pom = (ROOT / "java" / "pom.xml").read_text()
    assert f"<graalvm.version>{_jvmfinder.POLYGLOT_VERSION}</graalvm.version>" in pom


def test_the_pinned_jdk_fits_the_pinned_polyglot_jars(tmp_path: Path) -> None:
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path, _compiler.PINNED_JDK, _compiler.PINNED_JDK))
    assert jdk is not None and _jvmfinder.libgraal_problem(jdk) is None


# ------------------------------------------------------------------------------------------------ flags


def _flags(jdk_home: Path, runtime: Path) -> tuple[list[str], bool, _compiler.Choice]:
    jdk = _jvmfinder.inspect_jdk(jdk_home)
    assert jdk is not None
    flags, jit = _launch.jvm_flags(jdk, runtime)
    return flags, jit, _compiler.choose(jdk, runtime)


def test_libgraal_flags_keep_c1_c2_as_the_host_jit_and_take_no_compiler_jars(tmp_path: Path) -> None:
    runtime = make_runtime(tmp_path / "rt")
    flags, jit, choice = _flags(make_graalvm(tmp_path / "g"), runtime)
    assert jit and choice == _compiler.Choice("libgraal")
    assert {"-XX:+EnableJVMCI", "-XX:+UseJVMCINativeLibrary", "-XX:-UseJVMCICompiler"} <= set(flags)
    assert "-XX:+UseJVMCICompiler" not in flags
    assert not any(f.startswith("--upgrade-module-path") or "compiler-25" in f for f in flags)
    # The compiler is not host code here: C2 compiles everything the host runs.
    assert not any(f.startswith("-XX:CompilerDirectivesFile=") for f in flags)


@pytest.mark.parametrize(
    ("asked", "compiler", "runs"),
    [(None, "jargraal", "graal-c1"), (None, "libgraal", "tiered"), (None, "none", "tiered"),
     ("c1", "libgraal", "c1"), ("tiered", "jargraal", "tiered")],
)
def test_graal_c1_is_a_mode_of_jargraal_only(monkeypatch: pytest.MonkeyPatch, asked: str | None, compiler: str,
                                               runs: str) -> None:
    if asked is None:
        monkeypatch.delenv("LANGCHAIN_GRAALVM_HOST_JIT", raising=False)
    else:
        monkeypatch.setenv("LANGCHAIN_GRAALVM_HOST_JIT", asked)
    assert _launch.host_jit_for(compiler) == runs


def test_jargraal_flags_on_a_stock_jdk_upgrade_the_compiler_module(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGCHAIN_GRAALVM_HOST_JIT", raising=False)
    runtime = make_runtime(tmp_path / "rt")
    flags, jit, choice = _flags(make_jdk(tmp_path / "t", "25.0.3"), runtime)
    assert jit and choice == _compiler.Choice("jargraal")
    assert f"--upgrade-module-path={runtime / 'compiler' / 'compiler-25.0.3.jar'}" in flags
    assert "-XX:+EnableJVMCI" in flags and not any("JVMCINativeLibrary" in f for f in flags)
    # By default C2 leaves the compiler's own code to C1.
    assert any(f.startswith("-XX:CompilerDirectivesFile=") for f in flags)


def test_a_libgraal_that_does_not_fit_falls_back_to_jargraal_with_one_line(tmp_path: Path) -> None:
    runtime = make_runtime(tmp_path / "rt")
    flags, jit, choice = _flags(make_graalvm(tmp_path / "g", "25.1.3", "25.0.3"), runtime)
    assert jit and choice.name == "jargraal"
    assert choice.note is not None and "\n" not in choice.note
    assert "libgraal not used, jargraal instead" in choice.note and "25.1.3" in choice.note
    # The GraalVM JDK's own defaults would hand the compilations to its libgraal: they are turned off.
    assert {"-XX:-UseJVMCINativeLibrary", "-XX:-UseJVMCICompiler"} <= set(flags)
    assert any(f.startswith("--upgrade-module-path=") for f in flags)


def test_jargraal_can_be_asked_for_on_a_libgraal_jdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_compiler.ENV, "jargraal")
    _, jit, choice = _flags(make_graalvm(tmp_path / "g"), make_runtime(tmp_path / "rt"))
    assert jit and choice == _compiler.Choice("jargraal")


def test_libgraal_asked_for_on_a_stock_jdk_says_why_it_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_compiler.ENV, "libgraal")
    _, jit, choice = _flags(make_jdk(tmp_path / "t", "25.0.3"), make_runtime(tmp_path / "rt"))
    assert jit and choice.name == "jargraal" and choice.note and "no lib/libjvmcicompiler.so" in choice.note


def test_libgraal_needs_no_compiler_jars(tmp_path: Path) -> None:
    _, jit, choice = _flags(make_graalvm(tmp_path / "g"), make_runtime(tmp_path / "rt", compiler_jars=False))
    assert jit and choice.name == "libgraal"
    _, jit, choice = _flags(make_jdk(tmp_path / "t", "25.0.3"), make_runtime(tmp_path / "rt2", compiler_jars=False))
    assert not jit and choice.name == "none"


def test_a_libgraal_trial_that_times_out_is_tried_again_and_a_failed_one_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    from langchain_graalvm.cli import _jdk

    runtime = make_runtime(tmp_path / "rt")
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None and _compiler.choose(jdk, runtime).name == "libgraal"

    def slow(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        raise subprocess.TimeoutExpired(cmd, _jdk.TRIAL_SECONDS)

    monkeypatch.setattr(subprocess, "run", slow)
    said = _jdk.libgraal_trial(jdk, runtime)
    assert said is not None and "did not finish" in said and "next run tries again" in said
    # Only slow, not broken: nothing is recorded, libgraal stays the choice, and the next run starts a trial again.
    assert not _compiler.trial_marker(jdk).exists()
    assert _compiler.choose(jdk, runtime).name == "libgraal"

    def crash(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(cmd, 1, "", "Error: Unable to load JVMCI shared library\n")

    monkeypatch.setattr(subprocess, "run", crash)
    said = _jdk.libgraal_trial(jdk, runtime)
    assert said is not None and "Unable to load JVMCI shared library" in said
    choice = _compiler.choose(jdk, runtime)
    assert choice.name == "jargraal" and choice.note and "failed its trial start" in choice.note


def test_a_bad_compiler_mode_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_compiler.ENV, "c2")
    with pytest.raises(JvmError, match="LANGCHAIN_GRAALVM_COMPILER='c2' is not one of auto, libgraal, jargraal"):
        _flags(make_graalvm(tmp_path / "g"), make_runtime(tmp_path / "rt"))


# ------------------------------------------------------------------------------------------------ fast start


def _trust(aot: Path) -> None:
    aot.parent.mkdir(parents=True, exist_ok=True)
    aot.write_bytes(b"cache")
    _faststart.mark_trusted(aot)


def test_the_cache_key_names_the_compiler(tmp_path: Path) -> None:
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None
    flags = ["-XX:+EnableJVMCI"]
    assert _faststart.cache_key(jdk, flags, [], compiler="libgraal") != _faststart.cache_key(
        jdk, flags, [], compiler="jargraal"
    )


def test_libgraal_starts_fast_from_the_jdk_itself_without_an_image(tmp_path: Path) -> None:
    runtime = make_runtime(tmp_path / "rt")
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None and not _faststart.image_ready(jdk)
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    assert "--add-modules=org.graalvm.polyglot" in flags  # no compiler module: the image is jargraal's alone
    aot = _faststart.aot_file(_faststart.cache_key(jdk, flags, _launch.classpath(runtime), compiler="libgraal"))
    assert _launch.fast_start(jdk, runtime) is None
    _trust(aot)
    fast = _launch.fast_start(jdk, runtime)
    assert fast is not None
    libjvm, options = fast
    assert libjvm == jdk.libjvm and f"-XX:AOTCache={aot}" in options


def test_the_training_run_records_classes_without_method_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replayed in a new process, the training run's method profiles made the first cells slower: the cache is
    recorded without them, unless the user's own JVM options (which come later, and win) ask for them."""
    runtime = make_runtime(tmp_path / "rt")
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None
    out = tmp_path / "new.aot"
    monkeypatch.setenv(_faststart.TRAIN_ENV, str(out))
    fast = _launch.fast_start(jdk, runtime)
    assert fast is not None
    options = fast[1]
    assert options[-1] == f"-XX:AOTCacheOutput={out}"
    assert options.index("-XX:+UnlockDiagnosticVMOptions") < options.index("-XX:-AOTRecordTraining")
    monkeypatch.setenv("LANGCHAIN_GRAALVM_JVM_OPTIONS", "-XX:+AOTRecordTraining")
    options = _launch.fast_start(jdk, runtime)[1]  # type: ignore[index]
    assert options.index("-XX:-AOTRecordTraining") < options.index("-XX:+AOTRecordTraining")
    # A start from a cache never carries the recording options.
    monkeypatch.delenv(_faststart.TRAIN_ENV)
    monkeypatch.delenv("LANGCHAIN_GRAALVM_JVM_OPTIONS")
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    _trust(_faststart.aot_file(_faststart.cache_key(jdk, flags, _launch.classpath(runtime), compiler="libgraal")))
    used = _launch.fast_start(jdk, runtime)
    assert used is not None and "-XX:-AOTRecordTraining" not in used[1]


def test_a_cache_recorded_another_way_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key covers how the cache was recorded: a cache trained by an earlier recipe (with method profiles, say)
    is recorded again by the next ``install`` instead of being used."""
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None
    flags = ["-XX:+EnableJVMCI"]
    key = _faststart.cache_key(jdk, flags, [], compiler="libgraal")
    monkeypatch.setattr(_faststart, "RECORDING_FLAGS", ())
    assert _faststart.cache_key(jdk, flags, [], compiler="libgraal") != key


def test_a_cache_recorded_with_one_compiler_is_never_used_with_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = make_runtime(tmp_path / "rt")
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None
    image = _faststart.image_dir(jdk)
    make_jdk(image, jdk.version)
    (image / ".complete").write_text(jdk.version)
    # A trusted cache recorded under jargraal (asked for on this libgraal JDK) ...
    monkeypatch.setenv(_compiler.ENV, "jargraal")
    flags, _ = _launch.jvm_flags(jdk, runtime, fast=True)
    jar_aot = _faststart.aot_file(_faststart.cache_key(jdk, flags, _launch.classpath(runtime), compiler="jargraal"))
    _trust(jar_aot)
    fast = _launch.fast_start(jdk, runtime)
    assert fast is not None and fast[0] == image / "lib" / "server" / "libjvm.so"
    assert f"-XX:AOTCache={jar_aot}" in fast[1]
    # ... is not the one a libgraal start looks for.
    monkeypatch.setenv(_compiler.ENV, "auto")
    assert _launch.fast_start(jdk, runtime) is None


def test_a_libgraal_that_failed_its_trial_start_is_replaced_by_jargraal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = make_runtime(tmp_path / "rt")
    jdk = _jvmfinder.inspect_jdk(make_graalvm(tmp_path / "g"))
    assert jdk is not None
    marker = _compiler.trial_marker(jdk)
    marker.parent.mkdir(parents=True)
    marker.write_text("ok\n")
    assert _compiler.choose(jdk, runtime) == _compiler.Choice("libgraal")
    marker.write_text("signal 6: fatal error: Unable to load JVMCI shared library\n")
    choice = _compiler.choose(jdk, runtime)
    assert choice.name == "jargraal" and choice.note and "failed its trial start" in choice.note
    # The trial's own child process tries libgraal whatever an earlier trial said.
    monkeypatch.setenv(_compiler.TRIAL_ENV, "1")
    assert _compiler.choose(jdk, runtime).name == "libgraal"
    # A replaced library gets a trial of its own.
    monkeypatch.delenv(_compiler.TRIAL_ENV)
    (jdk.home / "lib" / "libjvmcicompiler.so").write_bytes(b"another build")
    assert _compiler.choose(jdk, runtime) == _compiler.Choice("libgraal")


def test_libgraal_is_looked_for_where_hotspot_loads_it(tmp_path: Path) -> None:
    # HotSpot takes java.home from libjvm's real path: a JDK whose libjvm links into another JDK has the other's.
    other = make_jdk(tmp_path / "other", "25.0.3")
    home = make_graalvm(tmp_path / "g")
    (home / "lib" / "server" / "libjvm.so").unlink()
    (home / "lib" / "server" / "libjvm.so").symlink_to(other / "lib" / "server" / "libjvm.so")
    jdk = _jvmfinder.inspect_jdk(home)
    assert jdk is not None and not jdk.libgraal
