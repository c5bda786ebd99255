"""What the JVM is started with: the runtime folder of GraalVM jars, the class path, the flags, the fast start.

Every flag is chosen here from the JDK's ``release`` file before the one start attempt (:mod:`._jvm`): a bad flag
makes the failed start poison the process.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

from .._settings import heap_text, settings
from ..errors import FetchError, JvmError
from . import _artifacts, _compiler, _faststart, _manifest
from ._jvmfinder import JIT_JDK, Jdk, cache_dir


def _package_root() -> Path:
    return Path(__file__).resolve().parent.parent


def find_runtime_dir() -> Path:
    """The folder with ``modules/`` and ``compiler/`` (and, in a checkout, ``classpath/``) of the GraalVM jars.

    ``LANGCHAIN_GRAALVM_RUNTIME`` wins; an installed wheel uses its fetched cache (fetching on first use); a
    development checkout uses what Maven built in ``java/target/runtime``.
    """
    candidates: list[Path] = []
    env = settings().runtime
    if env is not None:
        candidates.append(env)
    elif _manifest.load_manifest() is not None:
        try:
            return _artifacts.ensure_runtime()
        except FetchError as exc:
            raise JvmError(f"The GraalVM jars are not available: {exc}") from exc
    if env is None:  # an explicit folder is the one used: a wrong one is an error, not a quiet fallback
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


_MIB = 1 << 20
_MAX_THREAD_STACK = 64 * _MIB


def thread_stack_flag() -> str:
    """``-Xss`` as large as the process's main-thread stack limit (``RLIMIT_STACK``; 8 MiB when unlimited).

    JPype starts the JVM from Python's main thread, the process's primordial thread, and HotSpot takes that
    thread's stack to be ``-Xss`` (1 MiB by default) below its top: it puts its guard pages there and unmaps what
    lies below. Python code that recursed deeper on the main thread than that (a deep ``repr``, ``json`` or
    ``copy`` of nested data) would then run off the end of its stack where the kernel cannot even deliver the
    fault: the process dies of SIGSEGV with no error report. With ``-Xss`` at the stack limit the main thread keeps
    its whole stack. Other Java threads without a stack size of their own reserve as much address space, which
    costs no memory until used; the guest threads set their own sizes.
    """
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    size = 8 * _MIB if soft == resource.RLIM_INFINITY else min(max(soft, _MIB), _MAX_THREAD_STACK)
    return f"-Xss{size // _MIB}m" if size % _MIB == 0 else f"-Xss{size // 1024}k"


HOST_JIT_MEANING = {
    "graal-c1": "C1 then C2 for the host's code, C1 alone for the Graal compiler's",
    "tiered": "C1 then C2 for all the host's code, the Graal compiler's too",
    "c1": "C1 alone for all the host's code: a fresh process's first cells faster, warm cells slower",
}

# C2 never compiles the Graal compiler (jargraal) nor the JVMCI interface it drives; C1 still does. Nothing else.
GRAAL_C1_DIRECTIVES = Path(__file__).with_name("graal_c1.json")
TRUFFLE_RUNTIME_PACKAGE = "org.graalvm.truffle.runtime/com.oracle.truffle.runtime"


def host_jit() -> str:
    """How HotSpot compiles the host's own code, from ``LANGCHAIN_GRAALVM_HOST_JIT``: ``graal-c1`` (the default:
    C1 then C2 for everything but the Graal compiler, which C1 alone compiles), ``tiered`` (C1 then C2 for
    everything) or ``c1`` (C1 alone for everything, with the code cache tiered compilation would have).

    The host JIT compiles GraalJS's and GraalPy's interpreters and, on a stock JDK, the Graal compiler itself
    (jargraal: Java bytecode). Model code is new source on every call, so those interpreters run most of it and
    want C2's code; the compiler is a large body of code that runs on background threads, and C2 spends a
    process's first minutes recompiling it on one of two processors. ``graal-c1`` keeps C2 for the interpreters
    and leaves the compiler to C1, as HotSpot itself does for a JVMCI compiler that is the host's JIT
    (``-XX:CompilationMode=high-only-quick-internal``). Measured on two cores (docs/performance.md): against
    ``tiered``, a fresh process's first use of a cell a seventh faster and rounds 2-5 a quarter faster; steady cells
    a few per cent slower, the compiler's own code being C1's. ``c1`` runs the first cells faster still and warm
    cells slower; in the test suite's long-lived JVM memory bombs then ran slower and met their timeouts before the
    memory limit. With libgraal the compiler is not host code: ``graal-c1`` is ``tiered`` there.
    """
    return settings().host_jit


def host_jit_for(compiler: str) -> str:
    """The host JIT mode that runs with ``compiler`` (``libgraal``, ``jargraal`` or ``none``): ``graal-c1`` is
    ``tiered`` unless the compiler is jargraal, the only one that is host code."""
    mode = host_jit()
    return "tiered" if mode == "graal-c1" and compiler != "jargraal" else mode


def jvm_flags(jdk: Jdk, runtime: Path, *, fast: bool = False) -> tuple[list[str], bool]:
    """The JVM options for this JDK and runtime folder, and whether JIT compilation is requested.

    The compiler is :func:`._compiler.choose`'s: libgraal takes the JDK's own ``lib/libjvmcicompiler.so`` and no
    compiler jars; jargraal puts the runtime's compiler jars on ``--upgrade-module-path``.

    ``fast``: the options for the fast-start JDK image (see :mod:`._faststart`), where the Graal compiler is an
    ordinary module on the module path instead of an upgrade of the JDK's placeholder module. Only jargraal needs
    the image: with libgraal the fast start uses the JDK itself.
    """
    modules = sorted(str(p) for p in (runtime / "modules").glob("*.jar"))
    # GraalPy is optional: its jars are on the module path only when they were built (mvn -Ppython).
    modules += sorted(str(p) for p in (runtime / "python").glob("*.jar"))
    compiler = sorted(str(p) for p in (runtime / "compiler").glob("*.jar"))
    choice = _compiler.choose(jdk, runtime).name
    jit = choice != "none"
    fast = fast and choice == "jargraal"
    if fast:
        modules += _faststart.compiler_module_jars(runtime)
    flags = [
        "-Xrs",
        f"-Xmx{heap_text(settings().max_heap)}",
        thread_stack_flag(),
        f"--module-path={os.pathsep.join(modules)}",
        "--add-modules=org.graalvm.polyglot" + (",jdk.graal.compiler" if fast else ""),
        f"-Dpolyglot.engine.userResourceCache={cache_dir() / 'resources'}",
        "-Dpolyglot.engine.WarnInterpreterOnly=false",
    ]
    # No reserved stack zone (JEP 270). A stack overflow that reaches it walks the whole stack looking for a
    # @ReservedStackAccess method (only java.util.concurrent's locks have one), decoding every compiled frame's
    # inlined scopes; unwinding a guest's runaway recursion re-arms the zone and hits it again and again. On the
    # 34 MiB guest stack, full of Graal-compiled frames late in a process, that was 7 to 20 walks of 0.1 to 1.3 s
    # each, during which the guest cannot be interrupted: the RangeError came after its timeout, as a forced close.
    flags.append("-XX:StackReservedPages=0")
    if jdk.feature >= 22:
        flags.append("--enable-native-access=org.graalvm.truffle,ALL-UNNAMED")
    if jdk.feature >= 24:
        flags.append("--sun-misc-unsafe-memory-access=allow")
    if jdk.feature >= JIT_JDK:
        # C2 otherwise compiles an exception handler that its profile never saw entered as a trap. A guest stack
        # overflow is the first exception through Truffle's call path in many processes: unwinding it, each of
        # thousands of compiled call frames hit that trap and was deoptimised on its own, one by one.
        flags.append("-XX:-ProfileExceptionHandlers")
    if jit:
        # Truffle's runtime package, opened for the sandbox's unwind guard (guest/UnwindGuard.java): it marks the
        # exception profiles of the call sites being compiled as generic, so a runaway recursion's error unwinds
        # compiled frames without deoptimising each of them.
        flags += [f"--add-{how}={TRUFFLE_RUNTIME_PACKAGE}=ALL-UNNAMED" for how in ("exports", "opens")]
    if choice == "libgraal":
        flags += _compiler.libgraal_flags()
    elif jit:
        flags += ["-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI"]
        if jdk.libgraal:
            # A GraalVM JDK would otherwise hand Truffle (and its own host compilations) to its libgraal.
            flags += ["-XX:-UseJVMCINativeLibrary", "-XX:-UseJVMCICompiler"]
    if jit:
        mode = host_jit_for(choice)
        if mode == "c1":
            # C1 alone would also shrink the code cache to 48 MiB, which the Graal compiler's guest code shares.
            flags += ["-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=240m"]
        elif mode == "graal-c1":
            # The directives' parser says "1 compiler directives added" on the VM's tty, by default the host's
            # stdout: the tty goes to stderr instead, with the VM's start-up errors that also go through it.
            flags += ["-XX:+UnlockDiagnosticVMOptions", "-XX:+DisplayVMOutputToStderr",
                      f"-XX:CompilerDirectivesFile={GRAAL_C1_DIRECTIVES}"]
        if choice == "jargraal" and not fast:
            flags.append(f"--upgrade-module-path={os.pathsep.join(compiler)}")
    return flags + list(settings().jvm_options), jit


def classpath(runtime: Path) -> list[str]:
    return sorted(str(p) for p in _classpath_dir(runtime).glob("*.jar"))


# ------------------------------------------------------------------------------------------------ cold start
# The one place with JVM options chosen for start-up time: the fast-start image and its AOT cache. They change how
# classes are loaded, never how guest code is compiled or memory is collected.


def fast_start(jdk: Jdk, runtime: Path) -> tuple[Path, list[str]] | None:
    """The fast-start libjvm and options when its AOT cache matches this start exactly and has passed its trial
    start, else None. jargraal starts from the fast-start image; libgraal from the JDK itself, which needs no
    image (nothing goes on ``--upgrade-module-path``, which would turn the AOT cache off)."""
    if jdk.feature != JIT_JDK or not _faststart.enabled():
        return None
    compiler = _compiler.choose(jdk, runtime).name
    if compiler == "none" or (compiler == "jargraal" and not _faststart.image_ready(jdk)):
        return None
    flags, _ = jvm_flags(jdk, runtime, fast=True)
    libjvm = _faststart.image_dir(jdk) / "lib" / "server" / "libjvm.so" if compiler == "jargraal" else jdk.libjvm
    training = _faststart.training_output()
    if training:
        # First: an option of LANGCHAIN_GRAALVM_JVM_OPTIONS (in ``flags``) that says otherwise wins.
        return libjvm, [*_faststart.RECORDING_FLAGS, *flags, f"-XX:AOTCacheOutput={training}"]
    trial = _faststart.trial_cache()
    if trial:
        # AOTMode=on: a cache the JVM cannot use fails the trial instead of being passed over in silence.
        return libjvm, [*flags, f"-XX:AOTCache={trial}", "-XX:AOTMode=on"]
    aot = _faststart.aot_file(_faststart.cache_key(jdk, flags, classpath(runtime), compiler=compiler))
    if not _faststart.trusted(aot):
        return None
    # A cache the JVM still refuses (a jar replaced within the same second, say) only costs the speed-up: its
    # complaints stay off the process's stdout.
    return libjvm, [*flags, f"-XX:AOTCache={aot}", "-Xlog:aot=off,cds=off"]
