"""The environment, read in one place: before any command runs, the command line reads the variables
that configure the packages below it and hands their values down (:func:`configure`), so those
packages take data and read no environment (tests/test_layout.py).

- ``KG_INSTITUTION_ALIASES``: a file extending the shipped institution alias table
  (:func:`kg.orgs.aliases.use_alias_file`);
- ``KG_CACHE_DIR``: the folder the organisation registry's indexes are kept in between processes,
  else ``$XDG_CACHE_HOME/kg``, else ``~/.cache/kg``; ``none`` keeps nothing (:func:`kg.cache.use_folder`).

The store's variables (``KG_STORE``, credentials, timeouts) are read by kg.stores, which is no pure
package; ``KG_DEBUG`` by the entry point.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from ..cache import use_folder
from ..orgs.aliases import use_alias_file

ALIASES_ENV = "KG_INSTITUTION_ALIASES"
CACHE_ENV = "KG_CACHE_DIR"
NO_FOLDER = "none"  # the value of $KG_CACHE_DIR that keeps nothing


def cache_folder(environment: Mapping[str, str]) -> Path | None:
    """The cache folder the environment names, None for none.

    >>> cache_folder({"KG_CACHE_DIR": "/tmp/kg-cache", "XDG_CACHE_HOME": "/tmp/caches"})
    PosixPath('/tmp/kg-cache')
    >>> cache_folder({"XDG_CACHE_HOME": "/tmp/caches"}), cache_folder({"KG_CACHE_DIR": "none"})
    (PosixPath('/tmp/caches/kg'), None)
    """
    if folder := environment.get(CACHE_ENV):
        return None if folder == NO_FOLDER else Path(folder)
    return Path(environment.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg"


def configure(environment: Mapping[str, str] = os.environ) -> None:
    """Hand the environment's settings to the packages that use them; once, before a command runs."""
    use_alias_file(environment.get(ALIASES_ENV) or None)
    use_folder(cache_folder(environment))
