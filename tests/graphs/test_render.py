"""The network pages in a real headless Chromium with networking off: one test per pyvis pitfall."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest
from conftest import kg_here

from kg.graphs.metrics import communities
from kg.graphs.render import COMMUNITY_CAP, NODE_CAP, render_html, write_html
from kg.vocab import sparql_prologue

HOSTILE_LISTING = """ICML

Evil <script>window.__pwned = 1</script> Paper <img src=x onerror="window.__pwned=2"> href

关于页面安全性的一篇邪恶论文

Mallory (<Img Src=X Onerror=Function("window.__pwned=3")()>), Alice Example, \
Bob (<Script>Function("window.__pwned=5")()</Script>)

机构 * Evil <img src=x onerror="window.__pwned=4"> Institute（邪恶研究所） ； Good University 纠错

Comments ICML 2026
"""


@pytest.fixture(scope="module")
def sample_pages(built_samples) -> Path:
    """`kg build` on the samples, run in a fresh folder: exports/ holds the pages."""
    return built_samples


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.links += [value or "" for name, value in attrs if name in ("src", "href")]


def test_offline_no_remote_links_no_lib_folder_no_requests(sample_pages, browser):
    for name in ("coauthors", "institutions"):
        page = sample_pages / "exports" / f"{name}.html"
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not [link for link in parser.links if re.match(r"\s*(https?:)?//", link, re.I)]
        report = browser.open(page)
        assert report.errors == [] and report.requests == [] and report.dialogs == []
    # no lib/ beside it: what kg build wrote (build.out is what it printed, kept by the fixture)
    assert sorted(path.name for path in sample_pages.iterdir()) == ["build.out", "exports", "store"]


def test_pages_draw_every_author_and_institution(sample_pages, browser, sample_store):
    browser.open(sample_pages / "exports" / "coauthors.html")
    assert browser.evaluate("nodes.length") == 135
    assert browser.evaluate("network.body.nodeIndices.length") == 135
    neumann, freymuth = (f"https://kg.example.org/id/author/{name}" for name in ("gerhard-neumann", "niklas-freymuth"))
    weights = browser.evaluate(
        (
            f"edges.get().filter(e => [e.from, e.to].sort().join() === "
            f"{sorted([freymuth, neumann])!r}.join()).map(e => e.value)"
        )
    )
    assert weights == [2]
    browser.open(sample_pages / "exports" / "institutions.html")
    labels = browser.evaluate("nodes.get().map(n => n.name)")
    listed = sample_store.scalar(
        sparql_prologue() + "SELECT (COUNT(DISTINCT ?o) AS ?n) { ?paper schema:sourceOrganization ?o }"
    )
    assert len(labels) == listed and "University of Science and Technology of China" in labels


def test_hostile_listing_runs_nothing(tmp_path, browser):
    """Titles, names and institutions with script and onerror: escaped in the heading, legend, tooltips."""
    (tmp_path / "evil.txt").write_text(HOSTILE_LISTING, encoding="utf-8")
    kg_here("build", "--store", str(tmp_path / "store"), "evil.txt", cwd=tmp_path)
    kg_here(
        "graph",
        "coauthors",
        "--author",
        'Mallory (<Img Src=X Onerror=Function("window.__pwned=3")()>)',
        "--store",
        str(tmp_path / "store"),
        "--out",
        "ego.html",
        cwd=tmp_path,
    )
    for page in (
        tmp_path / "ego.html",
        tmp_path / "exports" / "coauthors.html",
        tmp_path / "exports" / "institutions.html",
    ):
        html = page.read_text(encoding="utf-8")
        assert "<Img Src=X" not in html and "<script>window" not in html and "<img src=x" not in html
        report = browser.open(page)
        assert report.errors == [] and report.requests == [] and report.dialogs == []
        assert browser.evaluate("typeof window.__pwned") == "undefined"
    browser.open(tmp_path / "ego.html")
    assert browser.evaluate("document.querySelector('h1').textContent").startswith(
        "Co-author network around Mallory (<Img"
    )
    # Hover the node whose name carries the payload: the tooltip shows the markup as text
    # (innerText: line breaks become <br>, nothing else becomes an element).
    x, y = browser.evaluate("""(() => { const id = nodes.get().find(n => n.name.startsWith('Mallory')).id;
        const p = network.canvasToDOM(network.getPositions([id])[id]);
        const box = document.getElementById('network').getBoundingClientRect();
        return [p.x + box.left, p.y + box.top]; })()""")
    browser.hover(x, y)
    browser.idle(0.6)
    tooltip = browser.evaluate("""(() => { const t = document.querySelector('.vis-tooltip');
        return [t.style.visibility, t.textContent, t.querySelectorAll(':not(br)').length]; })()""")
    assert tooltip[0] == "visible" and "<img src=x onerror=" in tooltip[1] and tooltip[2] == 0
    assert browser.evaluate("typeof window.__pwned") == "undefined"


def find(browser, text: str) -> list[str]:
    """Type ``text`` into the page's search box as a user would (input, then change): the selected nodes."""
    browser.evaluate(f"""(() => {{ const box = document.getElementById('find'); box.value = {text!r};
        box.dispatchEvent(new Event('input')); box.dispatchEvent(new Event('change')); }})()""")
    return browser.evaluate("network.getSelectedNodes()")


