"""The shipped registry table (``data/registry.tsv.gz``, built by :mod:`kg.orgs.build_registry`)
read into a :class:`.registry.Registry`, with the reviewed patches and supplement."""

from __future__ import annotations

import gzip
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from ..cache import cached
from .keys import distinct_other_order
from .name_keys import DATA_DIR, name_key
from .patches import patched, read_patches, read_supplement
from .records import Record
from .registry import Registry

TABLE_NAME, NOTICE_NAME, PATCHES_NAME = "registry.tsv.gz", "NOTICE", "registry-patches.tsv"
SUPPLEMENT_NAME = "registry-supplement.tsv"
_ORGS_DIR = Path(__file__).resolve().parent
_TEXT_DIR = _ORGS_DIR.parent / "text"
TABLE_COLUMNS = (
    "id",
    "name",
    "country",
    "city",
    "types",
    "parents",
    "domains",
    "status",
    "keys",
    "branch_keys",
    "acronyms",
)


def _split(value: str, separator: str) -> tuple[str, ...]:
    return tuple(value.split(separator)) if value else ()


def read_table(
    path: Path, patches: dict[str, list[tuple[str, str]]] | None = None, supplement: Iterable[Record] = ()
) -> Registry:
    """The table, with ``patches`` applied and the ``supplement``'s organisations whose name it lacks
    (:func:`load_registry` reads the shipped one).

    >>> path = getfixture("tmp_path") / TABLE_NAME  # pytest's doctest namespace

    >>> with gzip.open(path, "wt", encoding="utf-8") as table:
    ...     _ = table.write("# a test table\\n" + "\\t".join(TABLE_COLUMNS) + "\\n")
    ...     _ = table.write("03cve4549\\tTsinghua University\\tCN\\tBeijing\\teducation\\t\\ttsinghua.edu.cn\\t"
    ...                     "active\\ttsinghua university\\t\\tthu\\n")
    >>> registry = read_table(path)
    >>> registry.version, registry.match("THU", "", "mails.tsinghua.edu.cn").record.name
    ('a test table', 'Tsinghua University')
    """
    patches = patches or {}
    records = []
    shared: dict[str, str] = {}  # one object for each repeated country and city (memory)
    type_lists: dict[str, tuple[str, ...]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as table:
        version = table.readline().removeprefix("#").strip()
        if table.readline().rstrip("\n").split("\t") != list(TABLE_COLUMNS):
            raise ValueError(f"{path}:2: expected the columns {', '.join(TABLE_COLUMNS)}")
        for line in table:
            (ident, name, country, city, types, parents, domains, status, keys, branches, acronyms) = line.rstrip(
                "\n"
            ).split("\t")
            record = Record(
                ident,
                name,
                shared.setdefault(country, country),
                shared.setdefault(city, city),
                type_lists.setdefault(types, _split(types, ",")),
                _split(parents, ","),
                _split(domains, ","),
                status == "active",
                _split(keys, "|"),
                _split(branches, "|"),
                _split(acronyms, "|"),
            )
            records.append(_in_own_order(patched(record, patches[ident]) if ident in patches else record))
    known = {key for record in records for key in record.keys}
    records.extend(record for record in supplement if record.keys[0] not in known)  # a full dump has them
    return Registry(records, version)


def _in_own_order(record: Record) -> Record:
    """The record without its names in the other word order of a place whose two orders are two
    institutions: ROR gives the University of Newcastle (Australia) the alias "Newcastle University",
    which is England's, so the two orders would share a record."""
    others = {key: other for key in record.keys if (other := distinct_other_order(key))}
    if not others:
        return record
    own = f"{name_key(record.name)} "
    kept = tuple(key for key in record.keys if key not in others or not own.startswith(f"{others[key]} "))
    return replace(record, keys=kept) if kept != record.keys else record


def registry_version(path: Path | None = None) -> str:
    """The sources the table was built from (its first line), without reading the table.

    >>> registry_version().startswith("ROR ror-v2.jsonl.gz")
    True
    """
    with gzip.open(path or DATA_DIR / TABLE_NAME, "rt", encoding="utf-8") as table:
        return table.readline().removeprefix("#").strip()


def load_registry(path: Path | None = None) -> Registry:
    """The shipped table with the reviewed patches and supplement, read once per process: built with
    all its indexes by the first process (about two seconds) and kept in the cache folder
    (:mod:`kg.cache`), from where the next processes load it (a fifth of that). A table given by
    ``path`` is read again where its file changed meanwhile; the shipped one is package data, which
    changes with the code only.

    >>> load_registry() is load_registry(), load_registry().match("Tsinghua University").record.country
    (True, 'CN')
    """
    if path is None:
        return _shipped_registry()  # no stat: asked once per look-up (ShippedRegistry)
    status = path.stat()
    return _load_registry(path, (status.st_mtime_ns, status.st_size))


@lru_cache(maxsize=1)
def _shipped_registry() -> Registry:
    return _load_registry(DATA_DIR / TABLE_NAME, None)


@lru_cache(maxsize=2)
def _load_registry(table: Path, stamp: tuple[int, int] | None) -> Registry:
    """The registry read from ``table`` as it was at ``stamp`` (its modification time and size)."""
    return cached("registry", built_from(table), lambda: _read_shipped(table).complete())


def _read_shipped(table: Path) -> Registry:
    return read_table(table, read_patches(DATA_DIR / PATCHES_NAME), read_supplement(DATA_DIR / SUPPLEMENT_NAME))


def built_from(table: Path) -> list[Path]:
    """The files a registry read from ``table`` is made of: the table, and the code and data of
    kg/orgs and kg/text (name keys, patches, supplement, word lists), so an edit of any of them
    makes the cached registry afresh.

    >>> files = built_from(DATA_DIR / TABLE_NAME)
    >>> files[0].name, {"registry-patches.tsv", "registry.py", "spellings.tsv", "names.py"} <= {f.name for f in files}
    ('registry.tsv.gz', True)
    """
    files = {
        path
        for folder in (_ORGS_DIR, _TEXT_DIR)
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    return [table, *sorted(files - {table})]


class ShippedRegistry:
    """The shipped table, read on the first question asked of it: a build whose sources name no
    organisation never reads it. Passed in by the pipeline as the alias table is.

    >>> ShippedRegistry().match("Tsinghua Univ.").record.name
    'Tsinghua University'

    """

    def __getattr__(self, name: str):
        return getattr(load_registry(), name)
