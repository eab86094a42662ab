"""Issue 35: topics users can trust. Every failure the issue names, with a near-miss that must still match."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kg.nlp import analyse, pipeline
from kg.nlp.context import PURPOSE, context_rules, cue_words, mention_cues, words_of
from kg.nlp.scheme import topic_scheme

CASES = Path(__file__).with_name("topic_cases.tsv")


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.reader(handle, delimiter="\t") if row and not row[0].startswith("#")]


def _cases() -> list:
    return [pytest.param(*row, id=f"{row[3]}-{row[4]}-{number}") for number, row in enumerate(_rows(CASES), 1)]


@pytest.mark.parametrize("title,abstract,keywords,topic,assigned,why", _cases())
def test_topic_case(title, abstract, keywords, topic, assigned, why):
    slug_of = {c.label: c.slug for c in topic_scheme().concepts.values()}
    found = {
        t.slug for t in analyse(title or None, abstract or None, None, [k for k in keywords.split(";") if k]).topics
    }
    assert (slug_of[topic] in found) == (assigned == "yes"), why


def test_the_cases_cover_both_outcomes_of_each_rule_tested():
    outcomes = {}
    for param in _cases():
        outcomes.setdefault(param.values[3], set()).add(param.values[4])
    assert all(seen == {"yes"} or "yes" in seen for seen in outcomes.values())  # every "no" has a near-miss


def test_context_rules_and_cues_are_data_read_from_the_ontology():
    rules = context_rules()
    assert any(rule.slug == "attention-mechanism" and rule.excludes for rule in rules.values())
    assert ("without",) in mention_cues()


CUE_CASES = Path(__file__).with_name("cue_cases.tsv")


def _mentioned(text: str, label: str) -> bool:
    """Whether ``label`` is a topic mention in ``text`` read as an abstract."""
    nlp = pipeline()
    doc = nlp.make_doc(text)
    doc.user_data["kg.section"] = "abstract"
    return any(words_of(m.text) == words_of(label) for m in nlp(doc)._.topic_mentions)


@pytest.mark.parametrize("cue,example,near_miss,label", [pytest.param(*row, id=row[0]) for row in _rows(CUE_CASES)])
def test_cue_case(cue, example, near_miss, label):
    purpose = mention_cues()[cue_words(cue)] == PURPOSE  # after a purpose word the label is a mention again
    assert _mentioned(example, label) == purpose, example
    assert _mentioned(near_miss, label) != purpose, near_miss


def test_every_mention_cue_has_a_case():
    assert set(mention_cues()) == {cue_words(row[0]) for row in _rows(CUE_CASES)}


def test_keywords_are_the_strongest_evidence():
    analysis = analyse("A Study", "Results are good.", None, ["Imitation Learning", "Manipulation"])
    by_slug = {t.slug: t for t in analysis.topics}
    assert by_slug["imitation-learning"].sections == ("keywords",) and by_slug["imitation-learning"].weight == 3.0


def test_broader_topics_are_not_stored_as_assignments():
    slugs = {t.slug for t in analyse("Offline Reinforcement Learning with Decision Trees", None).topics}
    assert "offline-reinforcement-learning" in slugs and "reinforcement-learning" not in slugs


ARTIFACT_CASES = Path(__file__).with_name("artifact_cases.tsv")


def _artifact_cases() -> list:
    return [pytest.param(*row, id=f"artifact-{number}") for number, row in enumerate(_rows(ARTIFACT_CASES), 1)]


@pytest.mark.parametrize("title,abstract,introduced,absent,why", _artifact_cases())
def test_artifact_case(title, abstract, introduced, absent, why):
    found = analyse(title or None, abstract or None).artifacts
    names = {a.name for a in found} | {a.long_form for a in found if a.long_form}
    for item in [part.strip() for part in introduced.split(";") if part.strip()]:
        aliases, _, kind = item.rpartition("=")
        match = [a for a in found if {a.name, a.long_form} & set(aliases.split("|"))]
        assert len(match) == 1 and match[0].kind == kind, f"{why}: {item} not in {found}"
    assert not names & {part.strip() for part in absent.split(";") if part.strip()}, f"{why}: {found}"


def test_the_real_paper_gold_set_holds_ids_and_judgments_only():
    from eval.real_topics import GOLD, gold_rows

    rows = gold_rows()
    assert len(rows) >= 150 and {r["split"] for r in rows} == {"tune", "heldout", "dev", "dev2"}
    assert sum(r["split"] == "heldout" for r in rows) == 90
    assert sum(r["split"] == "dev" for r in rows) == 80
    assert sum(r["split"] == "dev2" for r in rows) == 60
    assert max(len(line) for line in GOLD.read_text(encoding="utf-8").splitlines()) < 300  # no abstracts


@pytest.mark.realdata
@pytest.mark.slow
def test_every_gold_paper_is_in_the_real_data():
    from eval.real_topics import evaluate, gold_rows
    from eval.realdata import realdata_dir

    if not realdata_dir().is_dir():
        pytest.skip(f"no real data in {realdata_dir()}")
    tally = evaluate("all")
    assert tally.papers == len(gold_rows()) and tally.assigned > 0
