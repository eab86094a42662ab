"""Seeded, bounded fuzzing of the readers with mutants of the samples (and of the real
listings in ../shared/realdata/ when present): no exception, every record read is a record or
a rejection, records the mutation did not touch are kept, the format does not flip while the
file keeps its header and most of its blocks, and no input takes long.

``KG_FUZZ_MUTANTS`` sets the number of mutants per file (default 300; the issue's run used
thousands: ``KG_FUZZ_MUTANTS=3000 pytest tests/ingest/test_fuzz.py``).
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ABSTRACTS, LISTING
from structured_sources import realdata

from kg.errors import InputError
from kg.ingest.formats import read_source
from kg.records import PaperRecord, Rejection

MUTANTS = int(os.environ.get("KG_FUZZ_MUTANTS") or 300)
MAX_CPU_SECONDS = 2.0  # per input; the slowest sample mutant takes a fraction of that
NEIGHBOURS = 1  # records this many blocks from a mutation may change with it; the rest must not


@dataclass
class Mutant:
    kind: str
    data: bytes
    first_line: int  # the lines the mutation touched (1-based, inclusive), in the original
    last_line: int
    keeps_shape: bool  # the header and most blocks are still there


def mutate(lines: list[bytes], rng: random.Random) -> Mutant:
    n = len(lines)
    i = rng.randrange(1, n)  # never the header line: that is what "keeps its header" means
    kind = rng.choice(["delete", "swap", "duplicate", "flip", "control", "bom", "truncate", "huge"])
    out = list(lines)
    last = i
    if kind == "delete":
        del out[i]
    elif kind == "swap" and i + 1 < n:
        out[i], out[i + 1] = out[i + 1], out[i]
        last = i + 1
    elif kind == "duplicate":
        out.insert(i, out[i])
    elif kind == "flip" and out[i]:
        line = bytearray(out[i])
        at = rng.randrange(len(line))
        line[at] ^= 1 << rng.randrange(8)
        out[i] = bytes(line)
    elif kind == "control":
        at = rng.randrange(len(out[i]) + 1)
        out[i] = out[i][:at] + bytes([rng.choice([1, 7, 8, 11, 12, 27, 127])]) + out[i][at:]
    elif kind == "bom":
        out[i] = b"\xef\xbb\xbf" + out[i]
    elif kind == "truncate":
        cut = rng.randrange(len(out[i]) + 1)
        out = out[:i] + [out[i][:cut]]
        last = n
    elif kind == "huge":
        out[i] = out[i].rstrip(b"\r\n") * max(1, 30_000 // max(1, len(out[i]))) + b"\n"
    keeps = kind != "truncate" or i > n * 0.6
    return Mutant(kind, b"".join(out), i + 1, last + 1, keeps)


def read_all(path: Path, format_name: str | None = None):
    source, items = read_source(path, path.name, format_name, "utf-8")
    return source.format, list(items)


def spans(items) -> list[tuple[int, int, str]]:
    """(first line, last line, title or first words) of every record, in order."""
    starts = [item.source.line for item in items]
    ends = [s - 1 for s in starts[1:]] + [10**9]
    return [(s, e, key(item)) for s, e, item in zip(starts, ends, items) if isinstance(item, PaperRecord)]


def key(item) -> str:
    return item.title or (item.abstract or "")[:80]


def fuzz(path: Path, count: int, seed: int, tmp_path: Path) -> dict[str, int]:
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    original_format, original = read_all(path)
    records = spans(original)
    rng = random.Random(seed)
    tally = {"mutants": 0, "input errors": 0, "exceptions": 0, "slow": 0, "lost": 0, "flipped": 0}
    problems: list[str] = []
    target = tmp_path / path.name
    for number in range(count):
        mutant = mutate(lines, rng)
        target.write_bytes(mutant.data)
        tally["mutants"] += 1
        started = time.process_time()
        try:
            detected, items = read_all(target)
        except InputError:
            tally["input errors"] += 1  # one clean line (e.g. a flipped byte that is not UTF-8)
            continue
        except Exception as exc:  # noqa: BLE001 - what the test is for
            tally["exceptions"] += 1
            problems.append(f"#{number} {mutant.kind}: {type(exc).__name__}: {exc}")
            continue
        if time.process_time() - started > MAX_CPU_SECONDS:
            tally["slow"] += 1
            problems.append(f"#{number} {mutant.kind}: {time.process_time() - started:.1f} s")
        assert all(isinstance(item, (PaperRecord, Rejection)) for item in items)
        if mutant.keeps_shape and detected != original_format:
            tally["flipped"] += 1
            problems.append(f"#{number} {mutant.kind} at line {mutant.first_line}: read as {detected}")
            continue
        kept = {key(item) for item in items if isinstance(item, PaperRecord)}
        # a record owns the blank line before it: deleting that joins it to what precedes
        near = [k for k, (s, e, _) in enumerate(records) if s - 1 <= mutant.last_line and e >= mutant.first_line - 1]
        lo, hi = (min(near) - NEIGHBOURS, max(near) + NEIGHBOURS) if near else (-1, -1)
        if mutant.kind == "truncate":
            hi = len(records)
        for k, (_, _, title) in enumerate(records):
            if not lo <= k <= hi and title not in kept:
                tally["lost"] += 1
                problems.append(f"#{number} {mutant.kind} at line {mutant.first_line}: lost {title[:60]!r}")
    assert not problems, f"{tally}: " + "; ".join(problems[:10])
    return tally


@pytest.mark.slow
@pytest.mark.parametrize("sample", [LISTING, ABSTRACTS], ids=["listing", "abstracts"])
def test_mutants_of_the_samples(sample, tmp_path):
    tally = fuzz(sample, MUTANTS, seed=14, tmp_path=tmp_path)
    assert tally["mutants"] == MUTANTS


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["aistats2025_listing.txt", "corl2024_abstracts.txt"])
def test_mutants_of_the_real_listings(name, tmp_path):
    path = realdata(name)
    fuzz(path, max(20, MUTANTS // 10), seed=41, tmp_path=tmp_path)
