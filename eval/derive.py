"""Derive a real-data set from a paperlists JSON file: the listing and abstracts files kg reads and the truth it is
scored against.

    python -m eval.derive aaai2022.json OUTDIR [--venue "AAAI 2022"] [--first N]
    KG_REALDATA=OUTDIR python -m eval.realdata

The provider's file (papercopilot/paperlists, one JSON list of papers) is third-party data: this
writes what ``../shared/realdata/`` holds for two conferences (its README describes the files), so
that any other conference of the provider can be scored the same way. Nothing derived is ever
committed to the repository. The listing and abstracts files are the ones ``shared/realdata``
holds, byte for byte (``tests/pipeline/test_realdata.py`` checks it when that folder exists).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path


def split(value: str | None) -> list[str]:
    """The provider's ``;``-separated field as a list (an empty field is no item)."""
    return value.split(";") if value else []


# A generation after a name's comma ("Martin Luther King, Jr."): the end of that name, not a name.
_GENERATION = re.compile(r"(?:Jr|Sr)\.?|II|III|IV")


# A submission the conference did not accept, which some lists hold too (ICLR 2023): no paper of it.
_NOT_ACCEPTED = re.compile(r"(?:desk[\s_-]*)?reject(?:ed)?|withdrawn?|withdrawal", re.IGNORECASE)


def byline(record: dict) -> list[str]:
    """The authors as the provider names them, each trimmed: joined with ';' (OpenReview-based
    lists; '; ' in the NeurIPS lists of the 1980s to 2000s) or, where no ';' is given, with ', '
    (CVF lists, NeurIPS 2024), a generation staying with the name before it (also one given a
    place of its own: NeurIPS 1987's "J.L. WYATT; Jr; D.L. STANDLEY"). Under ``author``, in some
    lists ``authors``."""
    value = record.get("author") or record.get("authors") or ""
    if isinstance(value, list):
        return [name.strip() for name in value]
    parts = split(value) if ";" in value or "," not in value else value.split(",")
    names: list[str] = []
    for name in (part.strip() for part in parts):
        if names and _GENERATION.fullmatch(name):
            names[-1] = f"{names[-1]}, {name}"
        elif name:
            names.append(name)
    return _once(names, record)


def _once(names: list[str], record: dict) -> list[str]:
    """The byline once where the provider wrote it twice in a row (ICRA and IROS from IEEE Xplore:
    "A;B;A;B", with one affiliation per author): two names or more repeated in order, or one name
    twice where the affiliations name one author (two namesakes would have one each)."""
    half = len(names) // 2
    if not half or len(names) != 2 * half or names[:half] != names[half:]:
        return names
    if half == 1 and (len(affs := _affiliations(record)) != 1 or not affs[0]):
        return names
    return names[:half]


def default_venue(provider_file: Path) -> str:
    """'aaai2022.json' -> 'AAAI 2022' (pass --venue where the conference spells itself otherwise: 'CoRL 2024')."""
    found = re.fullmatch(r"([A-Za-z]+?)[-_]?(\d{4})", provider_file.stem)
    return f"{found[1].upper()} {found[2]}" if found else provider_file.stem


def _affiliations(record: dict) -> list[str]:
    """The provider's affiliation strings, spaces collapsed ('' where an author has none); KDD's list
    writes them under ``affs``."""
    return [" ".join(aff.split()) for aff in split(record.get("aff") or record.get("affs"))]


def _distinct(values: list[str]) -> list[str]:
    return list(dict.fromkeys(value for value in values if value))


def _norms(record: dict, affs: list[str]) -> tuple[list[tuple[str, str]], str | None]:
    """(raw affiliation, the provider's normalised name) pairs, and why there are none where the two do not align.

    The index has one entry per affiliation string, or one per non-empty one; an entry such as
    '1+2' (one string, two institutions) says nothing of which part is which, so its paper is left out.
    """
    index = split(record.get("aff_unique_index"))
    norms = [" ".join(norm.split()) for norm in split(record.get("aff_unique_norm"))]
    given = [aff for aff in affs if aff]
    if not index or not norms:
        return [], "no aff_unique_index/aff_unique_norm"
    if len(index) not in (len(affs), len(given)):
        return [], f"{len(index)} index entries for {len(affs)} affiliations"
    if bad := next((i for i in index if not i.isdigit() or int(i) >= len(norms)), None):
        return [], f"bad index {bad!r}"
    return [(raw, norms[int(i)]) for raw, i in zip(affs if len(index) == len(affs) else given, index) if raw], None


