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

Only where exactly one organisation of the corpus fits: "MIT" stays apart where the corpus writes
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

from ..ingest.names import match_key
from ..rdf.iris import Minter, slug
from ..rdf.vocab import KG, ORG, RDF, RDFS
from .match_keys import derived_acronyms, initials
from .name_units import CorpusOrganisations, key_words
from .org_names import is_top_level

# Acronyms that several well-known institutions go by (the alias table leaves them out for that).
AMBIGUOUS_ACRONYMS = frozenset(
    "NTU UW OSU MSU WSU BU SMU UCB ARL UCL USC PSU CSU ASU IIT".split())
# An acronym written alone, and one before the rest of a name.
_ALONE = re.compile(r"[A-Z]{3,}")
_ABBREVIATION = re.compile(r"(?P<abbreviation>[A-Z]{2,})(?:\s+|\s*-\s*)\S")
# Words that may join a system's name to its campus ("Université de Lyon", "University of X in Y").
_JOINING = frozenset("of in de di du".split())


def written_alone(key: tuple[str, ...], forms: Iterable[str]) -> bool:
    """Whether a one-word name is written as an acronym alone ("KAUST", "KAUST, Thuwal")."""
    return len(key) == 1 and any(_ALONE.fullmatch(part := form.split(",")[0].strip()) is not None
                                 and match_key(part) == key[0] for form in forms)


def leading_acronym(key: tuple[str, ...], forms: Iterable[str]) -> str | None:
    """The acronym a name begins with, written in capitals before the rest ("uc" of "UC Santa Barbara")."""
    for form in forms:
        if len(key) > 1 and (match := _ABBREVIATION.match(form)) and match_key(match["abbreviation"]) == key[0]:
            return key[0]
    return None


def _expands(words: tuple[str, ...], acronym: str, rest: tuple[str, ...]) -> bool:
    """Whether a name is the words an acronym is the initials of, then the same rest ("university
    of california santa barbara" for "uc" and "santa barbara")."""
    if len(words) <= len(rest) or words[-len(rest):] != rest:
        return False
    spelt_out = words[:-len(rest)]
    if spelt_out[-1] in _JOINING:
        spelt_out = spelt_out[:-1]
    return len(spelt_out) >= 2 and initials(spelt_out) == acronym


def same_institutions(organisations: Iterable[tuple[str, bool]],
                      written: dict[str, list[str]]) -> dict[str, tuple[str, str]]:
    """(IRI, named by the alias table) of top-level organisations -> {IRI of another name:
    (IRI of the one organisation it names, why)}; ``written``: IRI -> its written forms.
    Acronyms before a rest are placed first, so an acronym that fits both "EPF Lausanne" and "Ecole
    Polytechnique Federale Lausanne" fits one organisation once the first is under the second."""
    every = {iri: (words, named) for iri, named in sorted(organisations) if (words := key_words(iri)) is not None}
    by_iri = {iri: words for iri, (words, named) in every.items() if not named}
    found: dict[str, tuple[str, str]] = {}

    def place(iri: str, candidates: set[str], why: str) -> None:
        if len(candidates) == 1:
            institution = next(iter(candidates))
            found[iri] = (institution, why.format(repr(min(written.get(institution) or [institution]))))

    leading = {iri: acronym for iri, words in by_iri.items()
               if (acronym := leading_acronym(words, written.get(iri, ()))) is not None}
    # the organisations ending with each rest written after an acronym, found by their endings, not
    # by asking every organisation of every acronym (quadratic: 20,000 organisations took 7 s)
    rests = {by_iri[iri][1:] for iri in leading}
    ending_with: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for other, (longer, _) in every.items():
        for length in range(1, len(longer)):
            if longer[-length:] in rests:
                ending_with[longer[-length:]].append(other)
    for iri, acronym in leading.items():
        words = by_iri[iri]
        place(iri, {other for other in ending_with.get(words[1:], ()) if _expands(every[other][0], acronym, words[1:])},
              f"{acronym.upper()!r} is the initials of the words before {' '.join(words[1:])!r} in {{}}, "
              "the only organisation of the corpus written so")
    implied: dict[str, set[str]] = defaultdict(set)  # acronym -> organisations whose names imply it
    for iri in every:
        for form in written.get(iri, ()):
            for acronym in derived_acronyms(form):
                implied[acronym].add(found.get(iri, (iri,))[0])
    for iri, (words, _) in every.items():  # "KTH Royal Institute of Technology": the acronym, then the name
        if len(words) > 1 and is_top_level(" ".join(words[1:])):
            implied[words[0]].add(found.get(iri, (iri,))[0])
    for iri, words in by_iri.items():
        if written_alone(words, written.get(iri, ())) and words[0].upper() not in AMBIGUOUS_ACRONYMS:
            place(iri, implied.get(words[0], set()) - {iri},
                  "written alone, it is the acronym of {}, the only organisation of the corpus it abbreviates")
    return found


def same_institution_triples(corpus: CorpusOrganisations, minter: Minter, placed: Iterable[ox.Triple]) -> Iterator[ox.Triple]:
    """``org:subOrganizationOf`` from each other name to the institution it names, with a
    ``kg:SameInstitutionByName`` record of why (for ``kg quality``); an organisation already
    placed under another (``placed``: the units derived before) keeps that one place."""
    units = {triple.subject.value for triple in placed if triple.predicate == ORG.subOrganizationOf}
    found = same_institutions(corpus.top_level, corpus.written)
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
