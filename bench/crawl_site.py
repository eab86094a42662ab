"""Every link of the site of a synthetic conference resolves: the site's crawl test at a size the tests skip.

    .venv/bin/python bench/crawl_site.py --papers 20000 --work /tmp/kg-crawl     # builds, then crawls
    .venv/bin/python bench/crawl_site.py --exports /tmp/kg-crawl/exports          # crawls a built one

Writes a synthetic corpus (``kg synth``) into ``--work``, builds its graph, network pages and site
there (``kg build --site``, one process), then follows every ``href`` and ``src`` of every page as
``tests/exports/test_site.py`` does on the samples (``tests/site_crawl.py``): each must be a file of
the site or an outside ``http(s)`` page. Prints the build's wall time, the site's pages, files and
bytes, the links followed and the broken ones (the first 20); exits 1 if any is broken.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from site_crawl import crawl  # noqa: E402  (the site test's crawler)
from synthetic import KG, corpus_arguments, write_corpus  # noqa: E402


def build(papers: int, seed: int, work: Path) -> Path:
    """A synthetic corpus of ``papers`` papers in ``work``, built with its site; the exports folder."""
    work.mkdir(parents=True, exist_ok=True)
    corpus, exports = write_corpus(papers, seed, work / "corpus.txt"), work / "exports"
    started = time.monotonic()
    subprocess.run(
        [KG, "build", "--site", "--jobs", "1", "--store", work / "store", "--out", exports, corpus], check=True
    )
    print(f"kg build --site: {time.monotonic() - started:.0f} s wall")
    return exports


def main() -> None:
    parser = corpus_arguments(__doc__.split("\n")[0], papers=20000, seed=3)
    parser.add_argument("--work", type=Path, help="folder for the corpus, its store and its exports")
    parser.add_argument("--exports", type=Path, help="crawl this exports folder (network pages and site/) as it is")
    args = parser.parse_args()
    if not (args.exports or args.work):
        parser.error("give --work (to build) or --exports (to crawl a built one)")
    exports = args.exports or build(args.papers, args.seed, args.work)
    files = [path for path in exports.rglob("*") if path.is_file()]
    print(f"{exports}: {len(files):,} files, {sum(path.stat().st_size for path in files) / 1e6:,.1f} MB")
    started = time.monotonic()
    found = crawl(exports)
    print(
        f"crawl: {found.pages:,} pages, {found.internal + found.external:,} links followed "
        f"({found.internal:,} to files of the site, {found.external:,} outside), "
        f"{len(found.broken):,} broken, {time.monotonic() - started:.1f} s"
    )
    for line in found.broken[:20]:
        print("  broken:", line)
    sys.exit(1 if found.broken else 0)


if __name__ == "__main__":
    main()
