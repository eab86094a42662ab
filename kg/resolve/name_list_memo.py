"""The name lists (:mod:`.name_lists`) made again only for the papers whose lists may have changed.

A paper's lists are a function of its lines in the counts' pass's file (its creators and listed
institutions, :func:`~.aggregates.introducing_lines`), its creators' display names and its institutions'
English names. An on-disk store remembers, beside the people's names (:mod:`.person_labels`), each paper's
lists with a digest of its lines, and the institutions' names they were made with. The next run, when the
people's names it compared with are the ones remembered with the lists (the same generation), makes
again only the lists of papers whose lines changed, with a creator whose names were chosen afresh or are
gone, or with an institution whose names changed; their creators' names are looked up in one pass over
the display names' file. Otherwise (nothing remembered, another generation, a store in memory) every list
is made by the join on disk, and remembered.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Iterator, TextIO

from ..cache import fingerprint
from ..stores.ordering import rewound, spool
from . import name_lists as lists_module
from .kept_rows import remembered_written
from .name_lists import institution_names, joined, name_lists


@dataclass
class NamesChanged:
    """What a run's choice of people's names (:mod:`.person_labels`) changed: ``since``, the generation of the
    remembered choices it compared with (None: nothing remembered, any name may have changed); ``people``,
    those chosen afresh or no longer named; ``generation``, the one it remembered its own choices as."""

    since: str | None = None
    people: set[str] = field(default_factory=set)
    generation: str | None = None


def _digest(lines: list[str]) -> str:
    return hashlib.blake2b("".join(lines).encode("utf-8"), digest_size=16).hexdigest()


def _papers(introducing: Path) -> Iterator[tuple[str, list[str]]]:
    """Each paper's lines of the counts' pass's file (written in IRI order of paper)."""
    with open(introducing, encoding="utf-8") as lines:
        for paper, group in groupby(lines, key=lambda line: line.partition("\t")[0]):
            yield paper, list(group)


def _entities(lines: list[str]) -> Iterator[tuple[str, str]]:
    """(kind, entity) of a paper's lines: ``author`` for a creator, ``listed`` for an institution."""
    for line in lines:
        _, kind, entity = (line[:-1].split("\t") + [""])[:3]
        if kind:
            yield kind, entity


def remembered_lists(folder: Path | None) -> Path | None:
    """The file of the lists in a store's folder of kept rows, named by the code that makes them."""
    if folder is None:
        return None
    code = [Path(__file__), Path(lists_module.__file__)]
    return folder / f"name-lists.{fingerprint(code)}.memo"


def made_lists(
    store, introducing: Path, person_names: Path, scratch: Path | None, remembered: Path | None, changed: NamesChanged
) -> Iterator[tuple[str, list[str]]]:
    """Each paper of ``introducing`` in code-point order of IRI with its lists (:func:`.name_lists.name_lists`),
    made again only where they may have changed (above); ``remembered``: :func:`remembered_lists`, read and
    written again."""
    institutions = institution_names(store)
    with _Memo(remembered, institutions, changed) as memo:
        if memo.usable:
            for paper, digest, lists, kept in _changed_lists(introducing, person_names, institutions, memo, scratch):
                memo.note(paper, digest, lists, kept)
                yield paper, lists
        else:
            made = name_lists(introducing, person_names, institutions, scratch)
            # Both in IRI order of paper: the file's, and the join's grouping by paper.
            for (paper, lines), (_, lists) in zip(_papers(introducing), made, strict=True):
                memo.note(paper, _digest(lines), lists)
                yield paper, lists
        memo.complete = True


