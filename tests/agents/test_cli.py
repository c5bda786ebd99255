"""The command line: doctor, repl (piped and on a pseudo-terminal), demo and install in a development checkout."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pexpect
import pytest
from langchain_core.messages import AIMessage, ToolMessage

from langchain_graalvm.cli import _demo
from tests.conftest import ROOT


def cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "langchain_graalvm", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
        cwd=ROOT,
    )


def test_doctor_reports_jdk_graalvm_jit_policy_limits_and_graalpy() -> None:
    proc = cli("doctor")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "[ok  ] JDK: " in out and "version 25" in out
    assert "[ok  ] GraalVM: 25.0.3" in out
    assert "[ok  ] JIT: on: JDK 25 " in out
    from langchain_graalvm._runtime import _compiler, _jvmfinder, _launch

    chosen = _compiler.choose(_jvmfinder.find_jdk(), _launch.find_runtime_dir()).name
    level = "[ok  ]" if chosen == "libgraal" else "[info]"
    assert f"{level} compiler: {chosen}: {_compiler.MEANING[chosen]}" in out
    # Asked of the running JVM: the mode this process's settings ask for is the one that runs.
    host = _launch.host_jit_for(chosen)
    assert f"[ok  ] host JIT: {host}: {_launch.HOST_JIT_MEANING[host]}" in out
    assert "sandbox policy: CONSTRAINED" in out
    assert "[ok  ] unwind guard: on: a runaway recursion unwinds compiled frames" in out
    for limit in ("time", "memory", "stack", "output", "code size", "clock"):  # each run once for real
        assert any(line.startswith(f"[ok  ] limit: {limit}:") and line.endswith("(checked just now)") for line in out.splitlines()), limit
    assert "[ok  ] limit: JVM heap: -Xmx" in out
    assert "resource cache: " in out
    runtime = _launch.find_runtime_dir()
    graalpy = any(p for folder in ("modules", "python") for p in (runtime / folder).glob("python-language-*.jar"))
    assert ("[info] GraalPy: available" in out) is graalpy
    assert ("[info] GraalPy: not available" in out) is not graalpy
    assert "smoke test: `6 * 7` = 42" in out
    from langchain_graalvm.cli import _install

    fast, how = _install.status()
    assert (f"[ok  ] fast start: {how}" if fast else f"[info] fast start: {how}") in out
    assert "[info] isolation: in-process by default (LANGCHAIN_GRAALVM_ISOLATION); server off" in out
    assert "sandbox server: " in out
    assert out.rstrip().endswith("All checks passed.")


def test_doctor_fails_with_a_fix_when_no_jdk_is_usable(tmp_path: os.PathLike[str]) -> None:
    proc = cli("doctor", env={"LANGCHAIN_GRAALVM_JAVA_HOME": str(tmp_path)})
    assert proc.returncode == 1
    assert "[FAIL] JDK: " in proc.stdout
    assert "fix: install JDK 25: `langchain-graalvm install --jdk`" in proc.stdout


def test_doctor_says_jit_is_off_and_why_without_compiler_jars(tmp_path: os.PathLike[str]) -> None:
    from pathlib import Path

    from langchain_graalvm._runtime import _launch

    runtime = _launch.find_runtime_dir()
    folder = Path(tmp_path)
    for name in ("modules", "classpath"):
        (folder / name).symlink_to(runtime / name)
    proc = cli("doctor", env={"LANGCHAIN_GRAALVM_RUNTIME": str(folder)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[warn] JIT: off: no compiler jars in" in proc.stdout
    assert "fix: use JDK 25 with the Graal compiler jars" in proc.stdout
    # Interpreted guest code has no compiled frames to deoptimise: the guard is off, and that is no warning.
    assert "[ok  ] unwind guard: off: " in proc.stdout and "(not needed without JIT)" in proc.stdout


def test_repl_with_piped_input_keeps_state_continues_lines_and_resets() -> None:
    script = "let a = 5\na * \\\n 2\n.reset\ntypeof a\nwhile (true) {}\n"
    proc = cli("repl", "--timeout", "1", stdin=script)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "timeout 1 s, memory limit 64 MiB" in out
    assert "<result>10</result>" in out  # a continued over two lines, with a from the cell before
    assert "(globals cleared)" in out
    assert '<result>undefined</result>' in out.split("(globals cleared)")[1]  # typeof a after .reset
    assert '<error type="Timeout">Execution exceeded the 1 s timeout' in out


def test_repl_enforces_the_memory_limit() -> None:
    bomb = "const t = []; while (true) t.push(new Float64Array(1 << 20))"
    proc = cli("repl", "--timeout", "30", "--memory-limit", str(32 * 1024 * 1024), stdin=f"{bomb}\n1 + 1\n")
    assert proc.returncode == 0, proc.stderr
    assert '<error type="OutOfMemory">' in proc.stdout and "32 MiB memory limit" in proc.stdout
    assert "<result>2</result>" in proc.stdout  # the REPL goes on after the limit stopped a cell


def test_repl_on_a_pseudo_terminal() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "langchain_graalvm", "repl"], cwd=str(ROOT), encoding="utf-8", timeout=120)
    try:
        child.expect_exact("js> ")
        child.sendline("const greet = (n: string) => `hi ${n}`")
        child.expect_exact("<result>undefined</result>")
        child.expect_exact("js> ")
        child.sendline("greet('tty')")
        child.expect_exact("<result>hi tty</result>")
        child.expect_exact("js> ")
        child.sendline(".exit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_repl_runs_python_with_the_same_limits() -> None:
    proc = cli(
        "repl", "--language", "python", "--timeout", "8", stdin="xs = [1, 2, 3]\nsum(xs) * 2\nwhile True: pass\nxs\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert "langchain-graalvm repl (python)" in proc.stdout
    assert "<result>12</result>" in proc.stdout
    assert '<error type="Timeout">' in proc.stdout
    assert "<result>[1, 2, 3]</result>" in proc.stdout


def test_install_in_a_checkout_says_there_is_nothing_to_fetch() -> None:
    proc = cli("install")
    assert proc.returncode == 0, proc.stderr
    assert "development checkout" in proc.stdout
    assert str(ROOT / "java" / "target" / "runtime") in proc.stdout


def test_demo_runs_a_deep_agent_that_keeps_state_across_turns() -> None:
    out = io.StringIO()
    messages = _demo.run(out=out)
    text = out.getvalue()
    tool_results = [str(m.content) for m in messages if isinstance(m, ToolMessage)]
    assert tool_results[0] == "<result>2580.40</result>"
    assert "<result>{ACME: 1956, Globex: 1020.6, Initech: 119.88}</result>" in tool_results[1]  # uses turn 1's globals
    assert tool_results[4].startswith('<error type="Timeout">')
    assert tool_results[5] == "<result>total is still 2580.4</result>"  # globals survive the timeout
    # tools.exchangeRate through PTC, on the per-customer totals of an earlier turn
    assert tool_results[6] == (
        "<result>{ACME: {USD: 2112.48, GBP: 1662.6}, Globex: {USD: 1102.25, GBP: 867.51}, "
        "Initech: {USD: 129.47, GBP: 101.9}}</result>"
    )
    # task() dispatched the auditor subagent, which answered from its own script
    assert tool_results[7] == "<result>ACME appears twice (1200 and 430); Initech's 99.90 is far below the others.</result>"
    final = [m for m in messages if isinstance(m, AIMessage) and not m.tool_calls]
    assert len(final) == len(_demo.DEMO_TURNS) - 1  # one scripted turn is the subagent's
    assert "user> Break it down by customer" in text
    assert "assistant> calls eval\n    | type Invoice" in text
    assert "tool eval>\n    <result>2580.40</result>" in text


def test_demo_script_can_be_extended_with_turns() -> None:
    extra = _demo.ScriptedTurn(
        user="Square the total.",
        steps=[_demo.eval_step("total ** 2")],
        answer=lambda results: "Squared: " + results[0],
    )
    out = io.StringIO()
    messages = _demo.run(turns=[_demo.DEMO_TURNS[0], extra], out=out)
    assert str(messages[-1].content) == "Squared: <result>6658464.16</result>"
    assert "user> Square the total." in out.getvalue()


def test_demo_with_a_real_model_needs_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(_demo.DemoError, match="ANTHROPIC_API_KEY"):
        _demo.real_model("anthropic:claude-sonnet-4-5")
    with pytest.raises(_demo.DemoError, match="provider:name"):
        _demo.real_model("claude")


def test_demo_with_a_real_model_needs_its_provider_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(_demo.DemoError, match="pip install langchain-openai"):
        _demo.real_model("openai:gpt-4o-mini")


def test_demo_cli_reports_a_missing_key_without_a_traceback() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    proc = subprocess.run(
        [sys.executable, "-m", "langchain_graalvm", "demo", "--model", "anthropic:claude-sonnet-4-5"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --model anthropic:claude-sonnet-4-5 needs the ANTHROPIC_API_KEY environment variable set to your API key."
