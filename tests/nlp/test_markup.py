"""Every markup rule of ``ontology/markup.tsv`` changes its example as stated and leaves its near-miss."""

import pytest

from kg.nlp.markup import MARKUP_RULES, strip_markup, title_coined_name

#: The title the examples are read with: its name stands for the name macros.
TITLE = "ACE: A Cross-platform Exoskeleton System"


@pytest.mark.parametrize("rule", MARKUP_RULES, ids=[rule.id for rule in MARKUP_RULES])
def test_markup_rule(rule):
    assert rule.pattern.search(rule.example), f"{rule.id}: its example has no match"
    assert strip_markup(rule.example, TITLE) == rule.result
    assert strip_markup(rule.near_miss, TITLE) == rule.near_miss


def test_rule_ids_are_unique():
    assert len({rule.id for rule in MARKUP_RULES}) == len(MARKUP_RULES)


@pytest.mark.parametrize(
    "title,name",
    [
        ("ACE: A Cross-platform Exoskeleton System", "ACE"),
        ("Trust the PRoC3S: Solving Long-Horizon Problems", "PRoC3S"),
        ("Revisiting LocalSGD and SCAFFOLD: Improved Rates", None),  # two coined words: no one name
        ("Learning to Walk with ROS", None),  # no colon: the title names nothing
        ("\\textsc{ACE}: Adaptive Control", "ACE"),  # the name read without its markup
        ("**ACE**: Adaptive Control", "ACE"),
        ("$\\mathrm{ACE}$: Adaptive Control", "ACE"),
        ("\\textsc{ACE} and \\textsc{BEE}: Two Controllers", None),  # still two coined words
        ("\\textbf{Learning to Walk}: A Study", None),  # marked-up ordinary words are no coined name
    ],
)
def test_title_coined_name(title, name):
    assert title_coined_name(title) == name


def test_a_name_macro_stays_without_a_title_name():
    assert strip_markup("we developed \\our, a system", "Learning to Walk") == "we developed \\our, a system"
