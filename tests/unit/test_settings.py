"""The settings: every ``LANGCHAIN_GRAALVM_*`` variable's parser, the one heap rule, the environment read once per
set of values, the docs' table made from the settings table, and no other module reading the variables."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from langchain_graalvm import _settings, options
from langchain_graalvm._runtime import _launch
from langchain_graalvm._settings import PREFIX, VARIABLES, Settings, settings
from langchain_graalvm.errors import SettingsError
from langchain_graalvm.errors import JvmError, OptionsError

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "langchain_graalvm"


def read(**values: str) -> Settings:
    return Settings.from_environ({PREFIX + name: value for name, value in values.items()})


# ------------------------------------------------------------------------------------------------ parsers

GOOD = [
    pytest.param("MAX_HEAP", "2g", 2 << 30, id="heap-gigabytes"),
    pytest.param("MAX_HEAP", "768M", 768 << 20, id="heap-megabytes-any-case"),
    pytest.param("MAX_HEAP", " 512m ", 512 << 20, id="heap-blanks-around"),
    pytest.param("MAX_HEAP", "65537k", 65 << 20, id="heap-kilobytes-rounded-up-to-mib"),
    pytest.param("MAX_HEAP", str(64 << 20), 64 << 20, id="heap-bytes-at-the-minimum"),
    pytest.param("WORKER_HEAP", "1g", 1 << 30, id="worker-heap"),
    pytest.param("HOST_JIT", "Tiered", "tiered", id="choice-any-case"),
    pytest.param("COMPILER", " jargraal ", "jargraal", id="choice-blanks-around"),
    pytest.param("ISOLATION", "process", "process", id="isolation"),
    pytest.param("SERVER", "auto", "auto", id="server"),
    pytest.param("FAST_START", "0", False, id="flag-0"),
    pytest.param("FAST_START", "off", False, id="flag-off"),
    pytest.param("BACKGROUND_START", "No", False, id="flag-no"),
    pytest.param("OFFLINE", "1", True, id="flag-1"),
    pytest.param("OFFLINE", "true", True, id="flag-true"),
    pytest.param("LIBGRAAL_TRIAL", "1", True, id="flag-internal"),
    pytest.param("MAX_WORKERS", "4", 4, id="whole"),
    pytest.param("WORKER_SPARES", "0", 0, id="whole-at-zero"),
    pytest.param("SERVER_IDLE", "3", 3, id="whole-seconds"),
    pytest.param("JVM_OPTIONS", " -Xss4m  -Dx=1 ", ("-Xss4m", "-Dx=1"), id="options-split-on-blanks"),
    pytest.param("RUNTIME", "/opt/rt", Path("/opt/rt"), id="path"),
    pytest.param("JDK_INDEX", "file:///tmp/index.json", "file:///tmp/index.json", id="text"),
]


@pytest.mark.parametrize(("name", "text", "value"), GOOD)
def test_a_good_value_is_parsed(name: str, text: str, value: Any) -> None:
    assert getattr(read(**{name: text}), name.lower()) == value


BAD = [
    pytest.param("MAX_HEAP", "lots", "is not a heap size of at least 64m, such as 768m or 2g.", id="heap-words"),
    pytest.param("MAX_HEAP", "63m", "is not a heap size of at least 64m", id="heap-below-64m"),
    pytest.param("MAX_HEAP", "2gb", "is not a heap size", id="heap-two-letter-unit"),
    pytest.param("MAX_HEAP", "-1g", "is not a heap size", id="heap-negative"),
    pytest.param("WORKER_HEAP", "1t", "is not a heap size", id="worker-heap-terabytes"),
    pytest.param("HOST_JIT", "fast", "is not one of graal-c1, tiered, c1.", id="host-jit"),
    pytest.param("COMPILER", "c2", "is not one of auto, libgraal, jargraal.", id="compiler"),
    pytest.param("ISOLATION", "proc", "is not one of in-process, process.", id="isolation"),
    pytest.param("SERVER", "on", "is not one of off, auto.", id="server"),
    pytest.param("FAST_START", "maybe", "is not one of 1, true, yes, on, 0, false, no, off.", id="flag"),
    pytest.param("MAX_WORKERS", "0", "is not a whole number >= 1.", id="whole-below-low"),
    pytest.param("WORKER_WAIT", "-1", "is not a whole number of seconds >= 0.", id="whole-negative"),
    pytest.param("SERVER_IDLE", "1.5", "is not a whole number of seconds >= 1.", id="whole-fraction"),
]


@pytest.mark.parametrize(("name", "text", "says"), BAD)
def test_a_bad_value_is_refused_naming_the_variable_when_its_field_is_read(name: str, text: str, says: str) -> None:
    current = read(**{name: text})  # reading the environment does not fail
    with pytest.raises(SettingsError, match=re.escape(f"{PREFIX}{name}={text!r} {says}")):
        getattr(current, name.lower())
    assert name == "ISOLATION" or current.isolation == "in-process"  # the other fields still read


def test_a_bad_setting_is_both_an_options_error_and_a_jvm_error() -> None:
    # A bad JVM setting raised JvmError at the JVM's start, the others OptionsError: callers catch either.
    current = read(MAX_HEAP="lots")
    for caught in (OptionsError, JvmError, ValueError, RuntimeError):
        with pytest.raises(caught):
            _ = current.max_heap


def test_an_empty_value_is_the_default() -> None:
    current = read(MAX_HEAP="", HOST_JIT="", FAST_START="", MAX_WORKERS="", ISOLATION="")
    defaults = read()
    for field in ("max_heap", "host_jit", "fast_start", "max_workers", "isolation"):
        assert getattr(current, field) == getattr(defaults, field)


def test_the_defaults_are_those_documented() -> None:
    defaults = read()
    assert (defaults.max_heap, defaults.host_jit, defaults.compiler, defaults.isolation, defaults.server) == (
        2 << 30, "graal-c1", "auto", "in-process", "off")
    assert (defaults.max_workers, defaults.worker_wait, defaults.worker_spares, defaults.worker_idle,
            defaults.guests_per_worker, defaults.server_idle) == (16, 60, 1, 300, 1, 1800)
    assert (defaults.background_start, defaults.fast_start, defaults.offline) == (True, True, False)


# ------------------------------------------------------------------------------------------------ the heap rule


@pytest.mark.parametrize("name", ["MAX_HEAP", "WORKER_HEAP"])
@pytest.mark.parametrize(("text", "ok"), [("64m", True), ("63m", False), ("2G", True), ("1024k", False)])
def test_both_heaps_follow_one_rule(name: str, text: str, ok: bool) -> None:
    current = read(**{name: text})
    if ok:
        assert getattr(current, name.lower()) == _settings.HEAP_SIZE.parse(text)
    else:
        with pytest.raises(SettingsError, match="is not a heap size of at least 64m"):
            getattr(current, name.lower())


@pytest.mark.parametrize(("text", "flag"), [("2g", "-Xmx2g"), ("768m", "-Xmx768m"), ("2048m", "-Xmx2g")])
def test_the_jvm_heap_flag_is_written_in_whole_units(text: str, flag: str) -> None:
    assert f"-Xmx{_settings.heap_text(_settings.HEAP_SIZE.parse(text))}" == flag


# ------------------------------------------------------------------------------------------------ the cache roots


def test_one_cache_root_holds_the_jars_unless_the_older_name_is_set(tmp_path: Path) -> None:
    current = Settings.from_environ({"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert current.cache_folder == current.jars_folder == tmp_path / "xdg" / "langchain-graalvm"
    assert current.server_folder == tmp_path / "xdg" / "langchain-graalvm" / "server"
    moved = read(CACHE=str(tmp_path / "c"))
    assert moved.cache_folder == moved.jars_folder == tmp_path / "c"
    apart = read(CACHE=str(tmp_path / "c"), HOME=str(tmp_path / "jars"), SERVER_DIR=str(tmp_path / "s"))
    assert (apart.cache_folder, apart.jars_folder, apart.server_folder) == (tmp_path / "c", tmp_path / "jars",
                                                                           tmp_path / "s")


def test_the_users_cache_is_under_home_without_xdg(tmp_path: Path) -> None:
    assert Settings.from_environ({"HOME": str(tmp_path)}).cache_folder == tmp_path / ".cache" / "langchain-graalvm"


# ------------------------------------------------------------------------------------------------ reading os.environ


def test_the_environment_is_parsed_once_per_set_of_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_MAX_WORKERS", "3")
    first = settings()
    assert first is settings()  # nothing changed: the same object, parsed once
    monkeypatch.setenv("LANGCHAIN_GRAALVM_MAX_WORKERS", "5")
    assert settings().max_workers == 5  # an edit is seen at the next call
    monkeypatch.setenv("LANGCHAIN_GRAALVM_MAX_WORKERS", "3")
    assert settings() is first
    monkeypatch.setenv("UNRELATED_VARIABLE_OF_THE_TEST", "1")
    assert settings() is first  # other variables are not the settings' business


def test_the_system_java_home_and_cache_are_read_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("LANGCHAIN_GRAALVM_CACHE", raising=False)
    assert settings().system_java_home == tmp_path / "jdk"
    assert settings().cache_folder == tmp_path / "xdg" / "langchain-graalvm"


def test_a_bad_value_surfaces_where_it_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGCHAIN_GRAALVM_ISOLATION", "proc")
    monkeypatch.setenv("LANGCHAIN_GRAALVM_MAX_HEAP", "lots")
    assert settings().max_workers == 16  # the other settings still read
    with pytest.raises(OptionsError, match="LANGCHAIN_GRAALVM_ISOLATION='proc' is not one of in-process, process"):
        options.InterpreterOptions()
    assert options.InterpreterOptions(isolation="in-process").isolation == "in-process"
    with pytest.raises(JvmError, match="LANGCHAIN_GRAALVM_MAX_HEAP='lots' is not a heap size"):
        _launch.jvm_flags(_launch.Jdk(home=Path("/opt/jdk"), version="21.0.1", feature=21), ROOT)


# ------------------------------------------------------------------------------------------------ the table


def test_the_settings_fields_follow_the_table() -> None:
    fields = [f.name for f in dataclasses.fields(Settings)]
    assert fields[: len(VARIABLES)] == [v.field for v in VARIABLES]
    assert fields[len(VARIABLES):] == ["system_java_home", "user_cache"]
    assert len({v.name for v in VARIABLES}) == len(VARIABLES)
    assert all(v.name == PREFIX + v.field.upper() and v.meaning for v in VARIABLES)


def test_the_choices_are_the_options_own() -> None:
    assert _settings.ISOLATIONS == options.ISOLATIONS


def test_the_docs_table_is_made_from_the_settings() -> None:
    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert _settings.with_table(doc) == doc, (
        "docs/operations.md's table of environment variables differs from python/langchain_graalvm/_settings.py: "
        "run `python scripts/settings_table.py`"
    )
    for var in VARIABLES:
        assert f"| `{var.name}` |" in doc


# ------------------------------------------------------------------------------------------------ one reader


def _environment_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """``os.environ.get(K)``, ``os.getenv(K)``, ``os.environ[K]`` (read) and ``K in os.environ`` whose key names a
    ``LANGCHAIN_GRAALVM_`` variable: a literal with the prefix, or a name such as ``ENV`` / ``TRIAL_ENV``."""

    def is_environ(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ"

    def names_ours(key: ast.AST) -> bool:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value.startswith(PREFIX)
        if isinstance(key, ast.JoinedStr):
            return any(names_ours(v) for v in key.values)
        name = key.id if isinstance(key, ast.Name) else key.attr if isinstance(key, ast.Attribute) else ""
        return name.endswith("ENV")

    found = []
    for node in ast.walk(tree):
        key: ast.AST | None = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Attribute) and (
                (func.attr in ("get", "pop", "setdefault") and is_environ(func.value)) or func.attr == "getenv"
            ):
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and is_environ(node.value) and isinstance(node.ctx, ast.Load):
            key = node.slice
        elif isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
            key = node.left
        if key is not None and names_ours(key):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_only_the_settings_module_reads_the_variables() -> None:
    readers = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "_settings.py" and path.parent == PACKAGE:
            continue
        reads = _environment_reads(ast.parse(path.read_text(encoding="utf-8")))
        if reads:
            readers[str(path.relative_to(PACKAGE))] = reads
    assert readers == {}, f"read the settings through langchain_graalvm._settings.settings() instead: {readers}"


def test_the_scan_sees_each_way_of_reading() -> None:
    code = (
        "import os\n"
        "a = os.environ.get('LANGCHAIN_GRAALVM_X')\n"
        "b = os.getenv('LANGCHAIN_GRAALVM_X', '1')\n"
        "c = os.environ['LANGCHAIN_GRAALVM_X']\n"
        "d = 'LANGCHAIN_GRAALVM_X' in os.environ\n"
        "e = os.environ.get(ENV)\n"
        "os.environ['LANGCHAIN_GRAALVM_X'] = '1'\n"  # writing, for a child process: allowed
        "f = os.environ.get('HOME')\n"
    )
    assert [line for line, _ in _environment_reads(ast.parse(code))] == [2, 3, 4, 5, 6]


def test_the_server_switch_alone_makes_process_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGCHAIN_GRAALVM_ISOLATION", raising=False)
    monkeypatch.delenv("LANGCHAIN_GRAALVM_SERVER", raising=False)
    assert options.InterpreterOptions().isolation == "in-process"
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER", "auto")
    assert options.InterpreterOptions().isolation == "process"
    assert options.InterpreterOptions(isolation="in-process").isolation == "in-process"  # its own choice wins
    monkeypatch.setenv("LANGCHAIN_GRAALVM_SERVER", "off")
    monkeypatch.setenv("LANGCHAIN_GRAALVM_ISOLATION", "process")
    assert options.InterpreterOptions().isolation == "process"  # the private tier, as before
