"""``kg explain``: how the organisation parser reads an institution entry, rule by rule."""

from __future__ import annotations

import click

from ..orgs.aliases import active_aliases
from ..orgs.institutions import explain_rules


@click.command()
@click.argument("entries", nargs=-1, required=True)
def explain(entries) -> None:
    """Show the chains an institution entry resolves to: each level from the top
    institution down, the ids of the rules that placed it (docs/organisation-rules.md
    lists them) and how its name was read. The alias table is the shipped one, extended
    by the file $KG_INSTITUTION_ALIASES names."""
    aliases = active_aliases()
    for number, entry in enumerate(entries):
        if number:
            click.echo()
        click.echo(entry)
        for line in explain_rules(entry, aliases):
            click.echo(f"  {line}")


COMMANDS = [explain]
