"""``paperlists``: the accepted-papers JSON of OpenReview-based sites and the paperlists project.

A JSON array of objects, one per paper: ``title``, ``abstract``, ``keywords``, ``author`` with
``authorids`` (OpenReview profile ids, or an e-mail for an author without a profile),
``aff``, ``aff_domain``, ``orcid``, ``dblp`` aligned per author with ``;`` (``+`` between the
several affiliations of one author), ``status`` (Poster / Oral / Spotlight), ``track``,
``primary_area`` (kept as the paper's last keyword),
``site`` / ``openreview`` / ``pdf`` / ``github`` / ``project`` URLs and a ``bibtex`` entry
(its booktitle and year give the venue). The venue header is the file name
(``aistats2025.json`` -> "AISTATS 2025") for papers whose entry names no conference.

The array is decoded one object at a time (:mod:`kg.ingest.json_stream`), so a file of many MB
never exists twice in memory, and each paper knows the line its object starts on. An object that
cannot be decoded is rejected with the line and column of the fault and reading goes on with the
next object; a truncated file ingests every paper before the cut.
"""

from __future__ import annotations

import json
import re
from typing import Iterator

from ...orgs.keys import is_legal_form
from ...orgs.org_names import ORGANISATION_WORDS, UNIT_WORDS, is_country, is_top_level, words_of
from ...records import Affiliation, AuthorDetail, PaperRecord, Rejection, excerpt
from ...text.names import clean, fold, is_generation, unescape_html, with_generations
from .. import identifiers
from ..comments import find_venue, known_venue_of_compact, names_conference, venue_of_header
from ..id_majority import IdOwners, pairings
from ..json_stream import ArrayStream, Fault
from ..reading import Paragraph
from ..structured import FieldError, distinct, institutions_of, make_record, parts, text
from . import Source
from .bibtex import citation_fields, unlatex, venue_facts

_CONFERENCE_YEAR_STEM = re.compile(r"(?P<name>[A-Za-z0-9]+?)[_\-]?(?P<year>(?:19|20)\d\d)")


def header_from_file_name(stem: str) -> str:
    """``colm2024`` -> ``COLM 2024``: paperlists names files by conference acronym and year, in
    lower case and without spaces, so a well-known conference is given its own spelling back
    (``acmmm2024`` -> ``ACM MM 2024``, ``siggraphasia2024`` -> ``SIGGRAPH Asia 2024``) and any
    other acronym is written in capitals again so that a conference nobody listed (COLM, 3DV,
    WACV) is read as one, like a header line; any other stem is its words."""
    if match := _CONFERENCE_YEAR_STEM.fullmatch(stem):
        return f"{known_venue_of_compact(match['name']) or match['name'].upper()} {match['year']}"
    return stem.replace("_", " ")


def _filled_key(entry: dict, keys: tuple[str, ...]) -> str:
    """The first of the keys a list writes its field under that holds a value (else the first)."""
    return next((key for key in keys if entry.get(key)), keys[0])


def byline(entry: dict) -> list[str]:
    """The authors in byline order. OpenReview-based lists join them with ``;`` under ``author``
    (an empty place kept: position aligns the per-author fields); CVF lists and some ICML /
    NeurIPS years with ", ", some under ``authors``. A list without ``;`` but with commas is
    comma-separated, a generation ("Jr.") staying with its name, also where a ';' list gives it a
    place of its own (NeurIPS 1987: "J.L. WYATT; Jr; D.L. STANDLEY"; the per-author fields then no
    longer align, so nobody gets a per-author one)."""
    key = _filled_key(entry, ("author", "authors"))
    value = entry.get(key)
    if isinstance(value, str):
        value = unescape_html(value)  # "Pe&#39;er" holds a ';' that separates nothing
        if ";" not in value and "," in value:
            return with_generations(clean(part) for part in value.split(","))
    names = parts(value, key, ";")
    return with_generations(names) if any(map(is_generation, names[1:])) else names


# The per-author lists the IEEE lists write twice with the byline (ICRA, IROS: "/3708…;/3848…;/3708…;/3848…").
_PER_AUTHOR_KEYS = ("authorids", "orcid", "dblp", "google_scholar", "aff_domain")


def _twice(values: list[str]) -> bool:
    half = len(values) // 2
    return half > 0 and len(values) == 2 * half and values[:half] == values[half:]


