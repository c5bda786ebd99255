"""JVM discovery and start-up, in fresh processes where a fresh JVM is needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_graalvm._runtime import _jvmfinder, _launch
from tests.conftest import run_python

# A fresh process's first eval, printing the JvmError it raises: settings are checked before the JVM starts.
FIRST_EVAL_ERROR = (
    "from langchain_graalvm import Interpreter, JvmError\n"
    "try:\n    Interpreter().eval('1')\nexcept JvmError as e:\n    print('ERR', e)\n"
)


def test_import_does_not_start_the_jvm() -> None:
    proc = run_python("import jpype, langchain_graalvm; print(jpype.isJVMStarted())")
    assert proc.stdout.strip() == "False", proc.stderr


def test_missing_jdk_gives_one_clear_error() -> None:
    proc = run_python(
        FIRST_EVAL_ERROR,
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": "/nonexistent/jdk"},
    )
    assert "ERR LANGCHAIN_GRAALVM_JAVA_HOME=/nonexistent/jdk is not a JDK 21 or newer" in proc.stdout, proc.stderr


def test_old_jdk_is_refused_with_what_to_install() -> None:
    old = next((p for p in Path("/usr/lib/jvm").glob("*17*") if (p / "release").exists()), None)
    if old is None:
        pytest.skip("no JDK 17 on this machine to refuse")
    proc = run_python(
        FIRST_EVAL_ERROR,
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": str(old)},
    )
    assert "is not a JDK 21 or newer" in proc.stdout and "JDK 25" in proc.stdout, proc.stderr


def test_jdk_25_is_preferred_and_gets_jit_flags() -> None:
    jdk = _jvmfinder.find_jdk()
    assert jdk.feature == 25
    flags, jit = _launch.jvm_flags(jdk, _launch.find_runtime_dir())
    assert jit
    assert "-XX:+EnableJVMCI" in flags
    assert any(f.startswith("--upgrade-module-path=") for f in flags)
    assert "-Xrs" in flags
    assert any(f.startswith("-Xmx") for f in flags)
    assert _launch.thread_stack_flag() in flags
    assert "-XX:-ProfileExceptionHandlers" in flags
    assert "-XX:StackReservedPages=0" in flags
    assert "--add-modules=org.graalvm.polyglot" in flags
    assert any(f.startswith("--module-path=") and "polyglot-" in f for f in flags)


_HOST_TIER = """
from langchain_graalvm import Interpreter, runtime_info
from langchain_graalvm._runtime import _jvm
Interpreter(prestart=False).eval("1")
bean = _jvm.jclass("java.lang.management.ManagementFactory").getPlatformMXBean(
    _jvm.jclass("com.sun.management.HotSpotDiagnosticMXBean"))
print("tier", bean.getVMOption("TieredStopAtLevel").getValue(), "mode", runtime_info()["host_jit"])
import os; os._exit(0)
"""


@pytest.mark.parametrize(
    ("env", "tier", "mode"),
    [
        ({"LANGCHAIN_GRAALVM_HOST_JIT": "c1"}, "1", "c1"),
        ({"LANGCHAIN_GRAALVM_HOST_JIT": "tiered"}, "4", "tiered"),
        ({}, "4", "graal-c1"),
        # LANGCHAIN_GRAALVM_JVM_OPTIONS comes last, so it wins over the mode.
        ({"LANGCHAIN_GRAALVM_HOST_JIT": "c1", "LANGCHAIN_GRAALVM_JVM_OPTIONS": "-XX:TieredStopAtLevel=4"}, "4", "tiered"),
    ],
)
def test_the_host_jit_mode_reaches_the_jvm(env: dict[str, str], tier: str, mode: str) -> None:
    proc = run_python(_HOST_TIER, env={"LANGCHAIN_GRAALVM_JVM_OPTIONS": "", "LANGCHAIN_GRAALVM_HOST_JIT": "", **env},
                      timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"tier {tier} mode {mode}" in proc.stdout


# Cells whose hot functions Truffle compiles, so that the Graal compiler runs, until HotSpot has compiled some of
# the compiler's own methods; then every nmethod of the compiler's and JVMCI's packages, with its tier.
_COMPILER_TIERS = """
import time
import jpype
from langchain_graalvm import Interpreter
from langchain_graalvm._runtime import _jvm
it = Interpreter(prestart=False, timeout=120)
jclass = _jvm.jclass
server = jclass("java.lang.management.ManagementFactory").getPlatformMBeanServer()
dcmd = jclass("javax.management.ObjectName")("com.sun.management:type=DiagnosticCommand")
Object, String = jclass("java.lang.Object"), jclass("java.lang.String")
def compiled():
    args = jpype.JArray(Object)([jpype.JArray(String)([])])
    listing = str(server.invoke(dcmd, "compilerCodelist", args, jpype.JArray(String)(["[Ljava.lang.String;"])))
    rows = [line.split(" ", 3) for line in listing.splitlines()]
    return [(r[1], r[3]) for r in rows if len(r) == 4 and r[3].startswith(("jdk.graal.compiler.", "jdk.vm.ci."))]
