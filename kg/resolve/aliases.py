"""The institution alias table: variants and acronyms -> canonical names.

The shipped table is ``ontology/institution-aliases.tsv`` (its header documents the format);
a user extends it with a file of the same format named by ``KG_INSTITUTION_ALIASES``. The
user's lines win over the shipped ones for the same variant.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .. import ONTOLOGY_DIR
from ..errors import InputError
from .keys import institution_key

SHIPPED = ONTOLOGY_DIR / "institution-aliases.tsv"
ALIASES_ENV = "KG_INSTITUTION_ALIASES"


class AliasTable:
    """``canonical(key)`` for institution keys; built from one or more TSV files."""

    def __init__(self, entries: dict[str, str]):
        self._canonical = dict(entries)
        for name in entries.values():  # a canonical name is a variant of itself
            self._canonical.setdefault(institution_key(name), name)
        self.canonical_keys = frozenset(institution_key(name) for name in entries.values())

    def canonical(self, key: str) -> str | None:
        return self._canonical.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._canonical

    def __len__(self) -> int:
        return len(self._canonical)


def read_alias_file(path: Path) -> dict[str, str]:
    """``variant<TAB>canonical`` lines -> {variant key: canonical name}; bad lines name file and line."""
    entries: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the alias table ({exc})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) != 2 or not all(fields):
            raise InputError(path, "expected 'variant<TAB>canonical name'", number)
        key = institution_key(fields[0])
        if not key:
            raise InputError(path, f"variant {fields[0]!r} has no letters", number)
        entries[key] = fields[1]
    return entries


@lru_cache(maxsize=8)
def _load(user_file: str | None) -> AliasTable:
    entries = read_alias_file(SHIPPED)
    if user_file:
        entries.update(read_alias_file(Path(user_file)))
    return AliasTable(entries)


def active_aliases() -> AliasTable:
    """The shipped table, extended by the file in ``$KG_INSTITUTION_ALIASES`` if set."""
    return _load(os.environ.get(ALIASES_ENV) or None)
