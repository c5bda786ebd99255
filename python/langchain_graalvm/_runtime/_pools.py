"""Process-wide thread pools, each created on first use and then shared."""

from __future__ import annotations

import concurrent.futures
import threading

_lock = threading.Lock()
_pools: dict[str, concurrent.futures.ThreadPoolExecutor] = {}


def shared_pool(name: str, workers: int) -> concurrent.futures.ThreadPoolExecutor:
    """The pool called ``name`` (its threads are ``langchain-graalvm-<name>-N``), made with ``workers`` threads."""
    with _lock:
        pool = _pools.get(name)
        if pool is None:
            pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix=f"langchain-graalvm-{name}"
            )
            _pools[name] = pool
        return pool
