"""The query library's SPARQL files, shipped as package data (kg.queries)."""
