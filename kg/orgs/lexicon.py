"""The organisation parser's word lists: the rows of ``kg/orgs/data/lexicon/*.tsv``, read once.

Each file holds the lists of one kind (organisation words, unit words, field words, legal forms,
function words, notes, place words, other languages); ``docs/organisation-rules.md`` lists them.
Countries and the regions of countries come from ``pycountry`` (:mod:`kg.orgs.org_names`), not from here.
"""

from __future__ import annotations

from pathlib import Path

from ..text.lexicon import Lexicon

LEXICON_DIR = Path(__file__).resolve().parent / "data" / "lexicon"
LEXICON = Lexicon(LEXICON_DIR)
word_list, word_sequence, word_mapping = LEXICON.words, LEXICON.ordered, LEXICON.mapping
