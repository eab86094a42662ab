"""Names the artifact rules consider besides coined words, and the shapes that are never names.

- a title's name before its colon: up to :data:`MAX_TITLE_WORDS` capitalised words ("Tag Map:",
  "Sparsh:", "Surgical Robot Transformer (SRT):" - the acronym, with the words as its long form);
- a multi-word name of capitalised words, with "and", "of", "for", "with" inside ("Sort and Snap",
  "Streitberg Information", "Token Elasticity of Performance"), right after an introducing verb or
  "a new / novel";
- one capitalised word right after an introducing or naming word ("we introduce Flames, …",
  "termed Shadow") or between "a new / novel" and a type word ("a novel Backclip mechanism").

Never names: numbers and sizes ("1.5k", "16k", "2B-parameter", "6-DoF"), compounds whose last part is
an ordinary word ("SE(3)-equivariant", "LLM-based"), and a name that only modifies the noun after it
("a Nyström-based KSD acceleration").
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Span, Token

from ..text.names import is_acronym
from .artifact_names import is_coined
from .long_forms import BREAKS, spelled_long_form
from .name_lists import joining_end, joining_tokens
from .naming import naming_object
from .words import (
    ARTICLES,
    CONNECTORS,
    DETERMINERS,
    FOLLOWING,
    HEADINGS,
    INDEFINITE_ARTICLES,
    INTRODUCING,
    LIST_JOINERS,
    NAME_DASHES,
    NAME_LIST_JOINERS,
    NAMING,
    NOVELTY,
    PARTS,
    PASSIVE_AUXILIARIES,
    PHRASE_WORDS,
    REFERRING,
    STOP_WORD_NOUNS,
    is_type_word,
)

MAX_TITLE_WORDS = 3
MAX_RUN_WORDS = 5
MAX_JOINER_TOKENS = 5  # the most tokens between two names of a list (", as well as the")
# "we present FooBench together with …", "FooNet while …": a stop word after a name is no noun it modifies
FUNCTION_WORDS = FOLLOWING | (STOP_WORDS - STOP_WORD_NOUNS)
_NUMBER_LIKE = re.compile(r"^\d|^[\d.,]+[kKmMbB]?$")
_VERSION = re.compile(r"^v?\d+(\.\d+)*$")


def not_a_name(text: str) -> bool:
    """Numbers and sizes, hyphen compounds ending in an ordinary lower-case word, and a cut bracket."""
    parts = [part for part in re.split(r"[-\u2010\u2011\u2013]", text) if part]
    words = text.split()
    unbalanced = text.count("(") != text.count(")")  # "SO(3" cut from "SO(3) representation"
    return (
        # "4D-DPM", "3D-ViTac" are names: a digit's part before an acronym or a coined word ("6-DoF" is none)
        (
            bool(_NUMBER_LIKE.match(text))
            and not any(_names_after_a_number(part) for part in parts[1:])
            and not any(word[:1].isupper() for word in words[1:])  # "3D Diffuser Actor"
        )
        or unbalanced
        or (len(parts) >= 2 and parts[-1].isalpha() and parts[-1].islower())
    )


#: The shortest coined word (a capital inside) that makes a number's compound a name ("3D-ViTac", not "6-DoF").
MIN_COINED_AFTER_NUMBER = 4


def _names_after_a_number(part: str) -> bool:
    acronym = part.isupper() and len(part) >= 2
    return acronym or (len(part) >= MIN_COINED_AFTER_NUMBER and any(ch.isupper() for ch in part[1:]))


def named_in_apposition(span: Span) -> bool:
    """ "we propose HAR-former, a Hybrid Transformer …": a capitalised compound ending in a lower-case
    word is a name when an apposition describes it ("LLM-based" never stands so)."""
    doc, k = span.doc, span.end
    return (
        span.text[:1].isupper()
        and len(span) > 1
        and k + 1 < len(doc)
        and doc[k].text == ","
        and doc[k + 1].lower_ in INDEFINITE_ARTICLES
    )


def modifies_next_noun(span: Span) -> bool:
    """ "a KSD acceleration": the name is followed by an ordinary noun it only modifies."""
    doc, k = span.doc, _word_after(span)
    if k is None or k >= len(doc):
        return False
    nxt = doc[k]
    if _cut_before_a_capital(span, nxt):
        return True
    if nxt.lower_ == "based":  # "a Thompson sampling (TS) based approach"; "X based on Y" names X
        return k + 1 < len(doc) and doc[k + 1].lower_ != "on"
    if span.start >= 1 and doc[span.start - 1].lower_ in NAMING and nxt.lower_.endswith("ing"):
        return False  # "called Interlacers leveraging …": a named name modifies no participle after it
    return (
        nxt.is_alpha
        and nxt.text.islower()
        and nxt.lower_ not in FUNCTION_WORDS
        and joining_end(doc, k) is None  # "FooBench alongside FooData"
        and not is_type_word(nxt)
        and not nxt.lower_.endswith("ed")
    )  # "BoostPFN designed to …" is no modifier


def _cut_before_a_capital(span: Span, nxt: Token) -> bool:
    """ "the Active-Acquisition POMDP": hyphen-joined ordinary words ("Grasp-Aware", none of them coined nor
    a single letter: "X-Y" is a name) before a capitalised word are cut from a longer name."""
    parts = [part for part in re.split(r"[-\u2010\u2011\u2013]", span.text) if part]
    compound = len(parts) >= 2 and all(part.isalpha() and len(part) > 1 and not is_coined(part) for part in parts)
    return compound and nxt.is_alpha and nxt.text[:1].isupper()


def _word_after(span: Span) -> int | None:
    """The index of the word after a name, past its closing parenthesis ("(VLA) navigation policy"); None
    when the parenthesised name names the type word before it ("our method (FastGrad) converges")."""
    doc, k = span.doc, span.end
    if span.start >= 1 and doc[span.start - 1].text == "(" and k < len(doc) and doc[k].text == ")":
        if span.start >= 2 and is_type_word(doc[span.start - 2]):
            return None
        k += 1
    return k


def _capitalised(token) -> bool:
    """ "Tag", "SRT", and a digit's word with a capital ("3D" of "3D Diffuser Actor")."""
    return _capitalised_word(token.text)


