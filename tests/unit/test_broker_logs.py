"""The local server keeps the logs of its live workers and of the last few that ended, and removes the rest."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from langchain_graalvm._runtime import _broker


def test_old_worker_logs_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    logs = [tmp_path / f"worker-{1_000_000_000 + i}.log" for i in range(40)]
    for log in logs:
        log.write_text("x")
    (tmp_path / "server.log").write_text("kept")
    broker = _broker.Broker(tmp_path / "sandbox.sock", 60, spares=1, max_workers=1, worker_idle_s=60, build="b")
    broker.workers = [SimpleNamespace(log=logs[0]), SimpleNamespace(log=logs[5])]  # type: ignore[list-item]
    broker._sweep_logs()
    left = sorted(p.name for p in tmp_path.glob("worker-*.log"))
    ended_kept = [p.name for p in logs[-_broker._LOGS_KEPT:]]
    assert left == sorted([logs[0].name, logs[5].name, *ended_kept])
    assert (tmp_path / "server.log").read_text() == "kept"
