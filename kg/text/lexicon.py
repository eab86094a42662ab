"""Word lists kept as data: a folder of TSV files, each row one word of one named list.

A row is ``list<TAB>word`` or ``list<TAB>word<TAB>value`` (a list that maps words, such as a word in
another language to the English one); lines that begin with ``#`` say why a list or a row is there, and
``# list: text`` before a list's rows is what the list is (the docs' table of lists shows it).
Each list lives in one file of its folder, the file of its kind (unit words, place words, …), so a new
word is one row. The rows keep their order: a list read as a tuple keeps the order it is written in.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

from ..errors import InputError

HEADER = ("list", "word", "value")
_ABOUT = re.compile(r"#\s*(?P<name>\w+):\s*(?P<text>.+)")


class Lexicon:
    """The lists of one folder of TSV files, read once on first use; a list is asked for by its name.

    >>> from kg.text.lexicon import TEXT_LEXICON
    >>> "gmail.com" in TEXT_LEXICON.words("personal_mail"), TEXT_LEXICON.about("stop")[0]
    (True, 'function_words.tsv')
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self._homes: dict[str, Path] = {}
        self._about: dict[str, str] = {}

    @cached_property
    def _rows(self) -> dict[str, list[tuple[str, str]]]:
        lists: dict[str, list[tuple[str, str]]] = {}
        homes = self._homes
        for path in sorted(self.folder.glob("*.tsv")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if about := _ABOUT.fullmatch(line):
                    self._about[about["name"]] = about["text"]
                if not line.strip() or line.startswith("#") or tuple(line.split("\t")) in (HEADER, HEADER[:2]):
                    continue
                fields = line.split("\t")
                if len(fields) not in (2, 3) or not all(fields[:2]):
                    raise InputError(path, f"expected list<TAB>word[<TAB>value], got {line!r}", number)
                name = fields[0]
                if homes.setdefault(name, path) != path:
                    raise InputError(path, f"list {name!r} is already in {homes[name].name}", number)
                lists.setdefault(name, []).append((fields[1], fields[2] if len(fields) == 3 else ""))
        return lists

    def _list(self, name: str) -> list[tuple[str, str]]:
        if name not in self._rows:
            raise KeyError(f"no word list {name!r} in {self.folder}")
        return self._rows[name]

    def words(self, name: str) -> frozenset[str]:
        """The words of a list (a :class:`KeyError` names a list the folder lacks).

        >>> from kg.orgs.lexicon import LEXICON
        >>> {"laboratoire", "department"} <= LEXICON.words("unit")
        True
        """
        return frozenset(word for word, _ in self._list(name))

    def ordered(self, name: str) -> tuple[str, ...]:
        """The words of a list in the order its rows give them (legal forms: the longest first).

        >>> from kg.orgs.lexicon import LEXICON
        >>> LEXICON.ordered("legal_form")[:2]
        ('gmbh and co kg', 'sp z oo')
        """
        return tuple(word for word, _ in self._list(name))

    def mapping(self, name: str) -> dict[str, str]:
        """A list of words with a value each: word -> value.

        >>> from kg.orgs.lexicon import LEXICON
        >>> LEXICON.mapping("native")["istituto"], LEXICON.mapping("exonym")["firenze"]
        ('institute', 'florence')
        """
        return dict(self._list(name))

    def names(self) -> list[str]:
        """Every list's name, sorted: for the docs and the tests.

        >>> from kg.text.lexicon import TEXT_LEXICON
        >>> names = TEXT_LEXICON.names()
        >>> "personal_mail" in names, names == sorted(names)
        (True, True)

        """
        return sorted(self._rows)

    def about(self, name: str) -> tuple[str, str]:
        """The file a list is in and what its ``# list: text`` line says it is.

        >>> from kg.text.lexicon import TEXT_LEXICON
        >>> TEXT_LEXICON.about("registry_label")[0]
        'domain_words.tsv'
        """
        self._list(name)
        return self._homes[name].name, self._about.get(name, "")


# The lists every package shares (kg/text/data/*.tsv): stop words.
TEXT_LEXICON = Lexicon(Path(__file__).resolve().parent / "data")
STOP_WORDS = TEXT_LEXICON.words("stop")
