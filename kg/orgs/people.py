"""Person names in a listing's institution field: recognised, kept out of the institution graph.

Aggregators sometimes fill the institution field with the authors themselves ("Pengwei Sun
（Sun Pengwei）" on a paper by Pengwei Sun). An entry is a person's name, not an
institution, when

- its name, or its bracketed romanised form, is one of the paper's authors: the same
  :func:`kg.text.names.match_key` ("Dongwoo Kim" = "Dong-Woo Kim") or the same words in another
  order ("Sun Pengwei" = "Pengwei Sun"); or
- it does not look like an organisation (no organisation word, no acronym, not in the alias
  table) and is shaped like a personal name (two to four capitalised words, a Chinese name of two
  to four characters in brackets at most) and is one or two letters away from an author
  ("Zhihui Chen" beside the author "Zhirui Chen"), or stands beside entries that are authors.

Lists copied from a PDF's title page (CVPR 2021) also give the title and byline read as
affiliations: an entry is no institution either when it ends with an author's name after other
words ("… Segmentation Mehmet Aygün"), or when it does not look like an organisation and is a run
of at least four words of the paper's title ("A Deep Emulator for Secondary Motion of").

The second case is reported but **not** linked to the near author: the listing's author
line is the authority for names, and a one-letter difference may be a typo or a different
person (陈志辉 reads Chen Zhihui), so no variant is added to anyone on a guess.
"""

from __future__ import annotations

import re

from ..records import Institution
from ..text.names import clean, has_cjk, match_key
from .aliases import AliasTable
from .canonical_names import looks_like_organisation

_NAME_WORD = re.compile(r"^[A-Z][a-zà-öø-ÿ'’\-]*\.?$|^[A-Z]\.$")
MAX_NEAR_DISTANCE = 2
MIN_TITLE_PIECE = 4  # words: fewer may be an institution's name the title mentions


def edit_distance(a: str, b: str, limit: int = MAX_NEAR_DISTANCE) -> int:
    """Levenshtein distance, stopping early above ``limit`` (returns limit + 1 then).

    >>> edit_distance("zhihui chen", "zhirui chen"), edit_distance("pengwei sun", "sun pengwei")
    (1, 3)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def person_shaped(entry: Institution) -> bool:
    """Shaped like a personal name: two to four capitalised words, with a Chinese name of at most four
    characters if any. The shape alone: :func:`person_name_reason` asks first whether it looks like an
    organisation.

    >>> person_shaped(Institution("Pengwei Sun", "Pengwei Sun", "孙鹏伟")), person_shaped(Institution("CMU", "CMU"))
    (True, False)
    """
    words = clean(entry.name).split()
    if not 2 <= len(words) <= 4 or not all(_NAME_WORD.match(word) for word in words):
        return False
    return entry.name_zh is None or not has_cjk(entry.name_zh) or len(entry.name_zh) <= 4


def _author_match(form: str, authors: list[str]) -> str | None:
    key = match_key(form)
    words = sorted(key.split())
    for author in authors:
        author_key = match_key(author)
        if key == author_key:
            return f"is the paper's author {clean(author)}"
        if words == sorted(author_key.split()):
            return f"is the paper's author {clean(author)} with the names in another order"
    return None


def _near_author(form: str, authors: list[str]) -> str | None:
    key = match_key(form)
    for author in authors:
        distance = edit_distance(key, match_key(author))
        if 0 < distance <= MAX_NEAR_DISTANCE:
            return clean(author)
    return None


def person_name_reason(
    entry: Institution, siblings: list[Institution], authors: list[str], aliases: AliasTable
) -> str | None:
    """Why an institution entry is a person's name, or None when it may be an institution; ``siblings``
    are the paper's other entries, ``authors`` its authors' names.

    >>> from kg.orgs.aliases import active_aliases
    >>> person_name_reason(Institution("Sun Pengwei", "Sun Pengwei"), [], ["Pengwei Sun"], active_aliases())
    "person's name: is the paper's author Pengwei Sun with the names in another order"
    >>> print(person_name_reason(Institution("Zhihui Chen", "Zhihui Chen"), [], ["Zhirui Chen"], active_aliases()))
    person's name: close to the paper's author Zhirui Chen but spelled differently; not linked to them
    >>> entry = Institution("Zhejiang University", "Zhejiang University")
    >>> person_name_reason(entry, [], ["Zhirui Chen"], active_aliases()) is None
    True
    """
    forms = [entry.name] + ([entry.name_zh] if entry.name_zh and not has_cjk(entry.name_zh) else [])
    for form in forms:
        if reason := _author_match(form, authors):
            return f"person's name: {reason}"
    if looks_like_organisation(entry.name, aliases) or not person_shaped(entry):
        return None
    if near := _near_author(entry.name, authors):
        return f"person's name: close to the paper's author {near} but spelled differently; not linked to them"
    others = [other for other in siblings if other is not entry]
    if others and all(_author_match(other.name, authors) for other in others):
        return "person's name: listed among entries that are the paper's authors"
    return None


def title_page_reason(entry: Institution, title: str | None, authors: list[str], aliases: AliasTable) -> str | None:
    """Why an institution entry is the title or byline of a PDF's title page, or None.

    >>> from kg.orgs.aliases import active_aliases
    >>> entry = Institution("x", "Video Object Segmentation Mehmet Aygün")
    >>> title_page_reason(entry, "Video Object Segmentation", ["Mehmet Aygün"], active_aliases())
    "title page text: words before the paper's author Mehmet Aygün"
    >>> title = "A Deep Emulator for Secondary Motion of 3D Characters"
    >>> title_page_reason(Institution("x", "A Deep Emulator for Secondary Motion of"), title, [], active_aliases())
    "title page text: a piece of the paper's title"
    """
    key = match_key(entry.name)
    for author in authors:
        author_key = match_key(author)
        if " " in author_key and key.endswith(" " + author_key):
            return f"title page text: words before the paper's author {clean(author)}"
    if (
        title
        and len(key.split()) >= MIN_TITLE_PIECE
        and f" {key} " in f" {match_key(title)} "
        and not looks_like_organisation(entry.name, aliases)
    ):
        return "title page text: a piece of the paper's title"
    return None
