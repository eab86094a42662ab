"""Markup that listings carry over from LaTeX and Markdown, removed before a paper's texts are tagged.

The rules are rows of ``ontology/markup.tsv`` (an id, a pattern, its replacement, an example and a
near-miss), applied in file order: ``$\\texttt{SSRL}$`` -> ``SSRL``, ``**C**ontinual`` -> ``Continual``,
``Dominance~(WIND)`` -> ``Dominance (WIND)``. A macro that stands for the paper's own name (``\\our``,
``\\method{}``) becomes the name its title gives before its colon ("ACE: A Cross-platform …").
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from .. import ONTOLOGY_DIR
from ..errors import KgError
from .artifact_names import is_coined

MARKUP_FILE = ONTOLOGY_DIR / "markup.tsv"


@dataclass(frozen=True)
class MarkupRule:
    id: str
    pattern: re.Pattern
    replacement: str
    example: str
    result: str
    near_miss: str


def _read() -> tuple[MarkupRule, ...]:
    rules = []
    with MARKUP_FILE.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
            if not row or row[0].startswith("#"):
                continue
            if len(row) != 6:
                raise KgError(f"{MARKUP_FILE}:{number}: {len(row)} fields, expected 6")
            try:
                pattern = re.compile(row[1])
            except re.error as exc:
                raise KgError(f"{MARKUP_FILE}:{number}: bad pattern: {exc}") from exc
            rules.append(MarkupRule(row[0], pattern, row[2], *row[3:]))
    return tuple(rules)


MARKUP_RULES = _read()
#: The characters some markup rule needs: a text without any of them has no markup.
_MARKUP_CHARACTERS = ("\\", "*", "$", "~")


#: The rules whose text is styled as a name (small capitals, typewriter, sans serif: "\\textsc{sparrow}").
NAME_STYLE_RULES = tuple(rule for rule in MARKUP_RULES if rule.id.startswith("name-style"))


def styled_names(text: str | None) -> frozenset[str]:
    """The one-word texts the markup of ``text`` styles as names ("\\textsc{sparrow}" -> "sparrow")."""
    if not text or "\\" not in text:
        return frozenset()
    found = (match.group(1).strip() for rule in NAME_STYLE_RULES for match in rule.pattern.finditer(text))
    return frozenset(word for word in found if word and not any(ch.isspace() or ch == "\\" for ch in word))


#: In a replacement: the paper's name its title gives (a rule with it is skipped for a title without one).
TITLE_NAME = "{title-name}"
#: In a replacement: the Greek capital letter the match's first group names ("\\Sigma" -> "Σ").
GREEK_LETTER = "{greek-letter}"


def strip_markup(text: str, title: str | None = None) -> str:
    """The text without its markup; ``title``, the paper's title, gives the name its name macros stand for."""
    if not any(character in text for character in _MARKUP_CHARACTERS):
        return text
    name = title_coined_name(title)
    for rule in MARKUP_RULES:
        if rule.replacement == GREEK_LETTER:
            text = _applied(rule, _greek_letter, text)
        elif TITLE_NAME not in rule.replacement:
            text = _applied(rule, rule.replacement, text)
        elif name is not None:
            text = _applied(rule, name.replace("\\", "\\\\"), text)
    return text


def _greek_letter(match: re.Match) -> str:
    return unicodedata.lookup(f"GREEK CAPITAL LETTER {match.group(1).upper()}")


#: How often a rule is applied again while it changes a text (commands nested this deep).
MAX_NESTING = 4


def _applied(rule: MarkupRule, replacement: str | Callable[[re.Match], str], text: str) -> str:
    for _ in range(MAX_NESTING):
        text, changed = rule.pattern.subn(replacement, text)
        if not changed:
            break
    return text


def title_coined_name(title: str | None) -> str | None:
    """The one coined word before a title's colon ("Trust the PRoC3S: …" -> "PRoC3S"), or None; read
    without the title's markup, as the title itself is ("\\textsc{ACE}: …", "**ACE**: …" -> "ACE")."""
    head, colon, _ = strip_markup(title or "").partition(":")
    coined = [word for word in head.split() if is_coined(word)]
    return coined[0] if colon and len(coined) == 1 else None
