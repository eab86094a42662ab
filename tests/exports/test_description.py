"""kg/exports/description.py: the dataset names the organisation registry it was identified with."""

from __future__ import annotations

import pyoxigraph as ox

from kg.exports.description import description_triples
from kg.orgs.registry_table import registry_version
from kg.rdf.iris import Minter
from kg.vocab import DCTERMS

COUNTS = {"triples": 10, "papers": 1, "authors": 2, "institutions": 1}


def test_the_description_names_the_registry_version_and_licence():
    version = registry_version()
    triples = description_triples(COUNTS, [], Minter(), registry=version)
    (registry,) = [t.object for t in triples if t.predicate == DCTERMS.source]
    about = {t.predicate: t.object for t in triples if t.subject == registry}
    assert about[DCTERMS.hasVersion] == ox.Literal(version) and version.startswith("ROR ")
    assert about[DCTERMS.license] == ox.NamedNode("https://creativecommons.org/publicdomain/zero/1.0/")
    assert "GeoNames (CC BY)" in about[DCTERMS.rights].value


def test_without_a_registry_no_registry_node():
    assert not [t for t in description_triples(COUNTS, [], Minter()) if t.predicate == DCTERMS.source]
