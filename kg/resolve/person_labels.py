"""People's display names, chosen again only for the people whose written forms changed.

A person's ``skos:prefLabel`` and ``skos:altLabel`` per language, match keys and name-list line are a
function of that person's written forms alone: the lines :func:`~.written_forms.form_groups` gives for
them, across every source. So an on-disk store remembers, beside its kept rows (``kg-side/``), what the
last resolution chose for each person with a digest of those lines, in IRI order of person; the next
run reads it beside the groups and chooses again only where the digest differs (the people of the
changed sources, and those a merge or move renamed), copying the rest. One more source then costs the
grouping of the forms and a digest per person, not a choice per person of the whole store.

What is remembered holds whatever the store did since: an entry is used only for exactly the lines it was
chosen from, and the file is named by a hash of the code that chooses (:func:`kg.cache.fingerprint`:
this module, the name folding, the match keys), so another kg never reads it. A store in memory or on a
server, or a read-only opening, remembers nothing and chooses every name.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Iterable, Iterator, TextIO

import anyascii
import pyoxigraph as ox

from ..cache import fingerprint
from ..index import match_keys
from ..index.match_keys import person_keys_line
from ..text import names as text_names
from ..text.names import clean
from ..vocab import SKOS
from .kept_rows import remembered_written
from .name_list_memo import NamesChanged
from .name_lists import person_name_line

# What one person's names are: per language (in order) the display name and the other forms, then the keys.
Chosen = tuple[list[tuple[str, str, list[str]]], str]


def preferred_form(counts: dict[str, int]) -> str:
    """The display form among written forms: more diacritics, then mixed case, then more
    often written, then first in code-point order. Depends only on the forms and counts."""

    def rank(form: str) -> tuple:
        marks = sum(unicodedata.combining(ch) > 0 for ch in unicodedata.normalize("NFD", form))
        mixed = any(ch.isupper() for ch in form) and any(ch.islower() for ch in form)
        return (-marks, not mixed, -counts[form], form)

    return min(counts, key=rank)


def written_forms(lines: Iterable[str]) -> dict[str, dict[str, int]]:
    """Per language, each written form cleaned and how many of the person's lines (``language<TAB>written
    (JSON)<TAB>authorship``, one an authorship) give it."""
    forms: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in lines:
        language, written, _ = row.split("\t")
        forms[language][clean(json.loads(written))] += 1
    return forms


def choose(person: str, forms: dict[str, dict[str, int]]) -> Chosen:
    """A person's names from its forms: per language the preferred form and the others, sorted; its keys line
    (:func:`kg.index.match_keys.person_keys_line`)."""
    labels = []
    for language in sorted(forms):
        counts = forms[language]
        name = preferred_form(counts)
        labels.append((language, name, sorted(set(counts) - {name})))
    return labels, person_keys_line(person, chain.from_iterable(forms.values()))


def person_label_triples(
    people: Iterable[tuple[str, list[str]]],
    keys: TextIO,
    names: TextIO | None = None,
    remembered: Path | None = None,
    changed: NamesChanged | None = None,
    held: HeldLabels | None = None,
) -> Iterator[ox.Triple]:
    """Display names of people (``people``: :func:`~.written_forms.form_groups`), chosen across every source;
    each person's match keys go to ``keys``, its display names to ``names``
    (:func:`~.name_lists.person_name_line`), both in IRI order. ``remembered`` (:func:`remembered_names`):
    the file of the last run's choices, read and written again; None chooses every name. ``changed`` hears
    who was chosen afresh or is no longer named (what the name lists are made again for). With ``held`` (the
    graph holds the remembered choices' triples), only the triples of the people chosen afresh are given, and
    ``held`` hears the remembered triples they replace (:class:`HeldLabels`)."""
    with _Remembered(remembered, changed or NamesChanged(), held) as memory:
        for person, lines in people:
            digest = hashlib.blake2b("\n".join(lines).encode("utf-8"), digest_size=16).hexdigest()
            chosen = memory.recall(person, digest)
            if chosen is None:
                chosen = choose(person, written_forms(lines))
                memory.note(person, digest, chosen)
                yield from label_triples(person, chosen[0])
            elif held is None:
                yield from label_triples(person, chosen[0])
            labels, keys_line = chosen
            if names is not None:
                names.writelines(person_name_line(person, name) for _, name, _ in labels)
            keys.write(keys_line)
        memory.complete = True


def label_triples(person: str, labels: list[tuple[str, str, list[str]]]) -> Iterator[ox.Triple]:
    """A person's ``skos:prefLabel`` and ``skos:altLabel`` triples (the language is the literal's: none for a
    person)."""
    node = ox.NamedNode(person)
    for _, name, others in labels:
        yield ox.Triple(node, SKOS.prefLabel, ox.Literal(name))
        for form in others:
            yield ox.Triple(node, SKOS.altLabel, ox.Literal(form))


@dataclass
class HeldLabels:
    """What a run that gives only the changed people's triples (:func:`person_label_triples` with ``held``)
    learns: ``stale``, the remembered triples of the people chosen afresh or no longer named, which the graph
    holds; ``exact``, False where the remembered file was not every person's choice as written (a damaged
    line, none at all), so the graph's labels are not known from it."""

    stale: list[ox.Triple] = field(default_factory=list)
    exact: bool = True


