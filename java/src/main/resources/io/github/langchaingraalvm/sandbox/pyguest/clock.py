def freeze_clock(epoch_ms):
    import time

    seconds = epoch_ms / 1000.0
    nanos = epoch_ms * 1_000_000
    real_localtime, real_gmtime, real_ctime, real_asctime = time.localtime, time.gmtime, time.ctime, time.asctime
    real_strftime = time.strftime
    time.time = lambda: seconds
    time.time_ns = lambda: nanos
    time.localtime = lambda secs=None: real_gmtime(seconds if secs is None else secs)
    time.gmtime = lambda secs=None: real_gmtime(seconds if secs is None else secs)
    time.ctime = lambda secs=None: real_asctime(real_gmtime(seconds if secs is None else secs))
    time.asctime = lambda t=None: real_asctime(real_gmtime(seconds) if t is None else t)
    time.strftime = lambda fmt, t=None: real_strftime(fmt, real_gmtime(seconds) if t is None else t)
    del real_localtime, real_ctime
