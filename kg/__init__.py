"""kg: conference paper listings -> RDF knowledge graph -> queries, graphs, exports."""

from importlib.resources import files
from pathlib import Path

__version__ = "0.1.0"


def _data_folder(package: str) -> Path:
    """A data folder shipped inside the package (installed wheels are unpacked, so it is a real folder).

    In a checkout the folders sit at the top of the project (``ontology/``, ``queries/``,
    ``samples/``); ``setup.py`` maps them to these sub-packages, editable or not.
    """
    return Path(str(files(package)))


ONTOLOGY_DIR = _data_folder("kg.ontology")
QUERIES_DIR = _data_folder("kg.queries")
SAMPLES_DIR = _data_folder("kg.samples")
