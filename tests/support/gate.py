"""A files backend whose reads tell the test that the guest is running, and wait until the test lets them go.

Tests that must act while an eval certainly runs (refuse a second eval, cancel, close) start the eval with a read of
the gate file: when :attr:`Gate.entered` is set, the guest has started and waits in that host call.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from deepagents.backends.filesystem import FilesystemBackend

from langchain_graalvm import FilesAccess

READ = "await fs.readFile('/gate.txt', 'utf8')"


class Gate(FilesystemBackend):
    """Reads set :attr:`entered`, then return once :attr:`release` is set (at once with ``hold=False``)."""

    def __init__(self, root: Path, *, hold: bool = True) -> None:
        (root / "gate.txt").write_text("opened")
        super().__init__(root_dir=str(root), virtual_mode=True)
        self.entered = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    async def adownload_files(self, paths: list[str]) -> Any:
        self.entered.set()
        await asyncio.to_thread(self.release.wait, 600)
        return await super().adownload_files(paths)

    def files(self) -> FilesAccess:
        return FilesAccess("read", backend=self)

    def wait_entered(self) -> None:
        # A bound for a hung eval only: the first eval of a process also starts the JVM, slow on a loaded machine.
        assert self.entered.wait(600), "the eval never reached its gate read"
