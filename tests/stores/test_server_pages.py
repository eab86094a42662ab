"""The site and the endpoint of a real `kg serve` on 127.0.0.1 in a browser: a web page cannot make the
server call a host, and the site's pages work under their content security policy."""

from __future__ import annotations

import html
import json
import urllib.parse

import pytest
from limited_server import federated_queries

pytestmark = pytest.mark.server


def _answers(browser, prefix: str) -> list[tuple[int, str]]:
    """(status, why the page may not read it) of each response to a request the page sent to ``prefix``."""
    sent = {
        event["params"]["requestId"]
        for event in browser.events
        if event.get("method") == "Network.requestWillBeSent" and event["params"]["request"]["url"].startswith(prefix)
    }
    blocked = {
        event["params"]["requestId"]: event["params"].get("blockedReason", "")
        for event in browser.events
        if event.get("method") == "Network.loadingFailed"
    }
    return [
        (event["params"]["statusCode"], blocked.get(event["params"]["requestId"], ""))
        for event in browser.events
        if event.get("method") == "Network.responseReceivedExtraInfo" and event["params"]["requestId"] in sent
    ]


@pytest.mark.browser
def test_a_web_page_cannot_make_the_server_call_a_host(limited_server, listener, loopback_browser, tmp_path):
    """The attack of the report: any page the user opens makes their `kg serve` run SERVICE queries."""
    listener.paths.clear()
    query = federated_queries(listener.url)[0]
    form = urllib.parse.urlencode({"query": query})
    page = tmp_path / "attack.html"
    page.write_text(f"""<!doctype html><title>attack</title>
<img src="{html.escape(limited_server.sparql + "?" + form)}">
<script>fetch({json.dumps(limited_server.sparql)}, {{method: "POST", mode: "no-cors", body: {json.dumps(form)},
  headers: {{"Content-Type": "application/x-www-form-urlencoded"}}}});</script>""")
    report = loopback_browser.open(page, settle=1.5)
    assert sum(url.startswith(limited_server.sparql) for url in report.requests) == 2  # both reached the server ...
    # ... were refused as cross-site before any query ran, and the page may not even read the refusal
    assert _answers(loopback_browser, limited_server.sparql) == [(403, "corp-not-same-origin")] * 2
    assert listener.paths == []
    # A link the user follows to the endpoint is answered, still without federation.
    link = tmp_path / "link.html"
    link.write_text(f'<!doctype html><a id="go" href="{html.escape(limited_server.sparql + "?" + form)}">go</a>')
    loopback_browser.open(link)
    loopback_browser.evaluate("document.getElementById('go').click()")
    loopback_browser.wait_for("Page.loadEventFired")
    assert loopback_browser.evaluate("document.body.innerText").startswith("SPARQL query refused: SERVICE")
    assert listener.paths == []


def page_errors(report) -> list[str]:
    """A page's errors but the browser's own request for /favicon.ico, which the site does not have."""
    errors = list(report.errors)
    for _ in (url for url in report.requests if url.endswith("/favicon.ico")):
        errors.remove("Failed to load resource: the server responded with a status of 404 (File not found)")
    return errors


@pytest.mark.browser
def test_the_sites_pages_work_under_their_content_security_policy(limited_server, loopback_browser):
    base = f"http://127.0.0.1:{limited_server.port}/"
    report = loopback_browser.open_url(base + "index.html")
    assert page_errors(report) == []
    found = loopback_browser.evaluate("""(() => { const box = document.getElementById('find'); box.value = 'neumann';
        box.dispatchEvent(new Event('input'));
        return [...document.querySelectorAll('#results a')].map(a => a.textContent); })()""")
    assert found and found[0] == "Gerhard Neumann"
    for page in ("network/coauthors.html", "author/gerhard-neumann-network.html"):
        report = loopback_browser.open_url(base + page)
        assert page_errors(report) == [] and loopback_browser.evaluate("nodes.get().length") > 0, page
    report = loopback_browser.open_url(base + "author/gerhard-neumann.html")
    assert page_errors(report) == [] and "Gerhard Neumann" in loopback_browser.evaluate("document.body.innerText")
    # Markup that a page might carry or be given runs nothing: the policy has no 'unsafe-inline'.
    (limited_server.site / "injected.html").write_text(
        '<!doctype html><title>clean</title><img src="none.png" onerror="document.title = \'ran\'">'
        '<a id="link" href="javascript:document.title = \'ran\'">x</a>'
    )
    report = loopback_browser.open_url(base + "injected.html")
    loopback_browser.evaluate("document.getElementById('link').click()")
    loopback_browser.idle(0.5)
    assert loopback_browser.evaluate("document.title") == "clean"
    assert any("Content Security Policy" in error for error in report.errors)
