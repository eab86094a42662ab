"""Collaboration networks: store aggregates -> networkx graphs -> metrics and pages.

- :mod:`.aggregates` asks the store (SPARQL aggregates) for nodes, pairs and details;
- :mod:`.projections` turns those rows into networkx graphs, with the usual thresholds;
- :mod:`.metrics` measures graphs; :mod:`.layout` places them; :mod:`.render` draws a page;
- :mod:`.files` writes GEXF, GraphML and CSV.
Everything after the aggregates is a pure function over plain rows or networkx graphs.
"""
