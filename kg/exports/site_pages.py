"""The site's kinds of page and their panels: which query of ``queries/site/`` fills each panel, what its
rows link to and in which order they are listed; and how a page names its identifier links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..ingest.identifiers import PAPER_PAGES, PERSON_PAGES


def by_count(row) -> tuple:
    """ORDER BY DESC(?number) ?name STR(?other), for names that are plain strings (people's labels)."""
    return -int(row.number), row.name, row.other


def by_title(row) -> tuple:
    """ORDER BY ?title STR(?paper): an unbound title first, then English titles by code point."""
    return row.title is not None, row.title or "", row.paper


def by_position(row) -> tuple:
    """ORDER BY ?position ?title STR(?paper)."""
    return int(row.position), *by_title(row)


def by_byline(row) -> tuple:
    """ORDER BY ?position STR(?other): a paper's authors in the order of its byline."""
    return int(row.position), row.other


@dataclass(frozen=True)
class Panel:
    query: str  # the panel's query in SITE_QUERIES, without .rq
    heading: str
    #: "paper"; the kind of page its ?other column links to; "external" (?other is a URL to link);
    #: or "text" (each row's ?name a paragraph, such as an abstract)
    links_to: str
    #: the order within a page, for a query without ORDER BY (sorted here, by page first). Only
    #: where every key is a plain string, an @en title, a number or an IRI: Oxigraph orders
    #: literals of other languages as equal to each other, which no Python key reproduces, so
    #: panels with such names keep their ORDER BY.
    order: Callable[[tuple], tuple] | None = None


PAGES = {
    "author": (
        "Authors",
        (
            Panel("author-papers", "Papers (byline position of this author / authors)", "paper", by_position),
            Panel("author-coauthors", "Co-authors (shared papers)", "author", by_count),
            Panel("author-institutions", "Institutions on their papers (papers)", "institution"),
            Panel("author-topics", "Topics (papers)", "topic"),
        ),
    ),
    "institution": (
        "Institutions",
        (
            Panel("institution-country", "Country", "country"),
            Panel("institution-papers", "Papers (its own or its units')", "paper", by_title),
            Panel("institution-units", "Units and parent", "institution"),
            Panel("institution-authors", "Authors (papers)", "author", by_count),
            Panel("institution-partners", "Partner institutions (shared papers)", "institution"),
            Panel("institution-topics", "Topics (papers)", "topic"),
        ),
    ),
    "topic": (
        "Topics",
        (
            Panel("topic-papers", "Papers", "paper", by_title),
            Panel("topic-institutions", "Institutions (papers)", "institution"),
            Panel("topic-related", "Related topics (shared papers)", "topic"),
        ),
    ),
    "paper": (
        "Papers",
        (
            Panel("paper-abstract", "Abstract", "text"),
            Panel(
                "paper-authors",
                "Authors (in byline order, with the institutions the source gives each)",
                "author",
                by_byline,
            ),
            Panel("paper-institutions", "Institutions the paper lists", "institution"),
            Panel("paper-venue", "Venue, track and presentation", "venue"),
            Panel("paper-topics", "Topics", "topic"),
            Panel("paper-artifacts", "Research artifacts it introduces", "artifact"),
            Panel("paper-links", "Code and other links", "external"),
            Panel("paper-source", "Source (file:line)", "source"),
        ),
    ),
    "venue": (
        "Venues, tracks and workshops",
        (
            Panel("venue-papers", "Papers", "paper", by_title),
            Panel("venue-authors", "Authors (papers)", "author", by_count),
        ),
    ),
    "country": (
        "Countries",
        (
            Panel("country-institutions", "Institutions there (papers)", "institution", by_count),
            Panel("country-authors", "Authors (papers)", "author", by_count),
            Panel("country-papers", "Papers", "paper", by_title),
        ),
    ),
}
#: Where each kind's list of pages is (``country`` would not take an "s").
LISTINGS = {kind: f"{kind}s.html" for kind in PAGES} | {"country": "countries.html"}
#: How a page names each kind of identifier page (``schema:sameAs``) of an author or paper.
IDENTIFIER_LABELS = {
    "orcid": "ORCID",
    "dblp": "dblp",
    "openreview": "OpenReview",
    "doi": "DOI",
    "arxiv": "arXiv",
    "ieee": "IEEE Xplore",
    "semanticscholar": "Semantic Scholar",
    "googlescholar": "Google Scholar",
    "acl": "ACL Anthology",
}
#: (start of the link, label) in the order a page lists them: an author's, then a paper's.
IDENTIFIER_KINDS = tuple(
    (template.split("{}")[0], IDENTIFIER_LABELS[kind])
    for pages in (PERSON_PAGES, PAPER_PAGES)
    for kind, template in pages.items()
)
