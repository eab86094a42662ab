"""Organisations written by another form of a unit, or of a lab, the corpus names elsewhere.

A source entry places a unit under its parent when it writes both ("Amazon, AWS AI Labs",
"Robotics Institute, Carnegie Mellon University"); another entry of the same corpus may write the
same unit otherwise, and then the mapping makes a top-level organisation of it:

- the unit alone ("AWS AI Labs", "Whiting School of Engineering"): it is the unit of that name,
  where the corpus has exactly one (a "Department of Computer Science" is another unit at every
  university, so only a name of its own counts: a word before its lab's or unit's word that is no
  subject, no field and no place the corpus writes alone after a comma, "AWS", "Whiting", never
  "Computer", nor "Shenzhen" of "Shenzhen Graduate School", which several universities have);
- the unit, then its parent after a comma or in brackets ("AWS AI Labs, Amazon", "AWS AI Labs
  (Amazon)"): the unit of that name of that parent;
- the parent's short name before the unit's ("Carnegie Mellon Robotics Institute" of "Robotics
  Institute, Carnegie Mellon University"): the short name is the parent's without its last word,
  "University", "Institute" or "College", and names which one (no country, no US state, no kind
  of university);
- a lab's name of its own with one word before it, a place or its organisation's ("London Dyson
  Robot Learning Lab" of "Dyson Robot Learning Lab"): the lab the corpus writes without it, where
  the word is no kind of institution ("New", "North", "National") and the rest is a lab's name of
  its own (so "New York University" is never "York University", a university being no lab).

None of these for a name that is itself an institution's ("… University"), nor one that other
units of the corpus are placed under (an organisation of its own), nor a name the alias table
knows. Only where exactly one unit (or lab) of the corpus fits. The other form is placed under the
unit (``org:subOrganizationOf``), so everything that rolls units up to their institution counts it
there; nothing is rewritten, and ``kg quality`` lists the decision with its reason
(:mod:`.other_names`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable

from ..orgs.institutions import KIND_WORDS, SUBJECT_WORD
from ..orgs.keys import institution_key
from ..orgs.lexicon import word_list
from ..orgs.org_names import COUNTRIES, FIELD_WORDS, ORGANISATION_WORDS, TOP_LEVEL_WORDS, US_STATES, is_top_level
from ..rdf.iris import slug
from .name_units import JOINING_WORDS, LAB_NAME_WORDS, key_words

# A unit named after a donor, or a place: a name before "School of", "Center for" … ("Whiting School
# of Engineering"), whatever its words end with.
_DONOR_UNIT_WORDS = word_list("donor_unit")
# Words before a lab's name that say which kind of institution, or where in a country: "New", "North" …
_KIND_PREFIXES = word_list("kind_prefix")
# Words that end a university's, an institute's or a college's name after its short name ("Carnegie Mellon").
_INSTITUTION_ENDINGS = word_list("institution_ending")


def unit_words(iri: str) -> tuple[str, ...] | None:
    """The words of a unit's own key, read back from its IRI (``institution/{parent}--{unit}``)."""
    local = iri.rsplit("/", 1)[-1]
    if "--" not in local:
        return None
    segment = local.rsplit("--", 1)[1]
    words = tuple(segment.split("-"))
    return words if segment and slug(" ".join(words)) == segment else None


def _generic(word: str, shaped: bool = True) -> bool:
    """A word that says no lab's name: a joining word, a field's, a unit's or a place's; with
    ``shaped``, also any word shaped like a subject's name ("Robotics", "Vision")."""
    return (
        word in JOINING_WORDS
        or word in FIELD_WORDS
        or word in LAB_NAME_WORDS
        or word in ORGANISATION_WORDS
        or word in _KIND_PREFIXES
        or word in KIND_WORDS
        or (shaped and bool(SUBJECT_WORD.search(word)))
        or word.isdigit()
        or word in COUNTRIES
        or word in US_STATES
    )