@lru_cache(maxsize=1 << 16)  # asked of most words of every text: the same words, by text
def _capitalised_word(text: str) -> bool:
    return (text[:1].isupper() or (text[:1].isdigit() and any(ch.isupper() for ch in text))) and any(
        ch.isalpha() for ch in text
    )


def title_name(doc: Doc) -> tuple[Span, Span | None] | None:
    """The name before a title's colon (and the acronym in parentheses after it, if any)."""
    colon = next((t.i for t in doc if t.text in {":", "):"}), None)
    if colon is None or colon == 0:
        return None
    head = doc[1:colon] if colon > 1 and doc[0].lower_ == "the" else doc[:colon]  # "The Local Learning Coefficient:"
    if (acronym := _acronym_before_colon(head, doc[colon])) is not None:
        return acronym
    return (head, None) if _shaped_like_a_title_name(head) else None


def _acronym_before_colon(head: Span, colon: Token) -> tuple[Span, Span] | None:
    """ "Surgical Robot Transformer (SRT):" -> the acronym and the words before it as its long form."""
    if colon.text == "):" and len(head) >= 2 and head[-2].text == "(":
        return head[-1:], head[:-2]
    if head[-1].text == ")" and len(head) >= 3 and head[-3].text == "(":
        return head[-2:-1], head[:-3]
    return None


def _shaped_like_a_title_name(head: Span) -> bool:
    """A few capitalised words or one styled in lower case, neither a heading ("Position: …", "Survey: …")
    nor a phrase ("Steering Your Generalists: …")."""
    words = [t for t in head if t.text not in {"-", "\u2010", "\u2011"}]
    # "DexGraspNet 2.0:": a version number after the name's first word is part of it
    shaped = all(_capitalised(t) or t.is_punct or (t.i > 0 and _VERSION.match(t.text)) for t in head)
    if len(words) > MAX_TITLE_WORDS or not (shaped or _styled_in_lower_case(head)):
        return False
    if len(words) == 1 and words[0].lower_ in HEADINGS:
        return False
    return not any(t.lower_ in PHRASE_WORDS for t in words)


def _styled_in_lower_case(head: Span) -> bool:
    """ "posteriordb: Testing, …": one word written in lower case against the title's capitals is a styled name."""
    return len(head) == 1 and head[0].is_lower and head[0].is_alpha and not head[0].is_stop


def extra_candidates(doc: Doc, sentence_starts: set[int]) -> list[Span]:
    """Multi-word capitalised runs and single capitalised words at places that introduce names, and
    the names listed after such a one ("we release Flames, Rhapsody and Sonata")."""
    found: list[Span] = []
    i = 0
    while i < len(doc):
        # the cheap tests first: most words are no capitalised word inside a sentence
        if not _capitalised(doc[i]) or (i in sentence_starts and not _names_a_passive(doc, i)):
            i += 1
            continue
        listed = bool(found) and _listed_after(doc, found[-1].end, i)
        if not (listed or _after_introduction(doc, i) or _introduced_after(doc, i)):
            i += 1
            continue
        several = listed or _plural_kind_before(doc, i)  # "two benchmarks, Flames and Rhapsody": two names
        j = _run_end(doc, i, several)
        found.append(doc[i:j])
        i = j
    return found