def derive(records: list[dict], venue: str) -> tuple[str, str, dict]:
    """(listing text, abstracts text, truth) of the provider's records."""
    acronym = venue.rsplit(" ", 1)[0]
    listing, abstracts = [acronym, ""], [f"{venue} Papers", ""]
    papers, skipped, unaligned = [], [], []
    raw_to_norms: dict[str, Counter] = defaultdict(Counter)
    for source_index, record in enumerate(records):
        title, authors = (record.get("title") or "").strip(), byline(record)
        status = (record.get("status") or "").strip()
        if not title or not authors or _NOT_ACCEPTED.fullmatch(status):
            why = "no title" if not title else f"status {status!r}" if _NOT_ACCEPTED.fullmatch(status) else "no authors"
            skipped.append({"source_index": source_index, "title": title, "why": why})
            continue
        affs = _affiliations(record)
        institutions = _distinct(affs)
        listing_line = len(listing) + 1
        listing += [title, "", title, "", ", ".join(authors), ""]
        if institutions:
            listing += [f"机构 * {' ； '.join(institutions)} 纠错", ""]
        listing += ["AI总结", "", f"Comments Accepted at {venue}", ""]
        abstract = " ".join((record.get("abstract") or "").split())
        abstract_line = None
        if abstract:
            abstract_line = len(abstracts) + 1
            abstracts += [abstract, ""]
        norms, why = _norms(record, affs)
        if why:
            unaligned.append({"source_index": source_index, "title": title, "why": why})
        for raw, norm in norms:
            raw_to_norms[raw][norm] += 1
        papers.append(
            {
                # a name's spacing is the reader's to collapse ("Philip  S Yu" in AAAI 2022): the truth has one space
                "source_index": source_index,
                "id": record.get("id", ""),
                "title": title,
                "authors": [" ".join(name.split()) for name in authors],
                "author_ids": split(record.get("authorids")),
                "aff_per_author": affs,
                "institutions": institutions,
                "keywords": [word.strip() for word in split(record.get("keywords")) if word.strip()],
                "abstract": abstract,
                "status": record.get("status", ""),
                "listing_line": listing_line,
                "abstract_line": abstract_line,
            }
        )
    pairs: Counter = Counter()
    for paper in papers:
        pairs.update(combinations(sorted(set(paper["authors"])), 2))
    families: dict[str, set[str]] = defaultdict(set)
    for raw, norms in raw_to_norms.items():
        for norm in norms:
            families[norm].add(raw)
    truth = {
        "venue": venue,
        "skipped": skipped,
        "papers": papers,
        "titles": [paper["title"] for paper in papers],
        "authors_per_paper": [paper["authors"] for paper in papers],
        "author_names": sorted({name for paper in papers for name in paper["authors"]}),
        "coauthor_pairs": [[a, b, n] for (a, b), n in sorted(pairs.items())],
        "institution_families": {norm: sorted(raws) for norm, raws in sorted(families.items())},
        "raw_to_norms": {raw: dict(sorted(norms.items())) for raw, norms in sorted(raw_to_norms.items())},
        "family_unaligned_papers": unaligned,
    }
    return "\n".join(listing), "\n".join(abstracts), truth


def write_set(provider_file: Path, out: Path, venue: str | None = None, first: int | None = None) -> Path:
    """Write NAME_listing.txt, NAME_abstracts.txt and NAME_truth.json into ``out``; the truth's path."""
    records = json.loads(provider_file.read_text(encoding="utf-8"))[:first]
    name = provider_file.stem
    listing, abstracts, truth = derive(records, venue or default_venue(provider_file))
    out.mkdir(parents=True, exist_ok=True)
    files = {"listing": f"{name}_listing.txt", "abstracts": f"{name}_abstracts.txt"}
    (out / files["listing"]).write_text(listing, encoding="utf-8")
    (out / files["abstracts"]).write_text(abstracts, encoding="utf-8")
    truth = {"set": name, "source": {"path": provider_file.name, "records": len(records)}, **truth, "files": files}
    path = out / f"{name}_truth.json"
    path.write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("provider_file", type=Path, help="a paperlists JSON file (one list of papers)")
    parser.add_argument("out", type=Path, help="folder to write the set into (never the repository)")
    parser.add_argument(
        "--venue", help="the conference and year as it spells them ('CoRL 2024'); default from the file name"
    )
    parser.add_argument("--first", type=int, help="only the first N papers")
    args = parser.parse_args(argv)
    path = write_set(args.provider_file, args.out, args.venue, args.first)
    truth = json.loads(path.read_text(encoding="utf-8"))
    print(
        f"{path}: {len(truth['papers'])} papers, {len(truth['skipped'])} skipped, "
        f"{len(truth['institution_families'])} institution families"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
