"""What reading the organisation registry costs a process: CPU seconds and resident memory of
``load_registry()`` with the indexes its first questions make, read from the tables (no cache
folder) and loaded from the cache folder (kg/cache.py), each in fresh processes.

    .venv/bin/python bench/registry_load.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile

ONE_LOAD = """
import resource, sys, time
from kg.cache import use_folder
from kg.cli.settings import cache_folder
from kg.orgs.registry_table import load_registry
use_folder(cache_folder({"KG_CACHE_DIR": sys.argv[1]}))  # as kg takes the folder ("none": kept nowhere)
before = time.process_time()
registry = load_registry()
registry.match("Beihang Uinveristy"), registry.match("ENS", "Ecole Normale Superieure, Paris, France")
print(time.process_time() - before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def one_process(cache: str) -> tuple[float, int]:
    seconds, megabytes = subprocess.run(
        [sys.executable, "-c", ONE_LOAD, cache], capture_output=True, check=True, text=True, timeout=300
    ).stdout.split()
    return float(seconds), int(megabytes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="kg-cache-") as cache:
        one_process(cache)  # the first process builds the entry
        ways = {"read from the tables": "none", "loaded from the cache folder": cache}
        for way, folder in ways.items():
            results = [one_process(folder) for _ in range(runs)]
            seconds = statistics.median(result[0] for result in results)
            peak = statistics.median(result[1] for result in results)
            print(f"{way}: {seconds:.2f} CPU s (median of {runs}), peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
