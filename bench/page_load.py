"""How long a capped network page of 20,000 authors takes to open in headless Chromium, beside a small one.

    python bench/page_load.py [--authors 20000] [--baseline 500]

Both pages are the seeded synthetic co-author network of tests/graphs/test_render.py, rendered by
kg/graphs/render.py and opened by the tests' Chromium driver (networking off); the small page,
opened in the same run, is the baseline the ratio is taken against. Exits 1 when the large page
takes longer than ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from chromium import Chromium  # noqa: E402  (the tests' stdlib DevTools driver)
from graphs.test_render import synthetic_network  # noqa: E402

from kg.graphs.render import render_html  # noqa: E402


def load_seconds(browser: Chromium, authors: int, folder: Path) -> tuple[int, float]:
    """The page's size in bytes and the seconds it took to load."""
    page = folder / f"{authors}.html"
    page.write_text(render_html(synthetic_network(authors), "Synthetic network"), encoding="utf-8")
    report = browser.open(page)
    if report.errors or report.requests:
        raise SystemExit(f"{page}: errors {report.errors}, requests {report.requests}")
    return page.stat().st_size, report.load_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors", type=int, default=20_000)
    parser.add_argument("--baseline", type=int, default=500)
    parser.add_argument("--max-seconds", type=float, default=20.0)
    args = parser.parse_args()
    browser = Chromium()
    try:
        with tempfile.TemporaryDirectory() as folder:
            base_bytes, base = load_seconds(browser, args.baseline, Path(folder))
            size, seconds = load_seconds(browser, args.authors, Path(folder))
    finally:
        browser.close()
    print(f"{args.baseline:>7,} authors: {base_bytes:>12,} bytes, loaded in {base:.2f} s")
    print(
        (
            f"{args.authors:>7,} authors: {size:>12,} bytes, loaded in {seconds:.2f} s "
            f"({seconds / base:.1f}× the small page)"
        )
    )
    if seconds > args.max_seconds:
        sys.exit(f"the {args.authors:,}-author page took {seconds:.1f} s (limit {args.max_seconds} s)")


if __name__ == "__main__":
    main()
