"""Smoke test of ``langchain-graalvm bench``: tiny sizes, both backends, report and chart written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


def test_bench_quick_writes_a_report_and_a_chart(tmp_path: Path) -> None:
    out = tmp_path / "report"
    proc = subprocess.run(
        [sys.executable, "-m", "langchain_graalvm", "bench", "--quick", "--reps", "1",
         "--only", "eval,snapshots,python", "--no-progress", "--out", str(out)],
        capture_output=True, text=True, timeout=900, cwd=ROOT, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = (out / "report.md").read_text()
    assert "| warm `1+1` through the eval tool [defaults] |" in report
    assert "| warm `1+1` through the eval tool [same limits] |" in report
    assert "| snapshot bytes, empty context |" in report
    assert re.search(r"tier: (in-process \(JPype\)|process: the local sandbox server|process: private sandbox workers);", report), report[:600]
    assert re.search(r"Graal compiler: (libgraal|jargraal|none), host JIT (graal-c1|tiered|c1) \(JDK ", report), report[:600]
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = {r["workload"]: r for r in json.loads((out / "results.json").read_text())}
    empty = rows["snapshot bytes, empty context"]
    # Both backends produced a real snapshot, and ours is the smaller one.
    assert empty["samples"]["graalvm"][0] > 0 and empty["samples"]["quickjs"][0] > 0
    assert empty["ratio"] < 1
    # The Python guest's data cells: every phase, GraalPy's figure beside CPython's (their results agreed).
    python_rows = {k: r for k, r in rows.items() if k.startswith("GraalPy data cells [")}
    assert [k.split("]")[0] for k in python_rows] == [
        "GraalPy data cells [set-up", "GraalPy data cells [first use", "GraalPy data cells [rounds 2-5",
        "GraalPy data cells [steady, rounds 1-2", "GraalPy data cells [slowest first use",
        "GraalPy data cells [lookup, steady",
    ]
    for row in python_rows.values():
        assert row["samples"]["graalvm"][0] > 0 and row["node"] > 0 and "x CPython; goal" in row["workload"]


def test_the_python_data_cells_refuse_a_result_that_differs_from_cpythons() -> None:
    from langchain_graalvm.cli._bench_python import check_agree, plain
    from langchain_graalvm.errors import WorkloadError

    cpython = {"outs": {"setup": ["20"], "sort": ["[3, 1]", "'a<b'"]}}
    escaped = "<result>'a&lt;b'</result>"
    same = {"outs": {"setup": ["<result>20</result>"], "sort": ["<result>[3, 1]</result>", escaped]}}
    check_agree(same, cpython)
    assert plain(escaped) == "'a<b'"
    wrong = {"outs": {"setup": ["<result>20</result>"], "sort": ["<result>[1, 3]</result>", escaped]}}
    with pytest.raises(WorkloadError, match="sort, call 1"):
        check_agree(wrong, cpython)
    failed = {"outs": {"setup": ['<error type="MemoryError">x</error>'], "sort": same["outs"]["sort"]}}
    with pytest.raises(WorkloadError, match="setup, call 1"):
        check_agree(failed, cpython)


def test_the_python_benches_bare_context_runs_on_the_sandboxs_engine_under_its_policy() -> None:
    """bench/python_cells.py and bench/python_guest.py compare the eval tool with this context: it must build from
    the sandbox's own engine and builder, give a cell's final value, and keep the sandbox's restrictions."""
    from langchain_graalvm.cli._bench_python import bare_context

    ctx = bare_context()
    try:
        assert str(ctx.eval("python", "x = 6\nx * 7")) == "42"
        with pytest.raises(Exception, match="host lookup is not allowed"):
            ctx.eval("python", "import java\njava.type('java.lang.System')")
        with pytest.raises(Exception, match="Operation not permitted"):
            ctx.eval("python", "import os\nos.listdir('/')")
    finally:
        ctx.close()


