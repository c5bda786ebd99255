"""What the guest may not touch: process-wide state behind GraalPy's built-in modules.

GraalPy's `_signal` installs handlers for the whole process (the JVM's, and so the host's: a guest's SIGUSR1
handler replaced the host's own), arms the process's interval timer and alarm, and its `posix` module and
`_posixsubprocess` reach for processes; no context option or sandbox policy of GraalPy 25 turns these off. So
before any model code runs, lock_down() replaces each such function in its built-in module with one that raises
PermissionError. The originals are dropped, not kept: a built-in module is made once per context (importing it
again, `importlib.reload` or `_imp.create_builtin` give back the same object), so no path leads back to them.
Modules written in Python that re-export these names (`signal`, `os`, `subprocess`) are imported later and take
the refusals."""

SIGNALS = "cannot handle, send or time signals"
PROCESSES = "cannot start processes"

# module -> (what the sandbox cannot do, names refused); a name the module lacks is skipped.
REFUSED = {
    "_signal": (
        SIGNALS,
        (
            "signal",
            "setitimer",
            "alarm",
            "pause",
            "siginterrupt",
            "set_wakeup_fd",
            "raise_signal",
            "pthread_kill",
            "pthread_sigmask",
            "sigwait",
            "sigwaitinfo",
            "sigtimedwait",
        ),
    ),
    "posix": (
        PROCESSES,
        (
            "system",
            "execv",
            "execve",
            "fork",
            "forkpty",
            "posix_spawn",
            "posix_spawnp",
            "spawnv",
            "spawnve",
        ),
    ),
    "_posixsubprocess": (PROCESSES, ("fork_exec",)),
    "faulthandler": ("cannot arm timers or signal handlers", ("dump_traceback_later", "register")),
}
KILL = ("kill", "killpg")  # in posix, refused with SIGNALS


def refusal(module, name, what):
    """A function that refuses `module.name` with the sandbox's PermissionError; it holds no reference to the
    original."""
    shown = {"_signal": "signal", "posix": "os", "_posixsubprocess": "subprocess"}.get(module, module)
    text = f"Operation not permitted: this sandbox {what} ({shown}.{name})."

    def refused(*args, **kwargs):  # noqa: ARG001 - takes any call, refuses it
        raise PermissionError(text)

    refused.__name__ = refused.__qualname__ = name
    refused.__module__ = module
    return refused


def lock_down(modules=None):
    """Replaces the refused functions in their modules (by default the interpreter's own: `sys.modules`, importing
    the built-in ones not loaded yet)."""
    if modules is None:
        modules = {}
        for name in REFUSED:
            try:
                modules[name] = __import__(name)
            except ImportError:
                continue
    for module_name, (what, names) in REFUSED.items():
        module = modules.get(module_name)
        if module is None:
            continue
        refused = names + KILL if module_name == "posix" else names
        for name in refused:
            if name in module.__dict__:
                setattr(module, name, refusal(module_name, name, SIGNALS if name in KILL else what))
