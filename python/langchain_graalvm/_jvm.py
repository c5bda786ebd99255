"""The JVM: find a JDK, choose its flags, start it once per process.

This is the only module that imports :mod:`jpype`. A JVM cannot be restarted, and a bad flag makes the failed
start poison the process, so every flag is chosen from the JDK's ``release`` file before the one start attempt.
Importing the package never starts a JVM; the first interpreter does.
"""

from __future__ import annotations

import dataclasses
import faulthandler
import gc
import glob
import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

logger = logging.getLogger("langchain_graalvm")

_MIN_JDK = 21
_JIT_JDK = 25
_SANDBOX_CLASS = "io.github.langchaingraalvm.sandbox.Sandbox"

_lock = threading.Lock()
_started_pid: int | None = None
_began_pid: int | None = None  # set as the one start attempt begins: a fork from then on cannot use the JVM
_start_failure: JvmError | None = None
_jvm_info: JvmInfo | None = None
_on_start: list[Callable[[], None]] = []


class JvmError(RuntimeError):
    """The JVM could not be found, started, or used in this process."""


@dataclasses.dataclass(frozen=True)
class Jdk:
    """A JDK on disk and its feature version."""

    home: Path
    version: str
    feature: int

    @property
    def libjvm(self) -> Path:
        return self.home / "lib" / "server" / "libjvm.so"


