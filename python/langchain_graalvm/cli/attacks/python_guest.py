"""The Python guest (GraalPy): process-wide signals, timers and process spawners, and back doors to the frozen clock.

GraalPy's own modules act on the whole process: a guest's ``signal.signal`` replaced the host's handlers, and its
timers fired outside any eval. Each case here must be refused with a plain ``PermissionError`` (never a Java stack
trace), however the model reaches the function: through ``signal``, ``_signal``, a reload, a fresh import or
``signal.signal``'s ``__wrapped__`` or globals. The clock cases read the time through every path an attacker would try next
(closure cells of the frozen functions, GraalPy's ``__graalpython__``, a reload, ``sys.modules``) and must see the
frozen instant (``0``, 1970) only.
"""

from __future__ import annotations

from typing import Any

from ._model import EXHAUSTION, HOST_ESCAPE, TIMING, Attack, make, third_try

# A fresh GraalPy context imports `signal`, `os` or `subprocess` in seconds on a loaded machine: the limit only
# bounds a run, the outcome is what is checked.
PY_TIMEOUT = 30.0


def _py(id: str, category: str, code: str, expected: str, description: str, **kw: Any) -> Attack:  # noqa: A002
    kw.setdefault("timeout", PY_TIMEOUT)
    return make(id, category, code, expected, description, language="python", **kw)


def _refused(call: str) -> str:
    """A cell that calls ``call`` and shows the type of what it raised and whether a Java stack trace showed."""
    body = "\n    ".join(call.split("\n"))
    return (
        f"try:\n    {body}\n    r = 'accepted'\n"
        "except BaseException as e:\n    r = (type(e).__name__, 'java' in str(e).lower())\nr"
    )


REFUSED = "value:('PermissionError', False)"

_CLOSURE_CELLS = """import time
seen = set()
for f in (time.time, time.localtime, time.gmtime, time.ctime, time.asctime, time.strftime):
    for c in f.__closure__ or ():
        v = c.cell_contents
        if not callable(v):
            continue
        for args in ((), (None,), (0,), (0, None), (1,), (1, None), (2, '%Y'), (2, '%Y', None)):
            try:
                r = v(*args)
            except Exception:
                continue
            if r is not None and not isinstance(r, (int, float)):
                seen.add(str(getattr(r, 'tm_year', r))[-4:])
sorted(seen)"""

