"""The synthetic corpus of :mod:`.synth` in the structured formats: paperlists JSON, BibTeX,
CSV and arXiv Atom, for benchmarks and scale tests of those readers.

The papers are the same as the listing's (same seed, same papers); what listings lack is
made up deterministically: each author has an OpenReview profile id from their name
(``~Wei_Chen1``), and the paper's institutions are dealt to its authors in byline order, so
every author has one per-author affiliation. Each paper is written as soon as it is made.
"""

from __future__ import annotations

import csv
import json
from typing import Iterable, TextIO
from xml.sax.saxutils import escape

STRUCTURED = ("paperlists", "bibtex", "csv", "arxiv")
BOOKTITLE = "Proceedings of the 43rd International Conference on Machine Learning"


def _profile(name: str) -> str:
    return "~" + name.replace(" ", "_") + "1"


def _affiliations(paper) -> list[str]:
    names = [english for english, _ in paper.institutions] or [""]
    return [names[position % len(names)] for position in range(len(paper.authors))]


def _bibtex(paper, index: int, year: int) -> str:
    key = f"{paper.authors[0].split()[-1].lower()}{year}p{index}"
    return (
        f"@inproceedings{{{key},\ntitle={{{paper.title}}},\nauthor={{{' and '.join(paper.authors)}}},\n"
        f"booktitle={{{BOOKTITLE}}},\nyear={{{year}}},\nurl={{https://openreview.net/forum?id=synth{index:06d}}}\n}}"
    )


def _paperlists(paper, index: int, year: int) -> dict:
    return {
        "id": f"synth{index:06d}",
        "title": paper.title,
        "status": "Poster",
        "track": "main",
        "abstract": paper.abstract,
        "author": ";".join(paper.authors),
        "authorids": ";".join(_profile(name) for name in paper.authors),
        "aff": ";".join(_affiliations(paper)),
        "site": f"https://openreview.net/forum?id=synth{index:06d}",
        "github": paper.code_url or "",
        "bibtex": _bibtex(paper, index, year),
    }


def _atom_entry(paper, index: int) -> str:
    authors = "".join(
        f"    <author><name>{escape(name)}</name><arxiv:affiliation>{escape(aff)}</arxiv:affiliation></author>\n"
        for name, aff in zip(paper.authors, _affiliations(paper))
    )
    comment = f"    <arxiv:comment>{escape(paper.comments)}</arxiv:comment>\n" if paper.comments else ""
    return (
        f"  <entry>\n    <id>http://arxiv.org/abs/2601.{index:05d}v1</id>\n    <title>{escape(paper.title)}</title>\n"
        f"    <summary>{escape(paper.abstract)}</summary>\n{authors}{comment}  </entry>\n"
    )


def write_structured(out: TextIO, papers: Iterable, format_name: str, year: int) -> int:
    """Write the papers in one of :data:`STRUCTURED`; returns the number written."""
    written = 0
    if format_name == "paperlists":
        out.write("[")
        for index, paper in enumerate(papers):
            out.write(
                ("," if index else "")
                + "\n"
                + json.dumps(_paperlists(paper, index, year), ensure_ascii=False, indent=4)
            )
            written += 1
        out.write("\n]\n")
    elif format_name == "bibtex":
        for index, paper in enumerate(papers):
            out.write(_bibtex(paper, index, year) + "\n\n")
            written += 1
    elif format_name == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["title", "authors", "affiliations", "abstract", "venue", "year", "code"])
        for paper in papers:
            writer.writerow(
                [
                    paper.title,
                    "; ".join(paper.authors),
                    "; ".join(_affiliations(paper)),
                    paper.abstract,
                    "ICML",
                    year,
                    paper.code_url or "",
                ]
            )
            written += 1
    else:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
            'xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
        )
        for index, paper in enumerate(papers):
            out.write(_atom_entry(paper, index))
            written += 1
        out.write("</feed>\n")
    return written
