"""Every record read is counted at its own line: a fault in one record of a structured file costs
that record (a rejection at its line) and no other, control characters and BOMs cost nothing, and
an encoding error or NUL is one line naming the file's line (tests/data/reader_faults.tsv)."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.ingest.formats import read_source
from kg.ingest.synth import write_corpus
from kg.records import PaperRecord

DATA = Path(__file__).resolve().parents[1] / "data"
BENCH = Path(__file__).resolve().parents[2] / "bench"
SUFFIX = {"listing": ".txt", "paperlists": ".json", "bibtex": ".bib", "csv": ".csv", "arxiv": ".xml"}


def cases() -> list[dict[str, str]]:
    lines = [
        line
        for line in (DATA / "reader_faults.tsv").read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def unescaped(text: str) -> bytes:
    value = text.replace("{deep}", "[" * 2000).encode("latin-1", "backslashreplace").decode("unicode_escape")
    return value.encode("utf-8", "surrogateescape")  # \udcff is the byte 0xff, which is no UTF-8


def mutant(case: dict[str, str], folder: Path) -> tuple[Path, int]:
    """The file with the case's fault, and the line of the fault."""
    out = io.StringIO()
    write_corpus(out, 30, 5, case["format"])
    path = folder / f"base{SUFFIX[case['format']]}"
    path.write_text(out.getvalue(), encoding="utf-8")
    data = path.read_bytes()
    if case["old"] == "^":
        path.write_bytes(unescaped(case["new"]) + data)
        return path, 1
    _, items = read_source(path, path.name, case["format"])
    twentieth = [item.source.line for item in items][19]
    start = sum(len(line) for line in data.splitlines(keepends=True)[: twentieth - 1])
    old = unescaped(case["old"])
    at = data.index(old, start)
    path.write_bytes(data[:at] + unescaped(case["new"]) + data[at + len(old) :])
    return path, data.count(b"\n", 0, at) + 1


@pytest.mark.parametrize("case", cases(), ids=lambda case: case["case"])
def test_one_fault_costs_one_record(case, tmp_path):
    path, line = mutant(case, tmp_path)
    if case["records"] == "exit 2":
        with pytest.raises(InputError) as error:
            list(read_source(path, path.name)[1])
        assert error.value.line == line and case["reason"] in str(error.value)
        return
    source, items = read_source(path, path.name)
    items = list(items)
    assert source.format == case["format"]
    rejections = [item for item in items if not isinstance(item, PaperRecord)]
    assert (len(items) - len(rejections), len(rejections)) == (int(case["records"]), int(case["rejections"])), (
        rejections
    )
    for rejection in rejections:
        assert case["reason"] in rejection.reason and rejection.source.line <= line


@pytest.mark.slow
def test_fuzzed_readers_lose_nothing(tmp_path):
    """The fuzz harness, small: 40 mutants of each format, no traceback, hang or lost record."""
    sys.path.insert(0, str(BENCH))
    try:
        import fuzz_readers
    finally:
        sys.path.remove(str(BENCH))
    for format_name in fuzz_readers.FORMATS:
        tally = fuzz_readers.fuzz(format_name, 40, seed=7, folder=tmp_path)
        assert tally.mutants == 40 and tally.failures == [], (format_name, tally.failures[:5])
