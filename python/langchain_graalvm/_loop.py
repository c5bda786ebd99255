"""Where host calls run: the private event loop of evals made from synchronous code, and the threads around it.

An eval called from ``agent.invoke`` or ``Interpreter.eval`` has no event loop of its own; its tool, subagent and
file calls run on one shared loop in a daemon thread. Pump threads wait in Java for the guest's calls; synchronous
tools run in a bounded pool so that a fan-out of blocking tools cannot starve the loop. It sits beside the
interpreter, not in ``agents/``, because an interpreter with ``files=`` runs its calls here too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading

from ._runtime._pools import shared_pool

logger = logging.getLogger("langchain_graalvm.ptc")

_SYNC_TOOL_WORKERS = 32
_loop_lock = threading.Lock()
_private_loop: asyncio.AbstractEventLoop | None = None
_loop_thread: threading.Thread | None = None


def pumps() -> concurrent.futures.ThreadPoolExecutor:
    """Threads that collect the guest's calls from Java (one per eval with host functions, reused)."""
    return shared_pool("calls", 256)


def sync_tool_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The bounded pool synchronous tools called from the guest run in."""
    return shared_pool("tool", _SYNC_TOOL_WORKERS)


def private_loop() -> asyncio.AbstractEventLoop:
    """The event loop that runs host calls of evals made from synchronous code (``agent.invoke``).

    Its thread outlives anything a callback raises: ``SystemExit`` and ``KeyboardInterrupt`` leave an asyncio loop's
    ``run_forever``, so the thread logs them and runs the loop on; should the thread end all the same, the next
    eval gets a new loop."""
    global _private_loop, _loop_thread
    with _loop_lock:
        if (
            _private_loop is None
            or _private_loop.is_closed()
            or _loop_thread is None
            or not _loop_thread.is_alive()
        ):
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                while True:
                    try:
                        loop.run_forever()
                        return
                    except BaseException:  # noqa: BLE001 - the loop serves every later eval of the process
                        logger.exception("a host call raised out of the host-call loop; the loop goes on")

            _loop_thread = threading.Thread(target=run, name="langchain-graalvm-host-calls", daemon=True)
            _loop_thread.start()
            ready.wait()
            _private_loop = loop
        return _private_loop
