"""Deterministic, readable IRIs for everything the graph names.

An IRI is ``{base}{kind}/{slug}`` where the slug is the :func:`kg.text.names.match_key` of the
thing's name with spaces as hyphens. The slug is a one-to-one image of the key, so two names
share an IRI exactly when they are the same name by the matching rules: collisions between
different names cannot happen. Keys longer than :data:`MAX_SLUG` are cut at a word boundary
and get a hash of the whole key, so they stay unique; an empty key (a name of punctuation
only) is a hash of the raw text. Letters of every script are kept (IRIs allow them), other
characters never reach the IRI.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from ..text.names import match_key

DEFAULT_BASE = "https://kg.example.org/id/"
MAX_SLUG = 80


def digest(text: str, length: int = 10) -> str:
    """A short, stable hex digest (not for security: for naming).

    >>> digest("Ada Lovelace"), digest("Ada Lovelace", 4)
    ('7674021617', '7674')
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


@lru_cache(maxsize=1 << 18)  # the same names are minted over and over
def slug(text: str, max_length: int = MAX_SLUG) -> str:
    """The path segment for a name: its match key with hyphens, bounded in length; a name of
    punctuation only is a digest of its text.

    >>> slug("Attention Is All You Need"), slug("Ünïcode — Names!"), slug("???")
    ('attention-is-all-you-need', 'unicode-names', 'x-a03b221c6c')
    >>> slug("Looms That Weave Cloth", max_length=16)
    'looms-that-53d51e2190'
    """
    key = match_key(text)
    if not key:
        return "x-" + digest(text)
    dashed = key.replace(" ", "-")
    if len(dashed) <= max_length:
        return dashed
    cut = dashed[:max_length].rsplit("-", 1)[0] or dashed[:max_length]
    return f"{cut}-{digest(key)}"


class Minter:
    """Mints IRIs under one base namespace (configurable with ``--base`` / ``KG_BASE``).

    >>> minter = Minter("http://ex")
    >>> minter.base, minter.named("author", "Ada Lovelace"), minter.part("authorship", "looms", "2")
    ('http://ex/', 'http://ex/author/ada-lovelace', 'http://ex/authorship/looms--2')
    """

    def __init__(self, base: str = DEFAULT_BASE):
        if not base.endswith(("/", "#")):
            base += "/"
        self.base = base

    def iri(self, kind: str, local: str) -> str:
        return f"{self.base}{kind}/{local}"

    def named(self, kind: str, name: str) -> str:
        return self.iri(kind, slug(name))

    def part(self, kind: str, whole_slug: str, part: str) -> str:
        """An IRI for a part of something already named: ``authorship/{paper-slug}--3``.

        Slugs never contain ``--`` (keys have single spaces), so the split is unambiguous and
        the IRI stays a plain prefixed name in Turtle (no escaped slashes).
        """
        return self.iri(kind, f"{whole_slug}--{part}")


def file_slug(file_name: str) -> str:
    """A file name as a slug, its dots and underscores kept as word breaks.

    >>> file_slug("neurips_2024.json")
    'neurips-2024-json'
    """
    return slug(file_name.replace(".", " ").replace("_", " ").replace("/", " "))


def profile_path(iri: str) -> str:
    """Where the site keeps the page of the thing an IRI names: ``{kind}/{slug}.html``.

    Minted IRIs end in ``{kind}/{slug}`` (the ontology's: ``ontology#Name``); slugs are
    path-safe (letters, digits, hyphens), so the last two segments are a file path that
    cannot escape the site's folder; anything else becomes a digest.

    >>> profile_path("http://ex/author/ada-lovelace"), profile_path("http://ex/author/../../etc")
    ('author/ada-lovelace.html', 'x-5ec1f7e700/etc.html')
    """
    kind, local = re.split(r"[/#]", iri.rstrip("/"))[-2:]
    safe = lambda part: part if re.fullmatch(r"[\w-]+", part) else "x-" + digest(part)  # noqa: E731
    return f"{safe(kind)}/{safe(local)}.html"
