"""The key an organisation's name is matched by in the registry, and where the registry's data lives."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .keys import institution_key

DATA_DIR = Path(__file__).parent / "data"
SPELLINGS = DATA_DIR / "spellings.tsv"


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    rows = [
        line.split("\t")
        for line in SPELLINGS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return {row[0]: row[1] for row in rows}


@lru_cache(maxsize=1 << 16)
def name_key(text: str) -> str:
    """The key a name is matched by: the graph's institution key, one spelling of each word
    (``data/spellings.tsv``).

    >>> name_key("Centre for Vision, Speech and Signal Processing"), name_key("Tsinghua Univ.")
    ('center for vision speech and signal processing', 'tsinghua university')
    """
    spellings = _spellings()
    return " ".join(spellings.get(word, word) for word in institution_key(text).split())