def corpus_places(written: dict[str, list[str]], top_level: Iterable[str]) -> frozenset[str]:
    """Words the corpus writes as a place: one word alone after a comma in a top-level
    organisation's name ("…, Shenzhen", "…, London"), that is no organisation's name of its own
    ("Dyson Robot Learning Lab, Dyson" says which, not where)."""
    top_level = list(top_level)
    names = {words[0] for iri in top_level if (words := key_words(iri)) is not None and len(words) == 1}
    return frozenset(
        key
        for iri in top_level
        for form in written.get(iri, ())
        for part in form.split(",")[1:]
        if len((key := institution_key(part)).split()) == 1 and not _generic(key) and key not in names
    )


def own_lab_name(words: tuple[str, ...], places: frozenset[str] = frozenset()) -> bool:
    """A lab's or a unit's name of its own: a lab's or unit's word, and before the first one a word
    that says which ("AWS AI Labs", "Whiting School of Engineering", "Dyson Robot Learning Lab"),
    not only subjects and fields ("Machine Learning Research Lab", "Department of Computer Science").
    Before "School of", "Center for" … a donor's name may end as a subject's does ("Whiting"). A
    word of ``places`` says where, not which ("Shenzhen Graduate School" is at several universities)."""
    first = next((index for index, word in enumerate(words) if word in LAB_NAME_WORDS), None)
    if first is None:
        return False
    donor = words[first] in _DONOR_UNIT_WORDS and words[first + 1 : first + 2] in (("of",), ("for",))
    return any(not _generic(word, shaped=not donor) and word not in places for word in words[:first])


# Words of an institution's own name, even where a source writes it as a member of another
# ("King's College London, University of London").
_INSTITUTION_WORDS = TOP_LEVEL_WORDS | word_list("institution_extra")


def _institution_form(words: tuple[str, ...], forms: Iterable[str]) -> bool:
    return bool(set(words) & _INSTITUTION_WORDS) or any(is_top_level(form) for form in forms)


_UnitIndex = dict[tuple[str, ...], set[str]]  # the words of a unit's name -> the units so named


def unit_forms(
    organisations: Iterable[tuple[str, bool]], written: dict[str, list[str]], units: dict[str, str]
) -> dict[str, tuple[str, str]]:
    """(IRI, named by the alias table) of top-level organisations, their written forms and the
    units of the sources (unit IRI -> parent IRI) -> {IRI of another form: (IRI of the unit or lab
    it is, why)}."""
    every = {iri: (words, named) for iri, named in sorted(organisations) if (words := key_words(iri)) is not None}
    parents = set(units.values())
    indexes = _unit_indexes(units)
    labs_alone = defaultdict(set, {words: set(found) for words, found in indexes[0].items()})
    for iri, (words, _) in every.items():
        labs_alone[words].add(iri)

    def label(iri: str) -> str:
        return repr(min(written.get(iri) or [iri]))

    places = corpus_places(written, every)
    found: dict[str, tuple[str, str]] = {}
    for iri, (words, named) in every.items():
        forms = written.get(iri, ())
        if named or iri in parents or _institution_form(words, forms):
            continue
        if (unit := _unit_match(iri, words, indexes, labs_alone, places, label)) is not None:
            found[iri] = unit
    return found


def _unit_indexes(units: dict[str, str]) -> tuple[_UnitIndex, _UnitIndex, _UnitIndex]:
    """The units of the sources by the words of their name: alone ("aws ai labs"), with their parent's after
    them ("aws ai labs amazon"), and after their parent's short name ("carnegie mellon robotics institute")."""
    alone: _UnitIndex = defaultdict(set)
    with_parent: _UnitIndex = defaultdict(set)
    short_before: _UnitIndex = defaultdict(set)
    for unit, parent in sorted(units.items()):
        if (words := unit_words(unit)) is None or (parent_words := key_words(parent)) is None:
            continue
        alone[words].add(unit)
        with_parent[(*words, *parent_words)].add(unit)
        if _short_name_before(parent_words, words):
            short_before[(*parent_words[:-1], *words)].add(unit)
    return alone, with_parent, short_before


