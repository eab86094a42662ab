"""Identifiers of people and papers, normalised, so that one identifier written two ways is one.

Each function takes what a source writes (a bare id, a URL, a prefixed form) and returns the
canonical id, or None when the text is not such an identifier (it is then ignored, never
guessed at). :data:`PERSON_PAGES` and :data:`PAPER_PAGES` turn them into the IRIs the graph links.
"""

from __future__ import annotations

import re

_ORCID = re.compile(r"(?<![\d-])(\d{4}-\d{4}-\d{4}-\d{3}[\dX])(?![\d-])", re.IGNORECASE)
_DBLP = re.compile(
    r"(?:https?://dblp\.(?:org|uni-trier\.de)/pid/)?((?:[a-z]/)?[\w\-]+(?:/[\w\-]+)*?)(?:\.html)?/?", re.IGNORECASE
)
_OPENREVIEW_PROFILE = re.compile(r"(?:https?://openreview\.net/profile\?id=)?(~[^\s;/?&#]+\d+)")
_EMAIL = re.compile(r"[^@\s;]+@[^@\s;]+\.[^@\s;]+")
_DOI = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)", re.IGNORECASE)
_ARXIV = re.compile(
    r"(?:https?://(?:export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:\s*)?"
    r"((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v(\d+))?(?:\.pdf)?/?",
    re.IGNORECASE,
)
_OPENREVIEW_FORUM = re.compile(r"https?://openreview\.net/(?:forum|pdf)\?id=([\w\-]+)")
# Person ids other sources give, each by the form its source writes it in: IEEE Xplore author numbers
# as the path of the author page (IROS / ICRA lists: "/37088688308"), Semantic Scholar and Google
# Scholar profiles and ACL Anthology person pages as their URLs. A bare number is none of them (it is
# not said whose).
OTHER_PERSON_IDS = {
    "ieee": re.compile(r"(?:https?://ieeexplore\.ieee\.org/author)?/(\d{5,12})/?"),
    "semanticscholar": re.compile(r"https?://(?:www\.)?semanticscholar\.org/author/(?:[^/\s]+/)?(\d{3,12})/?"),
    "googlescholar": re.compile(r"https?://scholar\.google\.[a-z.]+/citations\?(?:[^#\s]*&)?user=([\w\-]{12})\b.*"),
    "acl": re.compile(r"https?://(?:www\.)?aclanthology\.org/people/(?:[a-z]/)?([a-z0-9][a-z0-9\-]*[a-z0-9])/?"),
}


def _full(pattern: re.Pattern, text: str | None) -> re.Match | None:
    return pattern.fullmatch(text.strip()) if isinstance(text, str) and text.strip() else None


def _orcid_checksum_ok(digits: str) -> bool:
    """ISO 7064 MOD 11-2, the check character of every ORCID iD."""
    total = 0
    for digit in digits[:-1]:
        total = (total + int(digit)) * 2
    check = (12 - total % 11) % 11
    return digits[-1] == ("X" if check == 10 else str(check))


def orcid(text: str | None) -> str | None:
    """``0000-0002-0337-6682`` from an ORCID iD however it is wrapped (bare, its URL, a stray
    ``http://  `` before it); one whose check digit is wrong is not an ORCID iD.

    >>> orcid("https://orcid.org/0000-0002-0337-6682")
    '0000-0002-0337-6682'
    >>> orcid("0000-0002-0337-6683") is None  # the check digit is 2
    True
    """
    match = _ORCID.search(text) if isinstance(text, str) and len(text) < 100 else None
    if not match:
        return None
    found = match.group(1).upper()
    return found if _orcid_checksum_ok(found.replace("-", "")) else None


def dblp_pid(text: str | None) -> str | None:
    """``09/294`` from a bare dblp pid or a ``dblp.org/pid/…`` URL; a pid has a slash.

    >>> dblp_pid("https://dblp.org/pid/09/294.html"), dblp_pid("294")
    ('09/294', None)
    """
    if isinstance(text, str):
        text = re.split(r"[?#]", text, maxsplit=1)[0]  # a search or anchor after the pid (page)
    match = _full(_DBLP, text)
    return match.group(1) if match and "/" in match.group(1) else None


def openreview_profile(text: str | None) -> str | None:
    """``~Jia_Li1`` from a profile id or its URL (ids start with ``~`` and end in a number).

    >>> openreview_profile("https://openreview.net/profile?id=~Jia_Li1"), openreview_profile("Jia Li")
    ('~Jia_Li1', None)
    """
    match = _full(_OPENREVIEW_PROFILE, text)
    return match.group(1) if match else None


