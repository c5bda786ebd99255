"""Deep recursion: at least 10,000 frames of a simple function, interpreted or compiled, every time; past the limit
a catchable RangeError with the context alive, whatever the interpreter ran before; and never a crash of the host
process."""

from __future__ import annotations

import json
import os
import subprocess

import jpype

from langchain_graalvm import Interpreter
from langchain_graalvm._runtime import _jvmfinder
from tests.conftest import run_python

RECURSE = "function r(n) { return n ? 1 + r(n - 1) : 0 }\n"


def test_ten_thousand_frames_on_the_first_call_and_after_compilation() -> None:
    with Interpreter(timeout=120.0) as js:
        # The first call runs interpreted, where frames are largest.
        assert js.eval(RECURSE + "r(10000)").text == "<result>10000</result>"
        # Repeated calls get the function compiled (and deoptimised on overflow elsewhere); the depth must hold.
        depths = [js.eval("r(10000)").value for _ in range(25)]
        assert depths == ["10000"] * 25


def test_past_the_limit_is_a_catchable_range_error_and_the_context_lives() -> None:
    # A generous timeout: unwinding 15,000 frames on a busy machine is slow, and speed is not the point here.
    with Interpreter(timeout=120.0) as js:
        js.eval(RECURSE + "const kept = {n: 1}")
        out = js.eval("try { r(1e7) } catch (e) { [e instanceof RangeError, e.message] }")
        assert out.text == '<result>[true, "Maximum call stack size exceeded"]</result>'
        uncaught = js.eval("r(1e7)")
        assert uncaught.error_type == "RangeError" and not uncaught.state_reset
        assert js.eval("kept.n + r(10)").value == "11"


def test_a_recursion_that_catches_its_overflow_and_loops_in_every_frame_is_stopped_by_force() -> None:
    # A stop that lands where the stack is all but used up fails as a stack overflow itself, which such a guest
    # catches: the interrupt's grace runs out, the context is closed by force, and the next cell gets a fresh one.
    with Interpreter(timeout=1.0, interrupt_grace=0.2) as js:
        js.eval("var kept = 1")
        out = js.eval("function b() { try { return b() } catch (e) { while (true) {} } } b()")
        assert out.error_type == "Timeout", out.text
        after = js.eval("typeof kept + ' ' + (1 + 1)").value
        assert after == ("undefined 2" if out.state_reset else "number 2"), (out.text, after)


RUNAWAY = "function r(){ return r() } r()"


def test_the_jvm_has_no_reserved_stack_zone() -> None:
    # With a reserved zone, each overflow into it walked the whole stack, uninterruptibly, and the unwinding of a runaway
    # recursion reached it again and again (bench/recursion_after_stops.py measures it; the corpus's
    # recursion-after-stops runs the report's cells first).
    with Interpreter() as js:
        assert js.eval("1").value == "1"
    management = jpype.JClass("java.lang.management.ManagementFactory")
    diagnostic = jpype.JClass("com.sun.management.HotSpotDiagnosticMXBean")
    option = management.getPlatformMXBean(diagnostic).getVMOption("StackReservedPages")
    assert str(option.getValue()) == "0"


