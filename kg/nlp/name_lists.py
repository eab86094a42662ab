"""Lists of names: in parentheses ("(RCDTP and RWDTP)", "(i.e., MSGDA and AdaMSGDA)") or after a
type word's colon ("two benchmarks: A and B")."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacy.tokens import Span

from .artifact_types import HYPHENS
from .words import JOINING, LIST_OPENERS, NAME_LIST_JOINERS, is_type_word

if TYPE_CHECKING:
    from .artifact_names import Found

MAX_LIST_TOKENS = 12


def _in_list(token) -> bool:
    """A joiner, a word of a name, or the hyphen inside one ("H-Vcsmc" of "(H-Vcsmc and H-Vncsmc)")."""
    glued = token.text in HYPHENS and token.i >= 1 and not token.doc[token.i - 1].whitespace_
    return token.lower_ in NAME_LIST_JOINERS or glued or any(ch.isupper() or ch.isdigit() for ch in token.text)


def joining_end(doc, i: int) -> int | None:
    """The index after the joining phrase ("along with", "as well as") that starts at ``i``, or None."""
    for phrase in JOINING:
        if tuple(t.lower_ for t in doc[i : i + len(phrase)]) == phrase:
            return i + len(phrase)
    return None


def joining_tokens(span) -> set[int]:
    """The indexes of the joining phrases in ``span`` that stand right after a name, its closing
    parenthesis or a type word, past a comma ("FooBench, along with FooData", "estimators, along with
    … methods (A and B)"), so that they join what follows as "and" would; "trained along with BERT"
    joins nothing."""
    doc, found = span.doc, set()
    for token in span:
        end = joining_end(doc, token.i)
        if end is None:
            continue
        k = token.i - 1 - (token.i >= 1 and doc[token.i - 1].text == ",")
        named = k >= 0 and (doc[k].text == ")" or any(ch.isupper() or ch.isdigit() for ch in doc[k].text))
        if named or (k >= 0 and is_type_word(doc[k])):
            found.update(range(token.i, end))
    return found


def name_list(span: Span) -> tuple[int, int] | None:
    """The indexes of the parentheses around the list of names ``span`` is one of ("(RCDTP and RWDTP)",
    "(i.e., MSGDA and AdaMSGDA)"), or None; a single name in parentheses is no list."""
    doc, (start, end) = span.doc, _list_reach(span)
    if start < 0 or end >= len(doc) or doc[start].text != "(" or doc[end].text != ")":
        return None
    inside = [t for t in doc[start + 1 : end] if t.lower_ not in LIST_OPENERS]
    return (start, end) if _names_joined(inside) else None


def _list_reach(span: Span) -> tuple[int, int]:
    """The indexes of the first tokens before and after ``span`` that cannot be part of a list with it."""
    doc, start, end = span.doc, span.start - 1, span.end
    while start >= max(0, span.start - MAX_LIST_TOKENS) and (_in_list(doc[start]) or doc[start].lower_ in LIST_OPENERS):
        start -= 1
    while end < min(len(doc), span.end + MAX_LIST_TOKENS) and _in_list(doc[end]):
        end += 1
    return start, end


def _names_joined(inside: list) -> bool:
    """Whether a parenthesis's tokens are names joined by list joiners."""
    joined = any(t.lower_ in NAME_LIST_JOINERS for t in inside)
    # each item one word, or one glued compound ("GPT-4o"): words of a long form are no list
    one_word_items = all(
        t.lower_ in NAME_LIST_JOINERS or not t.whitespace_ or nxt.lower_ in NAME_LIST_JOINERS
        for t, nxt in zip(inside, inside[1:])
    )
    return joined and one_word_items


def colon_before_list(span: Span) -> int | None:
    """The colon after a type word that opens a list of names ``span`` is one of ("two benchmarks: A and B")."""
    doc, k = span.doc, span.start - 1
    while k >= max(0, span.start - MAX_LIST_TOKENS) and _in_list(doc[k]):
        k -= 1
    return k if k >= 1 and doc[k].text == ":" and is_type_word(doc[k - 1]) else None


def list_kinds_shared(found: list[tuple[Span, Found]]) -> list[Found]:
    """Names of one list ("Flames, Rhapsody and Sonata, three datasets") without a word of their own for
    their kind take the one kind the list's other names have."""
    kinds: dict[int, str | None] = {id(item): item.kind for _, item in found}
    ordered = sorted(found, key=lambda pair: pair[0].start)
    groups: list[list[Found]] = []
    for index, (span, item) in enumerate(ordered):
        previous = ordered[index - 1][0] if index else None
        joined = previous is not None and all(
            t.lower_ in NAME_LIST_JOINERS for t in span.doc[previous.end : span.start]
        )
        if joined and span.start - previous.end <= 2:
            groups[-1].append(item)
        else:
            groups.append([item])
    for group in groups:
        named = {item.kind for item in group if item.kind}
        if len(named) == 1:
            kinds.update({id(item): next(iter(named)) for item in group})
    return [replace(item, kind=kinds[id(item)]) for _, item in found]
