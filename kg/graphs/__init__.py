"""Collaboration networks: store aggregates -> networkx graphs -> metrics and pages.

- :mod:`.aggregates` asks the store (SPARQL aggregates) for nodes, pairs and details;
- :mod:`.projections` turns those rows into networkx graphs, with the usual thresholds;
- :mod:`.metrics` measures graphs; :mod:`.layout` places them; :mod:`.render` draws a page;
- :mod:`.files` writes GEXF, GraphML and CSV.
Everything after the aggregates is a pure function over plain rows or networkx graphs.
"""

from ..registry import Registry

# What the commands' options offer, here (no networkx, no store) so `kg graph … --help` loads no engine.
#: The two ways institutions are counted (kg/graphs/aggregates.py): as papers list them, or rolled up to parents.
LEVELS = ("listed", "parent")
#: The networks, by name: the kind of their nodes, what a node's neighbours are (how its degree
#: is labelled), and a page's heading.
KINDS = {"coauthors": "author", "institutions": "institution", "topics": "topic", "countries": "country"}
NEIGHBOURS = {
    "coauthors": "co-authors",
    "institutions": "partner institutions",
    "topics": "co-occurring topics",
    "countries": "partner countries",
}
HEADINGS = {
    "coauthors": "Co-author network",
    "institutions": "Institution network",
    "topics": "Topic co-occurrence network",
    "countries": "Country network",
}
#: Writers of a network as a file, each ``(graph, path, heading, kind)``.
FORMATS = Registry(
    "network file format",
    {
        "html": "kg.graphs.render:write_html",
        "gexf": "kg.graphs.files:write_gexf",
        "graphml": "kg.graphs.files:write_graphml",
        "csv": "kg.graphs.files:write_csv",
        "vosviewer": "kg.graphs.vosviewer:write_vosviewer",
        "pajek": "kg.graphs.vosviewer:write_pajek",
    },
)
#: File name endings where the format's name is not one (VOSviewer: the map file; its network file goes beside it).
EXTENSIONS = {"vosviewer": "map.txt", "pajek": "net"}
