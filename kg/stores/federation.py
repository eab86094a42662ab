"""Is a SPARQL query federated? ``SERVICE <iri>`` and ``SERVICE ?var`` make Oxigraph send HTTP requests
to the host the query names, so ``kg serve`` refuses them unless federation was asked for.

The decision is made on rdflib's parse tree of the query, not on its text: a ``SERVICE`` in a
literal, an IRI or a comment is no federation, one written with ``\\u`` escapes is. Only a query
whose text holds the word or an escape is parsed (most hold neither); one that rdflib cannot
parse is then refused too, since nothing shows that the word is not the keyword.
"""

from __future__ import annotations

import re

# The keyword, or a \\u / \\U escape that could spell it.
_MAY_NAME_SERVICE = re.compile(r"service|\\u", re.IGNORECASE)
SERVICE_REFUSAL = (
    "SPARQL query refused: SERVICE (a call to another SPARQL endpoint) is off on this endpoint, "
    "so that no query can make it send requests (kg serve --allow-federation turns it on)"
)


def holds_service(node) -> bool:
    if getattr(node, "name", None) == "ServiceGraphPattern":
        return True
    if isinstance(node, dict):
        return any(holds_service(value) for value in node.values())
    if isinstance(node, (list, tuple)) or type(node).__name__ == "ParseResults":
        return any(holds_service(item) for item in node)
    return False


def federation_refusal(query: str) -> str | None:
    """The refusal message for a query that would call another SPARQL service, else ``None``."""
    if not _MAY_NAME_SERVICE.search(query):
        return None
    from rdflib.plugins.sparql.parser import parseQuery  # imported by the few queries that need it

    try:
        tree = parseQuery(query)
    except Exception as exc:  # noqa: BLE001 - any parse failure leaves the question open: refuse
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return (
            "SPARQL query refused: it may name SERVICE (the word or a \\u escape) and could not be parsed to "
            f"rule a federated call out ({first_line}); this endpoint runs no SERVICE calls "
            "(kg serve --allow-federation)"
        )
    return SERVICE_REFUSAL if holds_service(tree) else None
