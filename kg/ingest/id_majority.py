"""Per-author identifier lists out of step with the byline, settled by majority over the whole input.

A source's ORCID, dblp, IEEE, Semantic Scholar, Google Scholar and ACL lists are aligned with its
byline by position, and a provider's lists are sometimes shifted against it (CoRL 2024's JSON gives
Ken Goldberg's dblp pid at Quan Vuong's place, Tomizuka's at Goldberg's). Read by position alone, a
person then holds two ids of one scheme and an id names two people. So every id a source gives is
decided over all of the source's records, by the rules of :data:`RULES` (each with an example and a
near-miss in ``tests/ingest/id_majority_cases.tsv``):

- ``one-id-per-profile``: an author with an OpenReview profile (or OpenReview's e-mail id) holds, of
  each scheme, the id most of the records that name that profile pair with it; a tie gives none;
- ``majority-holder``: an id belongs to the name (surname and first initial, so that "Clark B.
  Teeple" and "Clark Teeple" are one) most records pair it with, counting only pairings that the
  first rule does not contradict; a tie gives nobody;
- ``out-of-step-record``: a record with a pairing the two rules contradict is out of step, and its
  pairings count only for an id that no record in step pairs;
- ``unaligned-list``: a list of another length than the byline pairs nobody; its ids go to the
  record's author that holds them by the rules above.

An id is placed on the record's author who holds it, at its own place or another (a shifted list
gives its ids back to the right people); an id that none of the record's authors holds is set
aside, and the record keeps a note of it (``kg quality`` lists them). The profiles themselves (the
``authorids`` list) name the byline's people and are not voted on.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

from ..records import AuthorDetail, SetAsideId
from ..text.names import match_key
from .identifiers import OTHER_PERSON_IDS

RULES = {
    "one-id-per-profile": "a profile holds, of each scheme, the id most of its records pair it with",
    "majority-holder": "an id belongs to the name most records pair it with",
    "out-of-step-record": "a record with a contradicted pairing counts only where no record in step speaks",
    "unaligned-list": "a list of another length than the byline places its ids by majority only",
}
VOTED_KINDS = ("orcid", "dblp", *OTHER_PERSON_IDS)


def name_key(name: str) -> str:
    """Surname and first initial: a shifted id pairs two people, whom this tells apart."""
    words = match_key(name).split()
    return f"{words[-1]} {words[0][0]}" if words else ""


def voted_ids(detail: AuthorDetail) -> list[tuple[str, str]]:
    """(kind, id) of the ids of one author that the rules decide."""
    return [(kind, value) for kind, value in (("orcid", detail.orcid), ("dblp", detail.dblp)) if value] + [
        pair for pair in detail.other_ids if pair[0] in VOTED_KINDS
    ]


def _profile(detail: AuthorDetail) -> str | None:
    return detail.openreview or detail.email


@dataclass(frozen=True, slots=True)
class Pairing:
    record: int
    kind: str
    value: str
    name: str  # name_key of the author at the id's place
    written: str  # the name as the record writes it (for reports)
    profile: str | None


def pairings(record: int, authors: list[str], details: list[AuthorDetail]) -> Iterator[Pairing]:
    """The pairings of one record whose lists are aligned with its byline."""
    for name, detail in zip(authors, details):
        if key := name_key(name):
            for kind, value in voted_ids(detail):
                yield Pairing(record, kind, value, key, name, _profile(detail))


def _plurality(counts: Counter) -> str | None:
    """The one most frequent key, or None on a tie."""
    top = counts.most_common(2)
    return top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else None


def _decided(found: list[Pairing]) -> tuple[dict, dict]:
    """Each profile's id of each scheme (None: a tie), then each id's holder among the pairings
    that choice does not contradict (None: a tie)."""
    per_profile: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for pairing in found:
        if pairing.profile:
            per_profile[(pairing.profile, pairing.kind)][pairing.value] += 1
    choice = {key: _plurality(counts) for key, counts in per_profile.items()}
    names: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for p in found:
        if p.profile is None or choice[(p.profile, p.kind)] == p.value:
            names[(p.kind, p.value)][p.name] += 1
    return choice, {key: _plurality(counts) for key, counts in names.items()}


class IdOwners:
    """Who holds each id of one input, from all of its records' pairings."""

    def __init__(self, found: Iterable[Pairing]):
        found = list(found)
        self.choice, self.owner = _decided(found)
        self.out_of_step = {p.record for p in found if self._contradicted(p)}
        in_step_choice, in_step_owner = _decided([p for p in found if p.record not in self.out_of_step])
        self.choice, self.owner = {**self.choice, **in_step_choice}, {**self.owner, **in_step_owner}
        self.written = {p.name: p.written for p in reversed(found)}  # the first written form of each name

    def _contradicted(self, pairing: Pairing) -> bool:
        owner = self.owner.get((pairing.kind, pairing.value), pairing.name)
        choice = self.choice.get((pairing.profile, pairing.kind)) if pairing.profile else None
        return owner not in (None, pairing.name) or choice not in (None, pairing.value)

    def _fits(self, name: str, detail: AuthorDetail, kind: str, value: str) -> bool:
        profile = _profile(detail)
        return self.owner.get((kind, value)) == name_key(name) and (
            not profile or self.choice.get((profile, kind), value) == value
        )

    def _why(self, kind: str, value: str, detail: AuthorDetail, unaligned: bool) -> str:
        owner, profile = self.owner.get((kind, value)), _profile(detail)
        if unaligned:
            return f"unaligned-list: the {kind} list has another length than the byline and no author holds {value}"
        if profile and (choice := self.choice.get((profile, kind), value)) != value:
            most = f"{kind} {choice}" if choice else f"two {kind} ids equally"
            return f"one-id-per-profile: the records of {profile} pair it with {most}"
        if owner is None:
            return f"majority-holder: no name is paired with {kind} {value} by most records"
        return f"majority-holder: most records pair {kind} {value} with {self.written[owner]}, not an author here"

    def settle(
        self, authors: list[str], details: list[AuthorDetail], unplaced: list[tuple[str, str]] = ()
    ) -> tuple[list[AuthorDetail], list[SetAsideId]]:
        """The record's details with each id on the author who holds it, and the ids set aside."""
        if not details:
            return details, []
        held, moving = self._held_where_given(authors, details)
        moving += [(None, kind, value) for kind, value in unplaced]
        aside = []
        for position, kind, value in moving:
            fit = [q for q, (name, detail) in enumerate(zip(authors, details)) if self._fits(name, detail, kind, value)]
            if len(fit) == 1 and kind not in held[fit[0]]:
                held[fit[0]][kind] = value
                continue
            at = details[position] if position is not None else AuthorDetail()
            why = self._why(kind, value, at, position is None)
            aside.append(SetAsideId(authors[position] if position is not None else "", position, kind, value, why))
        return [_with_ids(detail, ids) for detail, ids in zip(details, held)], aside

    def _held_where_given(
        self, authors: list[str], details: list[AuthorDetail]
    ) -> tuple[list[dict[str, str]], list[tuple[int | None, str, str]]]:
        """Each author's ids (kind -> value) that fit the author they are given to, and the others
        with their position: ids to move to the one author they fit, or to set aside."""
        held: list[dict[str, str]] = [{} for _ in details]
        moving: list[tuple[int | None, str, str]] = []
        for position, (name, detail) in enumerate(zip(authors, details)):
            for kind, value in voted_ids(detail):
                if self._fits(name, detail, kind, value) and kind not in held[position]:
                    held[position][kind] = value
                else:
                    moving.append((position, kind, value))
        return held, moving


def _with_ids(detail: AuthorDetail, ids: dict[str, str]) -> AuthorDetail:
    others = tuple((kind, ids[kind]) for kind in OTHER_PERSON_IDS if kind in ids)
    return replace(detail, orcid=ids.get("orcid"), dblp=ids.get("dblp"), other_ids=others)
