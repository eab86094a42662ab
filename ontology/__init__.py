"""The ontology, topic scheme, SHACL shapes and institution alias table, shipped as package data (kg.ontology)."""
