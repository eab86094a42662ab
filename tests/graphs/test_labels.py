"""Labels a person can read: placed in Python (kg.graphs.labels), drawn by the page in real Chromium.

The conference-scale check runs the commands a user runs on a 2,000-author synthetic corpus:
the 50 most prolific authors' labels are drawn at the default view, no two labels overlap,
and searching a name centres that person.
"""

from __future__ import annotations

import networkx as nx
import pytest
from conftest import kg_here
from structured_sources import realdata

from graphs.test_render import EVERY_NODE_IN_VIEW
from kg.graphs.labels import ALWAYS, CENTRE, CENTRED_RINGS, SPOTS, _spot_box, overlaps, place, scales, text_width
from kg.graphs.networks import network
from kg.graphs.projections import ego_network
from kg.graphs.render import render_html
from kg.graphs.salience import importance_order
from kg.graphs.style import COMMUNITY_NAME_PX
from kg.query.library import find_entity

#: The page's labels as boxes (left, top, right, bottom) with their node ids, and the 50 most prolific nodes.
READ = """(() => ({boxes: drawnLabels.map(b => [b.left, b.top, b.right, b.bottom, b.id]),
  top: nodes.get().sort((a, b) => a.rank - b.rank).slice(0, 50).map(n => n.id)}))()"""
#: Where a node sits on the canvas, and the canvas's centre, after a search.
CENTRED = """(() => { const id = network.getSelectedNodes()[0], p = network.canvasToDOM(network.getPosition(id));
  return {name: nodes.get(id).name, x: p.x, y: p.y,
          cx: container.clientWidth / 2, cy: container.clientHeight / 2}; })()"""


