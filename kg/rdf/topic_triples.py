"""Topics and artifacts as triples (the pipeline puts the topic scheme in the store: kg.pipeline).

    paper dcterms:subject topic:T ; kg:topicAssignment assignment:P--T ; kg:introduces artifact:A .
    paper kg:foundTopic topic:T .     # a subproperty of dcterms:subject: every assigned topic is found
    assignment:P--T a kg:TopicAssignment ; kg:topic topic:T ; kg:weight 3.0 ;
        kg:matchedLabel "offline RL" ; kg:foundIn kg:InTitle, kg:InAbstract .

Broader topics are not assigned: queries and pages reach them through the scheme's skos:broader.
    artifact:A a kg:Benchmark ; rdfs:label "MLUBench" ; skos:altLabel "long form, if given" .
"""

from __future__ import annotations

from typing import Iterator, Sequence

from pyoxigraph import NamedNode

from ..nlp.analysis import Analysis, analyse_all
from ..records import PaperRecord
from ..vocab import DCTERMS, KG, RDF, RDFS, SKOS, XSD
from .iris import Minter, file_slug
from .terms import Statement, iri, literal

SECTIONS = {"keywords": KG.InKeywords, "title": KG.InTitle, "abstract": KG.InAbstract, "summary": KG.InSummary}
ARTIFACT_CLASSES = {
    "benchmark": KG.Benchmark,
    "dataset": KG.Dataset,
    "method": KG.Method,
    "model": KG.Model,
    "metric": KG.Metric,
}


def topic_iri(slug: str, minter: Minter) -> NamedNode:
    return iri(minter.iri("topic", slug))


def scheme_graph(minter: Minter) -> NamedNode:
    return NamedNode(minter.iri("graph", "topics"))


def record_analyses(records: Sequence[PaperRecord]) -> list[Analysis]:
    """The topics and artifacts of records' keywords, titles, abstracts and summaries, tagged together."""
    return analyse_all([(record.title, record.abstract, record.summary_zh, record.keywords) for record in records])


def topic_triples(paper: NamedNode, record: PaperRecord, analysis: Analysis, minter: Minter) -> Iterator[Statement]:
    """What the paper is about and what it introduces, as its ``analysis`` of its title, abstract
    and summary found."""
    paper_key = paper.value[len(minter.iri("paper", "")) :]
    for topic in analysis.topics:
        node = topic_iri(topic.slug, minter)
        # one assignment per source: two sources of one paper weigh its topics on their own texts
        assignment = NamedNode(minter.part("assignment", f"{paper_key}--{topic.slug}", file_slug(record.source.name)))
        yield paper, DCTERMS.subject, node
        yield paper, KG.topicAssignment, assignment
        yield assignment, RDF.type, KG.TopicAssignment
        yield assignment, KG.topic, node
        yield assignment, KG.weight, literal(f"{topic.weight:.1f}", datatype=XSD.decimal)
        for label in topic.labels:
            yield assignment, KG.matchedLabel, literal(label)
        yield paper, KG.foundTopic, node
        for section in topic.sections:
            yield assignment, KG.foundIn, SECTIONS[section]
    for artifact in analysis.artifacts:
        node = iri(minter.named("artifact", artifact.name))
        yield paper, KG.introduces, node
        yield node, RDF.type, ARTIFACT_CLASSES[artifact.kind]
        yield node, RDFS.label, literal(artifact.name)
        if artifact.long_form:
            yield node, SKOS.altLabel, literal(artifact.long_form)
