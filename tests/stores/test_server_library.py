"""`kg serve`'s pages of library queries (/query/NAME): a real server on 127.0.0.1 gives the rows, the
count and the next page that `kg query` gives on the same store, a precomputed list's page read from the list."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from conftest import kg_here, mark_first_row, start_serve

from kg.query.library import library, run
from kg.stores.embedded import KGStore

pytestmark = [pytest.mark.server, pytest.mark.slow]

#: (query, parameters): a precomputed list, an entity looked up by name, a page past the first, past the end
CASES = [
    ("sector-share", {}),
    ("country-papers", {"limit": "2", "offset": "1"}),
    ("top-institutions", {"limit": "3"}),
    ("coauthors", {"author": "gerhard neumann", "limit": "4", "offset": "2"}),
    ("institution-papers", {"institution": "KIT", "limit": "5"}),
    ("top-institutions", {"offset": "100000"}),
]
MARK = "marked in the list"


def _mark_the_first_row(store_dir) -> None:
    store = KGStore(str(store_dir))
    try:
        mark_first_row(store, "sector-share", MARK)
    finally:
        store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, store folder) of a `kg serve` over the samples, one list marked; stopped by its process id."""
    folder = tmp_path_factory.mktemp("serve-library")
    kg_here("build", "--store", str(folder / "store"), cwd=folder)
    _mark_the_first_row(folder / "store")
    process, port = start_serve(folder, "--store", str(folder / "store"), "--site", str(folder / "site"))
    yield f"http://127.0.0.1:{port}", folder / "store"
    process.terminate()
    process.wait(timeout=30)


def get(url: str, accept: str = "application/sparql-results+json") -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _values(binding: dict, variables: list[str]) -> tuple:
    return tuple(binding[name]["value"] if name in binding else None for name in variables)


@pytest.mark.parametrize(("name", "values"), CASES, ids=[f"{name}-{len(values)}" for name, values in CASES])
def test_a_page_is_kg_querys_page(served, name, values):
    base, store_dir = served
    status, headers, body = get(f"{base}/query/{name}?{urllib.parse.urlencode(values)}")
    assert status == 200, body
    store = KGStore(str(store_dir), read_only=True)
    expected = run(store, library()[name], values)
    assert expected.rows or int(values.get("offset", 0)) >= expected.total  # a case that shows rows shows some
    document = json.loads(body)
    variables = document["head"]["vars"]
    assert variables == expected.variables
    rows = [_values(binding, variables) for binding in document["results"]["bindings"]]
    assert rows == [tuple(None if term is None else str(term) for term in row) for row in expected.rows]
    assert headers["X-KG-Total"] == str(expected.total) and document["page"]["total"] == expected.total
    last = expected.offset + len(expected.rows)
    if expected.total > last:
        assert headers["Link"] == (
            f'</query/{name}?{urllib.parse.urlencode(sorted({**values, "offset": str(last)}.items()))}>; rel="next"'
        )
    else:
        assert "Link" not in headers


def test_a_precomputed_page_is_read_from_its_list(served):
    base, _ = served
    status, _, body = get(f"{base}/query/sector-share")
    assert status == 200
    first = json.loads(body)["results"]["bindings"][0]
    assert MARK in [value["value"] for value in first.values()]


def test_csv_and_a_note_on_the_default_entity(served):
    base, _ = served
    status, headers, body = get(f"{base}/query/top-institutions?limit=2", "text/csv")
    assert status == 200 and headers["Content-Type"] == "text/csv" and len(body.decode().split("\r\n")) == 4
    status, _, body = get(f"{base}/query/topic-papers?limit=1")
    assert status == 200 and "with the most papers" in json.loads(body)["page"]["notes"][0]


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/query/no-such-query", 404, "no query named"),
        ("/query/top-institutions?limit=0", 400, "too small"),
        ("/query/top-institutions?colour=red", 400, "has no parameter colour"),
        ("/query/top-institutions?limit=1&limit=2", 400, "limit repeated"),
        ("/query/coauthors", 400, "needs -p author"),
    ],
)
def test_refusals_say_why(served, path, status, says):
    base, _ = served
    got, _, body = get(base + path)
    assert got == status and says in body.decode()