def remembered_names(folder: Path | None) -> Path | None:
    """The file of the choices in a store's folder of kept rows (:func:`kg.resolve.kept_rows.side_folder`), named by
    the code that makes them; None where nothing is kept."""
    if folder is None:
        return None
    code = [Path(__file__), Path(text_names.__file__), Path(match_keys.__file__), Path(anyascii.__file__)]
    return folder / f"person-names.{fingerprint(code)}.memo"


def every_label(remembered: Path) -> Iterator[ox.Triple]:
    """The labels of every person the file of choices names (the one :func:`person_label_triples` just wrote
    whole, every line a choice)."""
    with open(remembered, encoding="utf-8") as lines:
        lines.readline()  # the header
        for line in lines:
            person, _, chosen = line[:-1].split("\t", 2)
            recalled = _parsed(chosen)
            assert recalled is not None, "a choice written by this run"
            yield from label_triples(person, recalled[0])


def _parsed(chosen: str) -> Chosen | None:
    """A remembered choice, or None for a line that is not one (a damaged file costs a choice, not an error)."""
    try:
        labels, keys = json.loads(chosen)
        return [(language, name, others) for language, name, others in labels], keys
    except (ValueError, TypeError):
        return None


class _Remembered:
    """The last run's choices, read in IRI order of person beside the groups, and this run's, written beside
    them; the new file replaces the old one only when every person was chosen (``complete``). ``held`` hears
    the remembered triples of the people chosen afresh or no longer named."""

    def __init__(self, path: Path | None, changed: NamesChanged, held: HeldLabels | None = None):
        self.path, self.changed, self.complete = path, changed, False
        self.held = held or HeldLabels()
        self.listening = held is not None  # the stale triples are gathered only for a run that writes the change
        self.old: TextIO | None = None
        self.new: TextIO | None = None
        self.line: str | None = None  # the next remembered line
        self.ahead: list[str] | None = None  # ... split: person, digest, choice

    def __enter__(self) -> _Remembered:
        self.held.exact = False  # until a remembered file is read
        if self.path is not None and self.path.parent.is_dir():
            if self.path.is_file():
                self.old = open(self.path, encoding="utf-8")
                self.changed.since = self.old.readline()[:-1]  # the header: the generation
                self.held.exact = True
                self._advance()
            self.new = open(self.path.with_suffix(".new"), "w", encoding="utf-8")
            self.changed.generation = uuid.uuid4().hex
            self.new.write(self.changed.generation + "\n")
        return self

    def _advance(self) -> None:
        self.line = next(self.old, None) if self.old is not None else None
        self.ahead = self.line[:-1].split("\t", 2) if self.line else None
        if self.ahead is not None and len(self.ahead) != 3:
            self.held.exact = False
            self._advance()  # not a remembered choice: passed over

    def _replaced(self) -> None:
        """The person ahead is chosen afresh or no longer named: its remembered triples are stale."""
        self.changed.people.add(self.ahead[0])
        recalled = _parsed(self.ahead[2])
        if recalled is None:
            self.held.exact = False
        elif self.listening:
            self.held.stale.extend(label_triples(self.ahead[0], recalled[0]))
        self._advance()

    def recall(self, person: str, digest: str) -> Chosen | None:
        while self.ahead is not None and self.ahead[0] < person:
            self._replaced()  # no longer named
        if self.ahead is not None and self.ahead[0] == person:
            (_, remembered, chosen), line = self.ahead, self.line
            if remembered == digest and (recalled := _parsed(chosen)) is not None:
                self._advance()
                if self.new is not None:
                    self.new.write(line)  # remembered again as it was
                return recalled
            self._replaced()  # chosen afresh
            return None
        self.changed.people.add(person)  # chosen afresh
        return None

    def note(self, person: str, digest: str, chosen: Chosen) -> None:
        """A choice made afresh."""
        if self.new is not None:
            self.new.write(f"{person}\t{digest}\t{json.dumps(chosen)}\n")

    def __exit__(self, *failed) -> None:
        while self.complete and self.ahead is not None:
            self._replaced()  # no longer named
        for file in (self.old, self.new):
            if file is not None:
                file.close()
        if self.new is not None and self.path is not None:
            remembered_written(self.path, self.complete)