def email(text: str | None) -> str | None:
    """An e-mail address, lower-cased (OpenReview names authors without a profile by one).

    >>> email(" Ada@Example.ORG ")
    'ada@example.org'
    """
    match = _full(_EMAIL, text)
    return match.group(0).casefold() if match else None


def other_person_id(text: str | None) -> tuple[str, str] | None:
    """``("ieee", "37088688308")`` from an id of :data:`OTHER_PERSON_IDS` as its source writes it."""
    for kind, pattern in OTHER_PERSON_IDS.items():
        if match := _full(pattern, text):
            return kind, match.group(1)
    return None


def doi(text: str | None) -> str | None:
    """``10.1234/abc`` from a bare DOI, ``doi:`` or a doi.org URL; DOIs are case-insensitive.

    >>> doi("https://doi.org/10.1234/ABC."), doi("doi:10.1234/abc")
    ('10.1234/abc', '10.1234/abc')
    """
    match = _full(_DOI, text)
    return match.group(1).rstrip(".,;").casefold() if match else None


def arxiv(text: str | None) -> tuple[str, int | None] | None:
    """``("2401.01234", 2)`` from an arXiv id, ``arXiv:`` form or abs/pdf URL; version None when unsaid.

    >>> arxiv("https://arxiv.org/abs/2401.01234v2"), arxiv("arXiv:2401.01234")
    (('2401.01234', 2), ('2401.01234', None))
    """
    match = _full(_ARXIV, text)
    if not match:
        return None
    return match.group(1), int(match.group(2)) if match.group(2) else None


def openreview_forum(text: str | None) -> str | None:
    """The note id of an OpenReview forum or PDF URL.

    >>> openreview_forum("https://openreview.net/forum?id=abc123")
    'abc123'
    """
    match = _OPENREVIEW_FORUM.search(text or "")
    return match.group(1) if match else None


# A paper's identifier in the link to its page, as sources link them (schema:sameAs, a BibTeX url, a
# paperlists site): DOI, arXiv, OpenReview forum, IEEE Xplore document, PMLR paper, ACL Anthology paper.
PAPER_ID_LINKS = {
    "doi": re.compile(r"https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+?)/?", re.IGNORECASE),
    "arxiv": re.compile(
        r"https?://(?:export\.)?arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?"
    ),
    "openreview": re.compile(r"https?://openreview\.net/(?:forum|pdf)\?id=([\w\-]+)(?:&\S*)?"),
    "ieee": re.compile(r"https?://ieeexplore\.ieee\.org/(?:abstract/)?document/(\d+)/?"),
    "pmlr": re.compile(r"https?://proceedings\.mlr\.press/(v\d+/[\w\-]+?)(?:\.html|/[\w\-]+\.pdf)?/?"),
    "acl": re.compile(r"https?://(?:www\.)?aclanthology\.org/(\d{4}\.[\w\-]+\.\d+|[A-Z]\d{2}-\d{4})(?:\.pdf)?/?"),
}


def paper_id_of_link(link: str) -> tuple[str, str] | None:
    """``("openreview", "kzzwTrt04Z")`` from the link to a paper's page, if it is one of :data:`PAPER_ID_LINKS`."""
    for kind, pattern in PAPER_ID_LINKS.items():
        if match := _full(pattern, link):
            return kind, match.group(1).casefold() if kind == "doi" else match.group(1)
    return None


PERSON_PAGES = {
    "openreview": "https://openreview.net/profile?id={}",
    "orcid": "https://orcid.org/{}",
    "dblp": "https://dblp.org/pid/{}",
    "ieee": "https://ieeexplore.ieee.org/author/{}",
    "semanticscholar": "https://www.semanticscholar.org/author/{}",
    "googlescholar": "https://scholar.google.com/citations?user={}",
    "acl": "https://aclanthology.org/people/{}/",
}
PAPER_PAGES = {
    "doi": "https://doi.org/{}",
    "arxiv": "https://arxiv.org/abs/{}",
    "openreview": "https://openreview.net/forum?id={}",
}
_PERSON_PAGE_STARTS = sorted(((template.split("{}")[0], kind) for kind, template in PERSON_PAGES.items()), reverse=True)


def person_link_scheme(link: str) -> str | None:
    """The scheme of a link to a person's page ("ieee" for ieeexplore.ieee.org/author/…), None for another link."""
    return next((kind for start, kind in _PERSON_PAGE_STARTS if link.startswith(start)), None)
