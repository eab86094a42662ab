"""The generated parts of docs/organisation-rules.md: the word lists and the rules, from the package.

``python -m kg.orgs.reference docs/organisation-rules.md`` rewrites the parts between the page's
``<!-- generated: NAME -->`` and ``<!-- end generated -->`` lines and leaves its prose alone;
tests/orgs/test_reference.py fails when the page differs from what this writes.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

from ..text.lexicon import TEXT_LEXICON, Lexicon
from .lexicon import LEXICON
from .rules import RULES, STEPS

_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n).*?(?=<!-- end generated -->)", re.DOTALL)
WIDTH = 110  # the docs' widest line


def lexicon_table(
    lexicons: tuple[tuple[str, Lexicon], ...] = (("kg/orgs/data/lexicon", LEXICON), ("kg/text/data", TEXT_LEXICON)),
) -> str:
    """Each file of word lists, and under it each list: its name, how many words, what it is.

    >>> folder = getfixture("tmp_path")  # pytest's doctest namespace
    >>> _ = (folder / "places.tsv").write_text("# direction: Compass words.\\ndirection\\tnorth\\ndirection\\tsouth\\n")
    >>> print(lexicon_table((("data", Lexicon(folder)),)))
    <BLANKLINE>
    `data/places.tsv`:
    <BLANKLINE>
    - `direction` (2): Compass words.
    <BLANKLINE>
    <BLANKLINE>


    """
    by_file: dict[str, list[str]] = {}
    for folder, lexicon in lexicons:
        for name in lexicon.names():
            file, about = lexicon.about(name)
            item = f"- `{name}` ({len(lexicon.ordered(name))}): {about}"
            wrapped = textwrap.fill(item, WIDTH, subsequent_indent="  ", break_on_hyphens=False)
            by_file.setdefault(f"{folder}/{file}", []).append(wrapped)
    return "".join(f"\n`{file}`:\n\n" + "\n".join(items) + "\n" for file, items in sorted(by_file.items())) + "\n"


def rule_table() -> str:
    """Each step's rules in their order: id, what it does, why, its example and its near-miss.

    >>> print("\\n".join(rule_table().splitlines()[1:8]))
    ### Step `entry`
    <BLANKLINE>
    `cut-at-semicolon`: one piece per institution, at each semicolon.
    A semicolon always separates two affiliations.
    - reads: `Loom University; Zorblax Institute of Technology`
    - does not read: `Loom University;`
    <BLANKLINE>
    """
    out: list[str] = []
    for step in STEPS:
        out.append(f"\n### Step `{step}`")
        for rule in (rule for rule in RULES if rule.step == step):
            out += [
                "",
                f"`{rule.id}`: {rule.action}.",
                textwrap.fill(rule.reason, WIDTH, break_on_hyphens=False),
                f"- reads: `{rule.example}`",
                f"- does not read: `{rule.near_miss}`",
            ]
    return "\n".join(out) + "\n\n"


BLOCKS = {"lexicon": lexicon_table, "rules": rule_table}


def render(page: str) -> str:
    """The page with every generated block written anew, its prose as it was.

    >>> page = render("Intro.\\n<!-- generated: rules -->\\nstale\\n<!-- end generated -->\\nOutro.\\n")
    >>> "stale" in page, page.startswith("Intro.\\n<!-- generated: rules -->\\n\\n### Step `entry`")
    (False, True)
    >>> page.endswith("<!-- end generated -->\\nOutro.\\n")
    True
    """
    return _BLOCK.sub(lambda match: match[1] + BLOCKS[match["name"]](), page)


def main(argv: list[str]) -> None:
    path = Path(argv[0])
    path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
