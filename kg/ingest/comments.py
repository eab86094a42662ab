"""Read a listing's free-text ``Comments`` and ``Journal ref`` into publication facts.

Real comments say the same thing many ways ("Accepted at the 43rd International Conference on
Machine Learning (ICML 2026)", "EIML@ICML", "ICML 2026 GenBio Workshop and FM4LS Workshop"),
so each fact has its own small, tested rule; the raw text is always kept beside them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..text.names import is_acronym
from .urls import find_urls, host, is_code_repository, is_poster_page
from .venues import CANONICAL, NAMED, NAMES, VENUES, YEAR, full_year, known_venue, year_after

_COMPACT = {"".join(name.split()): acronym for name, acronym in CANONICAL.items()}
_VIRTUAL_YEAR = re.compile(r"/virtual/(\d{4})/")

# Any conference by its form. An acronym has two capitals or a digit and a capital (COLM,
# CoRL, L4DC, 3DV); some all-caps words are publishers or terms, never conferences.
_ACRONYM = r"(?:[A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*|\d[A-Z][A-Za-z0-9]*|[A-Z]\d[A-Za-z0-9]*)"
_NOT_VENUES = frozenset(
    "ieee acm pmlr lncs ceur siam springer arxiv doi isbn issn usa uk eu ai ml nlp llm llms gpu tpu pdf url api "
    "openreview cvf aaas".split()
    # the words of a conference's full name, as a booktitle in capitals writes them ("THE WEB CONFERENCE 2025")
    + "conference symposium workshop proceedings meeting congress international annual".split()
)
_ACRONYM_YEAR = re.compile(
    rf"(?<![@\w\-])(?P<name>{_ACRONYM})\s*(?:'|’)?\s*(?P<year>(?:19|20)\d\d|\d\d)\b(?!\s*[Ww]orkshop)"
)
_CONFERENCE_ON = re.compile(
    r"\b(?P<name>(?:[A-Z][\w\-]*\s+)*(?:Conference|Symposium)\s+on(?:\s+(?:[A-Z][\w\-]*|and|of|for|in|the|&))+)"
    rf"(?:\s*\((?P<acronym>{_ACRONYM})(?:\s*(?:'|’)?\s*(?P<year>(?:19|20)\d\d|\d\d))?\))?"
)
# The edition before a conference's name is not part of it ("Second International Conference on …",
# "Thirty Sixth Conference on …").
_ORDINALS = re.compile(
    r"^(?:(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"(?:thir|four|fif|six|seven|eigh|nine)teenth|(?:twen|thir|for|fif|six|seven|eigh|nine)t(?:y|ieth))[\s\-]+)+",
    re.IGNORECASE,
)
# After "accepted at" any capitalised name with a year is a conference ("Interspeech 2024"), also
# one of a few words ("SIGGRAPH Asia 2024", "USENIX Security 2024"); a word that says what part of
# a conference the paper is in ends no name ("COLM Workshop 2024").
_PART_WORDS = r"(?:Workshops?|Tracks?|Findings|Papers|Proceedings|Main|Oral|Poster|Spotlight|Demo)\b"
_NAME_WORDS = rf"[A-Z][A-Za-z0-9\-]+(?:\s+(?!{_PART_WORDS})[A-Z][A-Za-z0-9\-]+){{0,2}}"
_ACCEPTED_AT = re.compile(
    r"\b(?i:accepted|published|presented|to\s+appear)\s+(?i:at|to|in|by)\s+(?:(?i:the)\s+)?"
    rf"(?P<name>{_NAME_WORDS})\s*(?:'|’)?\s*(?P<year>(?:19|20)\d\d|\d\d)\b(?!\s*[Ww]orkshop)"
)
_HEADER_ACRONYM = re.compile(rf"^({_ACRONYM})(?:\s+(?:Papers|Proceedings|Accepted Papers))?$")
# A header line that is a conference's name of a few words, the first an acronym ("ACM MM",
# "SIGGRAPH Asia 2024 Papers"), or one capitalised word before a year ("Interspeech 2024 Papers").
_HEADER_NAME = re.compile(
    rf"^(?:(?P<name>{_ACRONYM}(?:\s+(?!{_PART_WORDS})(?:{_ACRONYM}|[A-Z][a-z]+)){{1,2}})(?:\s+(?P<year>(?:19|20)\d\d))?"
    rf"|(?P<word>[A-Z][a-z]+)\s+(?P<word_year>(?:19|20)\d\d))(?:\s+(?:Papers|Proceedings|Accepted Papers))?$"
)


_AT_VENUE = re.compile(rf"\b([A-Za-z][\w\-]*)@((?i:{NAMES})|{_ACRONYM})\b")  # "EIML@ICML": workshop @ conference
_WORKSHOP_ON = re.compile(
    r"\bWorkshop\s+on\s+(?:the\s+)?(?P<name>[^,.;()]+?(?::\s*[^,.;()]+)?)\s*(?:\((?P<acronym>[^()]{1,40})\))?(?=$|[,.;()]|\s*$)",
    re.IGNORECASE,
)
_WORKSHOP_WORD = re.compile(r"\bWorkshop\b", re.IGNORECASE)
_CONNECTORS = {"&", "and", "for", "of", "in", "on", "the", "to", "with"}
_NOT_NAME = {"accepted", "published", "at", "to", "the", "a", "an", "icml", "in", "and", "paper", "workshops"}

_PRESENTATIONS = (
    ("contributed-talk", re.compile(r"\bcontributed\s+talk\b", re.IGNORECASE)),
    ("oral", re.compile(r"\boral\b", re.IGNORECASE)),
    ("spotlight", re.compile(r"\bspotlight\b", re.IGNORECASE)),
    ("poster", re.compile(r"\bposter\b(?!\s*/)", re.IGNORECASE)),
)
_POSITION = re.compile(r"\bposition\s+(?:paper|track)\b", re.IGNORECASE)
# The Findings of an ACL conference: published with it, not in its main track ("Findings of EMNLP
# 2023", "Findings of the Association for Computational Linguistics: NAACL 2024"), and the
# provider's status for them ("Long Findings", "Findings"); "our findings show" is no track.
_FINDINGS = re.compile(
    r"\bFindings\s+of\s+(?:the\s+)?[A-Z]|\b(?i:long|short)\s+Findings\b|(?:^|;)\s*Findings\s*(?:;|$)"
)
_NON_ARCHIVAL = re.compile(r"\bnon[\s\-]?archival\b", re.IGNORECASE)
_PAGES = re.compile(r"\b(\d{1,4})\s*pages?\b", re.IGNORECASE)
_MAIN_PAGES = re.compile(r"\b(\d{1,3})\s*(?:are\s+)?(?:pages?\s+)?main(?:\s+(?:text|body|paper))?\b", re.IGNORECASE)
_FIGURES = re.compile(r"\b(\d{1,4})\s*figures?\b", re.IGNORECASE)
_TABLES = re.compile(r"\b(\d{1,4})\s*tables?\b", re.IGNORECASE)
_PMLR = re.compile(r"\bPMLR\s*(?:vol(?:ume)?\.?\s*)?(\d{1,4})\b", re.IGNORECASE)
CUE_WINDOW = 80  # characters before a link searched for "code" or "project page"
_PROJECT_CUE = re.compile(r"project\s+(?:page|website|site)\s*:?\s*$", re.IGNORECASE)
_CODE_CUE = re.compile(r"\bcode\b[^.]{0,30}$", re.IGNORECASE)
_WORKSHOPS = re.compile(r"\bworkshops?\b", re.IGNORECASE)
_LINK = re.compile(r"https?://\S+")  # links are left out of the prose the rules read


@dataclass(frozen=True, slots=True)
class Workshop:
    name: str | None
    acronym: str | None

    @property
    def key(self) -> str:
        return self.acronym or self.name or ""


@dataclass(slots=True)
class PublicationInfo:
    venue: str | None = None
    year: int | None = None
    year_source: str | None = None
    track: str | None = None  # "main" | "findings" | "position" | "workshop"
    workshops: list[Workshop] = field(default_factory=list)
    presentations: list[str] = field(default_factory=list)
    non_archival: bool = False
    pages: int | None = None
    main_pages: int | None = None
    figures: int | None = None
    tables: int | None = None
    pmlr_volume: int | None = None
    code_urls: list[str] = field(default_factory=list)
    project_urls: list[str] = field(default_factory=list)
    poster_urls: list[str] = field(default_factory=list)
    other_urls: list[str] = field(default_factory=list)


def _int(pattern: re.Pattern, text: str) -> int | None:
    match = pattern.search(text)
    return int(match.group(1)) if match else None


def find_venue(text: str) -> tuple[str | None, int | None]:
    """The conference the text names, as (name, year); year None when unsaid.

    A conference of :data:`VENUES` wins wherever it is named, by acronym or full name; the
    year may come from any mention of it ("the 43rd International Conference on Machine
    Learning (ICML 2026)"). Any other conference is found by its form (:func:`_named_venue`),
    so an acronym nobody listed ("Accepted at COLM 2024") is a venue of its own.
    """
    venue, year = known_venue(text)
    return (venue, year) if venue else _named_venue(text)


def _named_venue(text: str) -> tuple[str | None, int | None]:
    """The first conference named by form: "X YYYY" / "X'YY", "accepted at Name YYYY", "W@X", or
    "(the Nth) … Conference on …" with its acronym in brackets when given; publishers and
    workshops are not venues."""
    found: list[tuple[int, str, str | None, int]] = []
    for pattern in (_ACRONYM_YEAR, _ACCEPTED_AT):
        for match in pattern.finditer(text):
            start, name = _without_publisher(match.start("name"), match.group("name"))
            if name.casefold() not in _NOT_VENUES and not _ends_phrase_in_capitals(text, start):
                found.append((start, name, match.group("year"), match.end()))
                break
    if match := _AT_VENUE.search(text):
        found.append((match.start(2), match.group(2), None, match.end()))
    if match := _CONFERENCE_ON.search(text):
        name = _ORDINALS.sub("", " ".join(match.group("name").split()))
        while name.split()[-1].casefold() in _CONNECTORS:
            name = name.rsplit(" ", 1)[0]
        found.append((match.start(), match.group("acronym") or name, match.group("year"), match.end()))
    if not found:
        return None, None
    _, name, year, end = min(found)
    year = year or year_after(text, end)
    return name, full_year(year) if year else None


# The word before a name in a text written in capitals, on the same clause
_WORD_BEFORE = re.compile(r"([A-Za-z][\w\-/]*)\s+$")


def _ends_phrase_in_capitals(text: str, start: int) -> bool:
    """In a text written in capitals, words and acronyms look alike: a name found by its form that
    ends a phrase of such words ("IEEE TRANSACTIONS ON … MACHINE INTELLIGENCE 2025") is a word of
    it; one alone, after a publisher or after "at" ("IEEE ICRA 2024", "ACCEPTED AT ICRA 2024") is a name."""
    if any(ch.islower() for ch in text):
        return False
    before = _WORD_BEFORE.search(text[:start])
    return bool(before) and before.group(1).casefold() not in _NOT_VENUES | {"at", "to", "in", "by"}


def _without_publisher(start: int, name: str) -> tuple[int, str]:
    """A name found by its form without the publisher before it ("IEEE ICRA" is ICRA), and where it starts."""
    first, _, rest = name.partition(" ")
    return (start + len(first) + 1, rest) if rest and first.casefold() in _NOT_VENUES else (start, name)


def venue_of_header(header: str) -> tuple[str | None, int | None]:
    """The venue a listing's header line names ("AISTATS 2025 Papers", or just "COLM"): a
    conference of :data:`VENUES` it names, else the name the whole line gives ("SIGGRAPH Asia",
    not "SIGGRAPH"; "ACM MM 2024 Papers", not "MM"), else a conference it names by form."""
    venue, year = find_venue(header)
    if venue in VENUES:
        return venue, year
    if match := _HEADER_NAME.match(header.strip()):
        _, name = _without_publisher(0, match["name"] or match["word"])
        if name.casefold() not in _NOT_VENUES:
            edition = match["year"] or match["word_year"]
            return name, int(edition) if edition else None
    if venue is None and (match := _HEADER_ACRONYM.match(header.strip())):
        if match.group(1).casefold() not in _NOT_VENUES:
            venue = match.group(1)
    return venue, year


def known_venue_of_compact(name: str) -> str | None:
    """The well-known conference a name written in one word without its case names ("acmmm" is
    ACM MM, "siggraphasia" SIGGRAPH Asia, "nips" NeurIPS), as file names write them; else None."""
    return _COMPACT.get("".join(name.split()).casefold())


# Words of a conference's full name that its acronym may leave out ("International Conference on
# Computational Linguistics" is COLING); every other word gives it at least its first letter.
_OPTIONAL_IN_ACRONYM = _CONNECTORS | {"international", "conference", "annual", "joint", "meeting", "symposium"}


def names_conference(venue: str | None, acronym: str | None) -> bool:
    """True when a venue as found is the conference of the acronym: the acronym itself, or a full
    name (one :data:`VENUES` does not list) of whose words the acronym is the first letters or
    syllables, in order: "Asian Conference on Machine Learning" is ACML, "Conference on Learning
    Theory" COLT, "… on Computational Linguistics" COLING; "Asian Conference on Computer Vision"
    is not ACML, nor is "Asian Conference on Machine Learning" ML or ACL."""
    if not venue or not acronym:
        return False
    if venue.casefold() == acronym.casefold():
        return True
    return " " in venue and _spells(acronym.casefold(), tuple(venue.casefold().split()))


def _spells(acronym: str, words: tuple[str, ...]) -> bool:
    """The acronym is a prefix of each word in turn, one that may be empty for an optional word."""
    if not words:
        return not acronym
    word, rest = words[0], words[1:]
    if word in _OPTIONAL_IN_ACRONYM and _spells(acronym, rest):
        return True
    return any(
        acronym[:length] == word[:length] and _spells(acronym[length:], rest)
        for length in range(1, min(len(word), len(acronym)) + 1)
    )


def venue_of_poster_page(url: str) -> str:
    """The conference whose site hosts a poster page: icml.cc -> ICML, corl.org -> CoRL."""
    label = host(url).split(".")[0]
    return CANONICAL.get(label.casefold(), label.upper())


def _name_before(text: str, end: int) -> str | None:
    """The capitalised words just before 'Workshop' ("the AIWILD Workshop" -> "AIWILD")."""
    tokens = re.findall(r"[^\s(),.;:]+|[(),.;:]", text[:end])
    words: list[str] = []
    for token in reversed(tokens):
        lowered = token.casefold()
        if lowered in _CONNECTORS and words:
            words.append(token)
            continue
        if token[:1].isupper() or token[:1].isdigit() and not YEAR.fullmatch(token):
            if lowered in _NOT_NAME or NAMED.fullmatch(token) or YEAR.fullmatch(token) or lowered == "workshop":
                break
            words.append(token)
            continue
        break
    while words and words[-1].casefold() in _CONNECTORS:
        words.pop()
    return " ".join(reversed(words)) or None


def find_workshops(text: str) -> list[Workshop]:
    """Workshops named in the text, each with a name, an acronym, or both."""
    found: list[Workshop] = []
    claimed: list[tuple[int, int]] = []
    for match in _WORKSHOP_ON.finditer(text):
        found.append(_workshop_on(match))
        claimed.append((match.start(), match.end()))
    for match in _WORKSHOP_WORD.finditer(text):
        if any(start <= match.start() < end for start, end in claimed):
            continue
        name = _name_before(text, match.start())
        if name:
            found.append(Workshop(None, name) if is_acronym(name, digits=True) else Workshop(name, None))
    _add_venue_acronyms(found, text)
    return found


def _workshop_on(match: re.Match) -> Workshop:
    """The workshop of a "Workshop on …" match, its name an acronym where it is one."""
    name = match.group("name").strip()
    acronym = (match.group("acronym") or "").strip() or None
    if acronym and not is_acronym(acronym, digits=True):
        acronym = None  # "(Oral)" after a workshop name is a presentation, not an acronym
    if is_acronym(name, digits=True) and acronym is None:
        name, acronym = None, name
    return Workshop(name, acronym)


def _add_venue_acronyms(found: list[Workshop], text: str) -> None:
    """Each "X@VENUE" of the text as the acronym of the one workshop found without one, else as a
    workshop of its own."""
    for match in _AT_VENUE.finditer(text):
        acronym = match.group(1)
        if any(w.acronym == acronym for w in found):
            continue
        unnamed = [w for w in found if w.acronym is None]
        if len(unnamed) == 1:  # "Workshop on Epistemic Intelligence ..., EIML@ICML": one workshop
            found[found.index(unnamed[0])] = Workshop(unnamed[0].name, acronym)
        else:
            found.append(Workshop(None, acronym))


def _track(info: PublicationInfo, prose: str, position_title: bool) -> str | None:
    """The track the words state: a workshop, Findings, a position paper (or one whose title says so),
    else the main one of a venue."""
    if info.workshops or _WORKSHOPS.search(prose):
        return "workshop"
    if _FINDINGS.search(prose):
        return "findings"
    if _POSITION.search(prose) or position_title:
        return "position"
    return "main" if info.venue else None


def _sort_links(info: PublicationInfo, text: str, urls: list[str]) -> None:
    """Each link under what it is: a poster page, code, a project page (by the cue before it), other."""
    for url in urls:
        at = text.find(url)
        preceding = text[
            max(0, at - CUE_WINDOW) : at
        ]  # the cue is just before the link; all of it made 2,000 links quadratic
        if is_poster_page(url):
            info.poster_urls.append(url)
        elif is_code_repository(url) or _CODE_CUE.search(preceding):
            info.code_urls.append(url)
        elif _PROJECT_CUE.search(preceding):
            info.project_urls.append(url)
        else:
            info.other_urls.append(url)


def _venue_and_year(comments: str | None, journal_ref: str | None, urls: list[str]) -> PublicationInfo:
    """The venue and year the comments, else the journal reference, state, else a poster page's."""
    info = PublicationInfo()
    for part, label in ((comments, "comments"), (journal_ref, "journal-ref")):
        if part and info.venue is None:
            venue, year = find_venue(_LINK.sub(" ", part))
            if venue:
                info.venue, info.year, info.year_source = venue, year, label if year else None
    if info.venue is None:
        info.venue = next((venue_of_poster_page(url) for url in urls if is_poster_page(url)), None)
    if info.year is None:
        for url in urls:
            if (virtual := _VIRTUAL_YEAR.search(url)) and is_poster_page(url):
                info.year, info.year_source = int(virtual.group(1)), "poster-page"
                break
    return info


def parse_publication(comments: str | None, journal_ref: str | None, title: str | None = None) -> PublicationInfo:
    """Every fact the comments and journal reference state; nothing they do not.

    Listings repeat their comments (a structured source states one venue line for all its papers), so
    the facts of one text are read once (:func:`_stated_facts`); each record gets its own copy (its
    venue and year may be filled in later), sharing the lists, which nothing changes after.
    """
    return replace(_stated_facts(comments, journal_ref, (title or "").casefold().startswith("position:")))


@lru_cache(maxsize=1 << 14)
def _stated_facts(comments: str | None, journal_ref: str | None, position_title: bool) -> PublicationInfo:
    text = " ".join(part for part in (comments, journal_ref) if part)
    urls = find_urls(text)
    info = _venue_and_year(comments, journal_ref, urls)
    prose = _LINK.sub(" ", text)
    info.workshops = find_workshops(prose)
    info.presentations = [name for name, pattern in _PRESENTATIONS if pattern.search(prose)]
    info.track = _track(info, prose, position_title)
    info.non_archival = bool(_NON_ARCHIVAL.search(prose))
    info.pages = _int(_PAGES, prose)
    info.main_pages = _int(_MAIN_PAGES, prose)
    info.figures = _int(_FIGURES, prose)
    info.tables = _int(_TABLES, prose)
    info.pmlr_volume = _int(_PMLR, prose)
    _sort_links(info, text, urls)
    return info
