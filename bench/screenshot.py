"""A page as the docs show it: headless Chromium (the tests' driver, networking off), 1280×900 PNG.

    .venv/bin/python bench/screenshot.py exports/site/paper/SOME-PAPER.html docs/img/site-paper.png

The page may load its own files (the site's ``site.css``, a network page's scripts): ``file:`` and
``data:`` addresses, nothing else; any other request, a console error or a stylesheet that did not
load stops the script. The PNG is reduced to a 256-colour palette as ``bench/screenshots.py`` does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from chromium import Chromium  # noqa: E402  (the tests' stdlib DevTools driver)
from screenshots import screenshot  # noqa: E402  (the same 256-colour reduction)

#: Addresses a page may load and stay offline: its own files, inline data.
OFFLINE_SCHEMES = ("file", "data")
#: Stylesheets the page links but the browser did not load (``link.sheet`` stays null for those).
UNLOADED_STYLESHEETS = "[...document.querySelectorAll('link[rel=stylesheet]')].filter(l => !l.sheet).map(l => l.href)"


def main(page: Path, out: Path) -> None:
    browser = Chromium()
    try:
        report = browser.open(page, settle=1.5)
        fetched = [url for url in report.requests if urlsplit(url).scheme not in OFFLINE_SCHEMES]
        unloaded = browser.evaluate(UNLOADED_STYLESHEETS)
        if report.errors or fetched or unloaded:
            raise SystemExit(f"{page}: errors {report.errors}, requests {fetched}, stylesheets not loaded {unloaded}")
        screenshot(browser, out)
        print(f"{out}: {out.stat().st_size:,} bytes; {len(report.requests)} local files loaded")
    finally:
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
