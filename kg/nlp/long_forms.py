"""The long form an acronym in parentheses spells: "UNcertainty-awaRE deciSion Transformer (UNREST)".

After Schwartz and Hearst (2003): the acronym's letters are found right to left in the words before
its parenthesis, its first letter at a word's start. Unlike their rule, a letter counts only where it
is a word's (or a hyphenated part's) first letter or a capital, so "Corrected stOchastic gradient
Descent Ascent (CODA)" spells CODA and "a retrieval-augmented method (RAM)" is not read as a name's
long form: the long form starts with a capital. Words between the letters are part of it ("Actor
Critic Algorithm for Mean Field Games (ASAC-MFG)"). The window is Schwartz and Hearst's:
min(|A| + 5, 2|A|) words, and no comma, colon, semicolon or parenthesis inside. An acronym's own
lower-case letters match any letter ("Private Stochastic Momentum (PriSM)").

:func:`long_form_of` is a name's long form: the spelled one, the capitalised words before its
parenthesis ("Divide and Contrast (Di-COT)"), or the words inside the parenthesis after it.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from .artifact_names import is_coined
from .artifact_types import HYPHENS, after_parenthetical, in_parentheses
from .words import LONG_FORM_LEADS

#: Tokens a long form never spans.
BREAKS = {",", ":", ";", "(", ")", ".", "[", "]"}


def acronym_letters(acronym: str) -> str:
    """The letters and digits an acronym spells, without a plural "s" ("SCMs" -> "SCM")."""
    if len(acronym) > 2 and acronym.endswith("s") and acronym[-2].isupper():
        acronym = acronym[:-1]
    return "".join(ch for ch in acronym if ch.isalnum())


def spelled_long_form(doc: Doc, opening: int, capitalised: bool = True) -> Span | None:
    """The words before the parenthesis at ``opening`` whose initials and capitals spell the acronym
    inside it, or None; ``capitalised=False`` lets the long form start lower case ("online sequential
    IWAE (OSIWAE)", where a naming word before it says it is a name)."""
    letters = _parenthesised_acronym(doc, opening)
    if letters is None:
        return None
    first = _first_spelling_token(doc[_window_start(doc, opening, letters) : opening], letters)
    initial = doc[first].text[:1] if first is not None else ""
    if first is None or (capitalised and not (initial.isupper() or initial.isdigit())) or opening - first < 2:
        return None
    return doc[first:opening]


def _parenthesised_acronym(doc: Doc, opening: int) -> str | None:
    """The letters of the acronym in the parenthesis at ``opening``: one word of at least two letters,
    two of them capitals; None for anything else."""
    closing = next((k for k in range(opening + 2, min(len(doc), opening + 6)) if doc[k].text == ")"), None)
    acronym = doc[opening + 1 : closing] if closing is not None else None
    if acronym is None or any(t.whitespace_ for t in acronym[:-1]):  # one word, hyphens included ("ASAC-MFG")
        return None
    letters = acronym_letters(acronym.text)
    if len(letters) < 2 or sum(ch.isupper() for ch in letters) < 2:
        return None
    return letters


def _window_start(doc: Doc, opening: int, letters: str) -> int:
    """Where the words a long form of ``letters`` may span begin: min(|A| + 5, 2|A|) words back
    (hyphens are no words), stopping at a break."""
    window = min(len(letters) + 5, 2 * len(letters))
    start = opening
    words = 0
    while start > 0 and doc[start - 1].text not in BREAKS and words < window:
        start -= 1
        words += doc[start].text not in HYPHENS
    return start


def _first_spelling_token(words: Span, letters: str) -> int | None:
    """The index of the token where the letters, matched right to left, begin (at its first letter)."""
    pending = letters
    for token in reversed(words):
        text = token.text
        for position in range(len(text) - 1, -1, -1):
            ch = text[position]
            if not pending or ch.lower() != pending[-1].lower():
                continue
            # a capital of the acronym is a word's first letter or a capital; its lower-case letters
            # are any ("Private Stochastic … (PriSMA)")
            if position == 0 or ch.isupper() or ch.isdigit() or pending[-1].islower():
                if len(pending) == 1 and position != 0:
                    continue  # the first letter starts a word
                pending = pending[:-1]
                if not pending:
                    return token.i
    return None


def long_form_of(span: Span) -> str | None:
    """ "Divide and Contrast (Di-COT)" -> "Divide and Contrast"; "UPHELD (Utility … Dialogues)" -> the inside."""
    doc = span.doc
    if in_parentheses(span):
        words = _capitalised_words_before(span)
        spelled = spelled_long_form(doc, span.start - 1)  # "UNcertainty-awaRE deciSion Transformer (UNREST)"
        if spelled is not None and len(spelled) > len(words):
            return spelled.text
        return words.text if len(words) >= 2 and not _one_coined_name(words.text) else None
    end = after_parenthetical(span)
    if end > span.end + 3:
        inside = doc[span.end + 1 : end - 1]
        if inside[0].text[:1].isupper():
            return inside.text
    return None


def _capitalised_words_before(span: Span) -> Span:
    """The capitalised words (with "and", "of", … between them) right before a name's parenthesis."""
    doc = span.doc
    k = span.start - 2
    while k >= 0 and (doc[k].text[:1].isupper() or (doc[k].lower_ in {"and", "of", "for", "&", "-", "the"} and k > 0)):
        k -= 1
    words = doc[k + 1 : span.start - 1]
    # "The Local … (LLC)", "Our Evidential Probing Network (EPN)": a sentence's first word is no part of it
    while len(words) and (not words[0].text[:1].isupper() or words[0].lower_ in LONG_FORM_LEADS):
        words = words[1:]
    return words


def _one_coined_name(text: str) -> bool:
    """ "the ordered VI-Growth (O-VIG)": one coined name before the parenthesis is a name of its own."""
    return " " not in text and any(is_coined(part) for part in text.split("-"))


def long_form_start(span: Span, long_form: str | None = None) -> int:
    """Where the long form of a name in parentheses starts ("Divide and Contrast (Di-COT)"); the name's
    own start when it has none."""
    long_form = long_form if long_form is not None else long_form_of(span) if in_parentheses(span) else None
    if long_form is None:
        return span.start
    doc = span.doc
    return next(
        (
            span.start - 1 - n
            for n in range(1, 16)
            if doc[max(0, span.start - 1 - n) : span.start - 1].text == long_form
        ),
        span.start - 1,
    )


def named_long_form_start(span: Span) -> int:
    """Where the long form of a name in parentheses starts, lower case or not ("called online sequential
    IWAE (OSIWAE)")."""
    spelled = spelled_long_form(span.doc, span.start - 1, capitalised=False) if in_parentheses(span) else None
    return spelled.start if spelled is not None else long_form_start(span)
