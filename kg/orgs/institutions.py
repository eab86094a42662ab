"""The organisation parser: an institution entry as written -> one chain per institution it names,
from the entry's own unit up to its top-level organisation.

The parser is pure (no store, no rdflib) and reads its words from data (kg/orgs/data/lexicon, see
:mod:`kg.orgs.lexicon`) and its rules from :mod:`kg.orgs.rules`. It runs in four modules, each the
next one's input: :mod:`.tokenizer` (the entry cleaned and cut into one piece per institution, with
:mod:`.joined` for names run together), :mod:`.parts` (a piece's comma parts as the names they write),
:mod:`.shapes` (what one name is: the classifier the others ask) and :mod:`.chains` with
:mod:`.levels` (the parts read as levels and put into chains, rule by rule). This module gives the
names the other packages use; docs/organisation-rules.md lists the word lists and the rules.

>>> from kg.orgs.aliases import active_aliases
>>> entry = "Dept. of Computer Science, Tsinghua University, Beijing, China; Google DeepMind, London, UK"
>>> for chain in resolve_entries(entry, None, active_aliases()):
...     print(" < ".join(level.display for level in chain.levels))
Dept. of Computer Science < Tsinghua University
Google DeepMind < Google
"""

from __future__ import annotations

from .chains import (
    UNLISTED,
    explain_entry,
    explain_rules,
    resolve_entries,
    split_groups,
)
from .joined import (
    KIND_WORDS,
    LONGEST_RUN_TOGETHER,
    run_together,
)
from .levels import (
    Level,
    OrgChain,
)
from .parts import (
    FOOTNOTE_MARKS,
)
from .shapes import (
    GENERIC_UNITS,
    OWN_INSTITUTION_WORDS,
    PREPOSITIONS,
    SUBJECT_WORD,
    brand_parent,
    names_institution,
    names_place_of_university,
    place_shaped,
    split_commas,
)
from .tokenizer import (
    align_chinese,
    plus_groups,
    states_no_affiliation,
)

__all__ = [
    "align_chinese",
    "brand_parent",
    "explain_entry",
    "explain_rules",
    "FOOTNOTE_MARKS",
    "GENERIC_UNITS",
    "KIND_WORDS",
    "Level",
    "LONGEST_RUN_TOGETHER",
    "names_institution",
    "names_place_of_university",
    "OrgChain",
    "OWN_INSTITUTION_WORDS",
    "place_shaped",
    "plus_groups",
    "PREPOSITIONS",
    "resolve_entries",
    "run_together",
    "split_commas",
    "split_groups",
    "states_no_affiliation",
    "SUBJECT_WORD",
    "UNLISTED",
]