def _names_a_passive(doc: Doc, i: int) -> bool:
    """ "Sparse Routing is proposed as …" at a sentence's start: a run of capitalised words, not led by
    a stop word ("This is proposed …", "The …"), before a passive introducing verb."""
    return not doc[i].is_stop and _run_end(doc, i, False) - i >= 2 and _introduced_after(doc, i)


def _introduced_after(doc: Doc, i: int) -> bool:
    """ "a Feedback Information Extraction module is introduced to …": a run of capitalised words (and its
    type word) before a passive introducing verb."""
    j = _run_end(doc, i, False)
    j += j < len(doc) and is_type_word(doc[j])
    return j + 1 < len(doc) and doc[j].lower_ in PASSIVE_AUXILIARIES and doc[j + 1].lower_ in INTRODUCING


def _run_end(doc: Doc, i: int, several: bool) -> int:
    """The end of the run of capitalised words from ``i``, joined by connectors and glued hyphens (not
    by list joiners where ``several`` names stand), without connectors at its end."""
    j = i + 1
    while j < len(doc) and j - i < 2 * MAX_RUN_WORDS and _goes_on(doc, j, several):
        j += 1
    while j > i + 1 and doc[j - 1].lower_ in CONNECTORS:
        j -= 1
    return j


def _goes_on(doc: Doc, j: int, several: bool) -> bool:
    """Whether the word at ``j`` continues the run of capitalised words before it."""
    if doc[j - 1].text.endswith(".") and not is_acronym(doc[j].text):
        return False  # "Nu-X. Codes …": a sentence end the splitter missed ends the name ("Dr. GRPO" goes on)
    return (
        _capitalised(doc[j])
        or (_connects(doc, j) and not (several and doc[j].lower_ in NAME_LIST_JOINERS))
        or (doc[j].text == "-" and not doc[j - 1].whitespace_)
        or (doc[j - 1].text == "-" and not doc[j - 1].whitespace_ and doc[j].is_alpha)  # "Multi-sourced"
        or _joins_two_names(doc, j)
    )


def _joins_two_names(doc: Doc, j: int) -> bool:
    """ "called Reinforcement Learning Metropolis—Hastings": a dash glued between two capitalised words;
    "GenOpt Agent—a genetically optimized agent" sets off an apposition."""
    return (
        doc[j].text in NAME_DASHES
        and j + 1 < len(doc)
        and not doc[j - 1].whitespace_
        and not doc[j].whitespace_
        and _capitalised(doc[j + 1])
    )


def _connects(doc: Doc, j: int) -> bool:
    return doc[j].lower_ in CONNECTORS and j + 1 < len(doc) and _capitalised(doc[j + 1]) and not _two_names(doc, j)


def _listed_after(doc: Doc, end: int, i: int) -> bool:
    """Whether only list joiners (", and", "along with"), and an article after them ("and a"), stand
    between the end of the last name and ``i``."""
    if not end < i <= end + MAX_JOINER_TOKENS:
        return False
    phrases = joining_tokens(doc[max(0, end - 1) : i])
    # "an Encoder and a Decoder"; "SiCL, a DNN-based SCL method" is an apposition, no list
    joined = all(
        t.lower_ in NAME_LIST_JOINERS
        or t.i in phrases
        or (t.lower_ in ARTICLES and (doc[t.i - 1].lower_ in LIST_JOINERS or t.i - 1 in phrases))
        for t in doc[end:i]
    )
    return joined and doc[end].text != "("


def _plural_kind_before(doc: Doc, i: int) -> bool:
    """ "two new benchmarks, A and B": a plural type word (past a comma or colon) right before the name."""
    k = i - 1
    while k >= 0 and doc[k].text in {",", ":"}:
        k -= 1
    return k >= 0 and is_type_word(doc[k]) and doc[k].norm_ != doc[k].lower_


def _two_names(doc: Doc, j: int) -> bool:
    """ "RCDTP and RWDTP": a connector between two acronyms joins two names, not the words of one."""
    return doc[j].lower_ in NAME_LIST_JOINERS and is_acronym(doc[j - 1].text) and is_acronym(doc[j + 1].text)


