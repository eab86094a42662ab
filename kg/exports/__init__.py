"""The graph written out for other tools."""
