"""The runtime under the interpreter: find a JDK, fetch the GraalVM jars, start the JVM, talk to the Java sandbox.

Layered from the bottom up, each module importing only those above it in this list:

- ``_jvmfinder``: which JDK to start (the file system and the settings only; no JPype);
- ``_manifest``: which GraalVM jars an installed wheel runs on, and whether a folder holds exactly those;
- ``_artifacts``: fetching those jars into the cache on first use;
- ``_faststart``: the fast-start JDK image and AOT cache, when they were built;
- ``_launch``: the runtime folder, class path and JVM flags of the one start;
- ``_jvm``: the start itself, once per process; the only module that imports :mod:`jpype`;
- ``_adapter``: the Java sandbox's adapter: options in, plain data (:class:`~langchain_graalvm.EvalOutcome`) out;
- ``_prestart``, ``_pools``: background JVM start and the shared worker threads.

Every module reads its settings (the ``LANGCHAIN_GRAALVM_*`` variables) from :mod:`langchain_graalvm._settings`.
Nothing here imports :mod:`langchain_graalvm.agents` or :mod:`langchain_graalvm.cli`.
"""
