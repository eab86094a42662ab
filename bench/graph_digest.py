"""Every quad of every graph after a fixed series of ingests, as one digest per step: the safety net of a change
that must leave the graph byte-identical (the derived and index graphs included, which no export holds).

    .venv/bin/python bench/graph_digest.py WORK [--dump FOLDER]

Each step runs ``kg`` of this checkout in a fresh store under WORK: the bundled samples; a 2,000-paper
synthetic listing, then one more 1,000-paper listing ingested into it; the same 300 papers as a listing and as
paperlists JSON (papers merged across the two files, name-only people moved to identified ones), then the
listing removed. The inputs' modification times are fixed and the description's creation time is left
out, so two runs of the same code print the same lines. Run it before and after a change and compare the
lines (``--dump`` keeps each step's sorted N-Quads, to ``diff`` them).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

KG = str(Path(sys.executable).with_name("kg"))
MODIFIED = 1_700_000_000  # every input's modification time, which the graph states (dcterms:modified)


def synth(work: Path, papers: int, seed: int, fmt: str = "listing") -> Path:
    path = work / f"synth-{papers}-{seed}.{'json' if fmt == 'paperlists' else 'txt'}"
    if not path.exists():
        subprocess.run(
            [KG, "synth", "--papers", str(papers), "--seed", str(seed), "--format", fmt, "--out", path],
            check=True,
            capture_output=True,
        )
    os.utime(path, (MODIFIED, MODIFIED))
    return path


def samples(work: Path) -> Path:
    from kg import SAMPLES_DIR

    folder = work / "samples"
    if not folder.exists():
        shutil.copytree(SAMPLES_DIR, folder, ignore=shutil.ignore_patterns("__*"))
        for path in folder.iterdir():
            os.utime(path, (MODIFIED, MODIFIED))
    return folder


def dump(store: Path) -> bytes:
    import pyoxigraph as ox

    graph = ox.Store.read_only(str(store))
    lines = sorted(str(quad) + " .\n" for quad in graph)
    return "".join(lines).encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("work", type=Path)
    parser.add_argument("--dump", type=Path)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    listing, more = synth(args.work, 2000, 3), synth(args.work, 1000, 7)
    both = [synth(args.work, 300, 5), synth(args.work, 300, 5, "paperlists")]
    steps = [
        ("samples", "samples", ["ingest", str(samples(args.work))]),
        ("synth-2000", "synth", ["ingest", str(listing)]),
        ("synth-2000+1000", "synth", ["ingest", str(more)]),
        ("listing+json-300", "merges", ["ingest", *map(str, both)]),
        ("json-300-after-remove", "merges", ["remove", both[0].name]),
    ]
    for step, store_name, command in steps:
        store = args.work / f"store-{store_name}"
        if step in ("samples", "synth-2000", "listing+json-300"):
            subprocess.run(["rm", "-rf", str(store)], check=True)
        subprocess.run([KG, *command, "--store", str(store)], check=True, capture_output=True)
        quads = b"".join(line for line in dump(store).splitlines(True) if b"/dc/terms/created>" not in line)
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            (args.dump / f"{step}.nq").write_bytes(quads)
        count, digest = quads.count(b"\n"), hashlib.sha256(quads).hexdigest()[:16]
        print(f"{step:<24}{count:>9} quads  {digest}", flush=True)


if __name__ == "__main__":
    main()
