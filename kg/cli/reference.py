"""The command-line reference, docs/cli.md, made from the commands' own ``--help``.

``python -m kg.cli.reference docs/cli.md`` rewrites the page; without a path it prints it.
tests/docs/test_cli_reference.py fails when the page differs from what this prints, so the
reference cannot drift from the commands.

The help is rendered 80 columns wide, as ``kg COMMAND --help`` prints it in an 80-column
terminal (``COLUMNS=82``: click keeps two columns of margin).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.testing import CliRunner

from . import cli

HEADER = """\
# Command-line reference

Every command and option of `kg`, as `kg COMMAND --help` prints it in an 80-column terminal.
This page is generated: `.venv/bin/python -m kg.cli.reference docs/cli.md` rewrites it, and
`tests/docs/test_cli_reference.py` fails when it differs from the commands' help.
For a guided start see [getting-started.md](getting-started.md).
"""


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command under ``group`` as its words after ``kg``, the group before its subcommands.

    >>> command_paths()[:2]
    [(), ('build',)]
    """
    ctx = click.Context(group, info_name="kg")
    paths = [prefix]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            paths += command_paths(command, prefix + (name,))
        else:
            paths.append(prefix + (name,))
    return paths


def help_text(words: tuple[str, ...]) -> str:
    """What ``kg WORDS --help`` prints, 80 columns wide."""
    result = CliRunner().invoke(cli, [*words, "--help"], prog_name="kg")
    if result.exit_code != 0:
        raise RuntimeError(f"kg {' '.join(words)} --help failed: {result.output}")
    return result.output.rstrip("\n")


def render() -> str:
    """The whole page: a section per command, its help in a text block."""
    sections = [HEADER]
    for words in command_paths():
        title = " ".join(("kg", *words))
        sections.append(f"## {title}\n\n```text\n{help_text(words)}\n```\n")
    return "\n".join(sections)


def main(argv: list[str]) -> None:
    page = render()
    if argv:
        Path(argv[0]).write_text(page, encoding="utf-8")
    else:
        sys.stdout.write(page)


if __name__ == "__main__":
    main(sys.argv[1:])
