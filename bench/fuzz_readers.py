"""Mutants of a synthetic file in each input format, read as `kg build` reads them.

Each mutant changes one record of a 30-record file (a byte that is not UTF-8, a control character,
NUL, a stray quote, brace, angle bracket or HTML entity, a character deleted, a value nested 2,000
deep, a long field) or puts one to three BOMs before the file. For every mutant: no exception
but the one-line ``InputError`` (an encoding error or NUL, which must name the mutated line), no
read over 30 s, records + rejections = the 30 records of the file, and every record the mutation
did not touch read unchanged (title and authors); 31 only where the one more is the mutation's own
(:func:`made_an_item`). Prints a row per format; exits 1 on a failure.

    python bench/fuzz_readers.py                  # 500 mutants per format
    python bench/fuzz_readers.py --mutants 50 --formats csv paperlists
    python bench/fuzz_readers.py --field-mb 10    # also: seconds to read a file with a 1 and a 10 MB field
"""

from __future__ import annotations

import argparse
import io
import json
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import InputError
from kg.ingest.formats import read_source
from kg.ingest.formats.listing import _label
from kg.ingest.synth import write_corpus
from kg.records import PaperRecord

FORMATS = ("listing", "abstracts", "paperlists", "bibtex", "csv", "arxiv")
SUFFIX = {
    "listing": ".txt",
    "abstracts": ".txt",
    "paperlists": ".json",
    "bibtex": ".bib",
    "csv": ".csv",
    "arxiv": ".xml",
}
RECORDS = 30
MAX_SECONDS = 30
# What one mutation puts into a record: bytes, or None for the kinds done otherwise.
INSERTS = {
    "not-utf8": [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80"],
    "control": [bytes([code]) for code in (1, 7, 8, 11, 12, 27, 127)] + ["\x85".encode(), "\x9e".encode()],
    "nul": [b"\x00"],
    "quote": [b'"', b"'", b'""'],
    "brace": [b"{", b"}", b"\\", b"@", b"%"],
    "angle": [b"<", b">", b"</title>", b"<entry>", b"]]>"],
    "entity": [b"&nbsp;", b"&amp;", b"&bogus;", b"&#0;", b"&", b"&#x1F600;"],
    "json": [b",", b"[", b"]", b":", b"\\u"],
    "unicode": ["\ufffe".encode(), "\U0001f600".encode(), "\u200b".encode(), "\ufeff".encode(), "总结".encode()],
    "deep": [b"[" * 2000 + b"]" * 2000, b"{" * 2000, b"<a>" * 2000],
    "long": [b"word " * 40_000],
    "delete": None,
    "boms": None,
}
ENCODING_KINDS = {"not-utf8", "nul"}  # kinds whose answer is the one-line InputError naming the line


@dataclass
class Base:
    """One format's unmutated file, and what reading it gives."""

    name: str
    data: bytes
    spans: list[tuple[int, int]]  # each record's first and last line (1-based)
    records: list[tuple[str, tuple[str, ...]]]  # each record's title and authors


@dataclass
class Tally:
    mutants: int = 0
    input_errors: int = 0
    failures: list[str] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    slowest: float = 0.0


def synthetic(format_name: str, seed: int) -> bytes:
    out = io.StringIO()
    write_corpus(out, RECORDS, seed, format_name)
    return out.getvalue().encode()


def read(path: Path, format_name: str) -> list:
    _, items = read_source(path, path.name, None, "utf-8")
    return list(items)


def identity(record: PaperRecord) -> tuple[str, tuple[str, ...]]:
    return record.title or (record.abstract or "")[:200], tuple(record.authors)


def base_of(format_name: str, folder: Path, seed: int) -> Base:
    data = synthetic(format_name, seed)
    path = folder / f"base{SUFFIX[format_name]}"
    path.write_bytes(data)
    items = read(path, format_name)
    assert len(items) == RECORDS and all(isinstance(item, PaperRecord) for item in items), (format_name, items[:3])
    starts = [item.source.line for item in items]
    ends = [start - 1 for start in starts[1:]] + [data.count(b"\n") + 1]
    return Base(format_name, data, list(zip(starts, ends)), [identity(item) for item in items])


def mutate(base: Base, rng: random.Random) -> tuple[str, bytes, int]:
    """(kind, mutant, the 1-based line it changed; 0 for the file's start)."""
    kind = rng.choice(sorted(INSERTS))
    if kind == "boms":
        return kind, b"\xef\xbb\xbf" * rng.randint(1, 3) + base.data, 0
    lines = base.data.split(b"\n")
    first, last = base.spans[rng.randrange(len(base.spans))]
    candidates = [number for number in range(first, last + 1) if number <= len(lines) and lines[number - 1].strip()]
    number = rng.choice(candidates)
    line = lines[number - 1]
    text_at = len(line) - len(line.lstrip())  # never inside the indentation that structures the file
    at = rng.randint(text_at, len(line))
    while 0 < at < len(line) and 0x80 <= line[at] < 0xC0:  # at a character's start: the mutation alone breaks UTF-8
        at -= 1
    if kind == "delete":
        at, end = min(at, len(line) - 1), min(at, len(line) - 1) + 1
        while end < len(line) and 0x80 <= line[end] < 0xC0:  # the whole character
            end += 1
        lines[number - 1] = line[:at] + line[end:]
    else:
        lines[number - 1] = line[:at] + rng.choice(INSERTS[kind]) + line[at:]
    return kind, b"\n".join(lines), number


def made_an_item(base: Base, line: int, data: bytes, items: list) -> bool:
    """Whether the one item beyond the file's records is the mutation's own: a rejection at the
    mutated line (a string between two JSON objects is an element of the array), or a listing field
    whose label the mutation broke ("A[总结 …": an unlabelled paragraph after a block's fields opens
    the next block, so the touched block is read as two, both counted)."""
    if any(not isinstance(item, PaperRecord) and item.source.line == line for item in items):
        return True
    if base.name != "listing" or not line:
        return False
    before = base.data.split(b"\n")[line - 1].decode()
    after = data.split(b"\n")[line - 1].decode(errors="replace")
    return _label(before)[0] is not None and _label(after)[0] != _label(before)[0]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def check(base: Base, kind: str, data: bytes, line: int, path: Path) -> tuple[str | None, float]:
    """What is wrong with reading this mutant (None: nothing), and the seconds it took."""
    path.write_bytes(data)
    started = time.monotonic()
    signal.alarm(MAX_SECONDS)
    try:
        items = read(path, base.name)
    except InputError as exc:
        seconds = time.monotonic() - started
        if kind not in ENCODING_KINDS:
            return f"InputError: {exc}", seconds
        named = exc.line == line or (exc.line is None and "binary" in str(exc))
        return (None if named else f"InputError names line {exc.line}, the mutation is at {line}: {exc}"), seconds
    except Hang:
        return f"still reading after {MAX_SECONDS} s", MAX_SECONDS
    except Exception as exc:  # noqa: BLE001 - what the harness is for
        return f"{type(exc).__name__}: {exc}", time.monotonic() - started
    finally:
        signal.alarm(0)
    seconds = time.monotonic() - started
    if kind in ENCODING_KINDS:
        return "read, not refused with the line", seconds
    if len(items) != RECORDS and not (len(items) == RECORDS + 1 and made_an_item(base, line, data, items)):
        return f"{len(items)} records and rejections for {RECORDS} records", seconds
    read_ones = Counter(identity(item) for item in items if isinstance(item, PaperRecord))
    for (first, last), record in zip(base.spans, base.records):
        if not first <= line <= last and read_ones[record] < 1:
            return f"the untouched record at line {first} ({record[0][:50]!r}) is not read unchanged", seconds
    return None, seconds


def fuzz(format_name: str, mutants: int, seed: int, folder: Path) -> Tally:
    signal.signal(signal.SIGALRM, _alarm)
    base = base_of(format_name, folder, seed)
    rng, tally = random.Random(seed), Tally()
    path = folder / f"mutant{SUFFIX[format_name]}"
    for number in range(mutants):
        kind, data, line = mutate(base, rng)
        problem, seconds = check(base, kind, data, line, path)
        tally.mutants += 1
        tally.kinds[kind] += 1
        tally.input_errors += kind in ENCODING_KINDS and problem is None
        tally.slowest = max(tally.slowest, seconds)
        if problem:
            tally.failures.append(f"#{number} {kind} at line {line}: {problem}")
    return tally


def field_seconds(format_name: str, megabytes: float, folder: Path) -> tuple[float, str]:
    """Seconds to read a file of three records whose middle one has a title of this many MB."""
    big = ("word " * int(megabytes * 200_000 + 1))[: int(megabytes * 1_000_000)]
    titles = ["First Paper On Graphs", big, "Third Paper On Trees"]
    texts = {
        "listing": "ICML 2024\n\n" + "".join(f"{t}\n\nAlice Smith, Bob Jones\n\nAI总结 a summary\n\n" for t in titles),
        "abstracts": "".join(
            f"{t}\n\n"
            for t in [
                "An abstract about graphs and trees, long enough to be one.",
                big,
                "Another abstract about learning, long enough to be one.",
            ]
        ),
        "paperlists": json.dumps([{"title": t, "author": "Alice Smith;Bob Jones"} for t in titles], indent=1),
        "bibtex": "".join(
            (
                f"@inproceedings{{k{i},\ntitle={{{t}}},\nabstract={{{{{t}}}}},\nauthor={{Alice Smith "
                f"and Bob Jones}}\n}}\n\n"
            )
            for i, t in enumerate(titles)
        ),
        "csv": "title,authors\n" + "".join(f'"{t}",Alice Smith; Bob Jones\n' for t in titles),
        "arxiv": '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        + "".join(
            f"<entry><id>http://arxiv.org/abs/2601.0000{i}v1</id><title>{t}</title>"
            "<author><name>Alice Smith</name></author></entry>\n"
            for i, t in enumerate(titles)
        )
        + "</feed>\n",
    }
    path = folder / f"field{SUFFIX[format_name]}"
    path.write_text(texts[format_name], encoding="utf-8")
    started = time.monotonic()
    items = read(path, format_name)
    seconds = time.monotonic() - started
    kept = sum(isinstance(item, PaperRecord) for item in items)
    return seconds, f"{kept} read, {len(items) - kept} rejected"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=500, help="per format")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--formats", nargs="+", choices=FORMATS, default=list(FORMATS))
    parser.add_argument("--field-mb", type=float, default=0, help="also time a field of 1 MB and of this many MB")
    options = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory(prefix="kg-fuzz-") as scratch:
        folder = Path(scratch)
        print(f"{'format':<11} {'mutants':>7} {'failures':>8} {'refused (encoding)':>18} {'slowest s':>9}")
        for format_name in options.formats:
            tally = fuzz(format_name, options.mutants, options.seed, folder)
            failed |= bool(tally.failures)
            print(
                (
                    f"{format_name:<11} {tally.mutants:>7} {len(tally.failures):>8} "
                    f"{tally.input_errors:>18} {tally.slowest:>9.2f}"
                )
            )
            for failure in tally.failures[:8]:
                print(f"    {failure[:300]}")
        for format_name in options.formats if options.field_mb else ():
            timings = [(size, *field_seconds(format_name, size, folder)) for size in (1, options.field_mb)]
            print(
                f"{format_name:<11} "
                + "; ".join(f"{size:g} MB field: {seconds:.2f} s ({what})" for size, seconds, what in timings)
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
