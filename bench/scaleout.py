"""Scale-out: turns per second with 1, 2 and 3 worker processes on one PostgreSQL checkpointer, and checkpoint bytes.

Starts a throw-away PostgreSQL server (``tests/support/pg.py``), then for each worker count spawns that many worker
processes (each its own JVM; ``tests/support/scaleout.py``), lets every worker serve warm-up turns, and times
``--threads`` threads of ``--turns`` turns served from the shared queue (consecutive turns of a thread on
different workers when there are several). Each turn is a real Deep Agent turn with three ``eval`` calls in
thread mode: restore the snapshot, run the cells, store the new snapshot, every superstep checkpointed in
PostgreSQL with durable commits. The scripted model answers at once, so the figures are the agent and
middleware's own cost. Then one thread runs ``--long`` turns in this process, and the bytes its turns add to the
checkpoint tables are printed per turn, early and late, with the size of its snapshot.

    .venv/bin/python bench/scaleout.py                        # 1, 2 and 3 workers; 8 threads x 6 turns
    .venv/bin/python bench/scaleout.py --workers 1,2,3,4 --threads 12 --turns 8 --long 60
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import scaleout  # noqa: E402
from tests.support.pg import PostgresServer  # noqa: E402

_BYTES = """
SELECT (SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM checkpoints c WHERE thread_id = %(t)s)
     + (SELECT coalesce(sum(pg_column_size(b.*)), 0) FROM checkpoint_blobs b WHERE thread_id = %(t)s)
     + (SELECT coalesce(sum(pg_column_size(w.*)), 0) FROM checkpoint_writes w WHERE thread_id = %(t)s)
"""


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def throughput(dsn: str, workers: int, threads: int, turns: int) -> tuple[float, float, list[float]]:
    """(turns per second, seconds, RSS MiB of each worker after the run)."""
    supervisor = scaleout.Supervisor(dsn, spread=workers > 1, respawn=False)
    try:
        supervisor.spawn(workers)
        supervisor.wait_ready(workers)
        # Warm-up: a few turns per worker, so every JVM has compiled the turn's path once.
        supervisor.run(scaleout.schedule(f"warm-{uuid.uuid4().hex[:6]}", threads=workers * 2, turns=3))
        work = scaleout.schedule(f"bench-{uuid.uuid4().hex[:6]}", threads=threads, turns=turns)
        started = time.perf_counter()
        supervisor.run(work)
        seconds = time.perf_counter() - started
        rss = [_rss_mib(w.process.pid) for w in supervisor.workers.values()]
        return threads * turns / seconds, seconds, rss
    finally:
        supervisor.stop()


def growth(dsn: str, turns: int) -> list[tuple[int, int, int]]:
    """(turn, checkpoint bytes the turn added, snapshot payload bytes after it) for one thread."""
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    thread_id = f"long-{uuid.uuid4().hex[:6]}"
    rows = []
    with PostgresSaver.from_conn_string(dsn) as saver, psycopg.connect(dsn, autocommit=True) as db:
        agent, middleware = scaleout.build(saver)
        before = 0
        try:
            for k in range(turns):
                agent.invoke(scaleout.turn_input(k, scaleout.turn_cells(0, k)), scaleout.config_of(thread_id))
                row = db.execute(_BYTES, {"t": thread_id}).fetchone()
                total = int(row[0]) if row else 0
                snapshot = scaleout.thread_result(agent, thread_id).snapshot
                rows.append((k, total - before, len(snapshot)))
                before = total
        finally:
            middleware.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2,3", help="worker counts to measure, comma-separated")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--long", type=int, default=30, help="turns of the one thread whose bytes are measured")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"cores: {os.cpu_count()}, load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    with PostgresServer() as pg:
        from langgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(pg.dsn) as saver:
            saver.setup()
        print(f"\n{'workers':>7}  {'turns':>5}  {'seconds':>8}  {'turns/s':>8}  worker RSS (MiB)")
        for workers in (int(w) for w in args.workers.split(",")):
            rate, seconds, rss = throughput(pg.dsn, workers, args.threads, args.turns)
            rss_text = ", ".join(f"{r:.0f}" for r in rss)
            turns = args.threads * args.turns
            print(f"{workers:>7}  {turns:>5}  {seconds:>8.1f}  {rate:>8.2f}  {rss_text}", flush=True)
        rows = growth(pg.dsn, args.long)
        print(f"\n{'turn':>5}  {'checkpoint bytes added':>22}  {'snapshot bytes':>14}")
        for k, added, snapshot in rows[:3] + rows[-3:]:
            print(f"{k:>5}  {added:>22}  {snapshot:>14}")
        later = [added for _, added, _ in rows[1:]]
        print(f"\nmean checkpoint bytes per turn (turns 1..{len(rows) - 1}): {sum(later) / max(1, len(later)):.0f}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
