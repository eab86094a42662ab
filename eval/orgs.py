"""Precision and coverage of the organisation registry match.

    python -m eval.orgs            # the gold file, and the development data when present
    KG_REALDATA=/elsewhere python -m eval.orgs

1. ``eval/orgs_gold.tsv``: affiliation strings (one organisation's affiliation each, as a structured
   source gives it, with the author's e-mail domain) and the ROR ids that are right for them, read
   by hand against the ROR records. Precision: the ids found that are right, of all ids found;
   coverage: the strings with a right id among those the registry has an id for.
2. The development data (``*.json`` in ``../shared/realdata``), each built as ``kg build`` builds it
   and read back from the graph: the share of author-affiliation occurrences (an authorship with a
   stated affiliation) whose organisation, or the institution it is a unit of, has a registry id
   (``owl:sameAs``), and a country; and the nodes with two registry records (names that name two
   organisations).

A gold string goes the way the mapping takes it: the institution parser's chains
(:func:`kg.orgs.institutions.resolve_entries`, with the alias table), then
:func:`kg.orgs.identify.identify_chain` on each chain.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from kg.orgs.aliases import AliasTable, active_aliases
from kg.orgs.identify import Identified, identify_chain
from kg.orgs.institutions import resolve_entries
from kg.orgs.registry import Registry
from kg.orgs.registry_table import load_registry
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

from .realdata import realdata_dir

GOLD = Path(__file__).with_name("orgs_gold.tsv")
NONE = "-"


@dataclass(frozen=True)
class GoldRow:
    line: int
    affiliation: str
    domain: str | None
    expected: frozenset[str]


def read_gold(path: Path = GOLD) -> list[GoldRow]:
    """``affiliation<TAB>domain<TAB>ids<TAB>note`` (ids space-separated, "-" for none); # comments."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise SystemExit(f"{path}:{number}: expected 'affiliation<TAB>domain<TAB>ids<TAB>note'")
        affiliation, domain, ids, _note = fields
        rows.append(
            GoldRow(number, affiliation, domain or None, frozenset() if ids == NONE else frozenset(ids.split()))
        )
    return rows


def identified(
    affiliation: str, domain: str | None, registry: Registry, aliases: AliasTable
) -> list[tuple[Identified, ...]]:
    return [
        identify_chain(chain.levels, affiliation, domain, registry)
        for chain in resolve_entries(affiliation, None, aliases)
    ]


def found_ids(chains: list[tuple[Identified, ...]]) -> set[str]:
    return {level.match.record.id for chain in chains for level in chain if level.match and level.match.record.id}


def score_gold(rows: list[GoldRow], registry: Registry, aliases: AliasTable, verbose: bool = False) -> dict:
    right = wrong = covered = wanted = 0
    for row in rows:
        ids = found_ids(identified(row.affiliation, row.domain, registry, aliases))
        bad = ids - row.expected
        right += len(ids & row.expected)
        wrong += len(bad)
        wanted += bool(row.expected)
        covered += bool(ids & row.expected)
        if verbose and (bad or row.expected and not ids & row.expected):
            print(
                f"  {GOLD.name}:{row.line}: {row.affiliation!r} ({row.domain}) found {sorted(ids)} "
                f"expected {sorted(row.expected) or NONE}"
            )
    return {
        "strings": len(rows),
        "ids found": right + wrong,
        "precision": _share(right, right + wrong),
        "coverage": _share(covered, wanted),
    }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


OCCURRENCES = """PREFIX owl: <http://www.w3.org/2002/07/owl#>
SELECT (COUNT(DISTINCT ?authorship) AS ?n) (COUNT(DISTINCT ?identified) AS ?ids) (COUNT(DISTINCT ?placed) AS ?countries)
WHERE {
  ?paper kg:authorship ?authorship . ?authorship kg:affiliation ?stated .  # authorships carry no rdf:type
  OPTIONAL { ?authorship kg:affiliation/org:subOrganizationOf* ?top . ?top owl:sameAs ?record .
             BIND(?authorship AS ?identified) }
  OPTIONAL { ?authorship kg:affiliation/org:subOrganizationOf* ?where . ?where schema:addressCountry ?country .
             BIND(?authorship AS ?placed) }
}"""
TWO_RECORDS = """PREFIX owl: <http://www.w3.org/2002/07/owl#>
SELECT ?org WHERE { ?org owl:sameAs ?record } GROUP BY ?org HAVING (COUNT(DISTINCT ?record) > 1) ORDER BY ?org"""


def score_build(path: Path) -> dict:
    """Build one structured file as ``kg build`` does (into a store in memory) and count from the graph:
    author-affiliation occurrences (authorships with a kg:affiliation) whose organisation, or an
    organisation it is a unit of, has a registry id, and a country; and the nodes with two records."""
    store = KGStore("memory")
    try:
        ingest([path], store, Minter(), jobs=1)
        (row,) = store.select_terms(sparql_prologue() + OCCURRENCES)
        occurrences, with_id, with_country = (int(term.value) for term in row)
        doubles = [row[0].value for row in store.select_terms(sparql_prologue() + TWO_RECORDS)]
    finally:
        store.close()
    return {
        "occurrences": occurrences,
        "with a registry id": _share(with_id, occurrences),
        "with a country": _share(with_country, occurrences),
        "nodes with two registry records": doubles,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.orgs", description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print every wrong or missed gold string")
    args = parser.parse_args(argv)
    registry, aliases = load_registry(), active_aliases()
    print(f"registry: {registry.version}")
    print(f"gold ({GOLD.name}): {score_gold(read_gold(), registry, aliases, args.verbose)}")
    folder = realdata_dir()
    if not folder.is_dir():
        print(f"no development data in {folder} (set KG_REALDATA); skipped", file=sys.stderr)
        return 0
    for path in sorted(folder.glob("*.json")):
        if not path.name.endswith("_truth.json"):
            print(f"{path.name}: {score_build(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