def test_bench_rejects_unknown_workloads() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "langchain_graalvm", "bench", "--only", "nonsense"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )
    assert proc.returncode == 2
    assert "unknown workloads: nonsense" in proc.stderr


@pytest.mark.parametrize("flag", ["--help"])
def test_bench_help_lists_the_options(flag: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "langchain_graalvm", "bench", flag], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, check=False)
    assert proc.returncode == 0
    assert "--isolation" in proc.stdout and "--quick" in proc.stdout


def test_cold_rows_measure_a_finished_fresh_process_and_retry_a_failed_one() -> None:
    from langchain_graalvm.cli import _coldbench
    from langchain_graalvm.errors import WorkloadError

    seconds, cpu, out = _coldbench._fresh("print(0.25, 'done')")
    assert (seconds, out) == (0.25, "done") and cpu > 0
    with pytest.raises(WorkloadError, match="failed 2 times"):
        _coldbench._fresh("import sys; sys.exit(3)", attempts=2)


def test_the_cold_agent_model_waits_before_its_first_answer_only() -> None:
    import time

    from langchain_core.messages import HumanMessage, ToolMessage

    from langchain_graalvm.cli import _coldbench

    model = _coldbench.slow_model()
    started = time.perf_counter()
    first = model.invoke([HumanMessage("add")])
    assert time.perf_counter() - started >= _coldbench.MODEL_SECONDS
    assert first.tool_calls[0]["name"] == "eval" and first.tool_calls[0]["args"] == {"code": "1 + 1"}
    started = time.perf_counter()
    final = model.invoke([HumanMessage("add"), first, ToolMessage("<result>2</result>", tool_call_id="call_cold_1")])
    assert time.perf_counter() - started < _coldbench.MODEL_SECONDS
    assert final.content == "<result>2</result>"


def test_a_row_one_backend_has_no_workload_for_says_so_instead_of_failed() -> None:
    from langchain_graalvm.cli._bench_report import _cell
    from langchain_graalvm.cli._benchkit import Row

    python_only = Row("GraalPy: first eval", "s", {"graalvm": [1.0]})
    assert _cell(python_only, "quickjs") == "—"
    failed = Row("cold", "s", {"graalvm": [1.0], "quickjs": []}, errors={"quickjs": "exit 1"})
    assert _cell(failed, "quickjs") == "failed: exit 1"
    assert _cell(Row("cold", "s", {"graalvm": [1.0], "quickjs": []}), "quickjs") == "failed: no result"


def test_node_runs_the_agent_cells_of_a_full_run_whose_program_is_longer_than_a_command_line_argument() -> None:
    import shutil

    from langchain_graalvm.cli import _bench_cells

    if shutil.which("node") is None:
        pytest.fail("node is not installed: the bench takes its near-native figure from node")
    warm, reps = 20, 7  # the default run: `langchain-graalvm bench`
    records = _bench_cells.RECORDS
    script = _bench_cells.node_script(_bench_cells.CELLS, _bench_cells.setup(records), warm, reps, 10_000)
    assert len(script.encode()) > 128 * 1024
    medians = _bench_cells.node_medians(records, warm, reps)
    assert set(medians) == {c.name for c in _bench_cells.CELLS}
    assert all(0 < seconds < 60 for seconds in medians.values())


def test_the_fresh_agent_fan_out_row_runs_its_100_calls_side_by_side_in_a_new_agent() -> None:
    from langchain_graalvm.cli import _coldbench

    _seconds, _cpu, out = _coldbench._fresh(_coldbench._FANOUT_CHILD, "graalvm")
    result, peak = out.split()
    assert result == "<result>100</result>"
    # The tool counts the calls in flight. Run one after another it would see 1; in a cold process the guest hands
    # the calls over more slowly than the first ones finish, so not all 100 need be in flight at once.
    assert int(peak.removeprefix("peak=")) > 1, peak
