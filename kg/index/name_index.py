"""The look-up index of match keys: what a name that is not exact is compared with, in one value.

A mistyped name is compared with every key of its kind (about 200,000 author keys at 100,000
papers); reading them as rows took seconds. So the resolution step writes, per entity kind, two
literals into the derived graph: ``kg:matchKeyLines``, one ``joined<TAB>key<TAB>entity`` line per
key (``joined`` the key without spaces), and ``kg:matchKeyList``, the distinct keys, sorted.
:func:`kg.query.library.find_entity` reads the two values and searches them with C-speed string
search and rapidfuzz, deciding the same tiers as it does from the rows.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..rdf.iris import Minter
from ..stores.ordering import rewound, sorted_lines, spool
from ..vocab import KG
from .match_keys import ENTITY_CLASSES, EntityKeys


def _node(minter: Minter, kind: str) -> ox.NamedNode:
    return ox.NamedNode(minter.iri("name-index", kind))


def name_index_triples(
    store, kind: str, entities: Callable[[], Iterable[EntityKeys]], minter: Minter, scratch: Path | None = None
) -> Iterator[ox.Triple]:
    """The kind's index, from the keys :func:`kg.index.match_keys.entity_keys` finds (``entities``
    gives them afresh in IRI order each time it is called). Sorted on disk, so memory does not grow
    with the number of entities (2 M authors at 1,000,000 papers)."""
    cls = ENTITY_CLASSES[kind]
    with tempfile.TemporaryDirectory(prefix="kg-index-", dir=scratch) as folder:
        members = Path(folder) / "members"
        with open(members, "w", encoding="utf-8") as out:
            out.writelines(
                sorted_lines(
                    (f"{row[0].value}\n" for row in store.select_terms(f"SELECT ?e WHERE {{ ?e a {cls} }}")), scratch
                )
            )

        def indexed() -> Iterator[EntityKeys]:
            """The entities that are of the class, from two streams in IRI order."""
            with open(members, encoding="utf-8") as lines:
                member = next(lines, "")
                for entity in entities():
                    while member and member[:-1] < entity.iri:
                        member = next(lines, "")
                    if member[:-1] == entity.iri:
                        yield entity

        # One pass over the entities: each key's line with the whole IRI (sorted as with the common start left
        # out, which every line has) and the key, spooled; the first and last IRI give the common start.
        first = last = None
        with spool(folder, "lines") as key_lines, spool(folder, "keys") as keys:
            for entity in indexed():
                first, last = first or entity.iri, entity.iri
                key_lines.write("".join(f"{key.replace(' ', '')}\t{key}\t{entity.iri}\n" for key in entity.keys))
                keys.write("".join(f"{key}\n" for key in entity.keys))
            common = None if first is None else os.path.commonprefix([first, last])
            # The entities' common start is written once: two thirds of the index was "https://…/author/".
            head, slash, _ = (common or "").rpartition("/")
            prefix = head + slash  # "" when the IRIs share no "…/" start (two bases, URNs)
            node = _node(minter, kind)
            yield ox.Triple(node, KG.indexOf, cls)
            yield ox.Triple(node, KG.entityPrefix, ox.Literal(prefix))
            for chunk in _chunks(_without(line, prefix) for line in sorted_lines(rewound(key_lines), scratch)):
                yield ox.Triple(node, KG.matchKeyLines, ox.Literal(chunk))
            for chunk in _chunks(key[:-1] for key in sorted_lines(rewound(keys), scratch)):
                yield ox.Triple(node, KG.matchKeyList, ox.Literal(chunk))


def _without(line: str, prefix: str) -> str:
    """A key's line without its newline and with its entity's IRI without the common start."""
    joined, key, entity = line[:-1].split("\t")
    return f"{joined}\t{key}\t{entity[len(prefix) :]}"


CHUNK = 1 << 20  # characters per index literal: an N-Triples line over 16 MB is refused by Oxigraph's parser


def _chunks(lines: Iterable[str]) -> Iterator[str]:
    """Sorted lines as literals of about :data:`CHUNK` characters, split between lines (one empty
    literal for no lines). Sorting the literals gives them back in order: each starts with its
    first line, which sorts after the lines before it (a line that is a prefix of the next is followed by "\\n", below
    any character)."""
    chunk: list[str] = []
    size = 0
    for line in lines:
        if chunk and size + len(line) > CHUNK:
            yield "\n".join(chunk)
            chunk, size = [], 0
        chunk.append(line)
        size += len(line) + 1
    yield "\n".join(chunk)


@dataclass
class KeyIndex:
    lines: str  # "joined\tkey\tentity" lines, sorted, the entity without the prefix
    keys: list[str]  # distinct keys, sorted
    prefix: str  # what every entity's IRI starts with

    def entity_count(self) -> int:
        return len(set(re.findall(r"(?m)\t([^\t\n]*)$", self.lines)))

    def keys_by_entity(self) -> dict[str, set[str]]:
        """Every entity's keys."""
        found: dict[str, set[str]] = {}
        for line in filter(None, self.lines.split("\n")):
            _, key, entity = line.split("\t")
            found.setdefault(self.prefix + entity, set()).add(key)
        return found

    def joined(self, joined: str) -> set[str]:
        """Entities with a key that is ``joined`` without its spaces: the lines starting with it,
        found by binary search (the lines are sorted, and a whole scan took 13 ms at 100,000 papers)."""
        found, text, probe = set(), self.lines, f"{joined}\t"
        start = _first_line_from(text, probe)
        while text.startswith(probe, start):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            found.add(self.prefix + text[start:end].split("\t")[2])
            start = end + 1
        return found

    def with_words(self, words: set[str]) -> set[str]:
        """Entities with one key holding every word: the lines holding the longest word, checked."""
        probe, found, text = max(sorted(words), key=len), set(), self.lines
        at = text.find(probe)
        while at >= 0:
            start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
            line = text[start : end if end >= 0 else len(text)]
            _, key, entity = line.split("\t")
            if words <= set(key.split()):
                found.add(self.prefix + entity)
            if end < 0:
                break
            at = text.find(probe, end)
        return found


def _first_line_from(text: str, probe: str) -> int:
    """Where the first line not below ``probe`` starts in sorted newline-separated ``text`` (its
    length if none): a binary search over character positions, each mapped to its line."""
    low, high = 0, len(text)  # lines starting before low are below probe; from high on, not
    while low < high:
        start = text.rfind("\n", 0, (low + high) // 2) + 1  # low is a line start, so start >= low
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if text[start:end] < probe:
            low = end + 1
        else:
            high = start
    return low


def key_index(store, kind: str, text_rows) -> KeyIndex | None:
    """The kind's index, or None for a store resolved before it was kept (or kept in another form)."""
    parts = {
        predicate: sorted(
            row[0]
            for row in text_rows(
                store, f"SELECT ?text WHERE {{ ?index {KG.indexOf} {ENTITY_CLASSES[kind]} ; {predicate} ?text }}"
            )
        )
        for predicate in (KG.matchKeyLines, KG.matchKeyList, KG.entityPrefix)
    }
    if not all(parts.values()):
        return None
    keys = "\n".join(parts[KG.matchKeyList])
    return KeyIndex("\n".join(parts[KG.matchKeyLines]), keys.split("\n") if keys else [], parts[KG.entityPrefix][0])
