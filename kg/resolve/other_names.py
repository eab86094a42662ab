"""Organisations written by another name of one organisation of the corpus: its acronym, alone or
before a campus.

The alias table knows the acronyms of the institutions it lists ("KAUST", "UC Berkeley"). For the
others the corpus is the evidence, where it writes both names:

- an acronym written alone, in capitals and of three letters or more ("KAUST", "MBZUAI"), is the
  organisation whose name it abbreviates: the initials of its significant words ("King Abdullah
  University of Science and Technology") or the acronym a source writes after it in brackets
  ("EPF Lausanne (EPFL)"), the same acronyms the name look-up derives (:mod:`.match_keys`), or
  whose name is the acronym and then an institution's name ("KTH Royal Institute of Technology");
- an acronym before the rest of a name, as systems write their campuses ("UC Santa Barbara",
  "SUNY at Stony Brook", "UT-Dallas"), is the organisation named by the words it is the initials
  of and the same rest ("University of California, Santa Barbara", "State University of New York
  at Stony Brook").

- "X University" is "University of X" where X is one or two plain words ("Toronto University"),
  except the pairs that are two institutions (:data:`DISTINCT_IN_SWAPPED_ORDER`: Washington, Miami, …);
- a short name with no institution's word, alone or before its place ("Rutgers, New Brunswick"),
  is the organisation named by it and "University", "Institute" or "College", where every other
  name of the corpus that begins with it continues so; not a country or a US state ("Washington"),
  nor a name the corpus also writes after "University of";
- "A University" is "A University of B" where B is a place ("Ben-Gurion University of the Negev"),
  not a subject ("Tokyo University of Science" is another university than "Tokyo University").
- a company's first word abbreviated ("VW Group", "MS Research") is the company named by a word
  it abbreviates and the same rest ("Volkswagen Group"): the word's first letter, then others of
  its letters in order, not the next one ("GE" is no abbreviation of "Genentech").

None of these where a word of the name says which kind of university it is, not which one
("Technical University of X" is no "Technical University"; :data:`NAME_KIND_WORDS`). Only where
exactly one organisation of the corpus fits: "MIT" stays apart where the corpus writes
both "Massachusetts Institute of Technology" and "Manipal Institute of Technology". Acronyms of
several well-known institutions (:data:`AMBIGUOUS_ACRONYMS`) never take part, since the one the
corpus happens to spell out may not be the one meant. A name the alias table knows keeps the
identity the table gives it.

Nothing is rewritten in the sources: the other name is placed under the institution
(``org:subOrganizationOf``, which holds of an organisation and itself), so every question that
rolls units up to their institution counts both, and ``kg quality`` lists the decision
(``kg:SameInstitutionByName``). Derived from the whole store, so it never depends on the order
sources came in.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..index.match_keys import derived_acronyms, initials
from ..orgs.institutions import GENERIC_UNITS, KIND_WORDS, SUBJECT_WORD, split_commas
from ..orgs.keys import DISTINCT_IN_SWAPPED_ORDER, institution_key
from ..orgs.lexicon import word_list, word_sequence
from ..orgs.org_names import COMPANY_NAME_WORDS, COUNTRIES, ORGANISATION_WORDS, UNIT_ONLY_WORDS, US_STATES, is_top_level
from ..rdf.iris import Minter, slug
from ..text.names import match_key
from ..vocab import KG, ORG, RDF, RDFS
from .name_units import ACADEMIC_WORDS, JOINING_WORDS, CorpusOrganisations, key_words
from .unit_forms import unit_forms

# An abbreviated first word ("VW Group"), and the words that end a company's or a lab's name after it.
_CAPITALS = re.compile(r"[A-Z]{2,4}")
_COMPANY_ENDINGS = frozenset(COMPANY_NAME_WORDS) | word_list("company_ending_extra")
AMBIGUOUS_ACRONYMS = word_list("ambiguous_acronym")
# An acronym written alone, and one before the rest of a name.
_ALONE = re.compile(r"[A-Z]{3,}")
_ABBREVIATION = re.compile(r"(?P<abbreviation>[A-Z]{2,})(?:\s+|\s*-\s*)\S")
_JOINING = word_list("system_joining")
NAME_KIND_WORDS = KIND_WORDS | word_list("name_kind_extra")
INSTITUTION_TYPE_WORDS = word_sequence("institution_type")
SUBJECT_NAMES = word_list("subject_name")


def written_alone(key: tuple[str, ...], forms: Iterable[str]) -> bool:
    """Whether a one-word name is written as an acronym alone ("KAUST", "KAUST, Thuwal")."""
    return len(key) == 1 and any(
        _ALONE.fullmatch(part := form.split(",")[0].strip()) is not None and match_key(part) == key[0] for form in forms
    )


def leading_acronym(key: tuple[str, ...], forms: Iterable[str]) -> str | None:
    """The acronym a name begins with, written in capitals before the rest ("uc" of "UC Santa Barbara")."""
    for form in forms:
        if len(key) > 1 and (match := _ABBREVIATION.match(form)) and match_key(match["abbreviation"]) == key[0]:
            return key[0]
    return None


def _expands(words: tuple[str, ...], acronym: str, rest: tuple[str, ...]) -> bool:
    """Whether a name is the words an acronym is the initials of, then the same rest ("university
    of california santa barbara" for "uc" and "santa barbara")."""
    if len(words) <= len(rest) or words[-len(rest) :] != rest:
        return False
    spelt_out = words[: -len(rest)]
    if spelt_out[-1] in _JOINING:
        spelt_out = spelt_out[:-1]
    return len(spelt_out) >= 2 and initials(spelt_out) == acronym


def same_institutions(
    organisations: Iterable[tuple[str, bool]], written: dict[str, list[str]]
) -> dict[str, tuple[str, str]]:
    """(IRI, named by the alias table) of top-level organisations -> {IRI of another name:
    (IRI of the one organisation it names, why)}; ``written``: IRI -> its written forms.
    Acronyms before a rest are placed first, so an acronym that fits both "EPF Lausanne" and "Ecole
    Polytechnique Federale Lausanne" fits one organisation once the first is under the second."""
    every = {iri: (words, named) for iri, named in sorted(organisations) if (words := key_words(iri)) is not None}
    by_iri = {iri: words for iri, (words, named) in every.items() if not named}
    found: dict[str, tuple[str, str]] = {}
    for iri, (candidates, why) in _acronyms_before_a_rest(every, by_iri, written).items():
        _place(found, written, iri, candidates, why)
    implied = _implied_acronyms(every, written, found)
    for iri, words in by_iri.items():
        if written_alone(words, written.get(iri, ())) and words[0].upper() not in AMBIGUOUS_ACRONYMS:
            _place(
                found,
                written,
                iri,
                implied.get(words[0], set()) - {iri},
                "written alone, it is the acronym of {}, the only organisation of the corpus it abbreviates",
            )
    for iri, (candidates, why) in sorted(written_short_or_reordered(every, written).items()):
        if iri not in found:
            _place(found, written, iri, candidates, why)
    for iri, (candidates, why) in sorted(abbreviated_first_word(every, written).items()):
        if iri not in found:
            _place(found, written, iri, candidates - set(found), why)
    return found


def _place(
    found: dict[str, tuple[str, str]], written: dict[str, list[str]], iri: str, candidates: set[str], why: str
) -> None:
    """``iri`` names the one candidate, where there is exactly one (``why`` gets its shortest written form)."""
    if len(candidates) == 1:
        institution = next(iter(candidates))
        found[iri] = (institution, why.format(repr(min(written.get(institution) or [institution]))))


def _acronyms_before_a_rest(
    every: dict[str, tuple[tuple[str, ...], bool]], by_iri: dict[str, tuple[str, ...]], written: dict[str, list[str]]
) -> dict[str, tuple[set[str], str]]:
    """IRI of a name that is an acronym and a rest ("EPF Lausanne") -> (the organisations whose name
    ends with the rest after words the acronym is the initials of; why)."""
    leading = {
        iri: acronym
        for iri, words in by_iri.items()
        if (acronym := leading_acronym(words, written.get(iri, ()))) is not None
    }
    # the organisations ending with each rest written after an acronym, found by their endings, not
    # by asking every organisation of every acronym (quadratic: 20,000 organisations took 7 s)
    rests = {by_iri[iri][1:] for iri in leading}
    ending_with: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for other, (longer, _) in every.items():
        for length in range(1, len(longer)):
            if longer[-length:] in rests:
                ending_with[longer[-length:]].append(other)
    return {
        iri: (
            {
                other
                for other in ending_with.get(by_iri[iri][1:], ())
                if _expands(every[other][0], acronym, by_iri[iri][1:])
            },
            f"{acronym.upper()!r} is the initials of the words before {' '.join(by_iri[iri][1:])!r} in {{}}, "
            "the only organisation of the corpus written so",
        )
        for iri, acronym in leading.items()
    }


def _implied_acronyms(
    every: dict[str, tuple[tuple[str, ...], bool]], written: dict[str, list[str]], found: dict[str, tuple[str, str]]
) -> dict[str, set[str]]:
    """Acronym -> the organisations whose written names imply it (each as the one it is placed under)."""
    implied: dict[str, set[str]] = defaultdict(set)
    for iri in every:
        for form in written.get(iri, ()):
            for acronym in derived_acronyms(form):
                implied[acronym].add(found.get(iri, (iri,))[0])
    for iri, (words, _) in every.items():  # "KTH Royal Institute of Technology": the acronym, then the name
        if len(words) > 1 and is_top_level(" ".join(words[1:])):
            implied[words[0]].add(found.get(iri, (iri,))[0])
    return implied


def abbreviated_first_word(
    every: dict[str, tuple[tuple[str, ...], bool]], written: dict[str, list[str]]
) -> dict[str, tuple[set[str], str]]:
    """Top-level organisations -> {IRI of a company's name whose first word is written as an
    abbreviation ("VW Group"): (the organisations named by a word it abbreviates and the same rest,
    "Volkswagen Group"; why)}. The abbreviation is two to four capitals, the first the word's first
    letter, the others letters of it in order and not the next one ("VW" of "Volkswagen", "MS" of
    "Microsoft", never "GE" of "Genentech"); the rest ends with a company's or a lab's word ("Group",
    "Research") and has no academic or unit word ("CS Department" is no "Chemistry Department")."""
    by_rest: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for iri, (words, _) in every.items():
        if len(words) >= 2:
            by_rest[words[1:]].add(iri)
    found: dict[str, tuple[set[str], str]] = {}
    for iri, (words, named) in every.items():
        rest = words[1:]
        if named or not rest or rest[-1] not in _COMPANY_ENDINGS or set(rest) & (ACADEMIC_WORDS | UNIT_ONLY_WORDS):
            continue
        acronym = next(
            (
                first
                for form in written.get(iri, ())
                if _CAPITALS.fullmatch(first := form.split()[0]) and match_key(first) == words[0]
            ),
            None,
        )
        if acronym is not None:
            found[iri] = (
                {other for other in by_rest.get(rest, ()) - {iri} if _abbreviates(acronym, every[other][0][0])},
                f"{acronym!r} abbreviates the first word of {{}}, the only organisation of the corpus "
                f"named by such a word and {' '.join(rest)!r}",
            )
    return found


def _abbreviates(acronym: str, word: str) -> bool:
    """ "VW" of "volkswagen": the word's first letter, then the others in order, not the next one."""
    letters = acronym.lower()
    if len(word) <= len(letters) + 1 or word[0] != letters[0] or not word.isalpha() or word in ORGANISATION_WORDS:
        return False
    positions, position = [], 0
    for letter in letters[1:]:
        position = word.find(letter, position + 1)
        if position < 0:
            return False
        positions.append(position)
    return positions[0] > 1


def written_short_or_reordered(
    every: dict[str, tuple[tuple[str, ...], bool]], written: dict[str, list[str]]
) -> dict[str, tuple[set[str], str]]:
    """Top-level organisations (``every``: IRI -> (key words, named by the alias table); ``written``:
    IRI -> forms) -> {IRI of one the table does not name: (the organisations it may be another form
    of, why)}: "X University" of "University of X", a short name of the name with "University" (or
    "Institute", "College") added ("Rutgers" of "Rutgers University"), "A University" of "A
    University of B"."""
    by_words = {words: iri for iri, (words, _) in every.items()}
    unnamed = {iri: words for iri, (words, named) in every.items() if not named}
    shorter = _short_names(unnamed, written, by_words)
    truncated = {
        iri: words[:-1]
        for iri, words in unnamed.items()
        if iri not in shorter and truncated_university(words, by_words)
    }
    beginning = _beginning_with(
        {*shorter.values(), *((*name, "university", "of") for name in truncated.values())}, every
    )
    forms: dict[str, tuple[set[str], str]] = {}
    for iri, words in unnamed.items():
        if words[-1:] == ("university",) and _in_swapped_order(words[:-1], by_words):
            forms[iri] = (
                {by_words[("university", "of", *words[:-1])]},
                "the same words as {} in the other order, the only organisation of the corpus so written",
            )
        elif (short := shorter.get(iri)) is not None:
            forms[iri] = (
                _completed(short, beginning.get(short, set()) - {iri}, every),
                "its name with an institution's word added is the name of {}, the only organisation of "
                "the corpus that begins with it",
            )
        elif (name := truncated.get(iri)) is not None:
            forms[iri] = (
                {
                    other
                    for other in beginning.get((*name, "university", "of"), ())
                    if _place_of(every[other][0][len(name) + 2 :])
                },
                "its name cut before 'of' and a place: {}, the only organisation of the corpus so named",
            )
    return forms


def _short_names(
    unnamed: dict[str, tuple[str, ...]], written: dict[str, list[str]], by_words: dict[tuple[str, ...], str]
) -> dict[str, tuple[str, ...]]:
    """IRI -> the short name (:func:`short_name`) of each unnamed organisation that has one, but for
    a short name the corpus also writes after "University of", which may be either ("Miami")."""
    return {
        iri: short
        for iri, words in unnamed.items()
        if (short := short_name(words, written.get(iri, ()))) is not None
        and ("university", "of", *short) not in by_words
    }


def _plain_name(words: tuple[str, ...], longest: int) -> bool:
    """A name of at most ``longest`` words that says which institution, not what kind: no word of
    a kind of university ("Technical"), of an organisation or a joining one, not a country."""
    return (
        0 < len(words) <= longest
        and not set(words) & (NAME_KIND_WORDS | ORGANISATION_WORDS | JOINING_WORDS)
        and " ".join(words) not in COUNTRIES
    )


def _in_swapped_order(name: tuple[str, ...], by_words: dict[tuple[str, ...], str]) -> bool:
    """ "Toronto University": "University of Toronto" is an organisation of the corpus, the name is
    one or two plain words, and not one of the pairs that are two institutions."""
    return (
        _plain_name(name, 2)
        and " ".join(name) not in DISTINCT_IN_SWAPPED_ORDER
        and ("university", "of", *name) in by_words
    )


def short_name(words: tuple[str, ...], forms: Iterable[str]) -> tuple[str, ...] | None:
    """The name an organisation is written by before its place, where it has no institution's word
    ("Rutgers" of "Rutgers, New Brunswick", "Texas A&M"): a name, not a country or a US state (a
    state alone, "Washington", says where, not which), with no word of a kind of university."""
    for form in forms:
        short = tuple(institution_key(split_commas(form)[0]).split())
        rest = words[len(short) :]
        if (
            short
            and words[: len(short)] == short
            and not set(short) & (NAME_KIND_WORDS | ORGANISATION_WORDS)
            and not set(rest) & ORGANISATION_WORDS
            and (not rest or "," in form)
            and " ".join(short) not in COUNTRIES | US_STATES | GENERIC_UNITS
            and short[0] not in JOINING_WORDS
        ):
            return short
    return None


def _completed(short: tuple[str, ...], beginning: set[str], every: dict[str, tuple[tuple[str, ...], bool]]) -> set[str]:
    """The one organisation named by a short name and an institution's word ("Rutgers University"),
    where every other name the short one begins continues with it ("Rutgers University, New
    Brunswick"); none where another does not ("Rutgers Business School")."""
    full = {(*short, word) for word in INSTITUTION_TYPE_WORDS}
    named = {iri for iri in beginning if every[iri][0] in full}
    if len(named) != 1 or not all(every[iri][0][: len(short) + 1] in full for iri in beginning):
        return set()
    return named


def truncated_university(words: tuple[str, ...], by_words: dict[tuple[str, ...], str]) -> bool:
    """ "Ben-Gurion University": a name of one to three plain words and "University", where the corpus
    does not write "University of" and the same words (then it is that one, in the other order)."""
    return (
        words[-1:] == ("university",)
        and _plain_name(words[:-1], 3)
        and ("university", "of", *words[:-1]) not in by_words
    )


def _place_of(words: tuple[str, ...]) -> bool:
    """What follows "University of" in "Ben-Gurion University of the Negev": a place, one or two
    words, not a subject ("Tokyo University of Science" is another university than "Tokyo University")."""
    name = words[1:] if words[:1] == ("the",) else words
    return (
        0 < len(name) <= 2
        and "and" not in name
        and not any(word in SUBJECT_NAMES or SUBJECT_WORD.search(word.removesuffix("s")) for word in name)
    )


def _beginning_with(
    prefixes: set[tuple[str, ...]], every: dict[str, tuple[tuple[str, ...], bool]]
) -> dict[tuple[str, ...], set[str]]:
    """The organisations whose names begin with each of the prefixes, found in one pass."""
    found: dict[tuple[str, ...], set[str]] = defaultdict(set)
    lengths = {len(prefix) for prefix in prefixes}
    for iri, (words, _) in every.items():
        for length in lengths:
            if words[:length] in prefixes:
                found[words[:length]].add(iri)
    return found


def same_institution_triples(
    corpus: CorpusOrganisations, minter: Minter, placed: Iterable[ox.Triple]
) -> Iterator[ox.Triple]:
    """``org:subOrganizationOf`` from each other name to the institution it names, with a
    ``kg:SameInstitutionByName`` record of why (for ``kg quality``); an organisation already
    placed under another (``placed``: the units derived before) keeps that one place."""
    units = {triple.subject.value for triple in placed if triple.predicate == ORG.subOrganizationOf}
    found = same_institutions(corpus.top_level, corpus.written)
    for other_iri, placing in unit_forms(corpus.top_level, corpus.written, corpus.units).items():
        found.setdefault(other_iri, placing)
    for other_iri, (institution_iri, why) in sorted(found.items()):
        if other_iri in units:
            continue
        other, institution = ox.NamedNode(other_iri), ox.NamedNode(institution_iri)
        yield ox.Triple(other, ORG.subOrganizationOf, institution)
        record = ox.NamedNode(minter.iri("same-institution-by-name", slug(other_iri.rsplit("/", 1)[-1])))
        yield ox.Triple(record, RDF.type, KG.SameInstitutionByName)
        yield ox.Triple(record, KG.otherName, other)
        yield ox.Triple(record, KG.namesInstitution, institution)
        yield ox.Triple(record, RDFS.comment, ox.Literal(why))
