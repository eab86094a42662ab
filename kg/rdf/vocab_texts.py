"""The vocabularies of :mod:`kg.vocab` as N-Triples texts: what the mapping's statements are made of
(:mod:`.terms`)."""

from __future__ import annotations

from pyoxigraph import NamedNode

from .. import vocab


class Texts:
    """A vocabulary's terms as N-Triples texts, each made once.

    >>> Texts(vocab.KG).track
    '<https://kg.example.org/ontology#track>'
    """

    def __init__(self, namespace: vocab.Namespace):
        self._base = str(namespace)

    def __getattr__(self, name: str) -> str:
        if name.startswith("__"):
            raise AttributeError(name)
        text = str(NamedNode(self._base + name))
        setattr(self, name, text)  # an attribute now: the next look-up does not come here
        return text


KG, RDF, RDFS, XSD, DCTERMS, FOAF, ORG, SKOS, SCHEMA, BIBO, PROV, OWL = map(
    Texts,
    (
        vocab.KG,
        vocab.RDF,
        vocab.RDFS,
        vocab.XSD,
        vocab.DCTERMS,
        vocab.FOAF,
        vocab.ORG,
        vocab.SKOS,
        vocab.SCHEMA,
        vocab.BIBO,
        vocab.PROV,
        vocab.OWL,
    ),
)
TRUE = str(vocab.TRUE)