def _grid(count: int) -> dict[str, tuple[float, float]]:
    return {f"n{index:03d}": (index % 20 * 30.0, index // 20 * 30.0) for index in range(count)}


def _boxes(level, positions, sizes, names, fonts, scale) -> list[tuple[float, float, float, float]]:
    """The boxes of one scale's labels, as the page draws them (a centred name's box about its point)."""
    return [
        _spot_box(
            spot,
            *(coordinate * scale for coordinate in positions[node]),
            sizes[node] * scale,
            text_width(names[node], fonts[node], node.startswith("community:")),
            fonts[node] + 4,
        )
        for node, spot in level.items()
    ]


def test_placed_labels_never_overlap_at_any_scale_and_the_most_important_always_show():
    positions = _grid(400)
    order = sorted(positions)
    sizes, fonts = dict.fromkeys(order, 4.0), dict.fromkeys(order, 12)
    names = {node: f"Author number {node}" for node in order}
    # a community's name at the middle of the grid, placed first and only at its point
    positions["community:1"], sizes["community:1"], fonts["community:1"] = (285.0, 285.0), 0.0, 15
    names["community:1"] = "Author number n190, Author number n191, …"
    ladder = scales({node: positions[node] for node in order}, sizes)
    assert ladder.fitted >= 3 and list(ladder.scales) == sorted(ladder.scales)
    levels = place(["community:1", *order], positions, sizes, names, fonts, ladder, frozenset({"community:1"}))
    for level, scale in zip(levels, ladder.scales):
        assert overlaps(_boxes(level, positions, sizes, names, fonts, scale)) == 0, scale
    for level in levels[: ladder.fitted]:  # at every scale a canvas fits the network at
        assert set(order[:ALWAYS]) <= set(level) and level["community:1"] == CENTRE
    assert "community:1" not in levels[-1]  # closer up, people's names only
    # zooming in reveals more labels; at the closest scale nearly all
    counts = [len(level) for level in levels[ladder.fitted - 1 :]]
    assert counts[0] < counts[-1] and counts[-1] >= 0.9 * len(order)
    # labels stay put as one zooms: a label beside its node keeps its side at the next scale where it can
    kept = [node for node in order if node in levels[0] and node in levels[1] and levels[0][node].side < len(SPOTS)]
    assert kept and sum(levels[0][node] == levels[1][node] for node in kept) >= 0.9 * len(kept)


def test_a_persons_network_puts_the_person_then_the_closest_co_authors_first():
    graph = nx.Graph()
    for node, papers in (("ego", 5), ("busy", 40), ("close", 2), ("other", 30)):
        graph.add_node(node, label=node, papers=papers)
    graph.add_edge("ego", "busy", papers=1, weight=1)
    graph.add_edge("ego", "close", papers=4, weight=4)
    graph.add_edge("busy", "other", papers=9, weight=9)
    assert importance_order(ego_network(graph, "ego", 2)) == ["ego", "close", "busy", "other"]
    assert importance_order(graph)[0] == "busy"  # near miss: no focus, the most prolific first


#: Each community name drawn: its box's centre, and where its community's centre is on the canvas.
NAMED = """drawnLabels.filter(b => String(b.id).startsWith('community:')).map(b => {
  const c = clusters.find(c => c.id === b.id), p = network.canvasToDOM({x: c.x, y: c.y});
  return [c.name, (b.left + b.right) / 2, (b.top + b.bottom) / 2, p.x, p.y]; })"""


def _check_labels(browser) -> dict:
    """The 50 most important nodes labelled, no two labels (people's or communities') overlapping,
    every community name at its community's centre; what was read."""
    read = browser.evaluate(READ)
    drawn = {box[4] for box in read["boxes"]}
    assert len(read["top"]) == 50 and set(read["top"]) <= drawn
    assert overlaps([tuple(box[:4]) for box in read["boxes"]]) == 0
    named = browser.evaluate(NAMED)
    # at the centre, or moved aside by at most the rings a centred name may take (labels.CENTRED_RINGS)
    reach = max(CENTRED_RINGS) * (COMMUNITY_NAME_PX + 4)
    assert all(abs(x - cx) <= 1.6 * reach + 1 and abs(y - cy) <= reach + 1 for _, x, y, cx, cy in named)
    assert any(abs(x - cx) < 1 and abs(y - cy) < 1 for _, x, y, cx, cy in named)
    return {"read": read, "named": named}


@pytest.mark.slow
@pytest.mark.browser
def test_at_conference_scale_the_top_50_are_labelled_without_overlap_and_search_centres(tmp_path, browser):
    kg_here("synth", "--papers", "950", "--seed", "3", "--out", "corpus.txt", cwd=tmp_path)
    store = str(tmp_path / "store")
    assert "2,0" in kg_here("ingest", "corpus.txt", "--store", store, cwd=tmp_path).stdout.decode()
    kg_here("graph", "coauthors", "--store", store, "--out", "coauthors.html", cwd=tmp_path)
    report = browser.open(tmp_path / "coauthors.html", settle=1.0)
    assert report.errors == [] and report.requests == []
    large = _check_labels(browser)
    assert len(large["named"]) >= 5  # communities named on the canvas too, not only in the legend
    # a smaller window: the page fits the network to it again and draws the labels placed for that scale
    scale = browser.evaluate("network.getScale()")
    try:
        browser.send("Emulation.setDeviceMetricsOverride", width=900, height=640, deviceScaleFactor=1, mobile=False)
        browser.idle(2.5)  # vis-network checks its container's size every second
        assert browser.evaluate("network.getScale()") < 0.85 * scale
        assert browser.evaluate(EVERY_NODE_IN_VIEW) == []
        _check_labels(browser)
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    browser.idle(2.5)
    # searching a name selects that person and brings them to the middle of the canvas
    wanted = browser.evaluate("nodes.get().sort((a, b) => a.rank - b.rank)[120].name")
    browser.evaluate(f"""(() => {{ const box = document.getElementById('find'); box.value = {wanted!r};
        box.dispatchEvent(new Event('change')); }})()""")
    centred = browser.evaluate(CENTRED)
    assert centred["name"] == wanted
    assert abs(centred["x"] - centred["cx"]) < 2 and abs(centred["y"] - centred["cy"]) < 2
    assert wanted in browser.evaluate("drawnLabels.filter(b => nodes.get(b.id)).map(b => nodes.get(b.id).name)")


@pytest.mark.browser
def test_a_persons_network_shows_everyone_labels_the_closest_co_author_and_the_strongest_ties(
    sample_store, tmp_path, browser
):
    coauthors = network(sample_store, "coauthors")
    person = find_entity(sample_store, "author", "Gerhard Neumann")
    ego = ego_network(coauthors, str(person), 1)
    closest = max(ego[str(person)], key=lambda node: ego[str(person)][node]["papers"])
    page = tmp_path / "ego.html"
    page.write_text(render_html(ego, "Co-authors"), encoding="utf-8")
    report = browser.open(page)
    assert report.errors == [] and report.requests == []
    labelled = {box[4] for box in browser.evaluate(READ)["boxes"]}
    assert {str(person), closest} <= labelled
    assert browser.evaluate(EVERY_NODE_IN_VIEW) == []
    ties = browser.evaluate("edges.get().filter(e => e.label).map(e => [e.from, e.to, e.label])")
    heaviest = max(attrs["papers"] for _, _, attrs in ego.edges(data=True))
    assert ties and all(int(label) > 1 for _, _, label in ties) and str(heaviest) in {label for *_, label in ties}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.realdata
def test_on_a_real_conference_the_top_50_institutions_are_labelled_beside_the_community_names(tmp_path, browser):
    # AISTATS 2025: long names (Korea Advanced Institute of Science and Technology) among long
    # community names; the most important labels go as far out as the rings reach
    listing = realdata("aistats2025.json")
    store = str(tmp_path / "store")
    kg_here("ingest", str(listing), "--store", store, cwd=tmp_path)
    kg_here("graph", "institutions", "--store", store, "--out", "institutions.html", cwd=tmp_path)
    report = browser.open(tmp_path / "institutions.html", settle=1.0)
    assert report.errors == [] and report.requests == []
    assert len(_check_labels(browser)["named"]) >= 5
