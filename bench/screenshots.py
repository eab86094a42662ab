"""Screenshots and measures of the network pages of a synthetic conference, in headless Chromium.

    .venv/bin/python bench/screenshots.py --papers 1000 --out docs/img     # ~2,100 authors

Writes a synthetic corpus (``kg synth``), builds its co-author, institution and country pages in a
temporary folder, opens each in the tests' Chromium driver (networking off, 1280×900) and
prints, per page and at two window sizes (1280×900 and 900×640): file size, load time, nodes,
labels drawn (communities' names included), overlapping label pairs and whether the 50 most prolific
are labelled. With ``--out``, saves ``coauthors-N.png``, ``institutions-N.png`` and ``countries-N.png``
there, reduced to 256 colours (Pillow's ``quantize(256, FASTOCTREE)``,
no dithering: the text stays sharp at a third of the bytes). ``--pages DIR`` measures pages
already built instead (``DIR/coauthors.html``, ``DIR/institutions.html``): before and after a change.
"""

from __future__ import annotations

import base64
import io
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from chromium import Chromium  # noqa: E402  (the tests' stdlib DevTools driver)
from synthetic import KG, corpus_arguments, write_corpus  # noqa: E402

from kg.graphs.labels import overlaps  # noqa: E402

NETWORKS = ("coauthors", "institutions", "countries")
#: A smaller window the pages are measured in too: they fit the network to it and place labels for it.
SMALL_WINDOW = (900, 640)
#: The page's labels and the most prolific nodes, read from the page (drawnLabels: boxes with node ids).
READ_LABELS = """(() => ({
  boxes: (typeof drawnLabels === 'undefined' ? [] : drawnLabels)
    .map(b => [b.left, b.top, b.right, b.bottom, b.id || '']),
  nodes: nodes.length,
  top: nodes.get().sort((a, b) => a.rank - b.rank).slice(0, 50).map(n => n.id),
}))()"""


def measure(browser: Chromium, page: Path, window: tuple[int, int] | None = None) -> dict:
    """What a person sees on ``page``: load time, labels drawn, overlaps, top 50 labelled; with
    ``window``, after the window is resized to it (the page fits the network to it again)."""
    report = browser.open(page, settle=1.0)
    if report.errors or report.requests:
        raise SystemExit(f"{page}: errors {report.errors}, requests {report.requests}")
    if window:  # a new tab each time: the size is set once the page is open
        browser.send(
            "Emulation.setDeviceMetricsOverride", width=window[0], height=window[1], deviceScaleFactor=1, mobile=False
        )
        browser.idle(2.5)  # vis-network checks its container's size every second
    read = browser.evaluate(READ_LABELS)
    drawn = {box[4] for box in read["boxes"]}
    top_labelled = sum(1 for node in read["top"] if node in drawn) if drawn != {""} else None
    return {
        "bytes": page.stat().st_size,
        "load_s": round(report.load_seconds, 2),
        "nodes": read["nodes"],
        "scale": round(browser.evaluate("network.getScale()"), 3),
        "labels": len(read["boxes"]),
        "overlaps": overlaps([tuple(box[:4]) for box in read["boxes"]]),
        "top50_labelled": top_labelled,
    }


def screenshot(browser: Chromium, out: Path) -> None:
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(browser.send("Page.captureScreenshot", format="png")["data"])))
    image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, optimize=True
    )


def build(papers: int, seed: int, folder: Path) -> Path:
    """A synthetic corpus of ``papers`` papers, ingested, and its network pages in ``folder``."""
    env = {"KG_STORE": str(folder / "store"), "PATH": str(KG.parent)}
    corpus = write_corpus(papers, seed, folder / "corpus.txt", env)
    subprocess.run([KG, "ingest", corpus], check=True, env=env, capture_output=True)
    for name in NETWORKS:
        subprocess.run([KG, "graph", name, "--out", folder / f"{name}.html"], check=True, env=env, capture_output=True)
    return folder


def main() -> None:
    parser = corpus_arguments(__doc__.split("\n")[0], papers=1000, seed=1)
    parser.add_argument("--pages", type=Path, help="measure pages already built in this folder")
    parser.add_argument("--out", type=Path, help="folder for the screenshots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-screens-") as scratch:
        folder = args.pages or build(args.papers, args.seed, Path(scratch))
        browser = Chromium()
        try:
            for name in NETWORKS:
                print(name, measure(browser, folder / f"{name}.html"))
                if args.out:
                    screenshot(browser, args.out / f"{name}-{args.papers}.png")
                width, height = SMALL_WINDOW
                print(f"{name} at {width}×{height}", measure(browser, folder / f"{name}.html", SMALL_WINDOW))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
