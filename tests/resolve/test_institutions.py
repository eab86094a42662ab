"""Institution rules: units of parents, aliases, normalisation, and the near-misses that must stay apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import InputError
from kg.orgs import aliases as alias_module
from kg.orgs.aliases import ALIASES_ENV, AliasTable, active_aliases, read_alias_file
from kg.orgs.institutions import resolve_entries
from kg.orgs.org_names import is_organisation_acronym, resolve_name


@pytest.fixture(scope="module")
def table():
    return alias_module._load(None)


def levels(name, table, chinese=None):
    [chain] = resolve_entries(name, chinese, table)
    return [level.display for level in chain.levels], list(chain.chinese)


def institutions(name, table):
    """Each institution an entry names, as its levels (smallest first)."""
    return [[level.display for level in chain.levels] for chain in resolve_entries(name, None, table)]


def test_chinese_names_are_aligned_to_levels(table):
    assert levels("College of Artificial Intelligence, Zhejiang University", table, "人工智能学院，浙江大学")[1] == [
        "人工智能学院",
        "浙江大学",
    ]
    # the untranslated acronym ReLER is skipped, the rest pairs from the end
    assert levels(
        "ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University",
        table,
        "脑机智能国家重点实验室，浙江大学",
    )[1] == [None, "脑机智能国家重点实验室", "浙江大学"]
    # one Chinese name for a two-level entry belongs to the entry itself, not the parent
    assert levels("Department of Mathematics, LMU Munich", table, "慕尼黑大学数学系")[1] == ["慕尼黑大学数学系", None]


def test_acronyms_are_not_hyphenated_given_names_or_places():
    assert (
        is_organisation_acronym("CITEC")
        and is_organisation_acronym("ReLER")
        and is_organisation_acronym("VIA-SD")
        and is_organisation_acronym("A*STAR")
    )
    assert (
        not is_organisation_acronym("Tae-Kyun")
        and not is_organisation_acronym("McAllister")
        and not is_organisation_acronym("USA")
        and not is_organisation_acronym("MA")
    )


def test_user_alias_file_extends_the_shipped_table(tmp_path, monkeypatch):
    user = tmp_path / "mine.tsv"
    user.write_text(
        "# my lab\nIDSIA\tDalle Molle Institute for Artificial Intelligence\nMIT\tMy Institute of Things\n",
        encoding="utf-8",
    )
    monkeypatch.setenv(ALIASES_ENV, str(user))
    table = active_aliases()
    assert resolve_name("idsia", table).canonical == "Dalle Molle Institute for Artificial Intelligence"
    assert resolve_name("MIT", table).canonical == "My Institute of Things"  # the user's line wins
    assert resolve_name("KAIST", table).canonical == "Korea Advanced Institute of Science and Technology"


def test_bad_alias_file_is_one_error_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("UIUC\tUniversity of Illinois Urbana-Champaign\nno tab here\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv:2: expected"):
        read_alias_file(bad)


# ---------------------------------------------------------------- real listings' classes of names


def same(first, second, table):
    return resolve_name(first, table).key == resolve_name(second, table).key


def tops(name, table):
    return [chain[-1] for chain in institutions(name, table)]


def top_keys(name, table):
    return [chain.levels[-1].key for chain in resolve_entries(name, None, table)]


def test_a_unit_with_a_footnote_mark_is_the_unit_without_it(table):
    assert institutions("Dept. of Botany‡, Stanford University", table) == [["Dept. of Botany", "Stanford University"]]
    assert institutions("Corge Lab*, Foo University", table) == institutions("Corge Lab, Foo University", table)
    assert institutions("A*STAR", table) == [
        ["Agency for Science, Technology and Research"]
    ]  # a mark inside a name stays


def test_a_company_with_and_without_its_legal_form_is_one_node(table):
    # "Tencent Foo" is a unit of Tencent; so is "Tencent Foo Co., Ltd." (same key, same chain)
    assert (
        institutions("Tencent Foo Co., Ltd.", table)[0][1:] == institutions("Tencent Foo", table)[0][1:] == ["Tencent"]
    )
    assert top_keys("Tencent Foo Co., Ltd.", table) == top_keys("Tencent Foo", table)


def test_companies_with_a_legal_form_share_no_node(table):
    assert tops("Cerebras Systems, Inc.", table) != tops("KDDI Research, Inc.", table)


def test_a_campus_of_an_unknown_system_stays_in_its_identity(table):
    # "University of X, Y" is how systems name their campuses: without the table's knowledge the
    # campus stays in the key; it never becomes a node of its own
    assert institutions("University of Foo, Springfield", table) == [["University of Foo, Springfield"]]
    for first, second in (
        ("University of California, Merced", "University of California, Irvine"),
        ("University of Texas, Dallas", "University of Texas, Austin"),
        ("Indian Institute of Technology, Ropar", "Indian Institute of Technology, Gandhinagar"),
        ("State University of New York, Albany", "State University of New York, Buffalo"),
        ("National Institute of Technology, Quillon", "National Institute of Technology, Brakeport"),
        ("The University of Foo, Quillon", "The University of Foo, Brakeport"),
        ("Institute of Foo, Quillon", "Institute of Foo, Brakeport"),
    ):
        assert top_keys(first, table) != top_keys(second, table)


def test_the_ministry_that_funds_a_key_lab_is_no_level_of_it(table):
    written = "Key Laboratory of Looms, Ministry of Education, Loom University"
    assert institutions(written, table) == [["Key Laboratory of Looms", "Loom University"]]
    assert top_keys(written, table) == top_keys("Key Laboratory of Looms, Loom University", table)
    # near-misses: a ministry alone is an organisation; after another lab or a department, its parent
    assert institutions("Ministry of Education, China", table) == [["Ministry of Education"]]
    assert institutions("Weaving Science Laboratory, Ministry of Defence", table) == [
        ["Weaving Science Laboratory", "Ministry of Defence"]
    ]
    assert institutions("Department of Looms, Ministry of Health, Loom University", table) == [
        ["Department of Looms", "Ministry of Health", "Loom University"]
    ]


def test_an_address_keeps_what_identifies_an_institution(table):
    # the campus of "University of X, Y" stays, only its state and postcode go
    assert institutions("University of Foo, Springfield, IL 62701", table) == [["University of Foo, Springfield"]]
    assert institutions("University of Foo, Springfield IL", table) == [["University of Foo, Springfield"]]
    assert top_keys("University of Foo, Springfield, IL", table) != top_keys(
        "University of Foo, Shelbyville, IL", table
    )
    assert top_keys("Indian Institute of Foo, Northpur 721302, India", table) != top_keys(
        "Indian Institute of Foo, Southpur 140001, India", table
    )
    # a city with no state or postcode after it is not known to be an address
    assert institutions("Foo Institute, Paris, France", table) == [["Foo Institute, Paris"]]
    assert institutions("Institute for Logic, Language and Computation", table) == [
        ["Institute for Logic, Language and Computation"]
    ]
    # the table's "Northeastern University, China" is found behind a city and a postcode
    assert top_keys("Northeastern University, Shenyang 110819, China", table) != top_keys(
        "Northeastern University, Boston, MA 02115", table
    )


# ---------------------------------------------------------------- in the store, and on real listings

LISTING_OF_LABS = """ICML 2026