@dataclasses.dataclass(frozen=True)
class JvmInfo:
    """What was started: the JDK, the runtime folder and whether guest code is JIT-compiled."""

    jdk: Jdk
    runtime_dir: Path
    jit_requested: bool
    flags: tuple[str, ...]


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
        if jdk is None or jdk.feature < _MIN_JDK:
            raise JvmError(
                f"LANGCHAIN_GRAALVM_JAVA_HOME={explicit} is not a JDK {_MIN_JDK} or newer "
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
        if jdk is not None and jdk.feature >= _MIN_JDK:
            usable.append(jdk)
    if not usable:
        raise JvmError(
            f"No JDK {_MIN_JDK}+ was found (looked at LANGCHAIN_GRAALVM_JAVA_HOME, JAVA_HOME and /usr/lib/jvm/*). "
            "Install JDK 25 (for example the Debian/Ubuntu package temurin-25-jdk, or any OpenJDK 25 build) and "
            "set LANGCHAIN_GRAALVM_JAVA_HOME to its folder. JDK 25 runs guest code JIT-compiled; JDK 21-24 run "
            "it interpreted."
        )
    exact = [j for j in usable if j.feature == _JIT_JDK]
    if exact:
        return exact[0]
    # JAVA_HOME wins among equals because candidate_homes lists it first.
    return max(usable, key=lambda j: j.feature)


def _package_root() -> Path:
    return Path(__file__).resolve().parent


def find_runtime_dir() -> Path:
    """The folder with ``modules/`` and ``compiler/`` (and, in a checkout, ``classpath/``) of the GraalVM jars.

    ``LANGCHAIN_GRAALVM_RUNTIME`` wins; an installed wheel uses its fetched cache (fetching on first use); a
    development checkout uses what Maven built in ``java/target/runtime``.
    """
    from . import _artifacts

    candidates: list[Path] = []
    env = os.environ.get("LANGCHAIN_GRAALVM_RUNTIME")
    if env:
        candidates.append(Path(env))
    elif _artifacts.load_manifest() is not None:
        try:
            return _artifacts.ensure_runtime()
        except _artifacts.FetchError as exc:
            raise JvmError(f"The GraalVM jars are not available: {exc}") from exc
    if not env:  # an explicit folder is the one used: a wrong one is an error, not a quiet fallback
        candidates.append(_package_root().parent.parent / "java" / "target" / "runtime")
    for path in candidates:
        if any((path / "modules").glob("polyglot-*.jar")) and any(
            _classpath_dir(path).glob("langchain-graalvm-sandbox-*.jar")
        ):
            return path
    looked = ", ".join(str(p) for p in candidates)
    raise JvmError(
        f"The GraalVM runtime jars were not found (looked in {looked}). Build them with "
        "`JAVA_HOME=<jdk25> mvn -f java/pom.xml package -DskipTests`, or set LANGCHAIN_GRAALVM_RUNTIME."
    )


def _classpath_dir(runtime: Path) -> Path:
    """The runtime's own ``classpath/``, else the jars bundled in the installed package."""
    own = runtime / "classpath"
    return own if own.is_dir() else _package_root() / "runtime" / "classpath"


def _max_heap() -> str:
    value = os.environ.get("LANGCHAIN_GRAALVM_MAX_HEAP", "2g")
    if not re.fullmatch(r"\d+[kKmMgG]?", value):
        raise JvmError(f"LANGCHAIN_GRAALVM_MAX_HEAP={value!r} is not a heap size such as 512m or 2g.")
    return value


def cache_dir() -> Path:
    """Where GraalVM unpacks its internal resources: under the user's cache dir unless overridden."""
    env = os.environ.get("LANGCHAIN_GRAALVM_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "langchain-graalvm"


def jvm_flags(jdk: Jdk, runtime: Path, *, fast: bool = False) -> tuple[list[str], bool]:
    """The JVM options for this JDK and runtime folder, and whether JIT compilation is requested.

    ``fast``: the options for the fast-start JDK image (see :mod:`._faststart`), where the Graal compiler is an
    ordinary module on the module path instead of an upgrade of the JDK's placeholder module.
    """
    modules = sorted(str(p) for p in (runtime / "modules").glob("*.jar"))
    # GraalPy is optional: its jars are on the module path only when they were built (mvn -Ppython).
    modules += sorted(str(p) for p in (runtime / "python").glob("*.jar"))
    compiler = sorted(str(p) for p in (runtime / "compiler").glob("*.jar"))
    jit = jdk.feature == _JIT_JDK and bool(compiler)
    fast = fast and jit
    if fast:
        from . import _faststart

        modules += _faststart.compiler_module_jars(runtime)
    flags = [
        "-Xrs",
        f"-Xmx{_max_heap()}",
        f"--module-path={os.pathsep.join(modules)}",
        "--add-modules=org.graalvm.polyglot" + (",jdk.graal.compiler" if fast else ""),
        f"-Dpolyglot.engine.userResourceCache={cache_dir() / 'resources'}",
        "-Dpolyglot.engine.WarnInterpreterOnly=false",
    ]
    if jdk.feature >= 22:
        flags.append("--enable-native-access=org.graalvm.truffle,ALL-UNNAMED")
    if jdk.feature >= 24:
        flags.append("--sun-misc-unsafe-memory-access=allow")
    if jit:
        flags += ["-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI"]
        if not fast:
            flags.append(f"--upgrade-module-path={os.pathsep.join(compiler)}")
    extra = os.environ.get("LANGCHAIN_GRAALVM_JVM_OPTIONS", "").split()
    return flags + extra, jit


def _classpath(runtime: Path) -> list[str]:
    return sorted(str(p) for p in _classpath_dir(runtime).glob("*.jar"))


def _check_fork() -> None:
    if _began_pid is not None and _began_pid != os.getpid():
        raise JvmError(
            "The JVM was started in a parent process and this process is a fork of it. A forked JVM hangs on its "
            "first garbage collection, so langchain-graalvm refuses to use it. Start worker processes with the "
            "'spawn' method (multiprocessing.get_context('spawn')) or create interpreters only after forking."
        )


def on_start(callback: Callable[[], None]) -> None:
    """Runs ``callback`` once the JVM has started (at once if it already has)."""
    if is_started():
        callback()
    else:
        _on_start.append(callback)


def is_started() -> bool:
    """Whether this process started the JVM."""
    return _started_pid is not None and _started_pid == os.getpid()


def info() -> JvmInfo:
    """Starts the JVM if needed and says what was started."""
    start()
    assert _jvm_info is not None
    return _jvm_info


def start() -> None:
    """Starts the JVM once. Safe to call from many threads."""
    _check_fork()
    if _started_pid is not None:
        return
    with _lock:
        _check_fork()
        if _started_pid is not None:
            return
        if _start_failure is not None:
            raise _start_failure  # a failed start poisons the process: say why again, not "cannot restart"
        _start_locked()
    callbacks, _on_start[:] = list(_on_start), []
    for callback in callbacks:
        callback()


def _start_locked() -> None:
    global _started_pid, _began_pid, _start_failure, _jvm_info
    import jpype

    if jpype.isJVMStarted():
        try:
            jpype.JClass(_SANDBOX_CLASS)
        except Exception as exc:
            raise JvmError(
                "Another library already started a JVM in this process without the langchain-graalvm jars, "
                "and a JVM cannot be restarted or given a new module path. Create a langchain-graalvm "
                "interpreter before that library starts its JVM, or run it in a separate process."
            ) from exc
        _started_pid = _began_pid = os.getpid()
        os.register_at_fork(after_in_child=_forget_jvm_in_child)
        return
    jdk = find_jdk()
    runtime = find_runtime_dir()
    flags, jit = jvm_flags(jdk, runtime)
    libjvm = jdk.libjvm
    fast = _fast_start(jdk, runtime)
    if fast is not None:
        libjvm, flags = fast
    cache_dir().mkdir(parents=True, exist_ok=True)
    if faulthandler.is_enabled():
        # Python's fault handler would catch the SIGSEGVs HotSpot uses for null checks and safepoints.
        logger.warning("Disabling faulthandler: the JVM handles SIGSEGV itself and would be killed by it.")
        faulthandler.disable()
    if not jit:
        reason = (
            f"JDK {jdk.feature} has no matching Graal compiler"
            if jdk.feature != _JIT_JDK
            else "the compiler jars are missing from the runtime folder"
        )
        logger.warning(
            "langchain-graalvm runs guest code interpreted (no JIT): %s. Use JDK 25 for compiled guest code.",
            reason,
        )
    _began_pid = os.getpid()
    os.register_at_fork(after_in_child=_forget_jvm_in_child)
    try:
        jpype.startJVM(
            str(libjvm),
            *flags,
            classpath=_classpath(runtime),
            convertStrings=False,
            # With -Xrs nobody installs JVM signal handlers, so Python's own SIGINT/SIGTERM handlers stay.
            interrupt=True,
        )
    except Exception as exc:  # jpype raises RuntimeError or OSError with the JVM's reason on stderr
        _start_failure = JvmError(
            f"The JVM at {jdk.home} failed to start with flags {flags}: {exc}. This process cannot start "
            "another JVM; fix the cause and restart it."
        )
        raise _start_failure from exc
    if threading.current_thread() is not threading.main_thread():
        # The starting thread stays a non-daemon Java thread after its Python thread ends, and the JVM's
        # shutdown at exit would wait for it forever. Detached, it re-attaches as a daemon on its next call.
        jpype.JClass("java.lang.Thread").detach()
    _started_pid = os.getpid()
    _jvm_info = JvmInfo(jdk=jdk, runtime_dir=runtime, jit_requested=jit, flags=tuple(flags))


# ------------------------------------------------------------------------------------------------ cold start
# The one place with JVM options chosen for start-up time: the fast-start image and its AOT cache. They change how
# classes are loaded, never how guest code is compiled or memory is collected.


def _fast_start(jdk: Jdk, runtime: Path) -> tuple[Path, list[str]] | None:
    """The fast-start image's libjvm and options when its AOT cache matches this start exactly, else None."""
    from . import _faststart

    if jdk.feature != _JIT_JDK or not _faststart.enabled() or not _faststart.image_ready(jdk):
        return None
    flags, jit = jvm_flags(jdk, runtime, fast=True)
    if not jit:
        return None
    libjvm = _faststart.image_dir(jdk) / "lib" / "server" / "libjvm.so"
    training = _faststart.training_output()
    if training:
        return libjvm, [*flags, f"-XX:AOTCacheOutput={training}"]
    aot = _faststart.aot_file(_faststart.cache_key(jdk, flags, _classpath(runtime)))
    if not aot.is_file():
        return None
    # A cache the JVM still refuses (a jar replaced within the same second, say) only costs the speed-up: its
    # complaints stay off the process's stdout.
    return libjvm, [*flags, f"-XX:AOTCache={aot}", "-Xlog:aot=off,cds=off"]


def _unlock_in_child() -> None:
    """A fork taken while another thread held the start lock must not wait for that thread: it does not exist."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_unlock_in_child)


def _forget_jvm_in_child() -> None:
    """Unhooks JPype from Python's garbage collector in a forked child.

    JPype asks the JVM for a collection from a ``gc.callbacks`` hook when Python collects. A forked child has the
    JVM's memory but none of its threads, so that request waits forever for the VM thread: any Python code that
    allocates enough to trigger a collection (importing a large library, say) would hang the child.
    """
    gc.callbacks[:] = [cb for cb in gc.callbacks if getattr(cb, "__module__", None) != "_jpype"]


def jclass(name: str) -> Any:
    """A Java class, starting the JVM first."""
    start()
    import jpype

    return jpype.JClass(name)


def attach_check() -> None:
    """Raises the fork error if this process is a fork of the one that started the JVM."""
    _check_fork()


_UNICODE_TEXT = "io.github.langchaingraalvm.sandbox.UnicodeText"


def to_str(value: Any) -> str:
    """A Java string as a Python ``str``; unpaired UTF-16 surrogates are shown as ``\\uXXXX`` escapes.

    JPype decodes Java strings as UTF-8: it raises on a lone surrogate (which a guest makes by slicing an emoji in
    half) and joins two unpaired ones into a wrong character. Java escapes them first, so no data is dropped or
    changed and nothing raises.
    """
    return str(jclass(_UNICODE_TEXT).visible(value))


def java_string(text: str) -> Any:
    """``text`` as a Java string, code unit for code unit, lone surrogates included (JPype refuses those)."""
    import jpype

    units = text.encode("utf-16-le", "surrogatepass")
    return jclass(_UNICODE_TEXT).fromUtf16LE(jpype.JArray(jpype.JByte)(units))


def long_array(items: list[int]) -> Any:
    """A Java ``long[]`` holding ``items``."""
    import jpype

    return jpype.JArray(jpype.JLong)(items)


def string_list(items: list[str]) -> Any:
    """A ``java.util.List<String>`` holding ``items``."""
    import jpype

    return jclass("java.util.Arrays").asList(jpype.JArray(jpype.JString)(items))
