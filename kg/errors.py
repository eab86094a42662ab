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


class ParameterError(KgError):
    """A parameter value its declared kind does not allow (exit 2, as a bad option)."""

    exit_code = 2


class SparqlSyntaxError(KgError):
    """A query the engine cannot parse, at ``line``:``column`` of the text it was given."""

    def __init__(self, line: int, column: int, detail: str):
        self.line, self.column, self.detail = line, column, detail
        super().__init__(f"SPARQL syntax error at {line}:{column}: {detail}")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 institution``, ``2 institutions``, ``1,000 papers``: counts in messages."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"
