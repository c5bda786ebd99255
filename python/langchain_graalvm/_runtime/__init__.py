"""The runtime under the interpreter: find a JDK, fetch the GraalVM jars, start the JVM, talk to the Java sandbox.

Layered from the bottom up, each module importing only those above it in this list:

- ``_jvmfinder``: which JDK to start (the file system and the settings only; no JPype);
- ``_manifest``: which GraalVM jars an installed wheel runs on, and whether a folder holds exactly those;
- ``_artifacts``: fetching those jars into the cache on first use;
- ``_faststart``: the fast-start JDK image and AOT cache, when they were built;
- ``_compiler``: the Graal compiler to use (libgraal or jargraal);
- ``_launch``: the runtime folder, class path and JVM flags of the one start;
- ``_jvm``: the start itself, once per process, and the JPype conversions; ``_prestart`` starts it in the
  background (these two import :mod:`jpype`, nothing else does; ``_adapter`` calls Java through ``_jvm``);
- ``_backend``: what a backend gives the interpreter (:class:`~._backend.Guest`, :class:`~._backend.EvalOutcome`);
- ``_wire``: every message and value that crosses to the Java sandbox, in MessagePack (the only module that
  imports :mod:`msgpack`), and the :class:`~._wire.Connection` a worker or the local server speaks it over;
- ``_worker``, ``_workerpool``, ``_server``: one worker JVM process, this process's pool of them, the local
  server's client (a lease of one of its workers); ``_pipes``: a worker's pipes held by a process that did not
  start it; ``_broker``: the local server itself, a process that starts, trains and lends worker JVMs;
  ``_training``: the package's training cells, run in a new worker before it is handed out;
- ``_remote``: the worker backend's guest, over a connection; ``_adapter``: the in-process backend's guest, over
  JPype, and :func:`~._adapter.new_interpreter`, which picks the backend;
- ``_pools``: the shared Python worker threads.

Every module reads its settings (the ``LANGCHAIN_GRAALVM_*`` variables) from :mod:`langchain_graalvm._settings`.
Nothing here imports :mod:`langchain_graalvm.agents` or :mod:`langchain_graalvm.cli`.
"""