def test_fast_positions_fixed_physics_off_and_search_finds_an_author(sample_pages, browser):
    browser.open(sample_pages / "exports" / "coauthors.html")
    assert browser.evaluate("network.physics.options.enabled") is False
    assert browser.evaluate("nodes.get().every(n => Number.isInteger(n.x) && Number.isInteger(n.y))")
    assert find(browser, "gerhard neumann") == [A + "gerhard-neumann"]
    legend = browser.evaluate("document.getElementById('legend').textContent")
    assert "15 authors: Gerhard Neumann, Niklas Freymuth" in legend


A = "https://kg.example.org/id/author/"
INSTITUTION = "https://kg.example.org/id/institution/"


@pytest.mark.parametrize(
    "typed, found",
    [
        ("neumann", [A + "gerhard-neumann"]),  # one word of the name, lower case
        ("Neumann Gerhard", [A + "gerhard-neumann"]),  # word order
        ("balazs gyenes", [A + "balazs-gyenes"]),  # accents
        ("Balazs-Gyenes", [A + "balazs-gyenes"]),  # hyphens
        ("GERHARD NEUMANN", [A + "gerhard-neumann"]),  # case
    ],
)
def test_search_finds_authors_as_the_cli_does(sample_pages, browser, typed, found):
    browser.open(sample_pages / "exports" / "coauthors.html")
    assert find(browser, typed) == found
    assert browser.evaluate("document.getElementById('found').textContent") == ""


@pytest.mark.parametrize("typed", ["USTC", "ustc", "中国科学技术大学", "University of Science and Technology of China"])
def test_search_finds_institutions_by_acronym_and_chinese_name(sample_pages, browser, typed):
    browser.open(sample_pages / "exports" / "institutions.html")
    assert find(browser, typed) == [INSTITUTION + "university-of-science-and-technology-of-china"]


def test_search_suggests_while_typing_and_a_miss_clears_the_old_highlight(sample_pages, browser):
    browser.open(sample_pages / "exports" / "coauthors.html")
    browser.evaluate("""(() => { const box = document.getElementById('find'); box.value = 'neum';
        box.dispatchEvent(new Event('input')); })()""")
    assert "Gerhard Neumann" in browser.evaluate(
        "[...document.querySelectorAll('#suggestions li')].map(li => li.textContent)"
    )
    assert find(browser, "neumann") == [A + "gerhard-neumann"]
    assert find(browser, "no such person anywhere") == []  # the near miss lights nothing
    assert browser.evaluate("document.getElementById('found').textContent") == "not on this page"


def overlapping(boxes: list[dict]) -> list[tuple[dict, dict]]:
    return [
        (a, b)
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
    ]


@pytest.mark.parametrize("name", ["coauthors", "institutions", "topics"])
def test_drawn_labels_never_overlap_and_zooming_in_shows_more(sample_pages, browser, name):
    browser.open(sample_pages / "exports" / f"{name}.html")
    drawn = browser.evaluate("drawnLabels")
    assert len(drawn) >= 10 and overlapping(drawn) == []
    total = browser.evaluate("nodes.length")
    browser.evaluate("network.moveTo({scale: network.getScale() * 3}); network.redraw()")
    browser.idle(0.2)
    zoomed = browser.evaluate("drawnLabels")
    assert overlapping(zoomed) == [] and len(zoomed) <= total
    # back at the default view (fitted, with room for the labels at the edges), the same labels
    browser.evaluate("network.fit(); network.moveTo({scale: fitted}); network.redraw()")
    browser.idle(0.2)
    assert len(browser.evaluate("drawnLabels")) == len(drawn)


