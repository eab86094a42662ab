"""The endpoint's face: `GET /sparql` in a real headless Chromium shows the query page, which runs a
library query offline (nothing fetched but the endpoint) under its Content Security Policy."""

from __future__ import annotations

import http.client
import time

import pytest

pytestmark = [pytest.mark.server, pytest.mark.slow]


@pytest.fixture(scope="module")
def port(served_samples_port):
    return served_samples_port


@pytest.fixture(scope="module")
def chromium(loopback_browser):
    return loopback_browser


def request(port: int, method: str, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.mark.browser
def test_the_query_page_runs_a_library_query_offline(port, chromium):
    url = f"http://127.0.0.1:{port}/sparql"
    report = chromium.open_url(url)
    assert report.errors == [], report.errors
    names = chromium.evaluate("Array.from(document.querySelectorAll('#example option')).map(o => o.textContent)")
    assert any(name.startswith("top-institutions:") for name in names)
    chromium.evaluate("""(() => { const select = document.getElementById('example');
        select.value = String(Array.from(select.options)
          .findIndex(o => o.textContent.startsWith('top-institutions:')) - 1);
        select.dispatchEvent(new Event('change')); document.getElementById('run').click(); })()""")
    page = chromium.evaluate("document.querySelector('#about a').getAttribute('href')")
    assert page == "/query/top-institutions"  # its first page as kg query gives it (kg/query/served.py)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not chromium.evaluate("document.querySelectorAll('#results tr').length"):
        chromium.idle(0.5)
    cells = chromium.evaluate("Array.from(document.querySelectorAll('#results td')).map(td => td.textContent)")
    assert "University of Science and Technology of China" in cells
    links = chromium.evaluate("Array.from(document.querySelectorAll('#results a')).map(a => a.getAttribute('href'))")
    assert links and all(link.startswith("/id/institution/") for link in links)  # 303 to their pages
    sent = [
        event["params"]["request"]["url"]
        for event in chromium.events
        if event.get("method") == "Network.requestWillBeSent"
    ]
    assert sent and all(address.startswith(f"http://127.0.0.1:{port}/") for address in sent)


def test_the_page_is_served_under_its_policy_and_reads_stay_same_site(port):
    status, headers, body = request(port, "GET", "/sparql", {"Accept": "text/html"})
    assert status == 200 and b"<textarea" in body and "'sha256-" in headers["content-security-policy"]
    status, _, index = request(port, "GET", "/index.html")
    assert status == 200 and b'href="sparql"' in index  # the site links the endpoint
    query = "/sparql?query=ASK%7B%7D"
    status, headers, _ = request(port, "GET", query)
    assert status == 200 and "access-control-allow-origin" not in headers  # no CORS unless --cors
    assert request(port, "GET", query, {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"})[0] == 403
    assert request(port, "OPTIONS", "/sparql")[0] == 405
