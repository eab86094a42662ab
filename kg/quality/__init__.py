"""How good the graph is: the data-quality report and SHACL validation."""