def without_repeated_byline(entry: dict) -> dict:
    """The entry with its byline once where the list wrote it twice in a row ("Monika Roznere;Philippos
    Mordohai;Monika Roznere;Philippos Mordohai", ICRA 2023 and IROS 2023 from IEEE Xplore, whose
    affiliation list names each author once). Two names or more repeated in order are the byline
    twice; one name twice ("Wei Wang;Wei Wang") only where the affiliations name one author, as two
    namesakes would have one each. Per-author lists written twice the same way are taken once too."""
    names = byline(entry)
    if not _twice(names):
        return entry
    half = len(names) // 2
    if half == 1 and (len(affs := _affiliations(entry)) != 1 or not affs[0]):
        return entry
    undoubled = {**entry, _filled_key(entry, ("author", "authors")): ";".join(names[:half])}
    for key in _PER_AUTHOR_KEYS:
        if isinstance(value := entry.get(key), str) and _twice(listed := value.split(";")):
            undoubled[key] = ";".join(listed[: len(listed) // 2])
    return undoubled


def _per_author(values: list[str], count: int) -> list[str]:
    return values if len(values) == count else [""] * count


# Most lists write the affiliations under ``aff``, KDD's under ``affs``.
_AFFILIATION_KEYS = ("aff", "affs")


def _one_authors_affiliations(aff: str) -> list[str]:
    """The affiliations of one author, joined by ``+``. Lists that put ``+`` between them also
    wrote a comma inside a name as ``+`` ("Foo Co.+Ltd."): a part that is only a legal form ends
    the name before it, as its comma would. Empty parts are kept, to align with the domains."""
    names: list[str] = []
    for part in aff.split("+") if aff else []:
        if names and is_legal_form(part):
            names[-1] = f"{names[-1].strip()}, {part.strip()}"
        else:
            names.append(part)
    return names


def _is_unit(name: str) -> bool:
    """A unit's name ("Shenzhen Graduate School", "Foo Research Institute"): a unit word and no word
    of a university or company."""
    return bool(words_of(name) & UNIT_WORDS) and not is_top_level(name)


def _named_with_hosts(aff: str, domain: str) -> list[tuple[str, str]]:
    """One author's affiliations, each with its e-mail domain where the list gives one per
    affiliation. Without those domains (KDD's ``affs``) the ``+`` may also be a comma
    ("School of Computer Science+Fudan University"), which only the institution rules can tell
    (:func:`kg.orgs.institutions.plus_groups`): the author's affiliations stay one entry."""
    names, hosts = _one_authors_affiliations(aff), domain.split("+") if domain else []
    if len(hosts) != len(names) or not any(host.strip() for host in hosts):
        names, hosts = [aff.strip(" +")], [""]
    # a place holder ("---", as AAAI's list writes an unknown affiliation) names nothing: no node for it
    return [(name.strip(), host.strip().casefold()) for name, host in zip(names, hosts) if any(map(str.isalnum, name))]


# A footnote number glued to the name it begins or ends ("2Microsoft", "1Loom University, 2Weave
# Labs", "Hong Kong S.A.R.1"), as lists copied from a PDF's title page write affiliations (ECCV
# 2022, COLING 2022); a number after a space ("Beijing 100084", "Lab 2") is no footnote.
_FOOTNOTE_NUMBERS = (
    re.compile(r"(?:^|(?<=[,+])|(?<=[,+]\s))\d{1,2}(?=[A-Z\u00c0-\u00de])"),
    re.compile(r"(?<=[a-z.)\u00df-\u00ff])\d{1,2}(?=\s*(?:$|[,+]))"),
)


def _without_footnote_numbers(affs: list[str]) -> list[str]:
    """A paper's affiliations without the footnote numbers glued to them. Numbers are footnotes
    only when they count from 1 and there are two or more: "4Paradigm" or "3M" alone is a name."""
    numbers = {match[0] for aff in affs for pattern in _FOOTNOTE_NUMBERS for match in pattern.finditer(aff)}
    if "1" not in numbers or len(numbers) < 2:
        return affs
    for pattern in _FOOTNOTE_NUMBERS:
        affs = [pattern.sub("", aff) for aff in affs]
    return affs


def _affiliations(entry: dict) -> list[str]:
    """The ``;`` list of affiliations, one place per author when aligned with the byline."""
    key = _filled_key(entry, _AFFILIATION_KEYS)
    return _without_footnote_numbers(parts(entry.get(key), key, ";"))


def _apart(name: str, host: str, alone: set[str]) -> list[tuple[str, str]]:
    """One author's affiliations joined by a space, as AAAI's list writes them ("Foo University Bar
    Technology"), where the paper's other authors give each alone: cut after a name that an
    organisation word or legal form ends, before one that is no unit ("Foo University Shenzhen
    Graduate School" stays: a unit), or after an address's country ("Foo Group, University of Bar,
    Germany Baz Institute, Dresden, Germany"). An affiliation with its own domain is one."""
    words = name.split()
    for end in range(1, len(words) if not host else 0):
        head, tail = " ".join(words[:end]), " ".join(words[end:])
        last = fold(words[end - 1]).strip(".,")
        # an organisation word, a legal form or the country of an address ends the one before; after
        # a country no unit of the name before follows
        if (
            head in alone
            and tail in alone
            and (last in ORGANISATION_WORDS or is_legal_form(last) or is_country(last))
            and (is_country(last) or not _is_unit(tail))
        ):
            return [(head, host), *_apart(tail, host, alone)]
    return [(name, host)]


def _stated(entry: dict) -> list[list[tuple[str, str]]]:
    """Each ``;`` entry's affiliations, each with its domain where the list gives one."""
    affs = _affiliations(entry)
    domains = _per_author(parts(entry.get("aff_domain"), "aff_domain", ";"), len(affs))
    named = [_named_with_hosts(aff, domain) for aff, domain in zip(affs, domains)]
    alone = {name for names in named for name, _ in names}
    return [[pair for name, host in names for pair in _apart(name, host, alone)] for names in named]


# The per-author id lists, each with what its ids are read as: OpenReview's own (a profile or its e-mail
# id, which name the byline's people) or one of the schemes kg.ingest.id_majority decides.
_ID_LISTS = {
    "authorids": identifiers.other_person_id,
    "orcid": lambda value: ("orcid", found) if (found := identifiers.orcid(value)) else None,
    "dblp": lambda value: ("dblp", found) if (found := identifiers.dblp_pid(value)) else None,
    "google_scholar": identifiers.other_person_id,
}


def _unaligned_ids(entry: dict, count: int) -> list[tuple[str, str]]:
    """(kind, id) of every id in a per-author list of another length than the byline: it pairs
    nobody, so its ids go only to an author the whole input's majority gives them to."""
    return [
        found
        for key, read in _ID_LISTS.items()
        if len(values := parts(entry.get(key), key, ";")) not in (0, count)
        for found in map(read, values)
        if found
    ]


def _details(entry: dict, authors: list[str], stated: list[list[tuple[str, str]]]) -> list[AuthorDetail]:
    count = len(authors)
    ids, orcids, dblps, scholars = (_per_author(parts(entry.get(key), key, ";"), count) for key in _ID_LISTS)
    affs = stated if len(stated) == count else [[]] * count
    details = []
    for author_id, orcid, dblp, scholar, named in zip(ids, orcids, dblps, scholars, affs):
        affiliations = tuple(Affiliation(name, host or None) for name, host in named)
        other_ids = tuple(found for found in map(identifiers.other_person_id, (author_id, scholar)) if found)
        details.append(
            AuthorDetail(
                affiliations,
                identifiers.openreview_profile(author_id),
                identifiers.email(author_id),
                identifiers.orcid(orcid),
                identifiers.dblp_pid(dblp),
                other_ids,
            )
        )
    return details


def id_owners(path) -> IdOwners:
    """Who holds each id the file's per-author lists give, from every entry's pairings (a first
    pass over the file, reading only the byline and the id lists)."""
    found = []
    for number, (_, entry) in enumerate(ArrayStream(path).values()):
        if isinstance(entry, dict):
            try:
                entry = without_repeated_byline(entry)
                authors = byline(entry)
                found.extend(pairings(number, authors, _details(entry, authors, [])))
            except FieldError:
                continue  # the second pass rejects it with the reason
    return IdOwners(found)


def _edition_dated(fields: dict[str, str], header: str) -> dict[str, str]:
    """The bibtex fields, with the file name's year where the booktitle names the file's conference:
    that year is the edition's, a bibtex year the printing's (ACML 2023's PMLR volume is of 2024)."""
    acronym, edition = venue_of_header(header)
    if (
        edition
        and fields.get("year")
        and names_conference(find_venue(unlatex(fields.get("booktitle") or ""))[0], acronym)
    ):
        return {**fields, "year": str(edition)}
    return fields


# The status of a submission the conference did not accept: ICLR 2023's list holds every
# submission, the rejected and withdrawn ones too, most of them without authors.
_NOT_ACCEPTED = re.compile(r"(?:desk[\s_-]*)?reject(?:ed)?|withdrawn?|withdrawal", re.IGNORECASE)


def paper_record(entry: object, where, header: str, owners: IdOwners | None = None) -> PaperRecord | Rejection:
    if not isinstance(entry, dict):
        return Rejection(
            where, f"entry is a JSON {type(entry).__name__}, not an object", excerpt(json.dumps(entry)[:200])
        )
    title = text(entry.get("title"), "title")
    if (status := text(entry.get("status"), "status")) and _NOT_ACCEPTED.fullmatch(status):
        return Rejection(where, f"status {status!r}: a submission the conference did not accept", excerpt(title or ""))
    entry = without_repeated_byline(entry)
    authors = byline(entry)
    bib_fields = (
        _edition_dated(citation_fields(entry["bibtex"]), header) if isinstance(entry.get("bibtex"), str) else {}
    )
    ids_and_links = _ids_and_links(entry, bib_fields)
    track = text(entry.get("track"), "track")
    facts = "; ".join(part for part in (status, f"{track} track" if track else None, venue_facts(bib_fields)) if part)
    # the paper's institutions are every stated affiliation, also where the list is not aligned
    # with the byline (then nobody gets a per-author one: the alignment is unknown)
    per_entry = _stated(entry)
    stated = distinct(name for names in per_entry for name, _ in names)
    details = _details(entry, authors, per_entry)
    owners = owners or IdOwners(pairings(0, authors, details))  # alone, a record is its own input
    details, set_aside = owners.settle(authors, details, _unaligned_ids(entry, len(authors)))
    return make_record(
        where,
        header,
        title,
        authors,
        details,
        abstract=text(entry.get("abstract"), "abstract") or text(entry.get("tldr"), "tldr"),
        # the conference's primary area is the authors' own choice of subject: a keyword, mapped to a topic
        keywords=distinct(
            [*parts(entry.get("keywords"), "keywords", ";"), text(entry.get("primary_area"), "primary_area")]
        ),
        **ids_and_links,
        stated_facts=facts or None,
        institutions=institutions_of(stated, details or []),
        set_aside_ids=set_aside,
    )


def _ids_and_links(entry: dict, bib_fields: dict[str, str]) -> dict:
    """An entry's DOI, arXiv id and version and OpenReview forum id, and its links: code, project page and
    others (the PDF, and a site that is no OpenReview forum)."""
    urls = {key: text(entry.get(key), key) for key in ("site", "openreview", "pdf", "github", "project")}
    arxiv = identifiers.arxiv(bib_fields.get("eprint"))
    return {
        "doi": identifiers.doi(bib_fields.get("doi")),
        "arxiv_id": arxiv[0] if arxiv else None,
        "arxiv_version": arxiv[1] if arxiv else None,
        "openreview_id": identifiers.openreview_forum(urls["openreview"] or urls["site"] or bib_fields.get("url")),
        "code_urls": [urls["github"]] if urls["github"] else [],
        "project_urls": [urls["project"]] if urls["project"] else [],
        "other_urls": [
            url
            for url in (urls["pdf"], urls["site"])
            if url and (url == urls["pdf"] or not identifiers.openreview_forum(url))
        ],
    }


class PaperlistsFormat:
    name = "paperlists"
    description = "a JSON array of papers as OpenReview-based sites and the paperlists project publish them"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        head = paragraphs[0].text[:4096] if paragraphs else ""
        if not head.startswith("["):
            return 0.0
        # an array of objects, or one whose first paper names a title and authors (a first field of
        # many KB may push those names beyond what is sniffed)
        return (
            1.0 if re.match(r"\[\s*\{", head) or '"title"' in head and re.search(r'"author(?:s|ids)?"', head) else 0.5
        )

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        del paragraphs  # the JSON is decoded from the file itself, a chunk at a time
        header = header_from_file_name(source.path.stem)
        owners = id_owners(source.path)
        for line, entry in ArrayStream(source.path).values():
            if isinstance(entry, Fault):
                yield Rejection(source.at(entry.line), entry.reason, excerpt(entry.text))
                continue
            try:
                yield paper_record(entry, source.at(line), header, owners)
            except FieldError as exc:
                yield Rejection(source.at(line), str(exc), excerpt(str(entry.get("title") or "")[:200]))


FORMAT = PaperlistsFormat()
