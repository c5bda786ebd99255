"""The ``langchain-graalvm`` command and its tooling: demo, benchmarks, the isolation matrix, the attack corpus.

Nothing in the runtime imports this package; it imports the runtime like any user would, plus a few private
modules for ``doctor`` and ``install``.
"""

from langchain_graalvm.cli.main import main

__all__ = ["main"]
