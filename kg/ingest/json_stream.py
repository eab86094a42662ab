"""The values of a top-level JSON array, streamed, each with its line, resynchronised after a fault.

The text comes from :func:`kg.ingest.reading.iter_lines`, so a JSON file is read as a listing is:
BOMs, line ends, control characters (dropped: a raw ESC in a title is no fault) and
encoding errors (one line naming file, line and byte) the same way. Values are decoded one at a
time from chunks (``json.JSONDecoder.raw_decode``), so a file of many MB never exists twice in
memory. A value that cannot be decoded (invalid, nested deeper than Python's parser goes,
truncated) is one :class:`Fault` at its first line, and reading goes on at the next top-level
object: the next ``{`` that opens a line indented as the bad value's ``{`` was (the way JSON
lists are printed), or in a file without line breaks the next ``}, {``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from .reading import iter_lines

_CHUNK = 1 << 16
_WHITESPACE = re.compile(r"[ \t\r\n]*")
_NEXT_IN_LINE = re.compile(r"\}\s*,?\s*(?=\{)")
_KEY = re.compile(r'"(?:[^"\\\n]|\\.)*"\s*:')
_VALUE_START = re.compile(r'[{\["\-0-9tfn]')
_BETWEEN_OBJECTS = re.compile(r"\n[ \t]*(?=\{)|\}\s*,?\s*(?=\{)|(?=\][ \t\r\n]*\Z)")


class Fault:
    """A part of the array that is no value: where it starts and why."""

    def __init__(self, line: int, reason: str, text: str = ""):
        self.line, self.reason, self.text = line, reason, text


def _chunks(path: Path) -> Iterator[str]:
    pending: list[str] = []
    size = 0
    for _, text in iter_lines(path):
        pending.append(text.replace("\t", " "))  # strict JSON refuses a raw tab in a string; cleaning makes it a space
        size += len(text) + 1
        if size >= _CHUNK:
            yield "\n".join(pending) + "\n"
            pending, size = [], 0
    if pending:
        yield "\n".join(pending) + "\n"


class ArrayStream:
    """``values()``: ``(line, value)`` for every value of the array and ``(line, Fault)`` for
    every part that is not one, in order, so every paper the file holds is one or the other."""

    def __init__(self, path: Path):
        self.chunks, self.buffer, self.pos, self.line, self.eof = _chunks(path), "", 0, 1, False
        self.skipped_to_end, self.skipped = False, ""  # the text the last skip passed
        self.decoder = json.JSONDecoder()  # strict: a line break in a string ends it, so a stray quote costs one paper

    def _more(self, double: bool = False) -> bool:
        """Read the next chunk (with ``double``, chunks until the unread text is twice as long, so a
        value of many MB is decoded a logarithmic number of times, not once per chunk)."""
        pieces, wanted = [self.buffer[self.pos :]], (len(self.buffer) - self.pos) * 2 if double else 0
        size = len(pieces[0])
        while not self.eof and (len(pieces) == 1 or size < wanted):
            chunk = next(self.chunks, None)
            if chunk is None:
                self.eof = True
            else:
                pieces.append(chunk)
                size += len(chunk)
        if len(pieces) == 1:
            return False
        self.buffer, self.pos = "".join(pieces), 0  # drop what has been read; self.line stays at pos
        return True

    def _advance(self, to: int) -> None:
        self.line += self.buffer.count("\n", self.pos, to)
        self.pos = to

    def _next_char(self) -> str | None:
        """The next non-blank character (not consumed), or None at the end of the file."""
        while True:
            self._advance(_WHITESPACE.match(self.buffer, self.pos).end())
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self._more():
                return None

    def _excerpt(self) -> str:
        return self.buffer[self.pos : self.pos + 200]

    def values(self) -> Iterator[tuple[int, object]]:
        first = self._next_char()
        if first != "[":
            yield self.line, Fault(self.line, "is not a JSON array of papers" if first else "is empty", self._excerpt())
            return
        self._advance(self.pos + 1)
        expect_value = True
        while (char := self._next_char()) != "]":
            if char is None:
                if not self.skipped_to_end:  # else the fault that ran to the end was the last paper's
                    yield self.line, Fault(self.line, "JSON ends before the array is closed: the file is truncated")
                return
            if char == ",":
                self._advance(self.pos + 1)
                expect_value = True
                continue
            if not expect_value and char != "{":  # a missing ',' before an object is read as if it were there
                yield from self._junk(f"expected ',' or ']' between papers, found {char!r}")
            elif _KEY.match(self.buffer, self.pos) or not _VALUE_START.match(char):
                yield from self._junk(
                    "keys and values outside an object (its '{' is missing)"
                    if char == '"'
                    else f"expected a paper, found {char!r}"
                )
            elif (value := self._value())[1] is not None:  # None: stray punctuation, no paper
                yield value
            expect_value = False
        self._advance(self.pos + 1)
        if self._next_char() is not None:
            yield self.line, Fault(self.line, "text after the end of the JSON array", self._excerpt())

    def _value(self) -> tuple[int, object]:
        start = self.line
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.pos)
                self._advance(end)
                return start, value
            except RecursionError:
                reason = "a value nested deeper than JSON is read here"
            except json.JSONDecodeError as error:
                if self._more(double=True):
                    continue
                line = self.line + self.buffer.count("\n", self.pos, error.pos)
                column = error.pos - (self.buffer.rfind("\n", 0, error.pos) + 1) + 1
                truncated = error.pos >= len(self.buffer) - 1 or "Unterminated" in error.msg
                reason = (
                    f"{'JSON ends inside a paper: the file is truncated' if truncated else 'invalid JSON'}: "
                    f"{error.msg} (line {line}, column {column})"
                )
            text = self._excerpt()
            self._skip_to_next_object()
            return start, Fault(start, reason, text) if '"' in self.skipped else None

    def _junk(self, reason: str) -> Iterator[tuple[int, Fault]]:
        """Text where a paper should be: skipped to the next object; a fault where it holds keys or
        values (what is left of a paper), none for stray punctuation."""
        start, text = self.line, self._excerpt()
        self._skip_between_objects()
        if '"' in self.skipped:
            yield start, Fault(start, reason, text)

    def _skip_between_objects(self) -> None:
        """Move past text that is no value to the next ``{`` that opens a line or follows a ``}``
        (or the array's end); :attr:`skipped` is the text passed."""
        while True:
            found = _BETWEEN_OBJECTS.search(self.buffer, self.pos)
            if found or not self._more(double=True):
                end = found.end() if found else len(self.buffer)
                self.skipped = self.buffer[self.pos : end]
                self._advance(end)
                return

    def _skip_to_next_object(self) -> None:
        """Move to the next top-level object after the one at ``pos``, or to the end of the file."""
        line_start = self.buffer.rfind("\n", 0, self.pos) + 1
        indent = self.buffer[line_start : self.pos]
        lead = indent[: len(indent) - len(indent.lstrip())]
        at_line_start = re.escape("\n" + lead) + r"(?=\{)"  # the next object printed as this line's is
        pattern = re.compile(at_line_start if not indent.strip() else f"{at_line_start}|{_NEXT_IN_LINE.pattern}")
        searched = self.pos + 1
        while True:
            if found := pattern.search(self.buffer, searched):
                self.skipped = self.buffer[self.pos : found.end()]
                self._advance(found.end())
                return
            # where the search stops, after _more re-bases the buffer at pos (a match may span two chunks)
            searched = max(1, len(self.buffer) - self.pos - 1 - len(indent))
            if not self._more(double=True):
                self.skipped = self.buffer[self.pos :]
                self._advance(len(self.buffer))
                self.skipped_to_end = True
                return
