"""What paper resolution knows of one paper: shared by the cross-source merges and the abstract join."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PaperFacts:
    """What the matcher knows about one paper of the store."""

    iri: str
    graph: str
    title: str | None = None
    abstract: str | None = None
    urls: set[str] = field(default_factory=set)
    venues: set[str] = field(default_factory=set)
    line: int | None = None  # the line of the paper's record in its source (kg:line), for the order of a file
