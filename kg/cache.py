"""Derived data kept on disk between processes: what is slow to build from the files the package
ships (the organisation registry's indexes, :func:`kg.orgs.registry_table.load_registry`) is built
by the first process that needs it, pickled, and loaded by the next ones.

An entry is named by a hash of everything it is built from (the input files, the code that builds
it, the Python version): an edited table or rule builds it afresh. It is written to a temporary
file and renamed into place, so processes that build it at once (pytest-xdist's workers) never
read half a file. The folder is the one :func:`use_folder` names, else ``~/.cache/kg``; None keeps
nothing (every process builds). The command line names it from its environment (``$KG_CACHE_DIR``,
else ``$XDG_CACHE_HOME/kg``; ``KG_CACHE_DIR=none`` keeps nothing: kg/cli/settings.py). A folder that cannot
be made or written, or an entry that cannot be read, costs the time of a build, never an error. A
folder keeps the :data:`KEPT` most recently used entries of a name.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from .collector import collection_paused, kept_for_good

KEPT = 4  # entries of one name: a few checkouts of different code can share a folder without rebuilding
T = TypeVar("T")
_MISSING = object()
_UNSET = object()  # no folder named: the default
_folder: Path | None | object = _UNSET


def use_folder(folder: Path | str | None) -> None:
    """Keep entries in ``folder`` from now on; None keeps nothing. Called once by the command line,
    before any command runs, with the folder its environment names."""
    global _folder
    _folder = Path(folder) if folder is not None else None


def cache_dir() -> Path | None:
    """The folder entries are kept in, None for none.

    >>> before = cache_dir()
    >>> use_folder("/tmp/kg-cache"); cache_dir()
    PosixPath('/tmp/kg-cache')
    >>> use_folder(None); cache_dir() is None
    True
    >>> use_folder(before)
    """
    if _folder is _UNSET:
        return Path.home() / ".cache" / "kg"
    return _folder


def fingerprint(paths: Iterable[Path]) -> str:
    """A hash of the files' names and bytes (in the order given) and of the Python version.

    >>> path = getfixture("tmp_path") / "table.tsv"
    >>> _ = path.write_text("a\\tb\\n"); before = fingerprint([path])
    >>> _ = path.write_text("a\\tc\\n"); before == fingerprint([path])
    False
    """
    digest = hashlib.sha256(sys.version.encode())
    for path in paths:
        digest.update(f"\0{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def cached(name: str, inputs: Iterable[Path], build: Callable[[], T]) -> T:
    """The entry ``name`` built from ``inputs``: loaded when the cache folder has it, else built by
    ``build`` and stored there.

    >>> before = cache_dir(); use_folder(getfixture("tmp_path"))
    >>> cached("squares", [], lambda: [n * n for n in range(4)]), cached("squares", [], lambda: "not built")
    ([0, 1, 4, 9], [0, 1, 4, 9])
    >>> use_folder(before)
    """
    folder = cache_dir()
    if folder is None:
        return build()
    path = folder / f"{name}-{fingerprint(inputs)}.pickle"
    value = _load(path)
    if value is _MISSING:
        value = build()
        _store(folder, path, value)
    kept_for_good()  # an entry is kept until the process ends
    return value


def _load(path: Path):
    """The entry's value, or :data:`_MISSING` where there is none to read."""
    with collection_paused():  # a load makes many objects and frees none
        try:
            with path.open("rb") as file:
                value = pickle.load(file)
            os.utime(path)  # most recently used: what _forget_old keeps
            return value
        except Exception:  # a missing, truncated or foreign file is rebuilt
            return _MISSING


def _store(folder: Path, path: Path, value: object) -> None:
    """Write the entry beside its place and rename it there (atomic); nothing where that fails."""
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.stem}-", suffix=".tmp", delete=False) as file:
            temporary = Path(file.name)
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        return  # a read-only or full disk: the value is built in memory each time
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)  # (gone when renamed)
    _forget_old(folder, path.stem.rsplit("-", 1)[0])


def _forget_old(folder: Path, name: str) -> None:
    """Remove the entries of ``name`` beyond the :data:`KEPT` most recently used."""
    entries = []
    for entry in folder.glob(f"{name}-*.pickle"):
        with contextlib.suppress(OSError):  # another process removed it meanwhile
            entries.append((entry.stat().st_mtime, entry))
    for _, entry in sorted(entries, reverse=True)[KEPT:]:
        with contextlib.suppress(OSError):
            entry.unlink(missing_ok=True)
