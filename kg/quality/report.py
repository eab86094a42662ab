"""The data-quality report: what resolution merged, rejected and kept apart, and what is missing.

Every section is read back from the store (the derived ``graph/resolved`` and the notes the
mapping wrote), so the report explains the graph as it is, not a run's memory of it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import combinations

from ..ingest.formats.listing import split_bracketed
from ..orgs.aliases import active_aliases
from ..orgs.canonical_names import why_apart
from ..orgs.institutions import explain_entry
from ..orgs.keys import institution_key
from ..orgs.people import edit_distance
from ..resolve.domain_units import institutions_by_domain
from ..resolve.identity import find_person_merges, read_mentions
from ..stores.embedded import KGStore
from ..text.names import clean
from ..vocab import sparql_prologue
from .identifiers import identifier_report
from .namesakes import likely_several_people

_LOOSE_IGNORED = frozenset("the of at in and for".split())

MERGES = """
SELECT ?canonical (MIN(?label) AS ?title) ?absorbed ?source ?explanation
       (GROUP_CONCAT(DISTINCT ?kind; separator=", ") AS ?evidence) ?score ?margin
WHERE {
  ?merge a kg:PaperMerge ; kg:mergedInto ?canonical ; kg:absorbed ?absorbed ; kg:inGraph ?g ;
         kg:evidence ?kind ; rdfs:comment ?explanation .
  ?g dcterms:title ?source .
  OPTIONAL { ?canonical dcterms:title ?label FILTER(lang(?label) = "en") }
  OPTIONAL { ?merge kg:joinScore ?score ; kg:joinMargin ?margin }
} GROUP BY ?canonical ?absorbed ?source ?explanation ?score ?margin ORDER BY ?canonical ?absorbed
"""
REJECTED = """
SELECT ?record ?entry ?reason WHERE {
  ?note a kg:RejectedInstitutionEntry ; kg:nameAsWritten ?entry ; kg:reason ?reason ; kg:position ?position ;
        prov:wasDerivedFrom ?from .
  ?from kg:line ?line ; prov:wasDerivedFrom/dcterms:title ?file .
  BIND(CONCAT(?file, ":", STR(?line)) AS ?record)
} ORDER BY ?file ?line ?position
"""
WITHOUT_INSTITUTIONS = """
SELECT ?paper ?title ?abstract (GROUP_CONCAT(DISTINCT ?record; separator=" ") AS ?records) WHERE {
  ?paper a schema:ScholarlyArticle ; prov:wasDerivedFrom ?from .
  ?from kg:line ?line ; prov:wasDerivedFrom/dcterms:title ?file .
  BIND(CONCAT(?file, ":", STR(?line)) AS ?record)
  FILTER NOT EXISTS { ?paper schema:sourceOrganization ?any }
  OPTIONAL { ?paper dcterms:title ?title FILTER(lang(?title) = "en") }
  OPTIONAL { ?paper dcterms:abstract ?abstract }
} GROUP BY ?paper ?title ?abstract ORDER BY (MIN(?file)) (MIN(?line)) ?paper
"""
WRITTEN_FORMS = """
SELECT ?person ?name (GROUP_CONCAT(DISTINCT ?alt; separator="\\u0000") AS ?others) WHERE {
  ?person a foaf:Person ; skos:prefLabel ?name ; skos:altLabel ?alt .
} GROUP BY ?person ?name ORDER BY ?name
"""
INSTITUTIONS = """
SELECT ?org ?label WHERE {
  ?org a org:Organization ; skos:prefLabel ?label .
  FILTER(lang(?label) = "en")
  FILTER NOT EXISTS { ?org org:subOrganizationOf ?parent }
} ORDER BY ?org
"""

UNITS_BY_DOMAIN = """
SELECT ?unit ?domain (MIN(?unitLabel) AS ?unitName) (MIN(?parentLabel) AS ?parentName) ?why WHERE {
  ?record a kg:UnitByDomain ; kg:unit ?unit ; kg:parentInstitution ?parent ;
    kg:emailDomain ?domain ; rdfs:comment ?why .
  ?unit skos:prefLabel ?unitLabel . ?parent skos:prefLabel ?parentLabel .
} GROUP BY ?unit ?domain ?why ORDER BY ?unit
"""
UNITS_BY_NAME = """
SELECT ?unit (MIN(?unitLabel) AS ?unitName) (MIN(?parentLabel) AS ?parentName) ?why WHERE {
  ?record a kg:UnitByName ; kg:unit ?unit ; kg:parentInstitution ?parent ; rdfs:comment ?why .
  ?unit skos:prefLabel ?unitLabel . ?parent skos:prefLabel ?parentLabel .
} GROUP BY ?unit ?why ORDER BY ?unit
"""
OTHER_NAMES = """
SELECT ?other (MIN(?otherLabel) AS ?otherName) (MIN(?label) AS ?name) ?why WHERE {
  ?record a kg:SameInstitutionByName ; kg:otherName ?other ; kg:namesInstitution ?institution ; rdfs:comment ?why .
  ?other skos:prefLabel ?otherLabel . ?institution skos:prefLabel ?label .
} GROUP BY ?other ?why ORDER BY ?other
"""
INSTITUTION_FORMS = """
SELECT ?org (MIN(?label) AS ?name) (GROUP_CONCAT(DISTINCT ?raw; separator="\\u0000") AS ?forms) WHERE {
  ?org a org:Organization ; kg:nameAsWritten ?raw .
  FILTER(lang(?raw) = "")
  OPTIONAL { ?org skos:prefLabel ?label FILTER(lang(?label) = "en") }
} GROUP BY ?org HAVING (COUNT(DISTINCT ?raw) > 1) ORDER BY ?org
"""


def _rows(store: KGStore, query: str):
    return store.query(sparql_prologue() + query)


def _text(term) -> str | None:
    return None if term is None else str(term)


def loose_key(name: str) -> str:
    """Words of the institution key in any order, without "of", "the", …: what looks alike."""
    return " ".join(sorted(set(institution_key(name).split()) - _LOOSE_IGNORED))


_MOST_SHARING_A_DOMAIN = 3  # more institutions on one domain than this: a consortium's or a host's, no hint


def lookalike_institutions(labels: dict[str, str], domains: dict[str, set[str]] | None = None) -> list[dict]:
    """Top-level institutions kept apart although their names are alike: the same words in
    another order ("University of Washington" / "Washington University"), or keys one or two
    letters apart, or (``domains``: registrable e-mail domain -> institutions) whose authors
    write from one domain ("Noetic Robotics" / "Noetix Robotics", noetixrobotics.com). Blocked
    by loose key, by the first four letters and by domain, so not every pair is compared."""
    pairs = _alike_by_name(labels)
    for pair, why in _sharing_a_domain(labels, domains or {}):
        pairs.setdefault(pair, why)
    aliases = active_aliases()
    return [
        {
            "first": labels[a],
            "second": labels[b],
            "first_iri": a,
            "second_iri": b,
            "why_alike": why,
            "why_apart": why_apart(labels[a], labels[b], aliases),
        }
        for (a, b), why in sorted(pairs.items())
    ]


def _alike_by_name(labels: dict[str, str]) -> dict[tuple[str, str], str]:
    """Pairs of institutions (IRI, IRI) -> why alike: the same loose key, or keys of ten letters or
    more that begin alike and are one or two letters apart."""
    pairs: dict[tuple[str, str], str] = {}
    by_loose, by_start = defaultdict(list), defaultdict(list)
    for iri, label in sorted(labels.items()):
        by_loose[loose_key(label)].append(iri)
        by_start[institution_key(label)[:4]].append(iri)
    for group in by_loose.values():
        for first, second in combinations(group, 2):
            pairs[(first, second)] = "same words in another order"
    for group in by_start.values():
        for first, second in combinations(group, 2):
            distance = edit_distance(institution_key(labels[first]), institution_key(labels[second]))
            if (first, second) not in pairs and distance <= 2 and len(institution_key(labels[first])) >= 10:
                pairs[(first, second)] = f"names {distance} letter(s) apart"
    return pairs


def _sharing_a_domain(labels: dict[str, str], domains: dict[str, set[str]]) -> Iterator[tuple[tuple[str, str], str]]:
    """Pairs of labelled institutions whose authors write from one e-mail domain that few share."""
    for domain, group in sorted(domains.items()):
        if len(group) <= _MOST_SHARING_A_DOMAIN:
            for first, second in combinations(sorted(iri for iri in group if iri in labels), 2):
                yield (first, second), f"their authors write from one e-mail domain ({domain})"


def institution_merges(store: KGStore) -> list[dict]:
    """Organisations that several written entries ended on, each entry with the rules that took it there."""
    aliases = active_aliases()
    merged = []
    for org, name, forms in _rows(store, INSTITUTION_FORMS):
        written = sorted(str(forms).split("\u0000"))
        merged.append(
            {
                "institution": str(org),
                "name": _text(name),
                "forms": [
                    {"written": form, "how": explain_entry(split_bracketed(form)[0] or form, aliases)}
                    for form in written
                ],
            }
        )
    return merged


def quality_report(store: KGStore) -> dict:
    merges = [
        {
            "paper": str(canonical),
            "title": _text(title),
            "absorbed": str(absorbed),
            "from_source": str(source),
            "evidence": str(evidence).split(", "),
            "why": str(explanation),
            "score": None if score is None else float(score),
            "margin": None if margin is None else float(margin),
        }
        for canonical, title, absorbed, source, explanation, evidence, score, margin in _rows(store, MERGES)
    ]
    rejected = [
        {"record": str(record), "entry": str(entry), "reason": str(reason)}
        for record, entry, reason in _rows(store, REJECTED)
    ]
    without = [
        {"paper": str(paper), "title": _text(title) or _excerpt(_text(abstract)), "records": str(records).split()}
        for paper, title, abstract, records in _rows(store, WITHOUT_INSTITUTIONS)
    ]
    forms = [
        {"author": str(person), "name": str(name), "other_forms": sorted(str(others).split("\u0000"))}
        for person, name, others in _rows(store, WRITTEN_FORMS)
    ]
    labels = {str(org): clean(str(label)) for org, label in _rows(store, INSTITUTIONS)}
    alike = lookalike_institutions(labels, institutions_by_domain(store))
    institutions_merged = institution_merges(store)
    units = [
        {"unit": str(name), "domain": str(domain), "institution": str(parent), "why": str(why)}
        for _, domain, name, parent, why in _rows(store, UNITS_BY_DOMAIN)
    ]
    named_units = [
        {"unit": str(name), "institution": str(parent), "why": str(why)}
        for _, name, parent, why in _rows(store, UNITS_BY_NAME)
    ]
    other_names = [
        {"other_name": str(other), "institution": str(name), "why": str(why)}
        for _, other, name, why in _rows(store, OTHER_NAMES)
    ]
    several = likely_several_people(store)
    _, apart = find_person_merges(read_mentions(store))
    unidentified = [
        {"record_graph": graph, "authorship": authorship, "name": name, "identified_namesakes": candidates}
        for graph, authorship, name, candidates in apart
    ]
    conflicts = identifier_report(store)
    return {
        "counts": {
            "merges": len(merges),
            "rejected_institution_entries": len(rejected),
            "papers_without_institutions": len(without),
            "authors_with_several_written_forms": len(forms),
            "institutions_alike_kept_apart": len(alike),
            "institutions_merged": len(institutions_merged),
            "name_only_authors_with_identified_namesakes": len(unidentified),
            "units_placed_by_domain": len(units),
            "units_placed_by_name": len(named_units),
            "institutions_by_other_name": len(other_names),
            "names_likely_several_people": len(several),
            **{name: len(items) for name, items in conflicts.items()},
        },
        "merges": merges,
        "rejected_institution_entries": rejected,
        "papers_without_institutions": without,
        "authors_with_several_written_forms": forms,
        "institutions_alike_kept_apart": alike,
        "institutions_merged": institutions_merged,
        "units_placed_by_domain": units,
        "units_placed_by_name": named_units,
        "institutions_by_other_name": other_names,
        "name_only_authors_with_identified_namesakes": unidentified,
        "names_likely_several_people": several,
        **conflicts,
    }


def _excerpt(text: str | None, words: int = 10) -> str:
    parts = (text or "").split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
