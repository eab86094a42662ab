"""The topic co-occurrence network: topics linked by the papers they share.

Only topics found in a paper's text count (not the broader topics added for them), otherwise
every topic would co-occur with its own ancestors. ``COOCCURRENCE_QUERY`` aggregates the pairs
in the store; :func:`cooccurrence_graph` is the pure projection of its rows.
"""

from __future__ import annotations

from typing import Iterable

import networkx as nx

COOCCURRENCE_QUERY = """
SELECT ?a ?labelA ?b ?labelB (COUNT(DISTINCT ?paper) AS ?papers)
WHERE {
  ?paper kg:topicAssignment ?x, ?y .
  ?x kg:topic ?a ; kg:foundIn ?inA .
  ?y kg:topic ?b ; kg:foundIn ?inB .
  FILTER(STR(?a) < STR(?b))
  ?a skos:prefLabel ?labelA FILTER(lang(?labelA) = "en")
  ?b skos:prefLabel ?labelB FILTER(lang(?labelB) = "en")
}
GROUP BY ?a ?labelA ?b ?labelB
"""


def cooccurrence_graph(rows: Iterable[tuple], min_papers: int = 1) -> nx.Graph:
    """Rows of (topic IRI, label, topic IRI, label, shared papers) -> an undirected weighted graph.

    Nodes are topic IRIs with a ``label``; an edge's ``weight`` is the number of papers that
    have both topics; pairs sharing fewer than ``min_papers`` papers are left out.
    """
    graph = nx.Graph()
    for a, label_a, b, label_b, papers in rows:
        shared = int(papers)
        if shared < min_papers:
            continue
        graph.add_node(str(a), label=str(label_a))
        graph.add_node(str(b), label=str(label_b))
        graph.add_edge(str(a), str(b), weight=shared)
    return graph
