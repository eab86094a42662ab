"""Labels a person can read: placed in Python (kg.graphs.labels), drawn by the page in real Chromium.

The conference-scale check runs the commands a user runs on a 2,000-author synthetic corpus:
the 50 most prolific authors' labels are drawn at the default view, no two labels overlap,
and searching a name centres that person.
"""

from __future__ import annotations

import networkx as nx
import pytest
from conftest import run_kg

from graphs.test_render import EVERY_NODE_IN_VIEW
from kg.graphs.labels import SPOTS, ZOOMS, _away, _box, fit_scale, overlaps, place, text_width
from kg.graphs.networks import network
from kg.graphs.projections import ego_network
from kg.graphs.render import render_html
from kg.graphs.salience import importance_order
from kg.query.library import find_entity

#: The page's labels as boxes (left, top, right, bottom) with their node ids, and the 50 most prolific nodes.
READ = """(() => ({boxes: drawnLabels.map(b => [b.left, b.top, b.right, b.bottom, b.id]),
  top: nodes.get().sort((a, b) => a.rank - b.rank).slice(0, 50).map(n => n.id)}))()"""
#: Where a node sits on the canvas, and the canvas's centre, after a search.
CENTRED = """(() => { const id = network.getSelectedNodes()[0], p = network.canvasToDOM(network.getPosition(id));
  return {name: nodes.get(id).name, x: p.x, y: p.y, cx: container.clientWidth / 2, cy: container.clientHeight / 2}; })()"""


def _grid(count: int) -> dict[str, tuple[float, float]]:
    return {f"n{index:03d}": (index % 20 * 30.0, index // 20 * 30.0) for index in range(count)}


def test_placed_labels_never_overlap_at_any_zoom_and_the_most_important_always_show():
    positions = _grid(400)
    order = sorted(positions)
    sizes, fonts = dict.fromkeys(order, 4.0), dict.fromkeys(order, 12)
    names = {node: f"Author number {node}" for node in order}
    labels = place(order, positions, sizes, names, fonts)
    base = fit_scale(positions, sizes)
    for zoom in ZOOMS:
        shown = [node for node in order if node in labels and labels[node].shown(zoom)]
        boxes = []
        for node in shown:
            x, y = (coordinate * base * zoom for coordinate in positions[node])
            width, height, label = text_width(names[node], 12), 16, labels[node]
            boxes.append(
                _box(label.spot, x, y, 4.0 * base * zoom, width, height)
                if label.spot < len(SPOTS)
                else _away(x, y, width, height, label.dx, label.dy)
            )
        assert overlaps(boxes) == 0, zoom
    at_first = [node for node in order if node in labels and labels[node].zoom == ZOOMS[0]]
    assert order[:20] == at_first[:20]  # the most important first, none skipped
    # zooming in reveals more labels; at the closest zoom nearly all (a few that would touch an
    # earlier label whose spot does not grow with the zoom step aside)
    counts = [sum(1 for label in labels.values() if label.shown(zoom)) for zoom in ZOOMS]
    assert counts == sorted(counts) and counts[0] < counts[-1] and counts[-1] >= 0.9 * len(order)


def test_a_persons_network_puts_the_person_then_the_closest_co_authors_first():
    graph = nx.Graph()
    for node, papers in (("ego", 5), ("busy", 40), ("close", 2), ("other", 30)):
        graph.add_node(node, label=node, papers=papers)
    graph.add_edge("ego", "busy", papers=1, weight=1)
    graph.add_edge("ego", "close", papers=4, weight=4)
    graph.add_edge("busy", "other", papers=9, weight=9)
    assert importance_order(ego_network(graph, "ego", 2)) == ["ego", "close", "busy", "other"]
    assert importance_order(graph)[0] == "busy"  # near miss: no focus, the most prolific first


@pytest.mark.slow
@pytest.mark.browser
def test_at_conference_scale_the_top_50_are_labelled_without_overlap_and_search_centres(tmp_path, browser):
    run_kg("synth", "--papers", "950", "--seed", "3", "--out", "corpus.txt", cwd=tmp_path)
    store = str(tmp_path / "store")
    assert "2,0" in run_kg("ingest", "corpus.txt", "--store", store, cwd=tmp_path).stdout.decode()
    run_kg("graph", "coauthors", "--store", store, "--out", "coauthors.html", cwd=tmp_path)
    report = browser.open(tmp_path / "coauthors.html", settle=1.0)
    assert report.errors == [] and report.requests == []
    read = browser.evaluate(READ)
    drawn = {box[4] for box in read["boxes"]}
    assert len(read["top"]) == 50 and set(read["top"]) <= drawn
    assert overlaps([tuple(box[:4]) for box in read["boxes"]]) == 0
    # searching a name selects that person and brings them to the middle of the canvas
    wanted = browser.evaluate("nodes.get().sort((a, b) => a.rank - b.rank)[120].name")
    browser.evaluate(f"""(() => {{ const box = document.getElementById('find'); box.value = {wanted!r};
        box.dispatchEvent(new Event('change')); }})()""")
    centred = browser.evaluate(CENTRED)
    assert centred["name"] == wanted
    assert abs(centred["x"] - centred["cx"]) < 2 and abs(centred["y"] - centred["cy"]) < 2
    assert wanted in {browser.evaluate(f"nodes.get({box[4]!r}).name") for box in browser.evaluate(READ)["boxes"]}


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
