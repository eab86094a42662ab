"""The rows the resolution step counts, taken from each record's statements as they are mapped.

The resolution step (:mod:`kg.resolve.store_step`) chooses people's display names and counts
co-authors and institutions over the whole store. Reading those facts back out of the store decodes
every term again; the mapping has them in hand. So each record's statements leave, beside their
N-Triples lines, a few text lines of what is counted (:func:`side_lines`), in the form the
resolution step reads from the store for the sources it did not stage (``kg.resolve.aggregates``,
``kg.resolve.written_forms``):

- a **fact** line ``F<TAB>subject<TAB>kind<TAB>value`` for each listed institution, topic, track,
  presentation, creator and authorship of a paper, and each affiliation of one of its authorships;
- a **form** line ``N<TAB>person<TAB>language<TAB>name as written (JSON)<TAB>authorship`` for each
  authorship.

Both are what the statements say, so the graph and its counts cannot disagree.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from ..vocab import DCTERMS, KG, SCHEMA
from .terms import Statement

FACT, FORM = "F\t", "N\t"
# predicate -> the kind of fact a paper's statement with it is
PAPER_FACT_KINDS = {
    SCHEMA.sourceOrganization: "listed",
    DCTERMS.subject: "topic",
    KG.track: KG.track.value,
    KG.presentationType: KG.presentationType.value,
    DCTERMS.creator: "author",
    KG.authorship: "authorship",
}
AFFILIATION = "affiliation"  # an authorship's kg:affiliation, counted for its paper


def fact_line(subject: str, kind: str, value: str) -> str:
    r"""A fact line's fields, tab-separated (without the kind of line).

    >>> fact_line("http://ex/paper/p", "topic", "http://ex/topic/nlp").split("\t")
    ['http://ex/paper/p', 'topic', 'http://ex/topic/nlp\n']
    """
    return f"{subject}\t{kind}\t{value}\n"


def form_line(person: str, language: str, written: str, authorship: str) -> str:
    r"""A form line's fields, the name as written in JSON so that any character fits a field.

    >>> form_line("http://ex/author/ada", "en", 'Ada "the Countess" Lovelace', "http://ex/authorship/p--1").split("\t")
    ['http://ex/author/ada', 'en', '"Ada \\"the Countess\\" Lovelace"', 'http://ex/authorship/p--1\n']
    """
    return f"{person}\t{language}\t{json.dumps(written)}\t{authorship}\n"


# every predicate a side row is made from -> its kind, so that a statement of any other costs one look-up
_KINDS = {**PAPER_FACT_KINDS, KG.affiliation: AFFILIATION, KG.author: "author of", KG.nameAsWritten: "written"}


def side_lines(statements: Iterable[Statement]) -> Iterator[str]:
    r"""The fact and form lines of one record's statements (each line prefixed by its kind).

    >>> from kg.rdf.terms import iri, literal
    >>> paper, authorship, ada = iri("http://ex/paper/p"), iri("http://ex/authorship/p--1"), iri("http://ex/author/ada")
    >>> said = [(paper, KG.authorship, authorship), (authorship, KG.author, ada)]
    >>> for line in side_lines([*said, (authorship, KG.nameAsWritten, literal("Ada Lovelace", "en"))]):
    ...     print(line.split("\t"))
    ['F', 'http://ex/paper/p', 'authorship', 'http://ex/authorship/p--1\n']
    ['N', 'http://ex/author/ada', 'en', '"Ada Lovelace"', 'http://ex/authorship/p--1\n']
    """
    paper_of: dict[str, str] = {}  # authorship -> paper
    author_of: dict[str, str] = {}  # authorship -> person
    for subject, predicate, obj in statements:
        kind = _KINDS.get(predicate)
        if kind is None:
            continue
        if kind == "author of":
            author_of[subject.value] = obj.value
        elif kind == "written":
            if (person := author_of.get(subject.value)) is not None:
                yield FORM + form_line(person, obj.language or "", obj.value, subject.value)
        elif kind == AFFILIATION:
            if (paper := paper_of.get(subject.value)) is not None:
                yield FACT + fact_line(paper, AFFILIATION, obj.value)
        else:
            if kind == "authorship":
                paper_of[obj.value] = subject.value
            yield FACT + fact_line(subject.value, kind, obj.value)
