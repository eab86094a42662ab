"""Topics and artifacts as triples (the pipeline puts the topic scheme in the store: kg.pipeline).

In the source's graph, what a paper is about and what it introduces:

    paper dcterms:subject topic:T ; kg:introduces artifact:A .
    artifact:A a kg:Benchmark ; skos:prefLabel "MLUBench" ; skos:altLabel "long form, if given" .

In the source's topic detail graph (:func:`detail_graph`, left out of exports and counts unless
asked), why: the words that matched, where, and the weight they give.

    paper kg:topicAssignment assignment:P--T .
    assignment:P--T kg:topic topic:T ; kg:weight 3.0 ; kg:matchedLabel "offline RL" ;
        kg:foundIn kg:InTitle, kg:InAbstract .

Broader topics are not assigned: queries and pages reach them through the scheme's skos:broader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from pyoxigraph import NamedNode

from ..records import PaperRecord
from .iris import Minter, file_slug
from .terms import Statement, iri_value, literal, minted
from .vocab_texts import DCTERMS, KG, PROV, RDF, SKOS, XSD

if TYPE_CHECKING:  # spaCy is imported by the analysis only: a command that reads a store never loads it
    from ..nlp.analysis import Analysis

SECTIONS = {"keywords": KG.InKeywords, "title": KG.InTitle, "abstract": KG.InAbstract, "summary": KG.InSummary}
ARTIFACT_CLASSES = {
    "benchmark": KG.Benchmark,
    "dataset": KG.Dataset,
    "method": KG.Method,
    "model": KG.Model,
    "metric": KG.Metric,
}


def topic_iri(slug: str, minter: Minter) -> str:
    """The topic a scheme's slug names.

    >>> topic_iri("machine-translation", Minter("http://ex/"))
    '<http://ex/topic/machine-translation>'
    """
    return minted(minter.iri("topic", slug))


def scheme_graph(minter: Minter) -> NamedNode:
    """The graph the topic scheme is loaded into.

    >>> scheme_graph(Minter("http://ex/")).value
    'http://ex/graph/topics'
    """
    return NamedNode(minter.iri("graph", "topics"))


def detail_graph(source: NamedNode) -> NamedNode:
    """The graph of a source's topic assignments (weights and evidence), replaced, removed and
    rewritten by merges with the source's graph: ``{base}graph/topic-detail/{local name}`` of the
    source's IRI ``{base}source/{local name}`` (so it follows from the IRI alone).

    >>> detail_graph(NamedNode("http://ex/source/acl-2031-json")).value
    'http://ex/graph/topic-detail/acl-2031-json'
    """
    base, local = source.value.rsplit("/source/", 1)
    return NamedNode(f"{base}/graph/topic-detail/{local}")


def detail_graph_triples(source: NamedNode) -> Iterator[Statement]:
    """What the detail graph says of itself: its kind (so exports and counts leave it out) and its source.

    >>> from kg.rdf.terms import ntriples
    >>> print(ntriples(detail_graph_triples(NamedNode("http://ex/source/acl-json"))).decode())
    ... # doctest: +NORMALIZE_WHITESPACE
    <http://ex/graph/topic-detail/acl-json> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>
        <https://kg.example.org/ontology#DerivedGraph> .
    <http://ex/graph/topic-detail/acl-json> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>
        <https://kg.example.org/ontology#TopicDetailGraph> .
    <http://ex/graph/topic-detail/acl-json> <http://www.w3.org/ns/prov#wasDerivedFrom> <http://ex/source/acl-json> .
    <BLANKLINE>
    """
    graph = str(detail_graph(source))
    yield graph, RDF.type, KG.DerivedGraph
    yield graph, RDF.type, KG.TopicDetailGraph
    yield graph, PROV.wasDerivedFrom, str(source)


def record_analyses(records: Sequence[PaperRecord]) -> list[Analysis]:
    """The topics and artifacts of records' keywords, titles, abstracts and summaries, tagged together."""
    from ..nlp.analysis import analyse_all

    return analyse_all([(record.title, record.abstract, record.summary_zh, record.keywords) for record in records])


def topic_triples(paper: str, analysis: Analysis, minter: Minter) -> Iterator[Statement]:
    """What the paper is about and what it introduces, as its ``analysis`` of its title, abstract
    and summary found (:class:`kg.nlp.analysis.Analysis`: ``topics`` with a ``slug``, ``artifacts``
    with a ``name``, a ``kind`` and a ``long_form``).

    >>> from kg.rdf.terms import value
    >>> from types import SimpleNamespace as Found
    >>> analysis = Found(
    ...     topics=[Found(slug="machine-translation")],
    ...     artifacts=[Found(name="LoomNet", kind="model", long_form="Loom Network")],
    ... )
    >>> said = list(topic_triples(minted("http://ex/paper/p"), analysis, Minter("http://ex/")))
    >>> [value(obj) for _, predicate, obj in said if predicate in (DCTERMS.subject, KG.introduces)]
    ['http://ex/topic/machine-translation', 'http://ex/artifact/loomnet']
    >>> from kg.rdf.terms import value
    >>> [value(obj) for subject, predicate, obj in said if subject.endswith("/loomnet>") and predicate != RDF.type]
    ['LoomNet', 'Loom Network']
    """
    for topic in analysis.topics:
        yield paper, DCTERMS.subject, topic_iri(topic.slug, minter)
    for artifact in analysis.artifacts:
        node = minted(minter.named("artifact", artifact.name))
        yield paper, KG.introduces, node
        yield node, RDF.type, ARTIFACT_CLASSES[artifact.kind]
        yield node, SKOS.prefLabel, literal(artifact.name)
        if artifact.long_form:
            yield node, SKOS.altLabel, literal(artifact.long_form)


def topic_detail_triples(paper: str, record: PaperRecord, analysis: Analysis, minter: Minter) -> Iterator[Statement]:
    """Each topic's assignment: the topic, its weight, the words that matched and where."""
    paper_key = iri_value(paper)[len(minter.iri("paper", "")) :]
    for topic in analysis.topics:
        # one assignment per source: two sources of one paper weigh its topics on their own texts
        assignment = minted(minter.part("assignment", f"{paper_key}--{topic.slug}", file_slug(record.source.name)))
        yield paper, KG.topicAssignment, assignment
        yield assignment, KG.topic, topic_iri(topic.slug, minter)
        yield assignment, KG.weight, literal(f"{topic.weight:.1f}", datatype=XSD.decimal)
        for label in topic.labels:
            yield assignment, KG.matchedLabel, literal(label)
        for section in topic.sections:
            yield assignment, KG.foundIn, SECTIONS[section]
