"""Records: what an input format reads from a listing, before any RDF is made.

Every paragraph of a listing ends up in exactly one :class:`PaperRecord` or one
:class:`Rejection`, so the counts of a run always add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a record came from: the file (as named by the user), its stable id, the line."""

    path: str
    name: str
    line: int
    format: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Institution:
    """One entry of a listing's institution field, as written."""

    raw: str
    name: str
    name_zh: str | None = None
    domains: tuple[str, ...] = ()  # e-mail domains its authors state with it (structured sources)


@dataclass(frozen=True, slots=True)
class Affiliation:
    """One institution an author states for one paper, with the e-mail domain given for it."""

    name: str
    domain: str | None = None


@dataclass(frozen=True, slots=True)
class AuthorDetail:
    """What a structured source says of one author of one paper, beside the name.

    Identifiers are normalised (kg.ingest.identifiers): ``openreview`` a profile id
    (``~Jia_Li1``), ``email`` an address the source uses as the id of an author without a
    profile (never published: only a digest of it names the person), ``orcid``, ``dblp`` a pid;
    ``other_ids`` (kind, id) of the other schemes (kg.ingest.identifiers.OTHER_PERSON_IDS: IEEE
    author numbers, Semantic Scholar, Google Scholar, ACL Anthology).
    """

    affiliations: tuple[Affiliation, ...] = ()
    openreview: str | None = None
    email: str | None = None
    orcid: str | None = None
    dblp: str | None = None
    other_ids: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SetAsideId:
    """An id a source's per-author list gives an author of one record that the input's majority
    gives nobody of it (kg.ingest.id_majority): ``position`` is the author's place (None: a list
    of another length than the byline), ``reason`` starts with the rule's id."""

    name: str
    position: int | None
    kind: str
    value: str
    reason: str


@dataclass(slots=True)
class PaperRecord:
    source: SourceRef
    venue_header: str
    title: str | None = None
    title_zh: str | None = None
    authors: list[str] = field(default_factory=list)
    institutions: list[Institution] = field(default_factory=list)
    summary_zh: str | None = None
    abstract: str | None = None
    comments: str | None = None
    journal_ref: str | None = None
    # Structured sources (paperlists JSON, BibTeX, arXiv Atom, CSV): per-author details aligned
    # with ``authors`` (empty when the source has none), the paper's identifiers and links, and
    # publication facts stated in fields (status, track, booktitle, year), read by the same
    # rules as Comments but not kept as a comment.
    author_details: list[AuthorDetail] = field(default_factory=list)
    doi: str | None = None
    arxiv_id: str | None = None
    arxiv_version: int | None = None
    openreview_id: str | None = None
    keywords: list[str] = field(default_factory=list)
    code_urls: list[str] = field(default_factory=list)
    project_urls: list[str] = field(default_factory=list)
    other_urls: list[str] = field(default_factory=list)
    stated_facts: str | None = None
    set_aside_ids: list[SetAsideId] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Rejection:
    """A block that could not be read as a paper, with the reason and its first words."""

    source: SourceRef
    reason: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"


def excerpt(text: str, limit: int = 80) -> str:
    """The first words of a block, on one line, for reports."""
    flat = " ".join(text[: limit * 8].split())  # a field of many MB is not split whole
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