def _after_introduction(doc: Doc, i: int) -> bool:
    """Whether the word at ``i`` follows an introducing or naming word (past determiners), or "a new"."""
    k = _before_determiners(doc, i)
    before = doc[k].lower_ if k >= 0 else ""
    return (
        before in INTRODUCING
        or before in NAMING
        or (k >= 0 and naming_object(doc[max(0, k - MAX_RUN_WORDS) : k + 1]) is not None)  # "we call our method X"
        or _described_named_or_part(doc, k, before)
        or any(doc[m].lower_ in NOVELTY for m in range(k + 1, i))
    )


def _described_named_or_part(doc: Doc, k: int, before: str) -> bool:
    """The word ``before`` (at ``k``) sets off a new thing's name, names it or lists its parts."""
    # "a new metric, Token Elasticity of Performance, …", "we introduce a dataset, Sonata, …"
    described = before == "," and k >= 2 and is_type_word(doc[k - 1]) and _new_or_introduced(doc, k - 2)
    # "InterACT consists of a Hierarchical Attention Encoder"
    parts = before in PARTS or (before == "of" and k >= 1 and doc[k - 1].lower_ in PARTS)
    # "we refer to this approach as Dynamic Policy Fusion"
    referred = before == "as" and any(t.lower_ in REFERRING for t in doc[max(0, k - 8) : k])
    return described or parts or referred


def _new_or_introduced(doc: Doc, k: int) -> bool:
    """The words before a type word at ``k`` + 1 mark a new thing: "new" / "novel", or an introducing verb
    and its determiners ("we introduce a dataset", "we release two benchmarks")."""
    if doc[k].lower_ in NOVELTY:
        return True
    j = _before_determiners(doc, k + 1)
    return k >= 1 and j < k + 1 and j >= 0 and doc[j].lower_ in INTRODUCING


def _before_determiners(doc: Doc, i: int) -> int:
    """The index of the word before the determiners before ``i``, and before a lower-case compound
    with its "a" or "an" ("an error-bounded Invariant Link Selector")."""
    k = i - 1
    while k >= 0 and doc[k].lower_ in DETERMINERS:
        k -= 1
    modified = k
    while k >= 1 and _in_a_lower_compound(doc, k):
        k -= 1
    if k < modified:
        k = k - 1 if k >= 0 and doc[k].lower_ in INDEFINITE_ARTICLES else modified
    return k


def _in_a_lower_compound(doc: Doc, k: int) -> bool:
    """A part of a lower-case hyphenated modifier ("error-bounded", "two-stage")."""
    token = doc[k]
    if token.text in {"-", "\u2010", "\u2011"}:
        return not doc[k - 1].whitespace_ and not token.whitespace_
    glued = (k + 1 < len(doc) and doc[k + 1].text == "-" and not token.whitespace_) or (
        doc[k - 1].text == "-" and not doc[k - 1].whitespace_
    )
    return token.is_lower and token.is_alpha and glued


def names_a_long_form(span: Span) -> bool:
    """ "decentralized personalized FL (DPFL)", "Semi-Structured Reinforcement Learning (SSRL)": the
    words are part of the long form of the name in parentheses after them."""
    doc, k = span.doc, span.end
    while (
        k < len(doc)
        and k < span.end + 8
        and (
            doc[k].text[:1].isupper()
            or doc[k].text in {"-", "\u2010", "\u2011"}
            or doc[k].lower_ in {"of", "for", "and", "via", "with"}
        )
    ):
        k += 1
    if k + 2 < len(doc) and doc[k].text == "(" and _one_name_closed(doc, k + 1):
        return True
    return _inside_a_spelled_long_form(span)


def _one_name_closed(doc: Doc, start: int) -> bool:
    """Whether one name, its tokens glued ("VI-Growth"), stands from ``start`` up to a closing parenthesis."""
    end = start
    while (
        end + 1 < len(doc) and end - start < MAX_GLUED_TOKENS and not doc[end].whitespace_ and doc[end + 1].text != ")"
    ):
        end += 1
    return end + 1 < len(doc) and doc[end + 1].text == ")"


#: The most tokens of one glued name in parentheses ("(VI-Growth)": three).
MAX_GLUED_TOKENS = 6


def _inside_a_spelled_long_form(span: Span) -> bool:
    """ "UNcertainty-awaRE deciSion Transformer (UNREST)": the name is a word of the long form the
    acronym in the parentheses after it spells."""
    doc = span.doc
    for k in range(span.end, min(len(doc) - 2, span.end + 12)):
        if doc[k].text in BREAKS - {"("}:
            return False
        if doc[k].text == "(":
            spelled = spelled_long_form(doc, k)
            return spelled is not None and spelled.start <= span.start
    return False
