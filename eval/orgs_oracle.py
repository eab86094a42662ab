"""Dump how the organisation parser reads every affiliation string of the development data.

The current parser is the oracle while it is rewritten: run this before and after a change and diff the two
files; every line that differs is a string whose chains (or keys, or shape answers) changed.

    .venv/bin/python -m eval.orgs_oracle OUT.txt [REALDATA_DIR]

Strings come from the development data (``aff`` fields of ``REALDATA_DIR/*.json`` and the institutions of
every record read from its files, default ``$KG_REALDATA`` or ``../shared/realdata``), the bundled samples, and the
inputs of the organisation case tables (``tests/orgs/cases.tsv``, ``near_misses.tsv``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from eval.realdata import realdata_dir
from kg import SAMPLES_DIR
from kg.ingest.formats import read_source
from kg.orgs.aliases import active_aliases
from kg.orgs.canonical_names import looks_like_organisation
from kg.orgs.institutions import names_institution, resolve_entries
from kg.orgs.keys import institution_key
from kg.orgs.org_names import is_top_level, starts_with_unit_word
from kg.records import PaperRecord

ROOT = Path(__file__).resolve().parent.parent
# The checks of the case tables whose expected column is a second string to read.
PAIRS = {"same_key", "same_top_keys", "keys_apart", "top_keys_apart", "look_alikes_apart"}


def _records(path: Path):
    try:
        _, records = read_source(path, path.stem)
        yield from (record for record in records if isinstance(record, PaperRecord))
    except Exception as error:  # a file no format reads still has its aff strings read below
        print(f"{path}: not read ({error})", file=sys.stderr)


def strings(realdata: Path) -> tuple[set[str], set[tuple[str, str | None]]]:
    """Every plain string and every (name, Chinese name) entry to dump."""
    plain: set[str] = set()
    entries: set[tuple[str, str | None]] = set()
    files = sorted(realdata.glob("*")) if realdata.is_dir() else []
    if not files:
        print(f"{realdata}: absent, development data skipped", file=sys.stderr)
    for path in files:
        if path.suffix == ".json" and not path.stem.endswith("_truth"):
            for paper in json.loads(path.read_text(encoding="utf-8")):
                for field in str(paper.get("aff") or "").split(";"):
                    plain.add(field)
                    plain.update(field.split("+"))
    listings = [path for path in files if not path.stem.endswith("_truth")]
    for path in [*listings, *sorted(Path(SAMPLES_DIR).glob("*.txt"))]:
        for record in _records(path):
            entries.update((entry.name, entry.name_zh) for entry in record.institutions)
            plain.update(entry.raw for entry in record.institutions)
    for cases in (ROOT / "tests" / "orgs" / "cases.tsv", ROOT / "tests" / "orgs" / "near_misses.tsv"):
        for line in cases.read_text(encoding="utf-8").splitlines()[1:]:
            check, entry, expected, *_ = line.split("\t")
            plain.update((entry, expected) if check in PAIRS else (entry,))
    plain.discard("")
    return plain, entries


def _chains(name: str, chinese: str | None, aliases) -> str:
    return " ; ".join(
        " < ".join(f"{level!r}" for level in chain.levels) + f" zh={chain.chinese!r}"
        for chain in resolve_entries(name, chinese, aliases)
    )


def main(out: str, realdata: str = "") -> None:
    aliases = active_aliases()
    plain, entries = strings(Path(realdata) if realdata else realdata_dir())
    lines = []
    for text in sorted(plain):
        shape = (
            institution_key(text),
            is_top_level(text),
            starts_with_unit_word(text),
            looks_like_organisation(text, aliases),
            names_institution(text, aliases),
        )
        lines.append(f"S\t{text!r}\t{shape!r}\t{_chains(text, None, aliases)}")
    for name, chinese in sorted(entries, key=lambda entry: (entry[0], entry[1] or "")):
        lines.append(f"E\t{name!r}\t{chinese!r}\t{_chains(name, chinese, aliases)}")
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(plain)} strings, {len(entries)} entries -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
