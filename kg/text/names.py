"""Text normalisation shared by the extractors and the IRI minting.

Two levels, on purpose:
- :func:`clean` makes a string presentable (NFC, spaces collapsed) and is what we store
  as a label;
- :func:`match_key` is the identity used to decide that two written forms are the same
  thing: case, diacritics, punctuation and hyphens do not matter ("Balázs Gyenes" =
  "Balazs Gyenes", "Dong-Woo Kim" = "Dongwoo Kim"), nor Latin letters that are not a base
  letter with marks ("Søren" = "Soren", "Łukasz" = "Lukasz", "Yıldırım" = "Yildirim"; these
  are transliterated with anyascii). It keeps letters of every other script as they are, so
  Chinese names are never reduced to nothing nor turned into pinyin.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import Iterable

from anyascii import anyascii

# Names repeat across a corpus (authors, institutions), so the pure functions below are
# memoised; the caches are bounded so that memory stays flat on any corpus.
_CACHE = 1 << 18
# The hyphens and dashes, as the body of a character class: "[" + HYPHENS + "]".
HYPHENS = r"\-\u2010-\u2015\u2212"
# Characters that join the parts of one word: "Dong-Woo", "O'Brien", "Xi´an", "Re-ID".
_JOINERS = re.compile(rf"[{HYPHENS}'\u2019\u00b7\u30fb.]")
_NOT_WORD = re.compile(r"[^\w]+")


# A spacing accent that text taken from a PDF puts before its letter, with a space on either side
# or none ("Universit¨ at M¨ unchen", "ETH Z ¨urich", "Pi˜nata"), and the combining mark it stands
# for. A space before the accent is dropped only inside a word (a lowercase letter after it:
# " ¨Ozyegin" begins a word). The acute joins across a space after it, with one before it ("T
# ´el´ecom") or before an "e" ("Montr´eal", "Universit´e": French é, where a pinyin apostrophe comes
# before "a" or "o", "Xi´an"); between other letters it is an apostrophe as often, which match keys
# join as they join "Xi'an".
_COMBINING = {
    "\u00a8": "\u0308",
    "\u02dc": "\u0303",
    "\u02c6": "\u0302",
    "\u02c7": "\u030c",
    "\u02d8": "\u0306",
    "\u02da": "\u030a",
    "\u02dd": "\u030b",
    "\u00b8": "\u0327",
    "\u02db": "\u0328",
    "\u00b4": "\u0301",
}
_MARKS = "\u00a8\u02dc\u02c6\u02c7\u02d8\u02da\u02dd\u00b8\u02db"
_SPACING_ACCENT = re.compile(
    f"(?:(?<=[A-Za-z]) (?=[{_MARKS}\u00b4] ?[a-z\u0131]))?"
    f"(?:(?P<mark>[{_MARKS}]) ?|(?P<acute>\u00b4) |(?<!\\S)(?P<after_space>\u00b4)"
    f"|(?P<before_e>\u00b4)(?=e))"
    f"(?P<letter>[A-Za-z\u0131])"
)
# Where an acute before an "e" is an apostrophe: after an elided article or preposition (French "d´",
# "l´", "qu´"; Italian "dell´", "all´"). (Pinyin's "Chang´e" reads "Changé", "Ing´enierie" "Ingénierie":
# both keep their match key.)
_APOSTROPHE_BEFORE = re.compile(r"(?<![^\W\d_])(?:[dljsncmt]|qu|dell|all|nell|dall|sull)$", re.IGNORECASE)
# A grave accent written as a backtick before its vowel, as LaTeX's \` is ("Universit`a", "G`eza"),
# with the space a PDF's text puts after it ("Universit` a"): one backtick after a word's letters and
# before a vowel. Doubled ones are LaTeX's opening quotes ("``views''"), and a word that a backtick
# opens is code ("`loom` and").
_BACKTICK_GRAVE = re.compile(r"(?<![`\w])(?P<word>[^\W\d_]+)` ?(?P<letter>[aeiouAEIOU])")
# Latin ligatures a PDF's text keeps ("Artiﬁcial"): the letters they join.
_LIGATURES = {point: unicodedata.normalize("NFKC", chr(point)) for point in range(0xFB00, 0xFB07)}
# Any character :func:`_without_pdf_artefacts` changes (every alternative of _SPACING_ACCENT has a mark): most
# text has none, and finding none costs a hundredth of the substitution
_PDF_ARTEFACT = re.compile(f"[{_MARKS}\u00b4{''.join(map(chr, _LIGATURES))}]")


def _without_pdf_artefacts(text: str) -> str:
    """'¨ u' -> 'ü' (dotless ı takes a mark as i), 'ﬁ' -> 'fi'."""

    def mark(match: re.Match) -> str:
        if match["before_e"] and _APOSTROPHE_BEFORE.search(match.string, 0, match.start()):
            return match[0]  # "d´etudes", "dell´energia": an apostrophe
        letter = "i" if match["letter"] == "\u0131" else match["letter"]
        return letter + _COMBINING[match["mark"] or match["acute"] or match["after_space"] or match["before_e"]]

    return _SPACING_ACCENT.sub(mark, text).translate(_LIGATURES)


def clean(text: str) -> str:
    """NFC with whitespace (ideographic space included) collapsed and trimmed, and what text taken
    from a PDF leaves undone: a spacing accent joined to its letter ("M¨ unchen" is "München"), a
    ligature split into its letters ("Artiﬁcial"), a backtick before a vowel as its grave accent
    ("Universit`a" is "Università").

    Full-width punctuation is kept as written: it is how Chinese text is spelled, and the
    listing format uses it as a separator. :func:`match_key` folds it for matching.

    >>> clean("  M¨ unchen,  Artiﬁcial Intelligence, Universit`a ")
    'München, Artificial Intelligence, Università'
    """
    if not text.isascii() and _PDF_ARTEFACT.search(text):
        text = _without_pdf_artefacts(text)
    if "`" in text:
        text = _BACKTICK_GRAVE.sub(lambda match: match["word"] + match["letter"] + "\u0300", text)
    return " ".join(unicodedata.normalize("NFC", text).split())  # str.split breaks where a regex's \s would


def _is_latin_letter(ch: str) -> bool:
    """A letter of the Latin script beyond ASCII (Latin-1 to Latin Extended Additional)."""
    return ("\u00c0" <= ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff") and ch.isalpha()


class _FoldedCharacters(dict):
    """Code point -> what :func:`fold` makes of it after NFKD: nothing for a combining mark, a
    Latin letter transliterated, any other character itself. Filled as ``str.translate`` meets
    code points, so a name costs one look-up per character."""

    def __missing__(self, point: int) -> str:
        ch = chr(point)
        self[point] = folded = (
            "" if unicodedata.combining(ch) else anyascii(ch).casefold() if _is_latin_letter(ch) else ch
        )
        return folded


_FOLDED = _FoldedCharacters()


@lru_cache(maxsize=_CACHE)
def fold(text: str) -> str:
    """Lower case with diacritics removed and full-width forms folded (NFKD, marks dropped);
    Latin letters NFKD keeps whole (ø ł đ ı æ þ) transliterated, other scripts kept.

    >>> fold("Łódź"), fold("Zürich"), fold("ÆSIR"), fold("清华")
    ('lodz', 'zurich', 'aesir', '清华')
    """
    if text.isascii():  # most names: nothing to decompose, mark or transliterate (5x faster)
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return decomposed if decomposed.isascii() else decomposed.translate(_FOLDED)


@lru_cache(maxsize=_CACHE)
def match_key(text: str) -> str:
    """The identity of a name: folded, joiners removed, other punctuation as spaces.

    >>> match_key("ÉCOLE Polytechnique,  Paris"), match_key("Jean-Pierre Dupont")
    ('ecole polytechnique paris', 'jeanpierre dupont')
    """
    # (the acute before fold: NFKD would make it a space and a mark, two words of one)
    folded = _JOINERS.sub("", fold(clean(text).replace("\u00b4", "'")))
    return " ".join(_NOT_WORD.sub(" ", folded).replace("_", " ").split())


# A character reference with its ';' ("&amp;", "&#x27;", "&#39;"): web pages' text escaped once
# or more ("Xi&amp;amp;#x27;an"). A bare '&' ("AT&T", "R&D") or a reference without ';' is text.
_CHARACTER_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MAX_ESCAPES = 4


def unescape_html(text: str) -> str:
    """Text with its HTML character references resolved, however often it was escaped. It must
    run before a list is split at ';', which each reference ends with.

    >>> unescape_html("Xi&amp;amp;#x27;an"), unescape_html("AT&T")
    ("Xi'an", 'AT&T')
    """
    for _ in range(_MAX_ESCAPES):
        unescaped = _CHARACTER_REFERENCE.sub(lambda match: html.unescape(match.group()), text)
        if unescaped == text:
            break
        text = unescaped
    return text


_GENERATION = re.compile(r"(?:Jr|Sr)\.?|II|III|IV")


def is_generation(part: str) -> bool:
    """A generation written as a byline's part of its own ("Jr.", "Jr", "III").

    >>> is_generation("Jr."), is_generation("Junior")
    (True, False)
    """
    return _GENERATION.fullmatch(part) is not None


def with_generations(parts: Iterable[str]) -> list[str]:
    """The names of a byline split at commas (or at ';', where the old NeurIPS lists put one after
    a generation: "J.L. WYATT; Jr; D.L. STANDLEY"): a generation ("Jr.", "III") is no name of its
    own but the end of the one before it ("Martin Luther King, Jr."); empty parts are dropped.

    >>> with_generations(["Martin Luther King", "Jr.", "", "Ada Lovelace"])
    ['Martin Luther King, Jr.', 'Ada Lovelace']
    """
    names: list[str] = []
    for part in parts:
        if names and is_generation(part):
            names[-1] = f"{names[-1]}, {part}"
        elif part:
            names.append(part)
    return names


_CJK = re.compile("[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]")


def has_cjk(text: str) -> bool:
    """True when the text holds Chinese, Japanese or Korean characters.

    >>> has_cjk("清华大学 (Tsinghua)"), has_cjk("Tsinghua")
    (True, False)
    """
    return _CJK.search(text) is not None


def is_acronym(word: str, digits: bool = False) -> bool:
    """One word with two or more capitals: "RL", "LLMs", "MoE", "CITEC". With ``digits``, digits
    count as capitals ("W3", "3D": workshop names). The one definition; its variant for
    organisations (:func:`kg.orgs.org_names.is_organisation_acronym`) also leaves out what an
    address or a person's name writes with two capitals (place codes, "McAllister", "Tae-Kyun").

    >>> is_acronym("MoE"), is_acronym("Transformer"), is_acronym("W3"), is_acronym("W3", digits=True)
    (True, False, False, True)
    """
    return " " not in word and sum(ch.isupper() or digits and ch.isdigit() for ch in word) >= 2
