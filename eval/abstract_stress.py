"""Wrong abstract joins on the real sets of ``../shared/realdata/``, as given and under stress.

    python -m eval.abstract_stress          # KG_REALDATA=/elsewhere to read another folder

Each set's listing is built with its abstracts file as given, with every seventh abstract left out
(titles whose own abstract is missing), in a shuffled order (no order of the files to go by), and
both. An abstract joined to a title is right when it is the truth file's abstract of that title.
The modified abstracts files are written to a temporary folder, never into the repository.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.text.names import match_key
from kg.vocab import sparql_prologue

from .realdata import realdata_dir

SETS = ("aistats2025", "corl2024")
VARIANTS = ("as given", "missing", "shuffled", "missing, shuffled")
JOINED = (
    sparql_prologue()
    + """SELECT DISTINCT ?paper ?title ?abstract WHERE {
  ?paper a schema:ScholarlyArticle ; dcterms:title ?title ; dcterms:abstract ?abstract FILTER(lang(?title) = "en") }"""
)


def _key(text: str) -> str:
    return " ".join(match_key(text).split()[:30])


def _abstracts(source: Path, variant: str, folder: Path) -> tuple[Path, int]:
    header, *paragraphs = source.read_text(encoding="utf-8").split("\n\n")
    if "missing" in variant:
        paragraphs = [text for number, text in enumerate(paragraphs) if number % 7 != 3]
    if "shuffled" in variant:
        random.Random(7).shuffle(paragraphs)
    path = folder / f"{variant.replace(', ', '-').replace(' ', '-')}-{source.name}"
    path.write_text("\n\n".join([header, *paragraphs]), encoding="utf-8")
    return path, len(paragraphs)


def score(name: str, variant: str, folder: Path) -> dict:
    data = realdata_dir()
    truth = json.loads((data / f"{name}_truth.json").read_text(encoding="utf-8"))
    own = {_key(paper["title"]): _key(paper.get("abstract") or "") for paper in truth["papers"]}
    abstracts, count = _abstracts(data / f"{name}_abstracts.txt", variant, folder)
    store = KGStore("memory")
    ingest([data / f"{name}_listing.txt", abstracts], store, Minter())
    right = wrong = 0
    for _, title, abstract in store.query(JOINED):
        if own.get(_key(str(title))) == _key(str(abstract)):
            right += 1
        else:
            wrong += 1
    return {"set": name, "abstracts": variant, "abstracts given": count, "joined right": right, "joined wrong": wrong}


def main() -> int:
    if not all((realdata_dir() / f"{name}_truth.json").is_file() for name in SETS):
        print(f"skipped: the real data folder {realdata_dir()} is not here")
        return 0
    with tempfile.TemporaryDirectory(prefix="kg-abstract-stress-") as folder:
        for name in SETS:
            for variant in VARIANTS:
                row = score(name, variant, Path(folder))
                print(
                    f"{row['set']:12} {row['abstracts']:18} {row['abstracts given']:4} abstracts: "
                    f"{row['joined right']:4} joined right, {row['joined wrong']} wrong"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
