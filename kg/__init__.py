"""kg: conference paper listings -> RDF knowledge graph -> queries, graphs, exports."""

from pathlib import Path

__version__ = "0.1.0"

#: The project folder that holds ontology/, queries/ and samples/ (the package is installed editable).
PROJECT_DIR = Path(__file__).resolve().parent.parent
ONTOLOGY_DIR = PROJECT_DIR / "ontology"
QUERIES_DIR = PROJECT_DIR / "queries"
SAMPLES_DIR = PROJECT_DIR / "samples"
