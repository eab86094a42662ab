"""pyoxigraph's query answers as rdflib Results, a SELECT's rows converted only when read.

Both stores answer through here. A SELECT keeps its rows as pyoxigraph terms in ``terms``
(tuples in the order of ``vars``, None where unbound); iterating the Result converts them to
rdflib terms one row at a time, as oxrdflib does. The query runner reads ``terms`` itself, so
that the rows cut by ``-p limit`` are counted, never converted (a term costs microseconds; a
large answer has 10^5 rows of several terms).
"""

from __future__ import annotations

import pyoxigraph as ox
import rdflib
from oxrdflib._converter import from_ox
from rdflib.query import Result


def as_result(
    answer: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples,
    read_now: bool = False,
    rows=lambda solutions: map(tuple, solutions),
) -> Result:
    """``read_now``: every row read here (an answer parsed from bytes, whose faults are reported at once);
    ``rows``: a solution's values in the order of the variables, None where unbound."""
    if isinstance(answer, ox.QueryBoolean):
        result = Result("ASK")
        result.askAnswer = bool(answer)
        return result
    if isinstance(answer, ox.QuerySolutions):
        result = Result("SELECT")
        result.vars = [rdflib.Variable(variable.value) for variable in answer.variables]
        terms = rows(answer)
        result.terms = iter(list(terms)) if read_now else terms
        # unbound values stay in as None, as oxrdflib has them, so a row of unbound values is still a row
        result.bindings = (dict(zip(result.vars, map(from_ox, row))) for row in result.terms)
        return result
    result = Result("CONSTRUCT")
    result.graph = rdflib.Graph()
    result.graph += (from_ox(triple) for triple in answer)
    return result
