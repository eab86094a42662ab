"""Institutions on real listings: spelling pairs of one institution on one node, and nodes that
merge two different institutions.

The reference is the data provider's own normalisation (``institution_families`` of a
``../shared/realdata/*_truth.json``: for each normalised name, the raw affiliation strings it
mapped there). It folds labs into their parents (Google DeepMind → Google), so two strings of
one family are *together* when their nodes roll up to one top-level organisation (a unit counts
with its parent). It also has slips of its own (one institution under two normalised names);
``eval/provider_slips.tsv`` lists the families that are one institution, with the reason, and
those are not counted as merges.

Measured on what the listing reader read: a raw string that no paper in the store carries
(its paper was rejected) is left out, and the number of pairs measured is reported.

    python -m eval.real_institutions   # builds every realdata listing and prints the figures
    python -m eval.real_institutions --unknown  # the same with an alias table that knows none of the set's institutions

``--unknown`` measures the rules alone, as on a conference whose institutions the alias table
does not know: every line of the shipped table whose canonical name (or parent) is an
institution the set's affiliation strings or the provider's names resolve to is left out.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Iterator

from kg.text.names import clean
from kg.vocab import sparql_prologue

REPO = Path(__file__).resolve().parents[1]
REALDATA = Path(os.environ.get("KG_REALDATA", REPO / ".." / "shared" / "realdata"))
SLIPS = Path(__file__).resolve().parent / "provider_slips.tsv"

WRITTEN = """SELECT ?org ?raw WHERE { ?org a org:Organization ; kg:nameAsWritten ?raw . FILTER(lang(?raw) = "") }"""
PARENTS = """SELECT ?unit ?parent WHERE { ?unit org:subOrganizationOf ?parent }"""


def provider_slips(path: Path = SLIPS) -> list[frozenset[str]]:
    """Groups of the provider's normalised names that are one institution (``name<TAB>name…<TAB>reason``)."""
    groups = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            *names, _reason = line.split("\t")
            groups.append(frozenset(names))
    return groups


def _roots(node: str, parents: dict[str, set[str]]) -> frozenset[str]:
    """The top-level organisations a node rolls up to."""
    seen, frontier, roots = {node}, [node], set()
    while frontier:
        current = frontier.pop()
        above = parents.get(current, set()) - seen
        if not parents.get(current):
            roots.add(current)
        seen |= above
        frontier.extend(above)
    return frozenset(roots or {node})


def institution_scores(store, truth: dict, slips: list[frozenset[str]] | None = None) -> dict:
    """Spelling pairs of one provider family on one (rolled-up) node, and nodes whose strings
    come from two families that are not one institution. Units rolled up under a parent across
    families are listed apart (``rolled_up_across_families``): there the provider keeps a unit
    apart from its parent (JPL / Caltech), which is no merge, so they are for review only."""
    slips = provider_slips() if slips is None else slips
    nodes: dict[str, set[str]] = defaultdict(set)
    for org, raw in store.query(sparql_prologue() + WRITTEN):
        nodes[clean(str(raw))].add(str(org))
    parents: dict[str, set[str]] = defaultdict(set)
    for unit, parent in store.query(sparql_prologue() + PARENTS):
        parents[str(unit)].add(str(parent))
    roots = {raw: frozenset().union(*(_roots(node, parents) for node in found)) for raw, found in nodes.items()}

    pairs = together = 0
    apart = []
    family_of: dict[str, str] = {}
    for family, raws in sorted(truth["institution_families"].items()):
        read = sorted({clean(raw) for raw in raws} & set(roots))
        for raw in read:
            family_of.setdefault(raw, family)
        for first, second in combinations(read, 2):
            pairs += 1
            if roots[first] & roots[second]:
                together += 1
            else:
                apart.append((family, first, second))

    merging = _merging(nodes, family_of, slips, lambda raw: nodes[raw])
    rolled_up = _merging(nodes, family_of, slips, lambda raw: roots[raw])
    return {
        "spelling_pairs_together": together / pairs if pairs else 1.0,
        "pairs": pairs,
        "merging_nodes": len(merging),
        "merging_examples": merging[:20],
        "pairs_apart": apart,
        "rolled_up_across_families": rolled_up,
    }