deadline = time.monotonic() + 240
n = 0
while time.monotonic() < deadline:
    n += 1
    it.eval(f"function f{n}(x) {{ return (x * 31 + {n}) % 1000003; }} let s{n} = 0; "
            f"for (let i = 0; i < 200000; i++) s{n} = f{n}(s{n}); s{n}")
    if sum(1 for _, name in compiled() if name.startswith("jdk.graal.compiler.")) >= 200:
        break
for tier, name in compiled():
    print("nmethod", tier, name)
import os; os._exit(0)
"""


def test_c2_leaves_the_graal_compiler_to_c1_by_default() -> None:
    proc = run_python(_COMPILER_TIERS, env={"LANGCHAIN_GRAALVM_JVM_OPTIONS": "", "LANGCHAIN_GRAALVM_HOST_JIT": ""},
                      timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    tiers = [line.split(" ", 2)[1:] for line in proc.stdout.splitlines() if line.startswith("nmethod ")]
    graal = [tier for tier, name in tiers if name.startswith("jdk.graal.compiler.")]
    # The compiler ran and HotSpot compiled its hot methods, with C1 (tiers 1 to 3) and never C2 (tier 4).
    assert len(graal) >= 200, proc.stdout[-2000:]
    assert {"1", "3"} & set(graal)
    assert [name for tier, name in tiers if tier == "4"] == []


@pytest.mark.parametrize(
    ("value", "mode"),
    [(None, "graal-c1"), ("", "graal-c1"), ("C1", "c1"), ("tiered", "tiered"), ("Graal-C1", "graal-c1")],
)
def test_the_host_jit_is_graal_c1_unless_another_mode_is_asked_for(monkeypatch: pytest.MonkeyPatch,
                                                                   value: str | None, mode: str) -> None:
    if value is None:
        monkeypatch.delenv("LANGCHAIN_GRAALVM_HOST_JIT", raising=False)
    else:
        monkeypatch.setenv("LANGCHAIN_GRAALVM_HOST_JIT", value)
    assert _launch.host_jit() == mode
    flags, _ = _launch.jvm_flags(_jvmfinder.find_jdk(), _launch.find_runtime_dir())
    assert ("-XX:TieredStopAtLevel=1" in flags) is (mode == "c1")
    assert ("-XX:ReservedCodeCacheSize=240m" in flags) is (mode == "c1")
    directives = [f.split("=", 1)[1] for f in flags if f.startswith("-XX:CompilerDirectivesFile=")]
    assert bool(directives) is (mode == "graal-c1")
    if directives:
        assert Path(directives[0]).is_file()
        # Diagnostic flags are unlocked before the one that needs it.
        assert flags.index("-XX:+UnlockDiagnosticVMOptions") < flags.index(f"-XX:CompilerDirectivesFile={directives[0]}")


def test_a_bad_host_jit_mode_is_refused_before_the_jvm_starts() -> None:
    proc = run_python(
        FIRST_EVAL_ERROR,
        env={"LANGCHAIN_GRAALVM_HOST_JIT": "fast"},
    )
    assert "ERR LANGCHAIN_GRAALVM_HOST_JIT='fast' is not one of graal-c1, tiered, c1." in proc.stdout, proc.stderr


def test_graalpy_jars_join_the_module_path_only_when_built(tmp_path: Path) -> None:
    jdk = _jvmfinder.Jdk(home=Path("/opt/jdk"), version="25.0.1", feature=25)
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "polyglot-25.0.3.jar").touch()
    flags, _ = _launch.jvm_flags(jdk, tmp_path)
    assert "python-language" not in " ".join(flags)
    (tmp_path / "python").mkdir()
    (tmp_path / "python" / "python-language-25.0.3.jar").touch()
    flags, _ = _launch.jvm_flags(jdk, tmp_path)
    module_path = next(f for f in flags if f.startswith("--module-path="))
    assert str(tmp_path / "python" / "python-language-25.0.3.jar") in module_path.split("=", 1)[1].split(":")


@pytest.mark.parametrize(("feature", "native", "unsafe"), [(21, False, False), (23, True, False), (24, True, True)])
def test_older_jdks_get_interpreter_flags_that_they_accept(feature: int, native: bool, unsafe: bool) -> None:
    jdk = _jvmfinder.Jdk(home=Path("/opt/jdk"), version=f"{feature}.0.1", feature=feature)
    flags, jit = _launch.jvm_flags(jdk, _launch.find_runtime_dir())
    assert not jit
    assert not any("JVMCI" in f or "upgrade-module-path" in f or "TieredStopAtLevel" in f for f in flags)
    assert any(f.startswith("--enable-native-access") for f in flags) is native
    assert any(f.startswith("--sun-misc-unsafe-memory-access") for f in flags) is unsafe
    assert not any("ProfileExceptionHandlers" in f for f in flags)
    # A runaway recursion's unwinding walks the whole stack at each hit of a reserved zone, interpreted or not.
    assert "-XX:StackReservedPages=0" in flags


def test_bad_heap_setting_is_refused_before_the_jvm_starts() -> None:
    proc = run_python(
        FIRST_EVAL_ERROR,
        env={"LANGCHAIN_GRAALVM_MAX_HEAP": "lots"},
    )
    assert "LANGCHAIN_GRAALVM_MAX_HEAP='lots' is not a heap size" in proc.stdout, proc.stderr


def test_jit_is_active_on_jdk_25() -> None:
    from langchain_graalvm import runtime_info

    info = runtime_info()
    assert info["jit"] is True
    assert info["runtime_name"] != "Interpreted"
    assert info["graalvm_version"] == "25.0.3"
    # The unwind guard needs the options the package starts the JVM with (docs/sandbox.md#runaway-recursion).
    assert info["unwind_guard"] == "on"


def test_the_compiler_that_runs_is_the_one_chosen_for_this_jdk() -> None:
    from langchain_graalvm import runtime_info
    from langchain_graalvm._runtime import _compiler

    chosen = _compiler.choose(_jvmfinder.find_jdk(), _launch.find_runtime_dir()).name
    assert chosen != "none"
    assert runtime_info()["compiler"] == chosen


def test_libgraal_asked_for_on_a_jdk_without_it_runs_jargraal_and_says_so_once() -> None:
    if _jvmfinder.find_jdk().libgraal:
        pytest.skip("this JDK has a libgraal: the fallback is shown on a stock JDK")
    proc = run_python(
        """
        from langchain_graalvm import Interpreter, runtime_info
        print(Interpreter().eval("6 * 7").text)
        print("compiler", runtime_info()["compiler"])
        """,
        env={"LANGCHAIN_GRAALVM_COMPILER": "libgraal"},
    )
    assert "<result>42</result>" in proc.stdout and "compiler jargraal" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stderr.count("libgraal not used, jargraal instead") == 1, proc.stderr


def test_foreign_jvm_without_our_jars_is_a_clear_error() -> None:
    proc = run_python(
        "import jpype\n"
        "jpype.startJVM('/usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so')\n"
        "from langchain_graalvm import Interpreter, JvmError\n"
        "try:\n    Interpreter().eval('1')\nexcept JvmError as e:\n    print('ERR', e)\n"
    )
    assert "Another library already started a JVM" in proc.stdout, proc.stderr


def test_threads_that_called_an_interpreter_are_detached_when_they_end_and_a_thread_dump_is_safe() -> None:
    # An ended thread left attached keeps its place in the JVM's thread list, and a thread dump reads its state
    # through the stack glibc has since unmapped: SIGSEGV in the VM thread. Many threads at once, so that their
    # stacks outgrow glibc's cache and are unmapped.
    jcmd = _jvmfinder.find_jdk().home / "bin" / "jcmd"
    proc = run_python(
        f"""
        import os, subprocess, threading
        import jpype
        from langchain_graalvm import Interpreter
        it = Interpreter()
        it.eval("1")
        java_threads, results, lock, go = [], [], threading.Lock(), threading.Event()
        def work(i):
            try:
                with lock:  # one interpreter runs one eval at a time
                    results.append(it.eval(f"{{i}} + 1").text == f"<result>{{i + 1}}</result>")
                    java_threads.append(jpype.JClass("java.lang.Thread").currentThread())
            finally:
                go.wait()  # all the threads at once, each attached
        threads = [threading.Thread(target=work, args=(i,)) for i in range(48)]
        for t in threads:
            t.start()
        while len(results) < len(threads) and all(t.is_alive() for t in threads):
            threading.Event().wait(0.05)
        go.set()
        for t in threads:
            t.join()
        print("evals", sum(results), "still alive", sum(bool(t.isAlive()) for t in java_threads), "of", len(java_threads))
        dump = subprocess.run([{str(jcmd)!r}, str(os.getpid()), "Thread.print"], capture_output=True, text=True)
        print("dump", dump.returncode, "threads listed", dump.stdout.count(chr(10) + '"'))
        print("after the dump", it.eval("6 * 7").text)
        """,
        timeout=300,
    )
    assert "evals 48 still alive 0 of 48" in proc.stdout, proc.stdout + proc.stderr[-3000:]
    assert "dump 0" in proc.stdout and "after the dump <result>42</result>" in proc.stdout, (
        proc.stdout + proc.stderr[-3000:]
    )


def test_fork_after_start_is_a_clear_error_not_a_hang() -> None:
    proc = run_python(
        """
        import os
        from langchain_graalvm import Interpreter, JvmError
        js = Interpreter(); print('parent', js.eval('1+1').value, flush=True)
        pid = os.fork()
        if pid == 0:
            try:
                js.eval('2')
                print('child evaluated', flush=True)
            except JvmError as e:
                print('child error:', str(e)[:60], flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print('parent again', js.eval('3').value, flush=True)
        """,
        timeout=60,
    )
    assert "parent 2" in proc.stdout
    assert "child error: The JVM was started in a parent process" in proc.stdout, proc.stderr
    assert "parent again 3" in proc.stdout


def test_a_forked_child_makes_no_call_into_the_parents_jvm() -> None:
    # In a fork, any Java call (even isClosed()) may wait forever for a safepoint or lock of a parent thread that
    # does not exist in the child, so it hung only now and then. Every Java object the child could reach is replaced
    # by one that ends the child at its first use: each public call must stop before touching it.
    proc = run_python(
        """
        import asyncio, os
        from langchain_graalvm import Interpreter, JvmError

        class ParentJava:
            def __getattr__(self, name):
                print('java touched:', name, flush=True)
                os._exit(3)

        js = Interpreter(); print('parent', js.eval('1+1').value, flush=True)
        pid = os.fork()
        if pid == 0:
            js._guest._java = ParentJava()
            for name, call in [
                ('eval', lambda: js.eval('2')),
                ('aeval', lambda: asyncio.run(js.aeval('2'))),
                ('snapshot', lambda: js.snapshot()),
                ('restore', lambda: js.restore(b'{}')),
                ('prepare', lambda: js.prepare()),
            ]:
                try:
                    call()
                    print(name, 'returned', flush=True)
                except JvmError as e:
                    print(name, 'error:', str(e)[:44], flush=True)
            js.cancel(); js.close(); js.close()
            print('child done', flush=True)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        print('child status', os.waitstatus_to_exitcode(status), flush=True)
        print('parent again', js.eval('3').value, flush=True)
        """,
        timeout=60,
    )
    assert "java touched" not in proc.stdout, proc.stdout
    for name in ("eval", "aeval", "snapshot", "restore", "prepare"):
        assert f"{name} error: The JVM was started in a parent process" in proc.stdout, proc.stdout + proc.stderr
    assert "child done" in proc.stdout and "child status 0" in proc.stdout
    assert "parent again 3" in proc.stdout


def test_spawned_workers_each_start_their_own_jvm() -> None:
    proc = run_python(
        """
        import multiprocessing as mp

        def work(n):
            from langchain_graalvm import Interpreter
            with Interpreter() as js:
                return js.eval(f'{n} * 3').value

        if __name__ == '__main__':
            with mp.get_context('spawn').Pool(2) as pool:
                print(pool.map(work, [1, 2]))
        """,
        timeout=180,
    )
    assert "['3', '6']" in proc.stdout, proc.stderr


def test_guest_output_never_carries_graalvm_warnings() -> None:
    proc = run_python(
        "from langchain_graalvm import Interpreter\n"
        "print(Interpreter().eval('console.log(1); 2').text)\n",
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": "/usr/lib/jvm/temurin-25-jdk-amd64"},
    )
    assert proc.stdout.strip() == "<stdout>\n1\n</stdout>\n<result>2</result>", proc.stdout + proc.stderr
    assert "[engine] WARNING" not in proc.stdout + proc.stderr
    # The host JIT's directives are announced by the VM on its tty, which goes to stderr, never into stdout.
    assert "compiler directives added" in proc.stderr and "compiler directives" not in proc.stdout


def test_interpreter_only_runtime_warns_once_and_keeps_guest_output_clean(tmp_path: Path) -> None:
    # A runtime folder without the compiler jars is what JDK 21 to 24 get: guest code runs interpreted.
    runtime = _launch.find_runtime_dir()
    for name in ("modules", "classpath"):
        (tmp_path / name).symlink_to(runtime / name)
    proc = run_python(
        """
        import logging
        logging.basicConfig(level=logging.WARNING)
        from langchain_graalvm import Interpreter, runtime_info
        js = Interpreter()
        print(js.eval("console.log('hi'); 6 * 7").text)
        print("jit", runtime_info()["jit"], runtime_info()["runtime_name"], runtime_info()["compiler"])
        """,
        env={"LANGCHAIN_GRAALVM_RUNTIME": str(tmp_path)},
    )
    assert "<stdout>\nhi\n</stdout>\n<result>42</result>" in proc.stdout, proc.stdout + proc.stderr
    assert "jit False Interpreted none" in proc.stdout
    assert proc.stderr.count("runs guest code interpreted (no JIT)") == 1, proc.stderr
    assert "[engine] WARNING" not in proc.stdout + proc.stderr


def test_process_exits_when_a_worker_thread_started_the_jvm() -> None:
    # Agents start the JVM on a tool thread; the JVM's shutdown must not wait for that thread at exit.
    proc = run_python(
        """
        import threading
        from langchain_graalvm import Interpreter
        js = Interpreter()
        results = []
        t = threading.Thread(target=lambda: results.append(js.eval('6 * 7').value))
        t.start(); t.join()
        print('value', results[0], flush=True)
        """,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "value 42" in proc.stdout


def test_python_keeps_its_whole_main_thread_stack_once_the_jvm_runs() -> None:
    # JPype starts the JVM from the main thread, whose stack HotSpot takes to be -Xss long: at HotSpot's default
    # of 1 MiB, Python recursing deeper there (a repr of nested data) died of SIGSEGV with no error report.
    proc = run_python(
        """
        import sys
        from langchain_graalvm import Interpreter
        js = Interpreter()
        print('value', js.eval('6 * 7').value, flush=True)
        sys.setrecursionlimit(100_000)
        nested = []
        for _ in range(20_000):
            nested = [nested]
        print('repr', len(repr(nested)), flush=True)
        print('after', js.eval('1 + 1').value, flush=True)
        """,
        timeout=120,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.split() == ["value", "42", "repr", "40002", "after", "2"]


def test_the_main_thread_stack_flag_follows_the_stack_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    for soft, flag in [(8 << 20, "-Xss8m"), (resource.RLIM_INFINITY, "-Xss8m"), (512 << 10, "-Xss1m"),
                       (1 << 30, "-Xss64m"), ((16 << 20) + 4096, "-Xss16388k")]:
        monkeypatch.setattr(resource, "getrlimit", lambda _kind, soft=soft: (soft, resource.RLIM_INFINITY))
        assert _launch.thread_stack_flag() == flag


@pytest.mark.parametrize(
    "flags",
    [
        pytest.param(None, id="libgraal"),
        pytest.param(["-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCINativeLibrary",
                      "-XX:-UseJVMCICompiler"], id="jargraal-on-a-graalvm-jdk"),
    ],
)
def test_this_jdk_accepts_each_compilers_jvmci_options(flags: list[str] | None) -> None:
    # A misspelt or locked option makes the one JVM start of a process fail: each set must be one HotSpot takes.
    import subprocess

    from langchain_graalvm._runtime import _compiler

    java = _jvmfinder.find_jdk().home / "bin" / "java"
    proc = subprocess.run(
        [str(java), *(flags or _compiler.libgraal_flags()), "-version"], capture_output=True, text=True, timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Unrecognized VM option" not in proc.stderr


def test_a_jdk_whose_libgraal_does_not_fit_runs_jargraal_and_says_so_once(tmp_path: Path) -> None:
    # This JDK, dressed as a GraalVM JDK whose libgraal (25.1.3) is newer than the polyglot jars (a placeholder
    # libjvmcicompiler.so: HotSpot would end the process if it were loaded).
    real = _jvmfinder.find_jdk()
    if real.libgraal:
        pytest.skip("this JDK has a libgraal of its own")
    from tests.support.jdkhomes import dress_as_graalvm

    home = dress_as_graalvm(real.home, tmp_path / "graalvm", "25.1.3")
    proc = run_python(
        """
        from langchain_graalvm import Interpreter, runtime_info
        print(Interpreter().eval("6 * 7").text)
        print("compiler", runtime_info()["compiler"], runtime_info()["jit"])
        """,
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": str(home), "LANGCHAIN_GRAALVM_FAST_START": "0"},
    )
    assert "<result>42</result>" in proc.stdout and "compiler jargraal True" in proc.stdout, proc.stdout + proc.stderr
    line = "libgraal not used, jargraal instead: its libgraal 25.1.3 is newer than the polyglot jars 25.0.3"
    assert proc.stderr.count(line) == 1, proc.stderr


def test_a_libgraal_that_cannot_load_fails_its_trial_in_a_child_and_jargraal_runs(tmp_path: Path) -> None:
    # A JDK 25 dressed as GraalVM 25.0.2 whose libjvmcicompiler.so is a placeholder: HotSpot, started with the
    # libgraal options, goes to load it and ends its process. That must happen in the trial's child process only.
    from tests.support.jdkhomes import dress_as_graalvm

    real = _jvmfinder.find_jdk()
    if real.libgraal:
        pytest.skip("this JDK has a libgraal of its own")
    home = dress_as_graalvm(real.home, tmp_path / "graalvm", "25.0.2")
    proc = run_python(
        """
        from langchain_graalvm._runtime import _jvmfinder, _launch
        from langchain_graalvm.cli._jdk import libgraal_trial
        jdk = _jvmfinder.find_jdk()
        print("libgraal", jdk.libgraal)
        print("trial:", libgraal_trial(jdk, _launch.find_runtime_dir()))
        from langchain_graalvm import Interpreter, runtime_info
        print(Interpreter().eval("6 * 7").text, runtime_info()["compiler"])
        """,
        env={"LANGCHAIN_GRAALVM_JAVA_HOME": str(home), "LANGCHAIN_GRAALVM_FAST_START": "0",
             "LANGCHAIN_GRAALVM_CACHE": str(tmp_path / "cache")},
        timeout=600,
    )
    out = proc.stdout
    assert "libgraal True" in out, out + proc.stderr
    assert "trial: " in out and "Unable to load JVMCI shared library" in out, out + proc.stderr
    assert "<result>42</result> jargraal" in out, out + proc.stderr
    assert proc.stderr.count("libgraal not used, jargraal instead: it failed its trial start") == 1, proc.stderr
    assert list((tmp_path / "cache" / "libgraal-trials").glob("*.hs_err_*.log"))
    assert not list(Path.cwd().glob("hs_err_pid*.log"))
