"""kg/ingest/reading.py: lines and paragraphs of a file, whatever its line ends; one-line errors."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.ingest.reading import Paragraph, iter_lines, iter_paragraphs


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_line_ends_and_a_bom_do_not_change_the_lines(tmp_path, newline):
    path = tmp_path / "listing.txt"
    path.write_bytes(b"\xef\xbb\xbf" + newline.join([b"ICML 2026", b"", b"Title", b"  ", b"A, B", b""]))
    assert list(iter_lines(path)) == [
        (1, "ICML 2026"),
        (2, ""),
        (3, "Title"),
        (4, "  "),
        (5, "A, B"),
    ]  # the last end ends line 5
    assert list(iter_paragraphs(iter_lines(path))) == [
        Paragraph(1, "ICML 2026"),
        Paragraph(3, "Title"),
        Paragraph(5, "A, B"),
    ]


def test_a_paragraph_keeps_its_first_line_number_and_joins_its_lines():
    lines = iter([(1, ""), (2, " first "), (3, "second"), (4, ""), (5, ""), (6, "last")])
    assert list(iter_paragraphs(lines)) == [Paragraph(2, "first\nsecond"), Paragraph(6, "last")]


def test_an_undecodable_line_is_named_with_its_line_and_column(tmp_path):
    path = tmp_path / "old.txt"
    path.write_bytes(b"ICML 2026\n\nCaf\xe9\n")
    with pytest.raises(InputError) as error:
        list(iter_lines(path))
    assert str(error.value) == (
        f"{path}:3: is not valid utf-8 (byte 0xe9 at column 4); "
        "save it as UTF-8 or pass --encoding (e.g. --encoding latin-1)"
    )
    assert [text for _, text in iter_lines(path, "latin-1")][2] == "Café"  # the near miss: the right encoding


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.mkdir(), "is a folder, not a listing file"),
        (lambda p: None, "no such file"),
        (lambda p: p.write_bytes(b"\x89PNG\x00\x00"), "is a binary file, not a text listing"),
    ],
)
def test_unreadable_files_fail_with_one_line(tmp_path, make, message):
    path = tmp_path / "input.txt"
    make(path)
    with pytest.raises(InputError) as error:
        list(iter_lines(path))
    assert str(error.value) == f"{path}: {message}" and error.value.exit_code == 2


@pytest.mark.parametrize("written, encoding", [("Alan Luke\u009ei\u010d", "utf-8"), ("Alan Luke\u009eic", "latin-1")])
def test_a_c1_control_is_the_windows_1252_letter_it_stands_for(tmp_path, written, encoding):
    path = tmp_path / "listing.txt"
    path.write_bytes(written.encode(encoding) + b"\n\x81\x9d".decode("latin-1").encode(encoding))
    lines = list(iter_lines(path, encoding))
    assert lines[0][1].startswith("Alan Luke\u017ei")  # ž; the codes windows-1252 leaves undefined go
    assert "\x81" not in lines[1][1] and "\x9d" not in lines[1][1]
