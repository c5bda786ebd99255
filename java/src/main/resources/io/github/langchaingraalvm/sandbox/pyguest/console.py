"""The console: sys.stdout and sys.stderr send every write to the host at once."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # found in python_guest.py's _guest() scope when run
    from pyguest.captured import _len, _str, _type


def install_console(emit, capture):
    class Console:
        """sys.stdout and sys.stderr: every write goes to the host at once, so both streams keep their order."""

        encoding = "utf-8"
        errors = "strict"

        def write(self, text):
            if _type(text) is not _str:
                raise TypeError(f"write() argument must be str, not {_type(text).__name__}")
            if text and capture:
                emit(text)
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

    console = Console()
    sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = console  # type: ignore[assignment,misc]
