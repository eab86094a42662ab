"""The topic scheme (ontology/topics.ttl) as Python objects, read once per process."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pyoxigraph as ox

from .. import ONTOLOGY_DIR
from ..vocab import SKOS

TOPICS_FILE = ONTOLOGY_DIR / "topics.ttl"
#: The base the scheme's relative IRIs are read against when only their slugs are needed.
_PLACEHOLDER_BASE = "https://kg.invalid/"


@dataclass
class Concept:
    slug: str
    label: str
    labels: list[str] = field(default_factory=list)  # English prefLabel and altLabels
    labels_zh: list[str] = field(default_factory=list)
    broader: list[str] = field(default_factory=list)


@dataclass
class TopicScheme:
    concepts: dict[str, Concept]

    def ancestors(self, slug: str) -> list[str]:
        """Every concept above ``slug`` by skos:broader, nearest first, each once."""
        seen: list[str] = []
        frontier = list(self.concepts[slug].broader)
        while frontier:
            current = frontier.pop(0)
            if current not in seen:
                seen.append(current)
                frontier.extend(self.concepts[current].broader)
        return seen

    def closure(self, slugs) -> set[str]:
        return {a for s in slugs for a in [s, *self.ancestors(s)]}


def read_scheme(base: str) -> list[ox.Quad]:
    """The scheme's triples with its relative IRIs resolved against ``base``."""
    return list(ox.parse(path=str(TOPICS_FILE), format=ox.RdfFormat.TURTLE, base_iri=base))


@lru_cache(maxsize=1)
def topic_scheme() -> TopicScheme:
    prefix = _PLACEHOLDER_BASE + "topic/"
    concepts: dict[str, Concept] = {}

    def concept(node) -> Concept:
        slug = node.value[len(prefix) :]
        return concepts.setdefault(slug, Concept(slug, slug))

    for quad in read_scheme(_PLACEHOLDER_BASE):
        if not quad.subject.value.startswith(prefix):
            continue
        subject = concept(quad.subject)
        value = quad.object
        if quad.predicate == SKOS.broader:
            subject.broader.append(concept(value).slug)
        elif quad.predicate in (SKOS.prefLabel, SKOS.altLabel):
            if value.language == "zh":
                subject.labels_zh.insert(
                    0, value.value
                ) if quad.predicate == SKOS.prefLabel else subject.labels_zh.append(value.value)
            else:
                subject.labels.insert(0, value.value) if quad.predicate == SKOS.prefLabel else subject.labels.append(
                    value.value
                )
                if quad.predicate == SKOS.prefLabel:
                    subject.label = value.value
    return TopicScheme(concepts)
