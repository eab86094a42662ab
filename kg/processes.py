"""How many processes kg runs at once (``--jobs N``): by default one per core. The mapping of
records uses that many (kg/rdf/staging.py); with more than one, long reads of the store also run
beside each other (kg/stores/beside.py); with one, everything runs in the command's own process,
for a machine short of memory."""

from __future__ import annotations

import os


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def reads_beside(jobs: int | None) -> bool:
    """Whether long reads of the store may run in processes of their own: ``jobs`` (default: the cores) above one."""
    return (jobs or default_jobs()) > 1
