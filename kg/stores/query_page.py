"""The endpoint's face: the page ``kg serve`` shows for ``GET /sparql`` without a query (and for ``/``
when there is no site). An editor, the query library as examples, results as a table whose graph
IRIs link to their pages; everything in the one page (nothing fetched but the endpoint itself), its
scripts allowed by hash under the page's Content Security Policy (kg/stores/page_policy.py).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from .page_policy import page_policy

_PAGE = Path(__file__).with_name("query_page.html")


def query_page(examples: list[dict], base: str | None) -> tuple[bytes, str]:
    """The page, with ``examples`` (name, title, description, sparql) in it as JSON data, and its policy."""
    data = json.dumps(examples, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    block = f'<script type="application/json" id="examples" data-base="{html.escape(base or "")}">{data}</script>'
    page = _PAGE.read_text(encoding="utf-8").replace("<!--EXAMPLES-->", block).encode("utf-8")
    return page, page_policy(page)
