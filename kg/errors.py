"""Errors a user sees as one line (the CLI prints them without a traceback)."""


class KgError(Exception):
    """A failure the user can act on; ``str()`` is the whole message."""

    exit_code = 1


class InputError(KgError):
    """A file that cannot be read as a listing (unreadable, binary, wrong encoding)."""

    exit_code = 2

    def __init__(self, path, message: str, line: int | None = None):
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")
