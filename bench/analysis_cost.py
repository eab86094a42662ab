"""CPU seconds of the topic and artifact analysis alone, and a digest of what it found.

    .venv/bin/python bench/analysis_cost.py FILE [FILE ...]

The papers of the files (any format `kg ingest` reads) are read first and the spaCy pipeline built; then
their analyses are made in batches of the ingest's size (:data:`kg.rdf.staging.BATCH`), as the mapping
makes them, and only that is timed. The digest covers every analysis (topics with their weights, labels and
sections; artifacts with their kinds and long forms): two checkouts that find the same print the same
digest. CPU time is the process's; the machine may be shared, so the load average is printed beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    from kg.ingest.formats import read_source
    from kg.rdf.staging import BATCH
    from kg.rdf.topic_triples import record_analyses
    from kg.records import PaperRecord

    records = []
    for path in args.files:
        _, read = read_source(path, path.name, None, "utf-8")
        records += [record for record in read if isinstance(record, PaperRecord)]
    record_analyses(records[:1])  # the pipeline is built once per process, before the clock starts
    digest = hashlib.sha256()
    cpu = time.process_time()
    for start in range(0, len(records), BATCH):
        for analysis in record_analyses(records[start : start + BATCH]):
            digest.update(repr(analysis).encode("utf-8"))
    spent = time.process_time() - cpu
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{len(records):,} papers  {spent:.2f} s CPU  digest {digest.hexdigest()[:16]}  load average {load}")


if __name__ == "__main__":
    main()
