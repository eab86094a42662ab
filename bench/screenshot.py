"""A page as the README shows it: headless Chromium (the tests' driver, networking off), 1280×900 PNG.

    .venv/bin/python bench/screenshot.py exports/coauthors.html docs/img/coauthors.png

The README's images were taken this way, then reduced to a 256-colour palette (Pillow's
``quantize(256, FASTOCTREE)``, no dithering: the text stays sharp at a third of the bytes).
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from chromium import Chromium  # noqa: E402  (the tests' stdlib DevTools driver)


def main(page: Path, out: Path) -> None:
    browser = Chromium()
    try:
        report = browser.open(page, settle=1.5)
        if report.errors or report.requests:
            raise SystemExit(f"{page}: errors {report.errors}, requests {report.requests}")
        out.write_bytes(base64.b64decode(browser.send("Page.captureScreenshot", format="png")["data"]))
    finally:
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