def test_tooltip_of_the_rightmost_node_stays_on_screen(sample_pages, browser):
    browser.open(sample_pages / "exports" / "institutions.html")
    x, y = browser.evaluate("""(() => { const ps = network.getPositions();
        const id = Object.keys(ps).sort((a, b) => ps[b].x - ps[a].x)[0];
        const p = network.canvasToDOM(ps[id]); const box = container.getBoundingClientRect();
        return [p.x + box.left, p.y + box.top]; })()""")
    browser.hover(x, y)
    browser.idle(0.8)
    right, visible = browser.evaluate("""(() => { const t = document.querySelector('.vis-tooltip');
        return [t.getBoundingClientRect().right, t.style.visibility]; })()""")
    assert visible == "visible" and right <= browser.evaluate("window.innerWidth")


def test_every_node_is_in_its_community_colour_and_pages_count_as_stats(sample_pages, browser, tmp_path):
    browser.open(sample_pages / "exports" / "coauthors.html")
    colours = browser.evaluate("""(() => { const by = {}; nodes.get().forEach(n => {
        (by[n.community] = by[n.community] || new Set()).add(n.color); });
        return Object.values(by).map(s => s.size); })()""")
    assert set(colours) == {1}  # one colour per community
    multi = browser.evaluate("new Set(nodes.get().filter(n => n.color !== '#B0B0B0').map(n => n.community)).size")
    summary = browser.evaluate("document.querySelector('header p').textContent")
    stats = kg_here("graph", "stats", "--store", str(sample_pages / "store"), cwd=tmp_path).stdout.decode()
    phrase = re.search(r"communities: (.*\))", stats).group(1)
    assert phrase in summary and f"({multi} with two or more members" in phrase


@pytest.mark.slow
def test_pages_are_utf8_and_byte_identical_for_the_same_input(sample_pages, tmp_path):
    kg_here("build", "--store", "memory", cwd=tmp_path)
    for name in ("coauthors.html", "institutions.html"):
        first, second = (folder / "exports" / name for folder in (sample_pages, tmp_path))
        assert first.read_bytes() == second.read_bytes()
    raw = (tmp_path / "exports" / "coauthors.html").read_bytes()
    assert "Balázs Gyenes".encode("utf-8") in raw and b'<meta charset="utf-8">' in raw


def synthetic_network(authors: int, seed: int = 7) -> nx.Graph:
    """A seeded co-author-like network: papers of 2-6 authors drawn with preferential attachment."""
    rng = random.Random(seed)
    graph = nx.Graph()
    for index in range(authors):
        graph.add_node(f"a{index:05d}", label=f"Author {index:05d}", papers=0, titles=(), affiliations=())
    names = list(graph)
    pool = names[:10]
    for _ in range(int(authors * 0.7)):
        team = set(rng.sample(pool, 2)) | set(rng.sample(names, rng.randint(0, 4)))
        for member in team:
            graph.nodes[member]["papers"] += 1
        for a, b in nx.complete_graph(sorted(team)).edges:
            if graph.has_edge(a, b):
                graph.edges[a, b]["weight"] += 1
                graph.edges[a, b]["papers"] += 1
            else:
                graph.add_edge(a, b, weight=1, papers=1, fractional=0.0)
        pool.extend(team)
    return graph


def test_twenty_thousand_authors_render_a_capped_page_that_opens(tmp_path, browser):
    graph = synthetic_network(20_000)
    page = tmp_path / "big.html"
    page.write_text(render_html(graph, "Synthetic network"), encoding="utf-8")
    report = browser.open(page)
    assert report.errors == [] and report.requests == []
    assert browser.evaluate("network.body.nodeIndices.length") == NODE_CAP
    omitted = browser.evaluate("document.getElementById('omitted').textContent")
    assert f"{20_000 - NODE_CAP:,} authors" in omitted  # how long it takes to open: bench/page_load.py


