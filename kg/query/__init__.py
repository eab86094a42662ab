"""Questions to the graph: the query library, result formats and summary counts."""
