"""Python's cyclic garbage collector, paused for work that makes millions of objects and frees few:
a load of a pickled index (kg/cache.py), the read of a network of 200,000 authors (kg/graphs/networks.py)."""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection within: for work that makes millions of objects (a load, a network
    of 200,000 authors) and frees few, where the collector's passes over them only cost time (a
    quarter of reading a network). Collection resumes after, if it was on before.

    >>> with collection_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