def test_the_browser_harness_sees_requests_errors_and_dialogs(tmp_path, browser):
    """The checks above can fail: a page that fetches, logs an error, throws and alerts is caught."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<img src="http://example.com/x.png"><script>console.error("boom"); alert("hi"); missing()</script>'
    )
    report = browser.open(page)
    assert report.requests == ["http://example.com/x.png"] and report.dialogs == ["hi"]
    assert any("boom" in error for error in report.errors) and any("missing" in error for error in report.errors)


def test_a_large_network_is_drawn_person_by_person_with_a_page_per_community(tmp_path, browser):
    graph = synthetic_network(3_000)
    heard: list[int] = []
    written = write_html(graph, tmp_path / "big.html", "Synthetic network", on_progress=heard.append)
    assert heard == list(range(1, len(written)))  # each community page as it is written
    report = browser.open(tmp_path / "big.html")
    assert report.errors == [] and report.requests == []
    assert browser.evaluate("nodes.length") == len(graph)
    # only each node's strongest ties are drawn, so that the density reads
    assert 0 < browser.evaluate("edges.length") < graph.number_of_edges()
    groups = [group for group in communities(graph) if len(group) > 1]
    assert len(written) == min(len(groups), COMMUNITY_CAP) + 1
    # the legend names each community by its most central members, in its members' colour, linked to its page
    legend = browser.evaluate("""[...document.querySelectorAll('#legend li')].map(li => [li.textContent.trim(),
        li.querySelector('span') ? li.querySelector('span').style.background : '',
        li.querySelector('a') ? li.querySelector('a').getAttribute('href') : null])""")
    colours = browser.evaluate("Object.fromEntries(nodes.get().map(n => [n.id, n.color]))")
    for index, (text, swatch, href) in enumerate(legend[:3]):
        assert text.startswith(f"{len(groups[index]):,} authors: ") and href == f"big-communities/{index + 1}.html"
        assert swatch.replace(" ", "") == _rgb(colours[min(groups[index])])
    assert overlapping(browser.evaluate("drawnLabels")) == []
    # a community's own page: just its members, every one in view
    report = browser.open(tmp_path / legend[0][2])
    assert report.errors == [] and report.requests and all(url.startswith(tmp_path.as_uri()) for url in report.requests)
    assert browser.evaluate("nodes.length") == len(groups[0])
    assert overlapping(browser.evaluate("drawnLabels")) == []
    assert browser.evaluate(EVERY_NODE_IN_VIEW) == []


#: The nodes whose disc is not wholly inside the canvas.
EVERY_NODE_IN_VIEW = """(() => { const w = container.clientWidth, h = container.clientHeight;
  return nodes.get().filter(n => { const p = network.canvasToDOM(network.getPosition(n.id)),
      r = n.size * network.getScale();
    return p.x - r < 0 || p.y - r < 0 || p.x + r > w || p.y + r > h; }).map(n => n.name); })()"""


def _rgb(hex_colour: str) -> str:
    """#RRGGBB as the browser reports a style colour (rgb(r,g,b))."""
    return "rgb(" + ",".join(str(int(hex_colour[i : i + 2], 16)) for i in (1, 3, 5)) + ")"


def test_overlay_colours_nodes_by_the_mean_year_of_their_papers(tmp_path, browser, sample_pages):
    graph = synthetic_network(300)
    for index, node in enumerate(sorted(graph)):
        graph.nodes[node]["year"] = 2015 + index % 10
    page = tmp_path / "years.html"
    page.write_text(render_html(graph, "Years"), encoding="utf-8")
    browser.open(page)
    before = browser.evaluate("nodes.get().map(n => n.color)")
    browser.evaluate(
        (
            "(() => { const s = document.getElementById('colouring'); s.value = 'year'; "
            "s.dispatchEvent(new Event('change')); })()"
        )
    )
    by_year = browser.evaluate("Object.fromEntries(nodes.get().map(n => [n.year, n.color]))")
    assert len(set(by_year.values())) == 10 and browser.evaluate("nodes.get().map(n => n.color)") != before
    assert browser.evaluate("document.getElementById('ramp').hidden") is False
    # near miss: the samples are all from one year, so there is nothing to overlay
    browser.open(sample_pages / "exports" / "coauthors.html")
    assert browser.evaluate("document.getElementById('colouring')") is None
