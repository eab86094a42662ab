"""The institution alias table: variants and acronyms -> canonical names, and the parents of
labs, brands and divisions (Google DeepMind -> Google).

The shipped table is ``ontology/institution-aliases.tsv`` (its header documents the format);
a user extends it with a file of the same format (:func:`use_alias_file`; the command line names
the file ``$KG_INSTITUTION_ALIASES`` gives). The user's lines win over the shipped ones for the same
variant.

Behind the table stands the organisation registry: a name the table lacks that is exactly one
registry record's name, label or alias (:meth:`Registry.exact`) takes the table's canonical name
of the same record. So two names of one ROR record are one node, and the table holds only what the
registry does not know.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from pathlib import Path

from .. import ONTOLOGY_DIR
from ..errors import InputError
from .keys import institution_key
from .name_keys import name_key
from .registry import Registry
from .registry_table import ShippedRegistry

SHIPPED = ONTOLOGY_DIR / "institution-aliases.tsv"
_user_file: Path | None = None  # set by use_alias_file


class AliasTable:
    """``canonical(key)`` for institution keys and ``parent(canonical)``; built from TSV files and,
    where a ``registry`` is given, the names of its records. Keys are :func:`.keys.institution_key`'s.

    >>> table = AliasTable({"cmu": "Carnegie Mellon University"}, {"CMU Robotics": "Carnegie Mellon University"})
    >>> table.canonical("cmu"), table.canonical("carnegie mellon university"), "zorblax" in table
    ('Carnegie Mellon University', 'Carnegie Mellon University', False)
    """

    def __init__(
        self,
        entries: dict[str, str],
        parents: dict[str, str] | None = None,
        registry: Registry | ShippedRegistry | None = None,
    ):
        self._canonical = dict(entries)
        self._parents = dict(parents or {})
        for name in entries.values():  # a canonical name is a variant of itself
            self._canonical.setdefault(institution_key(name), name)
        self.canonical_keys = frozenset(institution_key(name) for name in entries.values())
        self._registry = registry
        self._from_registry: dict[str, str | None] = {}

    def canonical(self, key: str) -> str | None:
        """The canonical name of an institution key: the table's, else that of the one registry record
        the key is a name of, where the table names that record; None for a name neither knows.

        >>> aliases = active_aliases()
        >>> aliases.canonical(institution_key("CMU")), aliases.canonical(institution_key("Universität Freiburg"))
        ('Carnegie Mellon University', 'University of Freiburg')
        >>> aliases.canonical(institution_key("Zorblax Lab")) is None
        True
        """
        found = self._canonical.get(key)
        if found is None and self._registry is not None:
            if key not in self._from_registry:
                self._from_registry[key] = self._registry_canonical(key)
            found = self._from_registry[key]
        return found

    def _registry_canonical(self, key: str) -> str | None:
        """The table's canonical name of the one record ``key`` is an exact name of. Not the record's own
        name where the table has none: read as known organisations, the registry's names change how
        the parser cuts entries (measured: a wrong id on the gold file, two parser cases broken)."""
        records = self._registry.exact(name_key(key)) if key else []
        if len(records) != 1:
            return None
        return self._record_canonicals.get(records[0].id)

    @cached_property
    def _record_canonicals(self) -> dict[str, str]:
        """ROR id -> the table's canonical name of that record, where exactly one canonical name is its."""
        names: dict[str, set[str]] = {}
        for name in set(self._canonical.values()):
            records = self._registry.exact(name_key(name))
            if len(records) == 1 and records[0].id:
                names.setdefault(records[0].id, set()).add(name)
        return {ident: found.pop() for ident, found in names.items() if len(found) == 1}

    def parent(self, canonical: str) -> str | None:
        """The organisation a lab, brand or division belongs to, as the table says (by canonical name).

        >>> active_aliases().parent("Google DeepMind"), active_aliases().parent("Google")
        ('Google', None)
        """
        return self._parents.get(canonical)

    def __contains__(self, key: str) -> bool:
        return self.canonical(key) is not None

    def __len__(self) -> int:
        return len(self._canonical)


def read_alias_file(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """``variant<TAB>canonical[<TAB>parent][<TAB># why]`` lines -> ({variant key: canonical},
    {canonical: parent}); bad lines name file and line.

    >>> path = getfixture("tmp_path") / "aliases.tsv"  # pytest's doctest namespace

    >>> _ = path.write_text("Zorblax Univ.\\tZorblax University\\nZRL\\tZorblax Research Lab\\tZorblax Inc.\\n")
    >>> entries, parents = read_alias_file(path)
    >>> entries
    {'zorblax university': 'Zorblax University', 'zrl': 'Zorblax Research Lab', 'zorblax': 'Zorblax Inc.'}
    >>> parents
    {'Zorblax Research Lab': 'Zorblax Inc.'}

    >>> _ = path.write_text("Zorblax Univ.\\n")
    >>> read_alias_file(path)
    Traceback (most recent call last):
    ...
    kg.errors.InputError: ...aliases.tsv:1: expected 'variant<TAB>canonical name[<TAB>parent]'
    """
    entries: dict[str, str] = {}
    parents: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the alias table ({exc})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [field.strip() for field in line.partition("\t#")[0].split("\t")]  # "\t# why" ends a line
        if len(fields) not in (2, 3) or not all(fields):
            raise InputError(path, "expected 'variant<TAB>canonical name[<TAB>parent]'", number)
        key = institution_key(fields[0])
        if not key:
            raise InputError(path, f"variant {fields[0]!r} has no letters", number)
        entries[key] = fields[1]
        if len(fields) == 3:
            parents[fields[1]] = fields[2]
            entries.setdefault(institution_key(fields[2]), fields[2])
    return entries, parents


def use_alias_file(path: Path | str | None) -> None:
    """Extend the shipped table by the file at ``path`` from now on; None for the shipped table alone.
    Called once by the command line, before any command runs, with the file its environment names."""
    global _user_file
    _user_file = Path(path) if path else None


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells an edited file from the one read before: its modification time and size."""
    try:
        status = path.stat()
    except OSError:
        return None  # read_alias_file names the file that cannot be read
    return status.st_mtime_ns, status.st_size


@lru_cache(maxsize=8)
def _load(user_file: Path | None, stamp: tuple[int, int] | None = None) -> AliasTable:
    entries, parents = read_alias_file(SHIPPED)
    if user_file:
        user_entries, user_parents = read_alias_file(user_file)
        entries.update(user_entries)
        parents.update(user_parents)
    return AliasTable(entries, parents, ShippedRegistry())


def active_aliases() -> AliasTable:
    """The shipped table, extended by the file :func:`use_alias_file` named (read again when that
    file changes), with the shipped registry behind it.

    >>> aliases = active_aliases()
    >>> aliases is active_aliases(), aliases.canonical(institution_key("Mila - Quebec AI Institute"))
    (True, 'Mila')
    """
    return _load(_user_file, _stamp(_user_file) if _user_file else None)
