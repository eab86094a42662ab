"""The words that say what a paper does and what it introduces: ``ontology/paper-words.tsv``.

Read once; the topic matcher uses them to find the sentences that state a paper's subject, the
artifact rules to find introduced names and their types.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

from .. import ONTOLOGY_DIR
from ..errors import KgError

WORDS_FILE = ONTOLOGY_DIR / "paper-words.tsv"
ROLES = (
    "subject",
    "others",
    "introducing",
    "studying",
    "naming",
    "referring",
    "resulting",
    "result-link",
    "own-participle",
    "action-ending",
    "type",
    "heading",
    "phrase",
    "novelty",
    "parts",
    "joining",
    "following",
    "stop-noun",
    "blocker",
    "not-name",
)
KINDS = ("benchmark", "dataset", "method", "model", "metric")


def read_words(path: Path = WORDS_FILE) -> tuple[dict[str, set[str]], dict[str, str]]:
    """The words of each role, and the kind of each type word, of a file laid out as ``paper-words.tsv``."""
    by_role: dict[str, set[str]] = defaultdict(set)
    kinds: dict[str, str] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), 1):
            if not row or row[0].startswith("#"):
                continue
            word, role, kind = (row + ["", ""])[:3]
            if role not in ROLES or (role == "type") != (kind in KINDS):
                raise KgError(f"{path}:{number}: role {role!r} with kind {kind!r}")
            by_role[role].add(word)
            if kind:
                kinds[word] = kind
    return by_role, kinds


_BY_ROLE, TYPE_WORDS = read_words()
SUBJECT_WORDS = frozenset(_BY_ROLE["subject"])
#: Words that make the subject word after them another's work ("recent work", "prior papers").
OTHERS_WORDS = frozenset(_BY_ROLE["others"])
INTRODUCING = frozenset(_BY_ROLE["introducing"])
NAMING = frozenset(_BY_ROLE["naming"])
#: Verbs that give a name with "as" ("we refer to the resulting algorithm as FooGrad").
REFERRING = frozenset(_BY_ROLE["referring"])
#: Words before a result link that say what the paper's work yields ("resulting in X", "leading to X").
RESULTING = frozenset(_BY_ROLE["resulting"])
#: Words between a result word and what it yields (the "in" of "resulting in X", the "to" of "leading to X").
RESULT_LINKS = frozenset(_BY_ROLE["result-link"])
#: Participles after "the" that make the name after them the paper's own ("the proposed SpaRo").
OWN_PARTICIPLES = frozenset(_BY_ROLE["own-participle"])
#: Endings of nouns of action a type word before them modifies ("score distillation", "model compression").
ACTION_NOUN_ENDINGS = tuple(sorted(_BY_ROLE["action-ending"]))
#: Words a title may start with before its colon that name a kind of paper, not an artifact ("Position: …").
HEADINGS = frozenset(_BY_ROLE["heading"])
#: Words that make a title's words before its colon a phrase, not a name ("Steering Your Generalists: …").
PHRASE_WORDS = frozenset(_BY_ROLE["phrase"])
#: Words that mark what follows as the paper's own, new thing ("a novel Backclip mechanism").
NOVELTY = frozenset(_BY_ROLE["novelty"])
#: Words before the named parts of what the paper introduces ("InterACT consists of a Hierarchical …").
PARTS = frozenset(_BY_ROLE["parts"])
#: Words that join one more name to a list, as "and" does ("FooBench along with FooData"), each a tuple of words.
JOINING = frozenset(tuple(phrase.split()) for phrase in _BY_ROLE["joining"])
#: Words that may follow a name without the name modifying them ("FooNet outperforms …").
FOLLOWING = frozenset(_BY_ROLE["following"])
#: spaCy's English stop words that are nouns a name may modify ("a FooNet side channel").
STOP_WORD_NOUNS = frozenset(_BY_ROLE["stop-noun"])
#: Verbs that say what a paper does: the introducing ones and the studying ones.
PAPER_VERBS = frozenset(INTRODUCING | _BY_ROLE["studying"])
#: Words between an introducing verb and a name that make the name something else's argument.
BLOCKERS = frozenset(_BY_ROLE["blocker"])
#: Words that are never an artifact's name (compared as written: "AI", "PhD", "NeurIPS").
NOT_NAMES = frozenset(_BY_ROLE["not-name"])


def is_type_word(token) -> bool:
    """Whether a token is a type word ("framework", "benchmarks"), by its norm or as written."""
    return token.norm_ in TYPE_WORDS or token.lower_ in TYPE_WORDS
