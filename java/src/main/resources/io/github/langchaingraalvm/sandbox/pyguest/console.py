"""The console: sys.stdout and sys.stderr send every write to the host at once, each naming its stream."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from pyguest.captured import _len, _str, _type


def install_console(emit, capture):
    class Console:
        """sys.stdout or sys.stderr: every write goes to the host at once, so both streams keep their order."""

        encoding = "utf-8"
        errors = "strict"

        def __init__(self, stream):
            self._stream = stream

        def write(self, text):
            if _type(text) is not _str:
                raise TypeError(f"write() argument must be str, not {_type(text).__name__}")
            if text and capture:
                emit(text, self._stream)
            return _len(text)

        def writelines(self, lines):
            for line in lines:
                self.write(line)

        def flush(self):
            pass

        def isatty(self):
            return False

        def writable(self):
            return True

        def readable(self):
            return False

        def fileno(self):
            raise OSError("the console has no file descriptor")

    # The host reads the stream name as "stderr" or anything else as "stdout", so a guest that renames it gains nothing.
    sys.stdout = sys.__stdout__ = Console("stdout")  # type: ignore[assignment,misc]
    sys.stderr = sys.__stderr__ = Console("stderr")  # type: ignore[assignment,misc]