def _changed_lists(
    introducing: Path, person_names: Path, institutions: dict[str, list[str]], memo: _Memo, scratch: Path | None
) -> Iterator[tuple[str, str, list[str], str | None]]:
    """(paper, digest of its lines, its lists, their remembered JSON or None) of each paper: the remembered lists
    where nothing they are made of changed, else made here. The papers' lines are read once: each paper's digest
    is spooled, and the entities of the papers made again held."""
    afresh: dict[str, list[tuple[str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="kg-name-lists-", dir=scratch) as folder, spool(folder, "digests") as seen:
        with memo.reading() as recall:
            for paper, lines in _papers(introducing):
                digest, entities = _digest(lines), list(_entities(lines))
                seen.write(f"{paper}\t{digest}\n")
                if recall(paper, digest) is None or any(
                    entity in (memo.people if kind == "author" else memo.institutions) for kind, entity in entities
                ):
                    afresh[paper] = entities
        names = _creators_names(
            person_names, {e for entities in afresh.values() for kind, e in entities if kind == "author"}
        )
        with memo.reading() as recall:
            for line in rewound(seen):
                paper, digest = line[:-1].split("\t")
                if paper not in afresh:
                    kept = recall(paper, digest, parsed=False)
                    yield paper, digest, [str(listed) for listed in json.loads(kept)], kept
                    continue
                listed: list[set[str]] = [set(), set()]
                for kind, entity in afresh[paper]:
                    found = names.get(entity, ()) if kind == "author" else institutions.get(entity, ())
                    listed[kind != "author"].update(json.loads(name) for name in found)
                yield paper, digest, joined(listed), None


def _creators_names(person_names: Path, creators: set[str]) -> dict[str, list[str]]:
    """Each of ``creators``' display names (JSON), from one pass over the display names' file."""
    names: dict[str, list[str]] = {}
    with open(person_names, encoding="utf-8") as lines:
        for line in lines:
            person, _, name = line[:-1].partition("\t")
            if person in creators:
                names.setdefault(person, []).append(name)
    return names


class _Memo:
    """The remembered lists (a header line with the generation of the people's names and the institutions'
    names, then ``paper<TAB>digest<TAB>lists (JSON)`` in IRI order of paper) and this run's, written beside;
    the new file replaces the old one only when every paper's lists were made (``complete``)."""

    def __init__(self, path: Path | None, institutions: dict[str, list[str]], changed: NamesChanged):
        self.path, self.institutions_now, self.changed = path, institutions, changed
        self.usable, self.complete = False, False
        self.people: set[str] = changed.people
        self.institutions: set[str] = set()
        self.new: TextIO | None = None

    def __enter__(self) -> _Memo:
        if self.path is None or not self.path.parent.is_dir():
            return self
        if self.path.is_file() and self.changed.since is not None:
            with open(self.path, encoding="utf-8") as old:
                generation, _, names = old.readline()[:-1].partition("\t")
            if generation == self.changed.since:
                self._compare(names)
        self.new = open(self.path.with_suffix(".new"), "w", encoding="utf-8")
        self.new.write(f"{self.changed.generation}\t{json.dumps(self.institutions_now, sort_keys=True)}\n")
        return self

    def _compare(self, names: str) -> None:
        """The institutions whose names changed since the lists were made (``names``: the header's); a header
        that is not one leaves the lists unused (a damaged file costs the join, not an error)."""
        try:
            before = dict(json.loads(names))
        except (ValueError, TypeError):
            return
        now = self.institutions_now
        self.institutions = {entity for entity in {*before, *now} if before.get(entity) != now.get(entity)}
        self.usable = True

    def reading(self):
        return _Reading(self.path)

    def note(self, paper: str, digest: str, lists: list[str], kept: str | None = None) -> None:
        """A paper's lists (``kept``: as the remembered file wrote them, written again as they are)."""
        if self.new is not None:
            self.new.write(f"{paper}\t{digest}\t{json.dumps(lists) if kept is None else kept}\n")

    def __exit__(self, *failed) -> None:
        if self.new is None or self.path is None:
            return
        self.new.close()
        remembered_written(self.path, self.complete and self.changed.generation is not None)


class _Reading:
    """The remembered lists read in IRI order of paper: ``recall(paper, digest)`` gives them when the paper's
    lines are the ones they were made of, else None."""

    def __init__(self, path: Path | None):
        self.path = path

    def __enter__(self):
        self.file = open(self.path, encoding="utf-8")
        self.file.readline()  # the header
        self.ahead = self._next()
        return self.recall

    def _next(self) -> list[str] | None:
        for line in self.file:
            if len(fields := line[:-1].split("\t", 2)) == 3:
                return fields
        return None

    def recall(self, paper: str, digest: str, parsed: bool = True):
        """The paper's remembered lists (or their JSON, not ``parsed``) if made of these lines, else None."""
        while self.ahead is not None and self.ahead[0] < paper:
            self.ahead = self._next()
        if self.ahead is None or self.ahead[0] != paper:
            return None
        (_, remembered, lists), self.ahead = self.ahead, self._next()
        if remembered != digest:
            return None
        try:
            made = [str(listed) for listed in json.loads(lists)]
        except (ValueError, TypeError):
            return None  # a damaged line: the paper's lists are made again
        return made if parsed else lists

    def __exit__(self, *failed) -> None:
        self.file.close()
