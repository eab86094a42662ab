"""Identity keys for institution names: what must match for two written forms to be one.

On top of :func:`kg.ingest.names.match_key` (case, diacritics, punctuation), institution names
also ignore hyphens as word breaks ("Urbana-Champaign" = "Urbana Champaign"), "&" vs
"and", a leading "The" ("The Hong Kong University of …") and the word "at" ("University
of Illinois at Urbana-Champaign"). Word order is *not* ignored: "University of
Washington" and "Washington University" are different keys (see :func:`swapped`).
"""

from __future__ import annotations

import re

from ..ingest.names import clean, match_key

_HYPHENS = re.compile(r"[\-\u2010-\u2015\u2212]")
_IGNORED_WORDS = frozenset({"at"})


def institution_key(name: str) -> str:
    words = match_key(_HYPHENS.sub(" ", clean(name).replace("&", " and "))).split()
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(word for word in words if word not in _IGNORED_WORDS)


def swapped(key: str) -> str | None:
    """``university of x`` <-> ``x university`` for a plain X (no "of", "and", "university" in it)."""
    if key.startswith("university of "):
        rest = key.removeprefix("university of ")
        swapped_key = f"{rest} university"
    elif key.endswith(" university"):
        rest = key.removesuffix(" university")
        swapped_key = f"university of {rest}"
    else:
        return None
    if not rest or {"of", "and", "university", "for", "in"} & set(rest.split()):
        return None
    return swapped_key
