"""The frozen clock: every function of the time module that reads the wall clock shows the frozen instant.

The built-in functions that read the clock when given no time (gmtime, localtime, ctime, asctime, strftime) are
taken out of the time module, and none is kept where the model's code could reach it (a closure cell, a default,
a global, a module): `seal`, a host function, takes gmtime, asctime and strftime and returns `sealed(which, ...)`,
which calls one of them for us with the time always given, a missing or None time being the frozen instant. The
host holds the originals; the guest only ever holds `sealed`. time(), time_ns() and GraalPy's own
`__graalpython__.time_millis()` return the frozen instant; monotonic(), perf_counter(), process_time() and
thread_time() stay real (they tell durations, not the date)."""

import sys

GMTIME, ASCTIME, STRFTIME = 0, 1, 2


def freeze_clock(epoch_ms, seal):
    import time

    seconds = epoch_ms / 1000.0
    nanos = epoch_ms * 1_000_000
    sealed = seal(time.gmtime, time.asctime, time.strftime)

    def gmtime(secs=None):
        return sealed(GMTIME, seconds if secs is None else secs)

    def asctime(t=None):
        return sealed(ASCTIME, gmtime() if t is None else t)

    def ctime(secs=None):
        return asctime(gmtime(secs))

    def strftime(format, t=None):  # noqa: A002 - the time module's own parameter name
        return sealed(STRFTIME, format, gmtime() if t is None else t)

    time.time = lambda: seconds
    time.time_ns = lambda: nanos
    time.gmtime = gmtime
    time.localtime = gmtime  # the time zone is UTC
    time.ctime = ctime
    time.asctime = asctime
    time.strftime = strftime
    for f in (gmtime, asctime, ctime, strftime):
        f.__module__ = "time"
    graalpython = sys.modules.get("__graalpython__")
    if graalpython is not None and "time_millis" in graalpython.__dict__:
        graalpython.__dict__["time_millis"] = lambda: epoch_ms
