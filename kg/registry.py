"""One way to register things by name: name -> ``"module:attribute"``, imported on first use.

As rdflib's plugin registry does it: a name costs nothing until it is asked for, and a module
with a registry imports none of what it lists, so no registry is an import cycle. Input formats,
exports, network files and stores each have one.
"""

from __future__ import annotations

import importlib
from typing import Generic, Iterator, TypeVar

from .errors import KgError

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self, kind: str, entries: dict[str, str]):
        self.kind = kind
        self._entries = dict(entries)
        self._loaded: dict[str, T] = {}

    def __getitem__(self, name: str) -> T:
        if name not in self._entries:
            raise KgError(f"unknown {self.kind} {name!r}; choose one of {', '.join(self)}")
        if name not in self._loaded:
            module, _, attribute = self._entries[name].partition(":")
            self._loaded[name] = getattr(importlib.import_module(module), attribute)
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def items(self) -> Iterator[tuple[str, T]]:
        """Every entry, each imported (for what must ask all of them, as format detection does)."""
        return ((name, self[name]) for name in self._entries)
