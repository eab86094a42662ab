"""``kg quality`` and ``kg validate``: is the graph resolved well, and is it well-formed?"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from ..errors import InputError, KgError, plural
from .common import base_option, console, minter, opened_store, store_option

SECTIONS = {
    "merges": "Papers merged across sources",
    "rejected_institution_entries": "Institution entries rejected as person names",
    "papers_without_institutions": "Papers without institutions",
    "authors_with_several_written_forms": "Authors with several written forms",
    "institutions_alike_kept_apart": "Institutions that look alike but were kept apart",
    "institutions_merged": "Institutions written several ways, and why each is the same",
    "units_placed_by_domain": "Units named alone, placed in their institution by their authors' e-mail domain",
    "units_placed_by_name": "Labs and campuses placed under the organisation of the corpus whose name begins theirs",
    "institutions_by_other_name": (
        "Acronyms, abbreviations and other forms of a unit placed under the one organisation of the corpus they name"
    ),
    "name_only_authors_with_identified_namesakes": (
        "Authors without an identifier whom several identified people could be"
    ),
    "persons_with_two_ids_of_one_scheme": "People holding two identifiers of one scheme",
    "ids_on_several_persons": "Identifiers held by several people",
    "ids_set_aside": "Identifiers a per-author list gives that most of the input's records give to nobody of the paper",
    "names_likely_several_people": (
        "Names likely to be several people: papers in groups with no co-author or organisation in common"
    ),
}


# Each section's lines for one of its items; the look-alike institutions for any other section.
_ITEM_LINES: dict[str, Callable[[dict], list[str]]] = {
    "merges": lambda item: [
        f"{item['title']}",
        f"    absorbed {item['absorbed']} from {item['from_source']}",
        f"    evidence: {', '.join(item['evidence'])} — {item['why']}",
    ],
    "rejected_institution_entries": lambda item: [f"{item['record']}  {item['entry']}  — {item['reason']}"],
    "papers_without_institutions": lambda item: [f"{' '.join(item['records'])}  {item['title']}"],
    "authors_with_several_written_forms": lambda item: [
        f"{item['name']}  (also written: {'; '.join(item['other_forms'])})"
    ],
    "institutions_merged": lambda item: (
        [f"{item['name'] or item['institution']}"]
        + [f"    {form['written']}  — {form['how']}" for form in item["forms"]]
    ),
    "units_placed_by_domain": lambda item: [
        f"{item['unit']} ({item['domain']})  — unit of {item['institution']}: {item['why']}"
    ],
    "units_placed_by_name": lambda item: [f"{item['unit']}  — unit of {item['institution']}: {item['why']}"],
    "institutions_by_other_name": lambda item: [
        f"{item['other_name']}  — another name of {item['institution']}: {item['why']}"
    ],
    "names_likely_several_people": lambda item: [
        f"{item['name']}  {item['author']}  — {item['groups']} groups of papers "
        f"({', '.join(map(str, item['papers_per_group']))})"
    ],
    "name_only_authors_with_identified_namesakes": lambda item: [
        f"{item['name']}  on {item['authorship']}  — could be {', '.join(item['identified_namesakes'])}"
    ],
    "persons_with_two_ids_of_one_scheme": lambda item: [
        f"{item['person']}  — {item['scheme']}: {', '.join(item['ids'])}"
    ],
    "ids_set_aside": lambda item: [
        f"{item['record']}  {item['author'] or '(unaligned list)'}  {item['id']}  — {item['reason']}"
    ],
    "ids_on_several_persons": lambda item: [f"{item['id']}  — held by {', '.join(item['persons'])}"],
}


def _lookalike_lines(item: dict) -> list[str]:
    return [f"{item['first']}  /  {item['second']}  — {item['why_alike']}; kept apart: {item['why_apart']}"]


def _lines(section: str, item: dict) -> list[str]:
    return _ITEM_LINES.get(section, _lookalike_lines)(item)


@click.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@store_option
def quality(output_format, store_spec) -> None:
    """Data-quality report: merges made and why, institution entries rejected as person
    names, papers without institutions, authors written several ways, institutions that
    look alike but were kept apart, institutions written several ways, with the rule
    that made each written form the same institution, and units placed by e-mail domain."""
    from ..quality.report import quality_report

    with opened_store(store_spec) as store:
        report = quality_report(store)
    if output_format == "json":
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    out = console()
    for section, heading in SECTIONS.items():
        items = report[section]
        out.print(f"[bold]{heading}: {len(items)}[/bold]" if out.is_terminal else f"{heading}: {len(items)}")
        for item in items:
            for line in _lines(section, item):
                out.print(f"  {line}", markup=False)


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@store_option
@base_option
def validate(file, store_spec, base) -> None:
    """Check the graph against the SHACL shapes in ontology/shapes.ttl (pySHACL).

    Validates the store, or FILE (Turtle, N-Triples, …; by its extension) when given.
    Exits 1 when the graph does not conform, listing each violation on one line."""
    import rdflib

    from ..quality.shacl import store_graph, validate_graph
    from ..vocab import data_prefixes

    prefixes = data_prefixes(minter(base).base)
    if file:
        try:
            graph = rdflib.Graph().parse(file)
        except Exception as exc:  # noqa: BLE001 - any parser error is the file's fault
            raise InputError(file, f"cannot parse as RDF ({type(exc).__name__}: {exc})") from None
    else:
        with opened_store(store_spec) as store:
            graph = store_graph(store)
    report = validate_graph(graph, prefixes)
    out = console()
    for violation in report.violations:
        out.print(str(violation), markup=False)
    verdict = "conforms" if report.conforms else f"does not conform: {plural(len(report.violations), 'violation')}"
    out.print(
        (
            f"{plural(len(graph), 'triple')}, {plural(report.nodes, 'node')} checked against "
            f"ontology/shapes.ttl: {verdict}."
        )
    )
    if not report.conforms:
        raise KgError(
            f"the graph does not conform to ontology/shapes.ttl ({plural(len(report.violations), 'violation')})"
        )


COMMANDS = (quality, validate)
