"""The ``bench`` report: a Markdown table of medians and ratios, and a PNG chart of the ratios."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from ._benchkit import SAME_LIMITS, Row


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "B":
        if value >= 1 << 20:
            return f"{value / (1 << 20):.2f} MiB"
        if value >= 1 << 10:
            return f"{value / (1 << 10):.1f} KiB"
        return f"{value:.0f} B"
    if unit == "x":
        return f"{value:.2f}x"
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def _cell(row: Row, backend: str) -> str:
    values = row.samples.get(backend) or []
    if backend not in row.samples and backend not in row.errors:
        return "—"  # the workload does not exist for this backend (QuickJS has no Python guest)
    if not values:
        return f"failed: {row.errors.get(backend, 'no result')[:60]}"
    low, high = _fmt(min(values), row.unit), _fmt(max(values), row.unit)
    return f"{_fmt(statistics.median(values), row.unit)} ({low} to {high})"


def markdown(rows: list[Row], meta: dict[str, Any], matrix: str = "") -> str:
    lines = [
        "# langchain-graalvm vs langchain-quickjs",
        "",
        f"Run {meta['when']} on {meta['machine']}; langchain-graalvm {meta['graalvm']}, langchain-quickjs "
        f"{meta['quickjs']}; tier: {meta.get('tier', '?')}; Graal compiler: {meta.get('compiler', '?')}; "
        f"{meta['reps']} repetitions per workload, "
        "backends alternating. Ratio = "
        "langchain-graalvm / langchain-quickjs (below 1: langchain-graalvm is faster or smaller). Rows marked "
        "`[defaults]` run both backends with their default settings; `[same limits]` with timeout "
        f"{SAME_LIMITS['timeout']:g} s and memory limit {SAME_LIMITS['memory_limit'] >> 20} MiB on both. "
        "Other rows use defaults, with the timeout raised where the workload needs it.",
        "",
        "| workload | langchain-graalvm median (min to max) | langchain-quickjs median (min to max) | ratio | goal "
        "| node (CPython for GraalPy rows) |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for row in rows:
        ratio = f"{row.ratio:.3f}" if row.ratio is not None else "n/a"
        goal = "" if row.goal is None else f"≤ {row.goal:g} {'✅' if row.met else '❌' if row.met is False else ''}"
        node = _fmt(row.node, row.unit) if row.node is not None else ""
        lines.append(
            f"| {row.workload} | {_cell(row, 'graalvm')} | {_cell(row, 'quickjs')} | {ratio} | {goal} | {node} |"
        )
    if matrix:
        lines += ["", matrix]
    return "\n".join(lines) + "\n"


def chart(rows: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [r for r in rows if r.ratio is not None and r.unit != "x"]
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(shown) + 1.5))
    labels = [r.workload if len(r.workload) < 70 else r.workload[:67] + "..." for r in shown]
    ratios = [r.ratio or 0.0 for r in shown]
    colors = ["#2a9d8f" if (r.ratio or 1) <= 1 else "#e76f51" for r in shown]
    ax.barh(range(len(shown)), ratios, color=colors)
    for i, r in enumerate(shown):
        if r.goal is not None:
            ax.plot([r.goal, r.goal], [i - 0.4, i + 0.4], color="black", linewidth=1.5)
    ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks(range(len(shown)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("langchain-graalvm / langchain-quickjs (log scale; left of 1 is better; black tick = goal)")
    ax.set_title("langchain-graalvm vs langchain-quickjs")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def tier_in_use() -> str:
    """Where this run's guests run: in this process's JVM, in private sandbox workers, or in the local server
    (``LANGCHAIN_GRAALVM_ISOLATION`` and ``LANGCHAIN_GRAALVM_SERVER``, which every backend process inherits)."""
    from .._runtime import _server
    from ..options import resolve_isolation

    try:
        if resolve_isolation(None) == "in-process":
            return "in-process (JPype)"
        return "process: the local sandbox server" if _server.mode() == "auto" else "process: private sandbox workers"
    except Exception as exc:  # noqa: BLE001 - the report is written all the same
        return f"unknown ({type(exc).__name__}: {exc})"


def compiler_in_use() -> str:
    """The Graal compiler of this run's sandbox, asked of the JVM when it runs in this process, else the one a new
    process starts with (the cold-start workloads' child processes), with the JDK it comes from."""
    from .._runtime import _compiler, _jvm, _jvmfinder, _launch

    try:
        jdk = _jvmfinder.find_jdk()
        if _jvm.is_started():
            from ..interpreter import runtime_info

            info = runtime_info()
            name, host = str(info["compiler"]), str(info["host_jit"])
        else:
            name = _compiler.choose(jdk, _launch.find_runtime_dir()).name
            host = _launch.host_jit_for(name)
    except Exception as exc:  # noqa: BLE001 - the report is written all the same
        return f"unknown ({type(exc).__name__}: {exc})"
    return f"{name}, host JIT {host} (JDK {jdk.version} at {jdk.home})"