def test_repeated_overflows_never_crash_the_host_process() -> None:
    # One compiler thread is the setting that once crashed HotSpot while it grew a guest thread's stack.
    code = f"""
        import json
        from langchain_graalvm import Interpreter
        js = Interpreter(timeout=120.0)
        js.eval({RECURSE!r} + "function probe() {{ let m = 0; function d(n) {{ m = n; return 1 + d(n + 1) }}"
                " try {{ d(0) }} catch (e) {{ if (!(e instanceof RangeError)) throw e }} return m }}")
        depths = [js.eval("probe()").value for _ in range(12)]
        print(json.dumps({{"depths": depths, "after": js.eval("r(10000)").value}}))
    """
    options = os.environ.get("LANGCHAIN_GRAALVM_JVM_OPTIONS", "")
    env = {"LANGCHAIN_GRAALVM_JVM_OPTIONS": f"{options} -Dpolyglot.engine.CompilerThreads=1"}
    proc = run_python(code, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["after"] == "10000"
    assert all(d is not None and int(d) >= 10000 for d in result["depths"]), result


def test_unwinding_an_overflow_does_not_deoptimise_each_call_frame() -> None:
    # Exception-free calls first, so that C2 compiles Truffle's call path from a profile in which no exception ever
    # passed; then one runaway recursion. With C2 pruning exception handlers by profile, each compiled call frame
    # that the RangeError unwound through was deoptimised on its own: 28,000 to 87,000 for one overflow.
    code = f"""
        import json, os, tempfile
        import jpype
        from langchain_graalvm import Interpreter
        js = Interpreter(timeout=300.0)
        js.eval({RECURSE!r})
        for _ in range(30):
            js.eval("r(3000)")
        recording = jpype.JClass("jdk.jfr.Recording")()
        recording.enable("jdk.Deoptimization")
        recording.start()
        out = js.eval("function f() {{ return f() }} f()")
        recording.stop()
        path = jpype.JClass("java.nio.file.Path").of(os.path.join(tempfile.mkdtemp(), "deopt.jfr"))
        recording.dump(path)
        guest = [e for e in jpype.JClass("jdk.jfr.consumer.RecordingFile").readAllEvents(path)
                 if str(e.getThread("eventThread").getJavaName()).startswith("graalvm-sandbox")]
        calls = [e for e in guest if str(e.getValue("method").getName()) == "callDirect"]
        print(json.dumps({{"error": out.error_type, "guest": len(guest), "callDirect": len(calls)}}))
    """
    options = os.environ.get("LANGCHAIN_GRAALVM_JVM_OPTIONS", "")
    proc = run_python(code, env={"LANGCHAIN_GRAALVM_JVM_OPTIONS": f"{options} -Dlangchain.graalvm.noWarmUp=true"},
                      timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["error"] == "RangeError"
    assert result["callDirect"] < 100, result


def test_classes_every_exception_needs_are_initialized_before_a_guest_can_overflow() -> None:
    # A class the JVM first initializes at the bottom of an overflowing guest stack fails to initialize and stays
    # unusable. JFR's ThrowableTracer was one: with a recording started after the sandbox, the overflow's error
    # was its first use, and from then on every exception construction in the JVM spun in NoClassDefFoundErrors.
    with Interpreter() as js:
        assert js.eval("1 + 1").value == "2"
    jcmd = _jvmfinder.find_jdk().home / "bin" / "jcmd"
    listed = subprocess.run([str(jcmd), str(os.getpid()), "VM.classes"], capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    states = {f[-1]: f[2] for f in (line.split() for line in listed.stdout.splitlines()) if len(f) >= 4}
    # Truffle's frame classes too: their initialisers look methods up by reflection, and the first guest stack
    # overflow in a fresh process (an 800 KB expression's parse) was their first use, breaking every later eval.
    for name in (
        "jdk.internal.event.ThrowableTracer",
        "java.lang.ExceptionInInitializerError",
        "com.oracle.truffle.runtime.OptimizedFrameInstance",
        "com.oracle.truffle.runtime.OptimizedOSRFrameInstance",
    ):
        assert states.get(name) == "fully_initialized", (name, states.get(name))


def test_a_guest_thread_never_gets_the_stack_of_a_python_thread_that_called_into_the_jvm() -> None:
    # glibc caches the stacks of exited threads and hands them to new ones of a size at most four times smaller. A
    # Python thread (8 MiB) that had called into the JVM left its HotSpot guard pages protected one page above
    # where a JVM thread puts its own; the next guest thread on that stack died of SIGSEGV, with no error report,
    # at the end of a deep recursion (every time, with the 24 MiB guest stack of before).
    code = f"""
        import threading
        import jpype
        from langchain_graalvm import Interpreter
        for _ in range(3):
            first = Interpreter(timeout=120.0)
            first.eval("1")
            first.close()
            caller = threading.Thread(target=lambda: jpype.JClass("java.lang.Object")().hashCode())
            caller.start()
            caller.join()
            with Interpreter(timeout=120.0) as js:
                print(js.eval({RECURSE!r} + "try {{ r(1e7) }} catch (e) {{ e.constructor.name }}").text)
    """
    proc = run_python(code, timeout=600)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.split() == ["<result>RangeError</result>"] * 3, proc.stdout
