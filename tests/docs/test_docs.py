"""The README and docs/ stay short, wrapped, free of history, and every relative link resolves."""

import re
from pathlib import Path

import pytest
import rdflib

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, *PAGES]
MAX_README_LINES = 250
MAX_LINE = 110

# Pages written on other branches at the same time as this test; a link to one of them resolves
# once they are merged, so while the file is absent such a link is not counted as broken.
PAGES_OF_OTHER_BRANCHES = {
    f"docs/{name}.md"
    for name in (
        "endpoint",
        "input-formats",
        "stores",
        "organisations",
        "performance",
        "topics",
        "identifiers",
        "testing",
    )
}


# History has no place in the docs (it is in CHANGELOG.md and git): a commit hash stands alone
# (an IRI's hash follows a hyphen), a dated run has an ISO date, and a before/after figure an arrow
# between two numbers.
COMMIT_HASH = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])")
ISO_DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
BEFORE_AFTER = re.compile(r"\d[\d,.]*\s*(?:→|->)\s*\d")
LOAD_AVERAGE = re.compile(r"\bload(?: average| ~| \d)", re.IGNORECASE)

FENCED = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def prose(path: Path) -> str:
    """The text outside code blocks and code spans, where links are links."""
    return INLINE_CODE.sub("", FENCED.sub("", path.read_text(encoding="utf-8")))


def anchors(path: Path) -> set[str]:
    """The anchors a Markdown renderer gives the page's headings (GitHub's rule)."""
    seen: dict[str, int] = {}
    result = set()
    for title in HEADING.findall(FENCED.sub("", path.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "").strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


def links(path: Path) -> list[str]:
    return [target for target in LINK.findall(prose(path)) if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines, at most {MAX_README_LINES}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=name)
def test_lines_are_wrapped(path):
    wide = [
        f"{name(path)}:{number}: {len(line)} characters"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > MAX_LINE
    ]
    assert not wide, "\n".join(wide)


@pytest.mark.parametrize("path", DOCUMENTS, ids=name)
def test_no_history(path):
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for kind, pattern in (
            ("commit hash", COMMIT_HASH),
            ("date", ISO_DATE),
            ("before/after", BEFORE_AFTER),
            ("load average", LOAD_AVERAGE),
        ):
            found += [f"{name(path)}:{number}: {kind} {match.group()!r}" for match in pattern.finditer(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", DOCUMENTS, ids=name)
def test_relative_links_resolve(path):
    broken = []
    for target in links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_relative_to(ROOT):
            broken.append(f"{target}: outside the repository")
        elif not linked.exists():
            if name(linked) not in PAGES_OF_OTHER_BRANCHES:
                broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with anchor #{anchor}")
    assert not broken, f"{name(path)}: " + "; ".join(broken)


@pytest.mark.parametrize(
    "text, hashes",
    [
        ("started on `940b19b`", ["940b19b"]),
        ("commit 1b31ded3a0c4e9f2b757193aa1b31ded3a0c4e9f", ["1b31ded3a0c4e9f2b757193aa1b31ded3a0c4e9f"]),
        ("paper:fourier-features-3c8f5bdcaa-7e35a5 and on-409d1b54", []),  # hashes in IRIs
        ("a defaced facade in 2026", []),  # words and numbers of hex letters alone
    ],
)
def test_commit_hash_pattern(text, hashes):
    assert [match.group() for match in COMMIT_HASH.finditer(text)] == hashes


def test_ontology_terms_named_are_defined():
    """A `kg:` term the docs name (for queries to rely on) is one the ontology defines."""
    namespace = "https://kg.example.org/ontology#"
    ontology = rdflib.Graph().parse(ROOT / "ontology" / "kg.ttl")
    defined = {str(term)[len(namespace) :] for term in ontology.subjects() if str(term).startswith(namespace)}
    unknown = [
        f"{name(path)}: kg:{term}"
        for path in DOCUMENTS
        for term in sorted(set(re.findall(r"(?<!urn:)\bkg:([A-Za-z]\w*)", path.read_text(encoding="utf-8"))) - defined)
    ]
    assert not unknown, "\n".join(unknown)


def test_anchor_rule():
    page = ROOT / "docs" / "queries.md"
    assert {"writing-a-query", "the-library"} <= anchors(page)