PYTHON_GUEST_ATTACKS: tuple[Attack, ...] = (
    *(
        _py(
            f"py-signal-{name.lower()}",
            HOST_ESCAPE,
            _refused(f"import signal; signal.signal(signal.{name}, lambda s, f: None)"),
            REFUSED,
            f"a handler for {name}, which replaced the host process's own handler",
        )
        for name in ("SIGUSR1", "SIGUSR2", "SIGALRM", "SIGTERM")
    ),
    _py(
        "py-signal-sigint",
        HOST_ESCAPE,
        _refused("import signal; signal.signal(signal.SIGINT, print)"),
        REFUSED,
        "SIGINT, which the JVM keeps: once a ValueError holding a Java stack trace",
    ),
    _py(
        "py-setitimer-loop",
        HOST_ESCAPE,
        _refused("import signal; signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)"),
        REFUSED,
        "an interval timer whose handler would run later, outside any eval",
        follow=(("import signal; signal.getitimer(signal.ITIMER_REAL)", "value:(0.0, 0.0)"),),
    ),
    _py(
        "py-alarm",
        HOST_ESCAPE,
        _refused("import signal; signal.alarm(1)"),
        REFUSED,
        "an alarm for the whole process",
    ),
    _py(
        "py-raise-signal",
        HOST_ESCAPE,
        _refused("import signal; signal.raise_signal(signal.SIGUSR1)"),
        REFUSED,
        "a signal raised in the host process",
    ),
    _py(
        "py-siginterrupt",
        HOST_ESCAPE,
        _refused("import signal; signal.siginterrupt(signal.SIGUSR1, True)"),
        REFUSED,
        "the process's system-call restart flag",
    ),
    _py(
        "py-set-wakeup-fd",
        HOST_ESCAPE,
        _refused("import signal; signal.set_wakeup_fd(-1)"),
        REFUSED,
        "the process's signal wake-up descriptor",
    ),
    _py(
        "py-raw-signal-module",
        HOST_ESCAPE,
        _refused("import _signal; _signal.signal(10, print)"),
        REFUSED,
        "the built-in _signal module behind signal",
    ),
    _py(
        "py-signal-wrapped",
        HOST_ESCAPE,
        _refused(
            "import signal; getattr(signal.signal, '__wrapped__', signal.signal.__globals__['_signal'].signal)(10, print)"
        ),
        REFUSED,
        "what signal.signal wraps, through __wrapped__ or its globals",
    ),
    _py(
        "py-signal-reload",
        HOST_ESCAPE,
        _refused("import importlib, _signal; importlib.reload(_signal).signal(10, print)"),
        REFUSED,
        "a reload of the built-in module, hoping for its original functions",
    ),
    _py(
        "py-signal-fresh-import",
        HOST_ESCAPE,
        _refused(
            "import sys\nfor m in ('signal', '_signal'):\n    sys.modules.pop(m, None)\n"
            "import _signal; _signal.setitimer(0, 0.05)"
        ),
        REFUSED,
        "the module dropped from sys.modules and imported again",
    ),
    _py(
        "py-signal-create-builtin",
        HOST_ESCAPE,
        _refused("import _imp, _signal; _imp.create_builtin(_signal.__spec__).alarm(1)"),
        REFUSED,
        "a second copy of the built-in module made by the import machinery",
    ),
    _py(
        "py-os-kill",
        HOST_ESCAPE,
        _refused("import os; os.kill(os.getpid(), 10)"),
        REFUSED,
        "a signal sent to the host process",
    ),
    _py(
        "py-os-killpg",
        HOST_ESCAPE,
        _refused("import os; os.killpg(0, 10)"),
        REFUSED,
        "a signal sent to the host's process group",
    ),
    _py(
        "py-faulthandler-later",
        HOST_ESCAPE,
        _refused("import faulthandler; faulthandler.dump_traceback_later(0.1, exit=True)"),
        REFUSED,
        "a timer that would end the process",
    ),
    _py(
        "py-os-system",
        HOST_ESCAPE,
        _refused("import os; os.system('id')"),
        REFUSED,
        "a shell command: a PermissionError the cell can catch, every time (once a Timeout)",
        follow=(
            ("import posix; r2 = 0\ntry:\n    posix.system('id')\nexcept PermissionError:\n    r2 = 1\nr2", "value:1"),
        ),
    ),
    _py(
        "py-subprocess-run",
        HOST_ESCAPE,
        _refused("subprocess.run(['id'])"),
        REFUSED,
        "a child process through subprocess",
        setup=("import subprocess",),
    ),
    _py(
        "py-fork-exec",
        HOST_ESCAPE,
        _refused("import _posixsubprocess; _posixsubprocess.fork_exec()"),
        REFUSED,
        "the built-in behind subprocess, called directly",
    ),
    _py(
        "py-clock-closure-cells",
        TIMING,
        _CLOSURE_CELLS,
        "value:['1970']",
        "the functions kept in the frozen time functions' closure cells, called with no time",
    ),
    _py(
        "py-clock-graalpython",
        TIMING,
        "__graalpython__.time_millis()",
        "value:0",
        "GraalPy's own clock in __graalpython__",
    ),
    _py(
        "py-clock-reload",
        TIMING,
        "import importlib, sys, time\ndel sys.modules['time']\nimport time as t2\n"
        "(importlib.reload(t2).localtime().tm_year, t2.time(), t2.strftime('%Y'))",
        "value:(1970, 0.0, '1970')",
        "the time module reloaded and imported again",
    ),
    _py(
        "py-clock-datetime",
        TIMING,
        "import datetime, time\n"
        "(datetime.datetime.now().isoformat(), datetime.date.today().year, time.ctime(), time.asctime())",
        "value:('1970-01-01T00:00:00', 1970, 'Thu Jan  1 00:00:00 1970', 'Thu Jan  1 00:00:00 1970')",
        "datetime and the text forms of the time",
    ),
    third_try(
        "py-memory-gigabyte-again",
        EXHAUSTION,
        "kept = bytearray(1 << 30)\nlen(kept)",
        "limit",
        "a gigabyte bytearray kept in one step under 64 MiB, a third time in one interpreter (the refused ones are"
        " garbage in the heap when it starts)",
        language="python",
        timeout=PY_TIMEOUT,
        memory_limit=64 * 1024 * 1024,
    ),
)
