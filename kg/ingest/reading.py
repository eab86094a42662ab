"""Stream a listing file as numbered lines and blank-line separated paragraphs.

Files are read line by line (never whole), so a corpus of any size needs memory for one
paragraph at a time. UTF-8 with or without BOMs (one or more) and LF/CRLF/CR line ends, in any mix, are
accepted (control characters and Unicode non-characters are dropped); anything
else is an :class:`InputError` naming the file and line, because guessing an encoding would
silently corrupt names.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..errors import InputError

_SNIFF_BYTES = 8192
# Characters no output may carry: C0/C1 controls but tab (illegal or meaningless in XML, so
# GEXF/GraphML/HTML would be malformed) and Unicode non-characters (U+FFFE, U+FFFF and the
# rest, which RDF parsers such as rapper refuse). They are removed as lines are read.
# C1 controls mean nothing in text: text that holds them was windows-1252 read as Latin-1 (the
# WHATWG encoding standard reads the latin-1 label as windows-1252 for this reason), so each is the
# letter or sign it stands for there ("Luke\x9ei" is "Lukeži", "\x93" a quotation mark); the five
# codes windows-1252 leaves undefined are removed with the other controls below.
_WINDOWS_1252_C1 = {
    code: bytes([code]).decode("cp1252") for code in range(0x80, 0xA0) if code not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
}
_UNWANTED = re.compile(
    "[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)
# The same for text without characters beyond the BMP, ten times faster (1 s for a 10 MB line with the whole class).
_UNWANTED_BMP = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


def _wanted(text: str) -> str:
    """The text without the characters no output may carry (:data:`_UNWANTED`)."""
    return (_UNWANTED if _BEYOND_BMP.search(text) else _UNWANTED_BMP).sub("", text)


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A run of non-blank lines; ``line`` is the 1-based number of its first line."""

    line: int
    text: str


def check_text_file(path: Path) -> None:
    """Fail early, with one line, on a file that is missing, unreadable or binary."""
    if path.exists() and not path.is_file() and not path.is_dir():  # opening a FIFO would wait for a writer
        raise InputError(path, "is not a regular file (a FIFO, socket or device), not a listing file")
    try:
        with open(path, "rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except IsADirectoryError:
        raise InputError(path, "is a folder, not a listing file") from None
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or exc})") from None
    if b"\x00" in head:
        raise InputError(path, "is a binary file, not a text listing")


def iter_lines(path: Path, encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` with line ends (LF, CRLF or CR) and the leading BOMs removed.

    Lines are decoded one at a time so that an encoding error names the exact line.
    """
    check_text_file(path)
    codec = codecs.lookup(encoding).name
    number = 0
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                while number == 0 and codec == "utf-8" and raw.startswith(codecs.BOM_UTF8):  # one or more
                    raw = raw[len(codecs.BOM_UTF8) :]
                try:
                    text = raw.decode(codec)
                except UnicodeDecodeError as exc:
                    raise InputError(
                        path,
                        f"is not valid {encoding} (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                        "save it as UTF-8 or pass --encoding (e.g. --encoding latin-1)",
                        number + 1,
                    ) from None
                if "\x00" in text:
                    raise InputError(path, "contains NUL bytes: a binary file, not a text listing", number + 1)
                # One line end off (CRLF, LF or a final CR), then a CR inside is a line end too:
                # "a\r\r\n" is a line and a blank line, as "a\n\n" and "a\r\n\r\n" are.
                body = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith(("\n", "\r")) else text
                if not body.isascii():
                    body = body.translate(_WINDOWS_1252_C1)
                for part in _wanted(body).split("\r"):
                    number += 1
                    yield number, part
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or exc})", number + 1) from None


def iter_paragraphs(lines: Iterator[tuple[int, str]]) -> Iterator[Paragraph]:
    """Group lines into paragraphs separated by blank (or whitespace-only) lines."""
    start = 0
    buffer: list[str] = []
    for number, text in lines:
        if stripped := text.strip():
            if not buffer:
                start = number
            buffer.append(stripped)
        elif buffer:
            yield Paragraph(start, "\n".join(buffer))
            buffer = []
    if buffer:
        yield Paragraph(start, "\n".join(buffer))