def _merging(nodes, family_of, slips, node_of) -> list[dict]:
    """Nodes holding strings of two provider families that are not one institution. A string
    naming two institutions (on two nodes) proves no merge, so only single-node strings count."""
    families_at: dict[str, dict[str, str]] = defaultdict(dict)
    for raw, found in nodes.items():
        if len(found) == 1 and raw in family_of:
            for node in node_of(raw):
                families_at[node].setdefault(family_of[raw], raw)
    merging = []
    for node, by_family in sorted(families_at.items()):
        names = set(by_family)
        if len(names) > 1 and not any(names <= group for group in slips):
            merging.append({"node": node, "strings": sorted(by_family.values()), "families": sorted(names)})
    return merging


def known_institutions(truth: dict) -> set[str]:
    """The alias table's canonical names that the set's strings and the provider's names resolve to,
    at any level of their chains ("School of X, Stanford University" -> Stanford University)."""
    from kg.orgs import aliases as alias_module
    from kg.orgs.institutions import resolve_entries

    table = alias_module.active_aliases()
    names = set(truth["institution_families"]) | {
        raw for raws in truth["institution_families"].values() for raw in raws
    }
    return {
        level.canonical
        for name in names
        for chain in resolve_entries(clean(name), None, table)
        for level in chain.levels
        if level.canonical
    }


@contextmanager
def table_without(canonical_names: set[str]) -> Iterator[None]:
    """The shipped alias table without the lines of these institutions (as variant's canonical
    name or as parent), for the builds inside the block."""
    from kg.orgs import aliases as alias_module

    shipped = alias_module.SHIPPED
    kept = [
        line
        for line in shipped.read_text(encoding="utf-8").splitlines()
        if line.startswith("#") or not {field.strip() for field in line.split("\t")[1:]} & canonical_names
    ]
    with tempfile.TemporaryDirectory(prefix="kg-aliases-") as folder:
        reduced = Path(folder) / "institution-aliases.tsv"
        reduced.write_text("\n".join(kept) + "\n", encoding="utf-8")
        alias_module.SHIPPED = reduced
        alias_module._load.cache_clear()
        try:
            yield
        finally:
            alias_module.SHIPPED = shipped
            alias_module._load.cache_clear()


def _build(listing: Path):
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    store = KGStore("memory")
    ingest([listing], store, Minter())
    return store


def main() -> int:
    listings = sorted(REALDATA.glob("*_listing.txt"))
    if not listings:
        print(f"no real data in {REALDATA}", file=sys.stderr)
        return 1
    verbose = "-v" in sys.argv
    for listing in listings:
        started = time.perf_counter()
        truth = json.loads(listing.with_name(listing.name.replace("_listing.txt", "_truth.json")).read_text("utf-8"))
        if "--unknown" in sys.argv:
            with table_without(known_institutions(truth)):
                store = _build(listing)
        else:
            store = _build(listing)
        scores = institution_scores(store, truth)
        print(
            f"{listing.name}: spelling pairs together {scores['spelling_pairs_together']:.2f} "
            f"of {scores['pairs']}, nodes merging two institutions {scores['merging_nodes']} "
            f"({time.perf_counter() - started:.1f} s)"
        )
        if verbose:
            for family, first, second in scores["pairs_apart"]:
                print(f"  apart  {family}: {first!r} / {second!r}")
            for merge in scores["merging_examples"]:
                print(f"  merged {merge['families']}: {merge['strings']}")
            for merge in scores["rolled_up_across_families"]:
                print(f"  under one parent {merge['families']}: {merge['strings']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