Paper One

Paper One

Ada Lovelace, Alan Turing

机构 * Google Brain ； Peking University, Tsinghua University 纠错

Paper Two

Paper Two

Grace Hopper

机构 * Research, Google ； Cerebras Systems, Inc. ； KDDI Research, Inc. 纠错

Paper Three

Paper Three

Edsger Dijkstra

机构 * Google ； Tsinghua University 纠错
"""


@pytest.fixture(scope="module")
def labs_store(tmp_path_factory):
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    listing = tmp_path_factory.mktemp("labs") / "labs.txt"
    listing.write_text(LISTING_OF_LABS, encoding="utf-8")
    store = KGStore("memory")
    ingest([listing], store, Minter())
    return store


def _papers_of(store, slug):
    from kg.vocab import sparql_prologue

    rows = store.query(
        sparql_prologue()
        + f"""SELECT DISTINCT ?title WHERE {{
        ?listed org:subOrganizationOf* <https://kg.example.org/id/institution/{slug}> .
        ?paper schema:sourceOrganization ?listed ; dcterms:title ?title }}"""
    )
    return sorted(str(title) for (title,) in rows)


def test_a_question_about_a_company_includes_its_labs(labs_store):
    assert _papers_of(labs_store, "google") == ["Paper One", "Paper Three", "Paper Two"]
    assert _papers_of(labs_store, "tsinghua-university") == [
        "Paper One",
        "Paper Three",
    ]  # two institutions in one entry
    assert _papers_of(labs_store, "peking-university") == ["Paper One"]
    assert _papers_of(labs_store, "inc") == []  # a legal form is no node


def test_quality_explains_merged_spellings_and_look_alikes(labs_store):
    from kg.quality.report import quality_report

    report = quality_report(labs_store)
    merged = {item["name"]: item["forms"] for item in report["institutions_merged"]}
    tsinghua = {form["written"]: form["how"] for form in merged["Tsinghua University"]}
    assert set(tsinghua) == {"Peking University, Tsinghua University", "Tsinghua University"}
    assert all("alias table" in how for how in tsinghua.values())
    assert report["counts"]["institutions_merged"] == len(report["institutions_merged"])


def test_quality_says_why_look_alikes_were_kept_apart():
    from kg.quality.report import lookalike_institutions

    pairs = lookalike_institutions(
        {"a": "University of Miami", "b": "Miami University", "c": "Foo University", "d": "University of Foo"}
    )
    why = {(pair["first"], pair["second"]): pair["why_apart"] for pair in pairs}
    assert "alias table lists both" in why[("University of Miami", "Miami University")]
    assert "another order" in why[("Foo University", "University of Foo")]


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["aistats2025", "corl2024"])
def test_real_listings_keep_spellings_together_and_institutions_apart(name):
    from structured_sources import realdata, truth

    listing = realdata(f"{name}_listing.txt")
    from eval.real_institutions import _build, institution_scores

    scores = institution_scores(_build(listing), truth(name))
    assert scores["pairs"] > 100
    assert scores["spelling_pairs_together"] >= 0.90, scores["pairs_apart"]
    assert scores["merging_nodes"] == 0, scores["merging_examples"]


def test_an_abbreviated_university_opening_a_comma_list_is_an_institution_not_a_unit(table):
    assert tops("Univ. Foostadt Alpes, Quuxton University", table) == ["Univ. Foostadt Alpes", "Quuxton University"]


def test_a_unit_word_that_ends_a_known_name_is_no_unit_of_the_next_part(table):
    # "Lab" ends the lab's name; cut after "Microsoft Research" it became "Stanford University Lab"
    assert institutions("Microsoft Research Lab, Loom University", table) == [
        ["Microsoft Research Lab", "Microsoft Research", "Microsoft"],
        ["Loom University"],
    ]


def test_a_legal_form_with_the_companys_acronym_in_brackets_ends_the_name(table):
    [[name]] = institutions("Loomworks Weaving Technology Co., Limited (LWT)", table)
    assert resolve_name("Loomworks Weaving Technology Co., Limited (LWT)", table).key == "loomworks weaving technology"
    assert name == "Loomworks Weaving Technology Co., Limited (LWT)"


def test_an_entry_without_a_letter_or_digit_names_nothing(table):
    assert institutions("---", table) == []


# ---------------------------------------------------------------- lists, separators and joins the rules read
@pytest.fixture(scope="module")
def empty():
    """A table that knows no institution: the rules alone, as on a conference the table does not cover."""
    return AliasTable({})


def test_french_co_supervisors_with_the_table(table):
    assert institutions("Univ. Grenoble Alpes, CNRS, Grenoble INP, LJK", table) == [
        ["LJK", "Université Grenoble Alpes"],
        ["CNRS"],
        ["Grenoble INP"],
    ]
    # the lab written with and without its number is one unit
    assert (
        top_keys("Sorbonne Université, LPSM, UMR 8001", table) == top_keys("Sorbonne Université, LPSM", table)
        and resolve_entries("Sorbonne Université, LPSM, UMR 8001", None, table)[0].levels[0].key
        == resolve_entries("Sorbonne Université, LPSM", None, table)[0].levels[0].key
    )


def test_ip_paris_is_no_other_name_of_ecole_polytechnique():
    # IP Paris groups École Polytechnique with four other schools: an institution of its own. The
    # table is read from this checkout: an editable install may point the package at another one's
    checkout = AliasTable(
        *read_alias_file(Path(__file__).resolve().parents[2] / "ontology" / "institution-aliases.tsv")
    )
    assert institutions(
        "Laboratoire d'Informatique (LIX), École Polytechnique, CNRS, Institut Polytechnique de Paris, "
        "Palaiseau, France",
        checkout,
    ) == [["Laboratoire d'Informatique (LIX)", "École Polytechnique"], ["CNRS"], ["Institut Polytechnique de Paris"]]
    assert not same("IP Paris", "Ecole Polytechnique", checkout)


def test_a_slash_or_ampersand_where_the_table_knows_the_parent(table):
    assert institutions("DeepMind/Google", table) == [["Google DeepMind", "Google"]]
    assert institutions("Google Brain Robotics & Columbia University", table) == [
        ["Google Brain Robotics", "Google Brain", "Google"],
        ["Columbia University"],
    ]
    assert institutions("ETH Zurich & WPI Weftburg", table) == [["ETH Zurich"], ["WPI Weftburg"]]
    assert institutions("Johnson & Johnson", table) == [["Johnson & Johnson"]]


@pytest.mark.slow
def test_institutions_run_together_by_the_hundred_are_cut_without_deep_recursion(table):
    # each cut used to recurse for the rest of the entry: 2,200 cuts passed Python's recursion limit
    entry = ", ".join(f"Alpha{i} University Beta{i} University" for i in range(1100))
    found = institutions(entry, table)
    assert len(found) == 2200 and found[:2] == [["Alpha0 University"], ["Beta0 University"]]


def test_a_comma_part_too_long_to_be_names_run_together_is_not_cut(table):
    # every cut of a part asked the whole name before it (brand_parent, itself quadratic): 1,000
    # capitalised words took minutes; a part longer than LONGEST_RUN_TOGETHER is no run of names
    # (its CPU time beside an ordinary entry's: bench/hostile_inputs.py)
    entry = " ".join(f"Alpha{i} University" if i % 7 == 0 else f"Word{i}" for i in range(1000))
    assert len(institutions(entry, table)) == 1


def test_a_unit_ending_with_its_institutions_name_awaits_none(table):
    # "…TU Darmstadt" ends the centre's name: what follows the '+' is another affiliation, not its parent
    assert institutions("Centre for Weaving TU Darmstadt + weave.ai + Loom University", table) == [
        ["Centre for Weaving TU Darmstadt"],
        ["weave.ai"],
        ["Loom University"],
    ]


def test_a_labs_number_beside_its_name_is_one_unit_with_it(empty):
    assert (
        resolve_entries("LTX UMR 1234, Loom University", None, empty)[0].levels[0].key
        == resolve_entries("UMR 1234 LTX, Loom University", None, empty)[0].levels[0].key
        == resolve_entries("LTX, Loom University", None, empty)[0].levels[0].key
    )


def test_a_unit_of_its_institution_keeps_the_tables_form(table):
    # the table knows "Institute of Automation, Chinese Academy of Sciences": one unit, under its parent
    assert institutions("Institute of Automation of Chinese Academy of Sciences", table) == [
        institutions("Institute of Automation, Chinese Academy of Sciences", table)[0]
    ]
    # an academy's unit "of" an academy the table knows
    [chain] = institutions("Academy of Mathematics and Systems Science of the Chinese Academy of Sciences", table)
    assert chain[0] == "Academy of Mathematics and Systems Science" and chain[-1] == "Chinese Academy of Sciences"


def test_a_university_of_a_place_before_a_unit_named_after_a_donor():
    entry = "University of Loomshire Warp School of Weaving"
    # the table knows where the university's name ends; the shape alone does not ("University of Novi Sad …")
    assert institutions(entry, AliasTable({"university of loomshire": "University of Loomshire"})) == [
        [entry, "University of Loomshire"]
    ]
    assert institutions(entry, AliasTable({})) == [[entry]]


def test_two_words_after_for_begin_no_list_before_places(empty):
    [[warp], [weft]] = [
        [level.key for level in chain.levels]
        for chain in (
            resolve_entries(entry, None, empty)[0]
            for entry in (
                "Institute for Intelligent Looms, Warpville and Weftburg",
                "Institute for Intelligent Looms, Warpville",
            )
        )
    ]
    assert warp == weft == "institute for intelligent looms"  # the places are where, not a part of the name


def test_a_company_run_together_after_an_addresss_country_is_cut(empty):
    assert institutions("Loom University, Warpville, China Zorblax.ai Inc", empty) == [
        ["Loom University, Warpville"],
        ["Zorblax.ai Inc"],
    ]


def test_u_of_a_letter_is_a_name_the_table_may_know(table):
    assert institutions("U of T", table) == [["University of Toronto"]]