def _short_name_before(parent_words: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether the parent's name but its last word ("carnegie mellon" of "... university") before the unit's
    is a lab's own name."""
    short = parent_words[:-1]
    return (
        len(parent_words) >= 2
        and parent_words[-1] in _INSTITUTION_ENDINGS
        and not set(short) & ORGANISATION_WORDS
        and not any(map(_generic, short))
        and own_lab_name((*short, *words))
    )


def _unit_match(
    iri: str,
    words: tuple[str, ...],
    indexes: tuple[_UnitIndex, _UnitIndex, _UnitIndex],
    labs_alone: _UnitIndex,
    places: frozenset[str],
    label: Callable[[str], str],
) -> tuple[str, str] | None:
    """(the unit or lab a top-level organisation's words name, why), where one alone fits."""
    alone, with_parent, short_before = indexes
    if len(fits := with_parent.get(words, set())) == 1:
        unit = next(iter(fits))
        return (
            unit,
            f"the name of {label(unit)} and of its parent written in one, the only unit of the corpus so named",
        )
    if len(fits := short_before.get(words, set())) == 1:
        unit = next(iter(fits))
        return (
            unit,
            f"the short name of the parent of {label(unit)} before the unit's name, the only unit "
            "of the corpus so named",
        )
    if own_lab_name(words, places) and len(fits := alone.get(words, set())) == 1:
        unit = next(iter(fits))
        return (
            unit,
            f"written alone, it is the unit {label(unit)}, the only unit of the corpus of that name",
        )
    if (
        len(words) >= 3
        and not _generic(words[0])
        and words[0] not in _KIND_PREFIXES
        and own_lab_name(words[1:], places)
        and len(fits := labs_alone.get(words[1:], set()) - {iri}) == 1
    ):
        lab = next(iter(fits))
        return (
            lab,
            f"{label(lab)} with a place's or its organisation's name before it, the only lab of the corpus so named",
        )
    return None


def company_labs(organisations: Iterable[tuple[str, bool]]) -> dict[str, str]:
    """(IRI, named by the alias table) of top-level organisations -> {lab IRI: company IRI}: a lab
    named by two or more words of a company's name and a lab's words only ("JP Morgan AI Research")
    is a unit of the one organisation of the corpus named by the same words and one more ("J.P.
    Morgan Chase"), where none is named by those words alone (then :func:`.name_units.name_parents`
    places it). Never for one word ("Google Research" is no unit of "Google DeepMind"), a word that
    says no name ("Machine Learning AI Lab"), nor where two organisations fit."""
    every = {iri: (words, named) for iri, named in sorted(organisations) if (words := key_words(iri)) is not None}
    by_words = {words: iri for iri, (words, _) in every.items()}
    continued = _named_by_one_word_more((iri, words) for iri, (words, _) in every.items())
    labs: dict[str, str] = {}
    for iri, (words, named) in every.items():
        if named or (name := _name_before_lab_words(words)) is None:
            continue
        if (
            name not in by_words
            and not any(map(_generic, name))
            and len(fits := continued.get(name, set()) - {iri}) == 1
        ):
            labs[iri] = next(iter(fits))
    return labs


def _named_by_one_word_more(names: Iterable[tuple[str, tuple[str, ...]]]) -> dict[tuple[str, ...], set[str]]:
    """(IRI, words) of organisations -> {the words of a name of three or more without its last:
    the IRIs so named}, where that last word is no lab's word and says a name."""
    continued: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for iri, words in names:
        if len(words) >= 3 and words[-1] not in LAB_NAME_WORDS and not _generic(words[-1]):
            continued[words[:-1]].add(iri)
    return continued


def _name_before_lab_words(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The two or more words before a name's lab words, where only lab words follow them."""
    first = next((index for index, word in enumerate(words) if word in LAB_NAME_WORDS), None)
    if first is None or first < 2 or not set(words[first:]) <= LAB_NAME_WORDS:
        return None
    return words[:first]
