"""Python's cyclic garbage collector, paused for work that makes millions of objects and frees few:
a load of a pickled index (kg/cache.py), the read of a network of 200,000 authors (kg/graphs/networks.py);
and kept out of every later collection for what a process keeps until it ends (:func:`kept_for_good`)."""

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


def kept_for_good() -> None:
    """Leave every object made so far out of all later collections (``gc.freeze``): for what a process
    keeps until it ends, such as the organisation registry's indexes (320,000 objects), which each full
    collection went through again (five in the mapping of 10,000 papers: 0.6 s CPU). Cyclic garbage is
    collected first, so that none is kept with them.

    >>> kept_for_good(); gc.get_freeze_count() > 0
    True
    """
    gc.collect()
    gc.freeze()
