"""The graph's own IRIs answered by ``kg serve``: ``GET {base path}{kind}/{slug}`` is a thing the graph
names. A browser (or any client that prefers HTML) is sent to the thing's page of the site (303 See
Other, as Linked Data asks of a thing that is not a document); a client that asks for RDF gets the
statements about it (Turtle, N-Triples or JSON-LD by the ``Accept`` header).

The IRI is rebuilt from the path only when the path is the base's path and two slug segments
(letters, digits, ``-``, ``.``, ``_``), so nothing a request sends reaches the query but a checked IRI.
"""

from __future__ import annotations

import re
import urllib.parse

from ..rdf.iris import profile_path

#: RDF an entity can be answered in; HTML (a page of the site) is the other choice.
RDF_TYPES = ("text/turtle", "application/n-triples", "application/ld+json")
_LOCAL = re.compile(r"([\w-]+)/([\w.-]+)")


def entity_iri(path: str, base: str | None) -> str | None:
    """The graph's IRI a request path names (already percent-decoded), or ``None``."""
    if not base:
        return None
    prefix = urllib.parse.urlsplit(base).path or "/"
    if not prefix.endswith("/") or not path.startswith(prefix):
        return None
    local = path[len(prefix) :]
    return base + local if _LOCAL.fullmatch(local) else None


def page_of(iri: str) -> str:
    """The site's path of the thing's page (``/paper/….html``)."""
    return "/" + profile_path(iri)


def describe(iri: str) -> str:
    """The statements about the thing (as subject, and as object of the graph's links to it)."""
    return f"CONSTRUCT {{ <{iri}> ?p ?o . ?s ?q <{iri}> }} WHERE {{ {{ <{iri}> ?p ?o }} UNION {{ ?s ?q <{iri}> }} }}"


def preferred(accept: str) -> list[str]:
    """The media types of an ``Accept`` header, most wanted first (q-values, ties in the client's order);
    those it refuses (``q=0``) left out."""
    offers = []
    for position, part in enumerate(accept.split(",")):
        media, *params = [piece.strip() for piece in part.split(";")]
        q = next((float(p[2:]) for p in params if p.startswith("q=") and p[2:].replace(".", "", 1).isdigit()), 1.0)
        if q > 0:
            offers.append((-q, position, media.lower()))
    return [media for _, _, media in sorted(offers)]


def wanted_rdf(accept: str) -> str | None:
    """The RDF type the client prefers over HTML, if it prefers one."""
    for media in preferred(accept):
        if media in RDF_TYPES:
            return media
        if media in ("text/html", "application/xhtml+xml", "*/*", "text/*"):
            return None
    return None
