"""The words the topic and artifact rules read: ``ontology/paper-words.tsv`` (what a paper does and what it
introduces) and ``ontology/sentence-words.tsv`` (the small words that shape a sentence around a name).

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
SENTENCE_WORDS_FILE = ONTOLOGY_DIR / "sentence-words.tsv"
#: The roles each file's rows may have (its header says what each is).
ROLES = {
    WORDS_FILE.name: (
        "subject",
        "others",
        "introducing",
        "studying",
        "naming",
        "referring",
        "resulting",
        "result-link",
        "own-participle",
        "own-mark",
        "action-ending",
        "type",
        "name-ending",
        "zh-type",
        "heading",
        "phrase",
        "novelty",
        "parts",
        "joining",
        "following",
        "stop-noun",
        "blocker",
        "not-name",
    ),
    SENTENCE_WORDS_FILE.name: (
        "article",
        "indefinite-article",
        "determiner",
        "apposition-start",
        "description-start",
        "connector",
        "list-joiner",
        "list-mark",
        "list-opener",
        "long-form-lead",
        "naming-object",
        "enumerator",
        "passive-adverb",
        "passive-auxiliary",
        "finite-before",
        "clause-end",
        "description-word",
        "verb-lead",
        "further-step",
        "name-dash",
    ),
}
KINDS = ("benchmark", "dataset", "method", "model", "metric")
#: The roles whose rows give an artifact kind.
KINDED_ROLES = ("type", "name-ending", "zh-type")


def read_words(path: Path) -> dict[str, dict[str, str]]:
    """A word file's words by role, each with its kind ("" but for the kinded roles); the file's name says
    which roles it may hold."""
    roles = ROLES.get(path.name, ())
    by_role: dict[str, dict[str, str]] = defaultdict(dict)
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
            if not row or row[0].startswith("#"):
                continue
            word, role, kind = (row + ["", ""])[:3]
            if role not in roles or (role in KINDED_ROLES) != (kind in KINDS):
                raise KgError(f"{path}:{number}: role {role!r} with kind {kind!r}")
            by_role[role][word] = kind
    return by_role


_BY_ROLE = read_words(WORDS_FILE) | read_words(SENTENCE_WORDS_FILE)
#: The kind each type word names ("benchmark" -> benchmark, "framework" -> method).
TYPE_WORDS = dict(_BY_ROLE["type"])
#: Endings of a name that say its kind ("FooBench" is a benchmark, "FooNet" a model).
NAME_ENDINGS = dict(_BY_ROLE["name-ending"])
#: A Chinese summary's type words and their kinds ("基准" benchmark, "数据集" dataset).
ZH_TYPES = tuple(sorted(_BY_ROLE["zh-type"].items()))
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
PAPER_VERBS = INTRODUCING | frozenset(_BY_ROLE["studying"])
#: Words between an introducing verb and a name that make the name something else's argument.
BLOCKERS = frozenset(_BY_ROLE["blocker"])
#: Words that are never an artifact's name (compared as written: "AI", "PhD", "NeurIPS").
NOT_NAMES = frozenset(_BY_ROLE["not-name"])
#: Words before a type word that make it the paper's own thing ("our method", "the proposed method"), as
#: the resulting and novelty words do.
OWN_MARK_WORDS = frozenset(_BY_ROLE["own-mark"])

ARTICLES = frozenset(_BY_ROLE["article"])
INDEFINITE_ARTICLES = frozenset(_BY_ROLE["indefinite-article"])
#: Words before an introduced type word: articles, novelty words and these ("we release two benchmarks").
DETERMINERS = ARTICLES | NOVELTY | frozenset(_BY_ROLE["determiner"])
#: The words an apposition starts with: it describes the name as "a …" or "the …" ("ShowTell, composes a
#: mixture of foundation models" is no apposition).
APPOSITION_STARTS = frozenset(_BY_ROLE["apposition-start"])
#: The words a description of what the paper introduces starts with ("we release FooBench, a …").
DESCRIPTION_STARTS = frozenset(_BY_ROLE["description-start"])
#: Lower-case words that join the capitalised words of one name ("Sort and Snap", "Token Elasticity of …").
CONNECTORS = frozenset(_BY_ROLE["connector"])
#: The words that join names of a list ("the FD-UCB and IS-UCB algorithms").
LIST_JOINERS = frozenset(_BY_ROLE["list-joiner"])
#: The words and marks that join the names of a list ("A, B and C", "A & B").
NAME_LIST_JOINERS = LIST_JOINERS | frozenset(_BY_ROLE["list-mark"])
#: Words that may open a list of names in parentheses ("(i.e., MSGDA and AdaMSGDA)").
LIST_OPENERS = frozenset(_BY_ROLE["list-opener"])
#: Capitalised words that lead a long form at a sentence's start without being part of it.
LONG_FORM_LEADS = frozenset(_BY_ROLE["long-form-lead"])
#: Words between a naming verb and the type word it names ("we call the resulting method X").
OBJECT_WORDS = frozenset(_BY_ROLE["naming-object"])
#: The marks of an enumeration's items ("(ii) SEE-Splat, a real-time module").
ENUMERATORS = frozenset(_BY_ROLE["enumerator"])
#: Words that may stand between "is" and its introducing participle ("FooNet is then proposed").
PASSIVE_ADVERBS = frozenset(_BY_ROLE["passive-adverb"])
#: The "is" of an introducing verb in the present passive ("FooNet is proposed", "A and B are introduced").
PASSIVE_AUXILIARIES = frozenset(_BY_ROLE["passive-auxiliary"])
#: Words before a name that make it no subject of the sentence's passive verb.
FINITE_BEFORE = frozenset(_BY_ROLE["finite-before"])
#: Where a cue's clause ends: its marks and the words that start another clause.
CLAUSE_ENDS = frozenset(_BY_ROLE["clause-end"])
#: Blockers a description may hold before the list of names it introduces ("a class of … methods (A and B)").
DESCRIPTION_WORDS = frozenset(_BY_ROLE["description-word"])
#: Words after which a type word is a verb, no head noun ("a method to statistically test …", "we model").
VERB_LEADS = frozenset(_BY_ROLE["verb-lead"])
#: Words that make an introduction a further step ("Second, we introduce …", "we also present …").
FURTHER_STEPS = frozenset(_BY_ROLE["further-step"])
#: Dashes that join two capitalised words of one name when glued to both ("Metropolis—Hastings").
NAME_DASHES = frozenset(_BY_ROLE["name-dash"])


def is_type_word(token) -> bool:
    """Whether a token is a type word ("framework", "benchmarks"), by its norm or as written."""
    return token.norm_ in TYPE_WORDS or token.lower_ in TYPE_WORDS
