"""Institution rules: units of parents, aliases, normalisation, and the near-misses that must stay apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import InputError
from kg.orgs import aliases as alias_module
from kg.orgs.aliases import ALIASES_ENV, AliasTable, active_aliases, read_alias_file
from kg.orgs.institutions import resolve_entries, split_groups
from kg.orgs.org_names import is_acronym, resolve_name


@pytest.fixture(scope="module")
def table():
    return alias_module._load(None)


def levels(name, table, chinese=None):
    [chain] = resolve_entries(name, chinese, table)
    return [level.display for level in chain.levels], list(chain.chinese)


def institutions(name, table):
    """Each institution an entry names, as its levels (smallest first)."""
    return [[level.display for level in chain.levels] for chain in resolve_entries(name, None, table)]


@pytest.mark.parametrize("entry, expected", [
    ("Department of Mathematics, LMU Munich", ["Department of Mathematics", "Ludwig Maximilian University of Munich"]),
    ("Institute of Computer Science, LMU Munich", ["Institute of Computer Science", "Ludwig Maximilian University of Munich"]),
    ("ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University",
     ["ReLER", "The State Key Lab of Brain Machine Intelligence", "Zhejiang University"]),
    ("CITEC, Faculty of Technology, Bielefeld University", ["CITEC", "Faculty of Technology", "Bielefeld University"]),
    ("CFAR, Agency for Science, Technology and Research, Singapore", ["CFAR", "Agency for Science, Technology and Research"]),
    ("Zhejiang University, College of Computer Science", ["College of Computer Science", "Zhejiang University"]),
])
def test_comma_qualified_units_are_split_smallest_first(table, entry, expected):
    assert levels(entry, table)[0] == expected


@pytest.mark.parametrize("entry", [
    "University of California, Berkeley",               # a campus, not a unit
    "University of California, Merced",                 # not in the table: still a place qualifier
    "Agency for Science, Technology and Research, Singapore",  # commas inside the name
    "Massachusetts Institute of Technology, Cambridge, MA",    # city and state code
    "German Research Center for Artificial Intelligence (DFKI, DSA)",  # comma inside brackets
])
def test_names_with_commas_that_are_not_units_stay_whole(table, entry):
    assert [len(group) for group in split_groups(entry, table)] == [1]


def test_chinese_names_are_aligned_to_levels(table):
    assert levels("College of Artificial Intelligence, Zhejiang University", table, "人工智能学院，浙江大学")[1] == ["人工智能学院", "浙江大学"]
    # the untranslated acronym ReLER is skipped, the rest pairs from the end
    assert levels("ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University", table,
                  "脑机智能国家重点实验室，浙江大学")[1] == [None, "脑机智能国家重点实验室", "浙江大学"]
    # one Chinese name for a two-level entry belongs to the entry itself, not the parent
    assert levels("Department of Mathematics, LMU Munich", table, "慕尼黑大学数学系")[1] == ["慕尼黑大学数学系", None]


@pytest.mark.parametrize("written, canonical", [
    ("UIUC", "University of Illinois Urbana-Champaign"),
    ("University of Illinois at Urbana-Champaign", "University of Illinois Urbana-Champaign"),
    ("university of illinois urbana champaign", "University of Illinois Urbana-Champaign"),
    ("USTC", "University of Science and Technology of China"),
    ("MIT", "Massachusetts Institute of Technology"),
    ("KAIST", "Korea Advanced Institute of Science and Technology"),
    ("Caltech", "California Institute of Technology"),
    ("LMU", "Ludwig Maximilian University of Munich"),
    ("The Hong Kong University of Science and Technology", "Hong Kong University of Science and Technology"),
    ("Carnegie-Mellon University", "Carnegie Mellon University"),
    ("Tokyo University", "University of Tokyo"),          # swapped order, the table knows only one form
    ("Oxford University", "University of Oxford"),
    ("National Institute of Information and Communications Technology, Japan",
     "National Institute of Information and Communications Technology"),
    ("Munich Center for Machine Learning (MCML)", "Munich Center for Machine Learning"),
])
def test_aliases_and_normalisation_reach_the_canonical_name(table, written, canonical):
    assert resolve_name(written, table).canonical == canonical


@pytest.mark.parametrize("first, second", [
    ("University of Washington", "Washington University"),
    ("University of Miami", "Miami University"),
    ("University of Foo", "Foo University"),              # unknown to the table: word order never merges
    ("University of California, Berkeley", "University of California, Merced"),
    ("Technical University of Munich", "LMU Munich"),
    ("Hong Kong University of Science and Technology", "University of Hong Kong"),
])
def test_near_misses_stay_apart(table, first, second):
    assert resolve_name(first, table).key != resolve_name(second, table).key


def test_acronyms_are_not_hyphenated_given_names_or_places():
    assert is_acronym("CITEC") and is_acronym("ReLER") and is_acronym("VIA-SD") and is_acronym("A*STAR")
    assert not is_acronym("Tae-Kyun") and not is_acronym("McAllister") and not is_acronym("USA") and not is_acronym("MA")


def test_user_alias_file_extends_the_shipped_table(tmp_path, monkeypatch):
    user = tmp_path / "mine.tsv"
    user.write_text("# my lab\nIDSIA\tDalle Molle Institute for Artificial Intelligence\nMIT\tMy Institute of Things\n", encoding="utf-8")
    monkeypatch.setenv(ALIASES_ENV, str(user))
    table = active_aliases()
    assert resolve_name("idsia", table).canonical == "Dalle Molle Institute for Artificial Intelligence"
    assert resolve_name("MIT", table).canonical == "My Institute of Things"   # the user's line wins
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


@pytest.mark.parametrize("written, bare", [
    ("ByteDance Inc.", "Bytedance"),                       # legal form and case
    ("Allegro Sp. z o.o.", "Allegro"),
    ("ServiceNow Inc", "ServiceNow"),
    ("Foo Robotics GmbH", "Foo Robotics"),                 # a name the table does not know: the rule alone
    ("Bar Systems Co., Ltd.", "Bar Systems"),
    ("Baz Corp.", "Baz"),
])
def test_legal_forms_do_not_change_identity(table, written, bare):
    assert same(written, bare, table)


@pytest.mark.parametrize("entry", ["Cerebras Systems, Inc.", "KDDI Research, Inc.", "Meta Platforms, Inc.",
                                   "Foo Labs, Ltd.", "Qux Technologies, Co., Ltd."])
def test_a_legal_form_after_a_comma_is_never_an_organisation(table, entry):
    [[*_, top]] = institutions(entry, table)
    assert "inc" not in resolve_name(top, table).key.split() and "ltd" not in resolve_name(top, table).key.split()


@pytest.mark.parametrize("entry, shown", [
    ("Foo Vision Technology Co., Ltd", "Foo Vision Technology Co., Ltd"),    # the legal form ends the name shown
    ("Bar Robotics, Inc., Springfield, MA", "Bar Robotics, Inc."),
    ("Baz Institute of Studies‡", "Baz Institute of Studies"),                # a footnote mark is no part of it
    ("Baz Institute of Studies\u2660", "Baz Institute of Studies"),
    ("\u2662Baz Institute of Studies\u2605", "Baz Institute of Studies"),
    ("†Qux Laboratory", "Qux Laboratory"),
    ("Quux Research Center*", "Quux Research Center"),
    ("Quux Labs India (Work was done prior to joining Quux)", "Quux Labs India"),  # a note about the author
    ("Quux Labs (work done during an internship)", "Quux Labs"),
    # near-miss: a bracketed name keeps its few lower-case joining words
    ("Quux Labs (School of Looms and Weaving of Quux)", "Quux Labs (School of Looms and Weaving of Quux)"),
])
def test_the_name_shown_is_the_whole_name_without_marks(table, entry, shown):
    [[top]] = institutions(entry, table)
    assert top == shown


def test_a_unit_with_a_footnote_mark_is_the_unit_without_it(table):
    assert institutions("Dept. of Botany‡, Stanford University", table) == [["Dept. of Botany", "Stanford University"]]
    assert institutions("Corge Lab*, Foo University", table) == institutions("Corge Lab, Foo University", table)
    assert institutions("A*STAR", table) == [["Agency for Science, Technology and Research"]]   # a mark inside a name stays


def test_a_company_with_and_without_its_legal_form_is_one_node(table):
    # "Tencent Foo" is a unit of Tencent; so is "Tencent Foo Co., Ltd." (same key, same chain)
    assert institutions("Tencent Foo Co., Ltd.", table)[0][1:] == institutions("Tencent Foo", table)[0][1:] == ["Tencent"]
    assert top_keys("Tencent Foo Co., Ltd.", table) == top_keys("Tencent Foo", table)


def test_companies_with_a_legal_form_share_no_node(table):
    assert tops("Cerebras Systems, Inc.", table) != tops("KDDI Research, Inc.", table)


@pytest.mark.parametrize("entry, top", [
    ("University of Washington, Seattle", "University of Washington"),
    ("University of Maryland, College Park", "University of Maryland, College Park"),
    ("Texas A&M University - College Station", "Texas A&M University"),
    ("KTH Royal Institute of Technology, Stockholm, Sweden", "KTH Royal Institute of Technology"),
    ("University of Michigan - Ann Arbor", "University of Michigan"),
    ("University of Minnesota, Minneapolis", "University of Minnesota"),
    ("University of Texas, Austin", "University of Texas at Austin"),
    ("Newcastle University, UK", "Newcastle University"),
])
def test_campus_city_and_country_qualify_and_are_never_organisations(table, entry, top):
    assert institutions(entry, table) == [[top]]


def test_a_campus_of_an_unknown_system_stays_in_its_identity(table):
    # "University of X, Y" is how systems name their campuses: without the table's knowledge the
    # campus stays in the key; it never becomes a node of its own
    assert institutions("University of Foo, Springfield", table) == [["University of Foo, Springfield"]]
    for first, second in (("University of California, Merced", "University of California, Irvine"),
                          ("University of Texas, Dallas", "University of Texas, Austin"),
                          ("Indian Institute of Technology, Ropar", "Indian Institute of Technology, Gandhinagar"),
                          ("State University of New York, Albany", "State University of New York, Buffalo"),
                          ("National Institute of Technology, Quillon", "National Institute of Technology, Brakeport"),
                          ("The University of Foo, Quillon", "The University of Foo, Brakeport"),
                          ("Institute of Foo, Quillon", "Institute of Foo, Brakeport")):
        assert top_keys(first, table) != top_keys(second, table)


@pytest.mark.parametrize("written, bare", [
    ("Foo University, Springfield", "Foo University"),          # an "X University" is one university
    ("Bar State University, Barville", "Bar State University"),
    ("Baz University - Bazton", "Baz University"),
    ("Qux Institute of Technology, Qux", "Qux Institute of Technology"),   # a repeated word adds nothing
    # a name of its own is one organisation wherever it is: a campus, a province, a lab's site
    ("Zorblax Institute of Technology (ZIT), Weihai, Shandong, China", "Zorblax Institute of Technology"),
    ("Zorblax Research, Yorktown Heights", "Zorblax Research"),
    ("Zorblax Research - Tokyo", "Zorblax Research"),
    ("Quillon Academy of Sciences, Brakeport", "Quillon Academy of Sciences"),
    ("Technical University of Quillon, Garchton", "Technical University of Quillon"),
])
def test_the_place_of_one_university_is_not_part_of_its_identity(table, written, bare):
    assert top_keys(written, table) == top_keys(bare, table)


@pytest.mark.parametrize("written, bare", [
    ("Zorblax Lab, Quux Technologies", "Zorblax Lab"),            # a lab's unknown parent, not its place
    ("ZWS AI Labs, Quillon", "ZWS AI Labs"),                      # "Labs" and "Laboratories" too
    ("ZWS AI Labs (Quillon)", "ZWS AI Labs"),                     # the parent in brackets
    ("Zorblax Laboratories, Quillon", "Zorblax Laboratories"),
    ("Zorblax Research, Quux Technologies", "Zorblax Research"),  # a company's word: an organisation
    ("Zorblax Research, QRX", "Zorblax Research"),                # an acronym: an organisation
])
def test_an_organisation_after_a_name_is_no_place_to_leave_out(table, written, bare):
    assert top_keys(written, table) != top_keys(bare, table)


@pytest.mark.parametrize("entry, expected", [
    ("Quux, Zorblax Team", [["Zorblax Team", "Quux"]]),                            # a team is a unit, written after
    ("Google Research, Brain Team", [["Brain Team", "Google Research", "Google"]]),
    ("Quux Electronics Incorporated, ZRX", [["ZRX", "Quux Electronics Incorporated"]]),  # a legal form: the company
    ("Zorblax AI Lab, Quux Information Limited", [["Zorblax AI Lab", "Quux Information Limited"]]),  # no place
    ("Quux Holdings PLC, Zorblax Lab", [["Zorblax Lab", "Quux Holdings PLC"]]),
])
def test_a_company_named_with_its_legal_form_is_the_top_of_its_chain(table, entry, expected):
    assert institutions(entry, table) == expected


def test_the_ministry_that_funds_a_key_lab_is_no_level_of_it(table):
    written = "Key Laboratory of Looms, Ministry of Education, Loom University"
    assert institutions(written, table) == [["Key Laboratory of Looms", "Loom University"]]
    assert top_keys(written, table) == top_keys("Key Laboratory of Looms, Loom University", table)
    # near-misses: a ministry alone is an organisation; after another lab or a department, its parent
    assert institutions("Ministry of Education, China", table) == [["Ministry of Education"]]
    assert institutions("Weaving Science Laboratory, Ministry of Defence", table) == [
        ["Weaving Science Laboratory", "Ministry of Defence"]]
    assert institutions("Department of Looms, Ministry of Health, Loom University", table) == [
        ["Department of Looms", "Ministry of Health", "Loom University"]]


@pytest.mark.parametrize("written, bare", [
    ("Foo Robotics Laboratories, Springfield, MA", "Foo Robotics Laboratories"),   # city, US state code
    ("Bar and Baz Institute, Lakeside, CA 90210", "Bar and Baz Institute"),         # city, state and ZIP code
    ("Qux Research, Riverton NJ, USA", "Qux Research"),                             # city and state in one part
    ("Quux Labs, Hilltown, Oregon", "Quux Labs"),                                   # a state's name
    ("Corge Institute for Studies, 12345 Neustadt, Germany", "Corge Institute for Studies"),  # postcode before the city
    ("Grault Research Centre, Shantown 100200, China", "Grault Research Centre"),   # postcode after the city
    ("Garply Technology, NSW, Australia", "Garply Technology"),                     # an Australian state's code
    ("Waldo Labs, Brakeport, ON, Canada", "Waldo Labs"),                            # a Canadian province's
    ("Fred Institute, Kingsbay, QC", "Fred Institute"),
    ("Plugh Research, Dunmore VIC 3000", "Plugh Research"),                          # city, state, 4-digit postcode
    ("Xyzzy Lab, Hilltown, Ontario", "Xyzzy Lab"),                                  # a province's name
    ("Thud Institute, Brakeport, ON N2L 3G1, Canada", "Thud Institute"),            # a Canadian postcode after the code
    ("Thud Institute, Brakeport QC H3A 0G4", "Thud Institute"),
])
def test_a_postal_address_after_a_name_is_neither_its_identity_nor_its_name(table, written, bare):
    assert institutions(written, table) == [[bare]]


@pytest.mark.parametrize("entry, expected", [
    ("NSW Foo Agency", [["NSW Foo Agency"]]),                 # a state's code in a name is part of it
    ("ACT Lab, Foo University", [["ACT Lab", "Foo University"]]),
    ("ON Foo Semiconductor", [["ON Foo Semiconductor"]]),
    # the smaller provinces' and states' codes are organisations' acronyms too: no address
    ("T-Loom, SK Telecom", [["T-Loom", "SK Telecom"]]),
    ("Department of Looms, NU", [["Department of Looms", "NU"]]),
])
def test_a_region_code_inside_a_name_stays_in_it(table, entry, expected):
    assert institutions(entry, table) == expected


def test_an_address_keeps_what_identifies_an_institution(table):
    # the campus of "University of X, Y" stays, only its state and postcode go
    assert institutions("University of Foo, Springfield, IL 62701", table) == [["University of Foo, Springfield"]]
    assert institutions("University of Foo, Springfield IL", table) == [["University of Foo, Springfield"]]
    assert top_keys("University of Foo, Springfield, IL", table) != top_keys("University of Foo, Shelbyville, IL", table)
    assert top_keys("Indian Institute of Foo, Northpur 721302, India", table) \
        != top_keys("Indian Institute of Foo, Southpur 140001, India", table)
    # a city with no state or postcode after it is not known to be an address
    assert institutions("Foo Institute, Paris, France", table) == [["Foo Institute, Paris"]]
    assert institutions("Institute for Logic, Language and Computation", table) == [["Institute for Logic, Language and Computation"]]
    # the table's "Northeastern University, China" is found behind a city and a postcode
    assert top_keys("Northeastern University, Shenyang 110819, China", table) \
        != top_keys("Northeastern University, Boston, MA 02115", table)


@pytest.mark.parametrize("entry, expected", [
    ("Peking University, Tsinghua University", ["Peking University", "Tsinghua University"]),
    ("Tokyo University, Tokyo Institute of Technology", ["University of Tokyo", "Tokyo Institute of Technology"]),
    ("Xiamen University, Tsinghua University", ["Xiamen University", "Tsinghua University"]),
    ("Chalmers University of Technology and University of Gothenburg",
     ["Chalmers University of Technology", "University of Gothenburg"]),
    ("International Business Machines+Rensselaer Polytechnic Institute", ["IBM", "Rensselaer Polytechnic Institute"]),
    ("Foo University, Bar University", ["Foo University", "Bar University"]),
    ("University College London, University of London", ["University College London", "University of London"]),
    ("Heidelberg University, Ruprecht-Karls-Universität Barstadt", ["Heidelberg University", "Ruprecht-Karls-Universität Barstadt"]),
    # each with its country: the name before "and" is the one before the country
    ("Foo University, UK and Bar University, Germany", ["Foo University", "Bar University"]),
    ("Lab of Looms, Foo University, Germany and Bar Institute of Technology, Germany",
     ["Foo University", "Bar Institute of Technology"]),
])
def test_a_string_naming_two_institutions_gives_two(table, entry, expected):
    assert tops(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    ("University of Science and Technology of China", [["University of Science and Technology of China"]]),
    ("Nanjing University of Science and Technology", [["Nanjing University of Science and Technology"]]),
    ("Department of Electrical and Computer Engineering, Rice University",
     [["Department of Electrical and Computer Engineering", "Rice University"]]),
    ("Electrical Engineering & Computer Science, Foo University", [["Electrical Engineering & Computer Science", "Foo University"]]),
    ("Agency for Science, Technology and Research", [["Agency for Science, Technology and Research"]]),
    # near-miss: a country ends no name that "and" continues
    ("Department of Looms, Germany and Austria", [["Department of Looms, Germany and Austria"]]),
])
def test_and_or_ampersand_inside_one_name_does_not_split_it(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    ("The University of Tokyo, Graduate School of Information Science and Technology",
     ["Graduate School of Information Science and Technology", "University of Tokyo"]),
    ("Sorbonne Université, LPSM", ["LPSM", "Sorbonne Université"]),
    ("Amazon, AWS AI Labs", ["AWS AI Labs", "Amazon Web Services", "Amazon"]),
    ("AWS AI Labs (Amazon)", ["AWS AI Labs", "Amazon Web Services", "Amazon"]),
    ("Google DeepMind, Google", ["Google DeepMind", "Google"]),
])
def test_a_unit_and_its_parent_are_never_inverted(table, entry, expected):
    assert institutions(entry, table) == [expected]


@pytest.mark.parametrize("entry, expected", [
    ("Technion - Israel Institute of Technology, Technion", [["Technion - Israel Institute of Technology"]]),
    ("ETHZ - ETH Zurich", [["ETH Zurich"]]),
    ("Disney Research, Disney Research", [["Disney Research", "The Walt Disney Company"]]),
    ("University of Oxford, University of Oxford", [["University of Oxford"]]),
    ("Edinburgh University, University of Edinburgh", [["University of Edinburgh"]]),
    ("Foo Institute of Technology, Foo Institute of Technology", [["Foo Institute of Technology"]]),
    ("IIIS, Tsinghua University, Tsinghua University", [["IIIS", "Tsinghua University"]]),
    ("Research, Google", [["Google Research", "Google"]]),
    ("Foo University, University of Foo", [["University of Foo"]]),        # doubled in swapped order
    ("Foovia - Institute of Technology of Foo", [["Foovia - Institute of Technology of Foo"]]),  # a name and its gloss
])
def test_doubled_and_reversed_strings_are_one_institution(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("first, second", [
    ("KAUST", "King Abdullah University of Science and Technology"),
    ("MBZUAI", "Mohamed bin Zayed University of Artificial Intelligence"),
    ("Polytechnic University of Milan (POLIMI)", "Politecnico di Milano"),
    ("Foo Institute for Robotics (FIR)", "Foo Institute for Robotics"),       # an acronym that fits: the rule
    ("Universität Freiburg", "University of Freiburg"),                       # native-language forms
    ("Universität Wien", "University of Vienna"),
    ("Università di Torino", "University of Turin"),
    ("Göteborg University", "University of Gothenburg"),
    ("Universität Köln", "University of Cologne"),
    ("TU Darmstadt", "Technische Universität Darmstadt"),
    ("TU Foostadt", "Technische Universität Foostadt"),                       # not in the table: the rule
    ("Universidad de Foo", "University of Foo"),
    ("Toronto University", "University of Toronto"),                          # word order, table knows one
    ("Copenhagen University", "University of Copenhagen"),
    ("Bytedance", "ByteDance Inc."),
    ("INRIA", "Inria"),
    ("UT Austin", "University of Texas at Austin"),
    ("Helmholtz Zentrum München", "Helmholtz Munich"),
    ("Foo Jiaotong University", "Foo Jiao Tong University"),                # romanised syllables, any Jiao Tong
    ("Shanghai Jiaotong University", "Shanghai Jiao Tong University"),
    ("Foo Chiaotung University", "Foo Chiao Tung University"),
    ("Tsinghua Univeresity", "Tsinghua University"),                        # a kind word misspelt: one letter added
    ("Ben-Gurion Universtiy of the Negev", "Ben-Gurion University of the Negev"),  # two swapped
    ("Foo Insitute of Technology", "Foo Institute of Technology"),          # one dropped, not in the table
    ("INSTATUTE OF FOO ENGINEERING", "Institute of Foo Engineering"),       # one changed
    ("Foo Laboratroy", "Foo Laboratory"),
])
def test_spellings_of_one_institution_share_a_key(table, first, second):
    assert same(first, second, table)


@pytest.mark.parametrize("first, second", [
    ("University of Washington", "Washington University in St. Louis"),
    ("Universidad de Chile", "Universidad Católica de Chile"),
    ("Northeastern University", "Northeastern University, China"),
    ("KU Leuven", "UCLouvain"),
    ("Ohio State University", "Ohio University"),
    ("Foo Robotics", "Foo Robotics Institute"),
    ("ENS Lyon", "École Normale Supérieure"),
    ("Technical University of Munich", "Technical University of Denmark"),
    ("Beijing Jiaotong University", "Shanghai Jiao Tong University"),
    ("Foo Jiao University", "Foo Tong University"),
    ("Rational Foo Lab", "National Foo Lab"),                               # a name's word, not a kind word: no misspelling
    ("Departement Foo", "Department Foo"),                                  # another language's word, one letter away
    ("Foo Institutet", "Foo Institute"),                                    # another language's ending
    ("National Institutes of Foo", "National Institute of Foo"),            # a plural
    ("Oniversity of Foo", "University of Foo"),                             # the first letter is never the slip
    ("Foo Universities", "Foo University"),                                 # two letters away
])
def test_look_alikes_of_different_institutions_stay_apart(table, first, second):
    assert not same(first, second, table)
    assert top_keys(first, table) != top_keys(second, table)


@pytest.mark.parametrize("entry, expected", [
    ("Google Brain", ["Google Brain", "Google"]),
    ("Google Brain Robotics", ["Google Brain Robotics", "Google Brain", "Google"]),
    ("Robotics at Google", ["Robotics at Google", "Google"]),
    ("Adobe Research", ["Adobe Research", "Adobe"]),
    ("Intel Labs", ["Intel Labs", "Intel"]),
    ("Amazon Development Center Germany", ["Amazon Development Center Germany", "Amazon"]),
    ("DeepMind", ["Google DeepMind", "Google"]),
    ("Microsoft (ABK)", ["Microsoft (ABK)", "Microsoft"]),
    ("Max Planck Institute for Intelligent Systems, Max-Planck Institute",
     ["Max Planck Institute for Intelligent Systems", "Max Planck Society"]),
])
def test_labs_brands_and_divisions_are_units_of_their_parent(table, entry, expected):
    assert institutions(entry, table) == [expected]


@pytest.mark.parametrize("entry", [
    "MIT-IBM Watson AI Lab",                      # a joint lab: not a unit across the hyphen
    "Penn State University",                      # the rest of the name makes an institution of its own
    "Toyota Technological Institute at Chicago",
    "Oxford Brookes University",
    "Intelligent Systems Lab",                    # a word that begins with a company's name
    "Stanford Medicine Foo",                      # a university's name says too little to make a unit
])
def test_names_that_begin_like_another_organisation_are_not_its_units(table, entry):
    assert len(institutions(entry, table)[0]) == 1


@pytest.mark.parametrize("entry, expected", [
    ("Research, Google", [["Google Research", "Google"]]),          # the table knows the company
    ("Research, Zorblax", [["Zorblax Research"]]),                  # no rule knows it: still its lab's name
    ("AI Lab, Zorblax", [["Zorblax AI Lab"]]),
])
def test_a_lab_word_before_a_name_is_the_lab_of_that_name(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, reordered", [
    ("Research, Germany", "Germany Research"),                      # a country is no company
    ("Research, Seattle, WA", "Seattle Research"),                  # nor an address
    ("Labs, Department of Physics", "Department of Physics Labs"),  # nor an organisation's unit
])
def test_a_lab_word_before_a_place_or_a_unit_is_not_reordered(table, entry, reordered):
    assert all(reordered not in chain for chain in institutions(entry, table))


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
    rows = store.query(sparql_prologue() + f"""SELECT DISTINCT ?title WHERE {{
        ?listed org:subOrganizationOf* <https://kg.example.org/id/institution/{slug}> .
        ?paper schema:sourceOrganization ?listed ; dcterms:title ?title }}""")
    return sorted(str(title) for title, in rows)


def test_a_question_about_a_company_includes_its_labs(labs_store):
    assert _papers_of(labs_store, "google") == ["Paper One", "Paper Three", "Paper Two"]
    assert _papers_of(labs_store, "tsinghua-university") == ["Paper One", "Paper Three"]   # two institutions in one entry
    assert _papers_of(labs_store, "peking-university") == ["Paper One"]
    assert _papers_of(labs_store, "inc") == []                                             # a legal form is no node


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
    pairs = lookalike_institutions({"a": "University of Miami", "b": "Miami University",
                                    "c": "Foo University", "d": "University of Foo"})
    why = {(pair["first"], pair["second"]): pair["why_apart"] for pair in pairs}
    assert "alias table lists both" in why[("University of Miami", "Miami University")]
    assert "another order" in why[("Foo University", "University of Foo")]


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["aistats2025", "corl2024"])
def test_real_listings_keep_spellings_together_and_institutions_apart(name):
    from structured_sources import truth, realdata

    listing = realdata(f"{name}_listing.txt")
    from eval.real_institutions import _build, institution_scores
    scores = institution_scores(_build(listing), truth(name))
    assert scores["pairs"] > 100
    assert scores["spelling_pairs_together"] >= 0.90, scores["pairs_apart"]
    assert scores["merging_nodes"] == 0, scores["merging_examples"]


@pytest.mark.parametrize("abbreviated, written", [
    ("Univ. Foostadt Alpes", "Université Foostadt Alpes"),
    ("Univ Barville", "Université de Barville"),
    ("Univ. de Barville", "Universidad de Barville"),
    ("Univ. of Quuxton", "University of Quuxton"),
])
def test_univ_abbreviates_university(table, abbreviated, written):
    assert resolve_name(abbreviated, table).key == resolve_name(written, table).key


@pytest.mark.parametrize("first, second", [
    ("Univision Foostadt", "University Foostadt"),  # a word that begins with "univ" is no abbreviation
    ("Univ. of Quuxton", "Quuxton Institute"),
])
def test_univ_near_misses_stay_apart(table, first, second):
    assert resolve_name(first, table).key != resolve_name(second, table).key


def test_an_abbreviated_university_opening_a_comma_list_is_an_institution_not_a_unit(table):
    assert tops("Univ. Foostadt Alpes, Quuxton University", table) == ["Univ. Foostadt Alpes", "Quuxton University"]


@pytest.mark.parametrize("entry, expected", [
    # one complete institution followed by another with only a space between them
    ("Peking University Tsinghua University", [["Peking University"], ["Tsinghua University"]]),
    ("Zhejiang University The University of Tokyo", [["Zhejiang University"], ["University of Tokyo"]]),
    ("McGill University Vector Institute", [["McGill University"], ["Vector Institute"]]),
    ("Loom University Weave Labs AB Uppsala University", [["Loom University"], ["Weave Labs AB"], ["Uppsala University"]]),
    ("Microsoft Research Asia Peking University",
     [["Microsoft Research Asia", "Microsoft Research", "Microsoft"], ["Peking University"]]),
    ("Institute of Looms, Chinese Academy of Sciences University of Chinese Academy of Sciences",
     [["Institute of Looms", "Chinese Academy of Sciences"], ["University of Chinese Academy of Sciences"]]),
    ("Loom University Fraunhofer IWS", [["Loom University"], ["Fraunhofer IWS", "Fraunhofer Society"]]),  # a known organisation's lab
    # a unit of the next comma part's institution after a known institution, or after the city that ends one
    ("Institute of Looms, Chinese Academy of Sciences School of Weaving, University of Chinese Academy of Sciences",
     [["Institute of Looms", "Chinese Academy of Sciences"], ["School of Weaving", "University of Chinese Academy of Sciences"]]),
    ("Center for Warps, Loom Institute of Technology, Loomtown Center for Wefts, Loom Institute of Technology, Loomtown",
     [["Center for Warps", "Loom Institute of Technology, Loomtown"], ["Center for Wefts", "Loom Institute of Technology, Loomtown"]]),
    # an address's country followed by the next affiliation
    ("Institute of Weaving, Chinese Academy of Sciences, Beijing, China School of Looms, Zhejiang University, Hangzhou, China",
     [["Institute of Weaving", "Chinese Academy of Sciences"], ["School of Looms", "Zhejiang University"]]),
])
def test_institutions_joined_by_a_bare_space_are_cut(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry", [
    "Peking University Shenzhen Graduate School",        # a unit after its university
    "Tsinghua University Shenzhen International Graduate School",
    "Washington University in St. Louis",
    "New York University Abu Dhabi",                     # a campus
    "Google DeepMind",                                   # a name the table knows
    "University College London",
    "University of California Berkeley",                 # a system and its campus
    "Oxford Brookes University",                         # a place a university is named after, then a university
    "Sony Group Corporation",                            # a legal form alone is no institution
    "Loom University Weave Labs",                        # a lab nothing says is an institution of its own
    "ETHZ - ETH Zurich",
    "College of Science, China University of Petroleum, Beijing",  # a country word that begins a name
    "Tsinghua University School of Looms, Beijing",      # a unit of the university before it: no institution follows
])
def test_names_that_only_look_joined_stay_one(table, entry):
    assert len(institutions(entry, table)) == 1


@pytest.mark.parametrize("entry, expected", [
    ("Warp Lab, Loom Institute of Technology, and Weft Centre, Loom Institute of Technology",
     [["Warp Lab", "Loom Institute of Technology"], ["Weft Centre", "Loom Institute of Technology"]]),
    ("Department of Looms, Loom University, and ZRX", [["Department of Looms", "Loom University"], ["ZRX"]]),
    # near-misses: no comma before "and", or "and" inside one name's list of subjects
    ("Warp and Weft Lab, Loom University", [["Warp and Weft Lab", "Loom University"]]),
    ("Department of Mechanical, Materials, and Aerospace Engineering, Loom University",
     [["Department of Mechanical, Materials, and Aerospace Engineering", "Loom University"]]),
])
def test_and_after_a_comma_begins_the_list_s_last_affiliation(table, entry, expected):
    assert institutions(entry, table) == expected


def test_a_unit_word_that_ends_a_known_name_is_no_unit_of_the_next_part(table):
    # "Lab" ends the lab's name; cut after "Microsoft Research" it became "Stanford University Lab"
    assert institutions("Microsoft Research Lab, Loom University", table) == [
        ["Microsoft Research Lab", "Microsoft Research", "Microsoft"], ["Loom University"]]


@pytest.mark.parametrize("entry, expected", [
    ("Institute for Logic, Language and Computation (ILLC), University of Amsterdam",
     [["Institute for Logic, Language and Computation (ILLC)", "University of Amsterdam"]]),
    ("School of Weaving, Warping and Spinning, Loom University", [["School of Weaving, Warping and Spinning", "Loom University"]]),
    # two words after "for" where the list's end names subjects alone
    ("Weaving Research Center for Visual Looms, Interaction and AI", [["Weaving Research Center for Visual Looms, Interaction and AI"]]),
    # near-misses: a unit of its own, a country with "and"
    ("Department of Weaving, Warp and Weft Lab, Loom University", [["Department of Weaving", "Warp and Weft Lab", "Loom University"]]),
    ("University of Loomshire, Trinidad and Tobago", [["University of Loomshire"]]),
    # the list's last part with the name's acronym; more than two subjects; the Romance languages' "di", "e", "y"
    ("Department of Weaving, Warping and Spinning (DWWS), Loom University",
     [["Department of Weaving, Warping and Spinning (DWWS)", "Loom University"]]),
    ("Department of Weaving, Bioengineering, Robotics and Spinning (DWBRS), Loom University",
     [["Department of Weaving, Bioengineering, Robotics and Spinning (DWBRS)", "Loom University"]]),
    ("Dipartimento di Tessitura, Filatura e Bioingegneria (DTFB), Università di Loom",
     [["Dipartimento di Tessitura, Filatura e Bioingegneria (DTFB)", "Università di Loom"]]),
    ("Dipartimento di Tessitura, Bioingegneria, Robotica e Filatura (DTBRF), Università di Loom",
     [["Dipartimento di Tessitura, Bioingegneria, Robotica e Filatura (DTBRF)", "Università di Loom"]]),
    ("Departamento de Tejido, Robótica y Computación (DTRC), Universidad de Loom",
     [["Departamento de Tejido, Robótica y Computación (DTRC)", "Universidad de Loom"]]),
    # near-misses of a university named after its place: one named after subjects, another language's
    ("University of Sciences, Weaving and Technologies", [["University of Sciences, Weaving and Technologies"]]),
    ("Hochschule für Technik, Wirtschaft und Gestaltung", [["Hochschule für Technik, Wirtschaft und Gestaltung"]]),
])
def test_commas_that_list_a_names_subjects_stay_in_the_name(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, apart", [
    # a place's name between the subjects ends the list ("Warpton" is no subject's name)
    ("Department of Weaving, Warpton, Spinning and Dyeing (DWSD), Loom University", ("Warpton", "Dyeing")),
    # two words after "for": the list would take places
    ("Loom Institute for Intelligent Weaving, Warpton and Weftburg (LIIW), Loom University", ("Intelligent Weaving", "Weftburg")),
    # a university named after its place ends there: the subjects after it are its department
    ("University of Oxford, Weaving and Spinning", ("Oxford", "Spinning")),
])
def test_a_list_of_subjects_takes_no_place_name_in(table, entry, apart):
    assert not any(all(word in level for word in apart) for chain in institutions(entry, table) for level in chain)


@pytest.mark.parametrize("entry, expected", [
    ("Google Research, Princeton", [["Google Research", "Google"]]),   # where the company's lab is
    ("Google Research, Princeton, NJ", [["Google Research", "Google"]]),
    # after a unit of a university it is the university ("Department of …, Stanford")
    ("Department of Weaving, Stanford", [["Department of Weaving", "Stanford University"]]),
    ("Department of Weaving, Stanford, and Google", [["Department of Weaving", "Stanford University"], ["Google"]]),
    # near-misses: after a university or institute it is another university; alone it is the university
    ("Massachusetts Institute of Technology, Harvard", [["Massachusetts Institute of Technology"], ["Harvard University"]]),
    ("Stanford University, Princeton", [["Stanford University"], ["Princeton University"]]),
    ("Princeton", [["Princeton University"]]),
])
def test_a_universitys_place_after_a_company_is_where_the_company_is(table, entry, expected):
    assert institutions(entry, table) == expected


def test_a_legal_form_with_the_companys_acronym_in_brackets_ends_the_name(table):
    [[name]] = institutions("Loomworks Weaving Technology Co., Limited (LWT)", table)
    assert resolve_name("Loomworks Weaving Technology Co., Limited (LWT)", table).key == "loomworks weaving technology"
    assert name == "Loomworks Weaving Technology Co., Limited (LWT)"


@pytest.mark.parametrize("entry, expected", [
    ("Technische Universität Berlin, Faculty IV", [["Faculty IV", "Technische Universität Berlin"]]),
    ("Loom University, Lab 2", [["Lab 2", "Loom University"]]),
    # near-miss: an organisation word and a name is a place ("College Park")
    ("University of Maryland, College Park", [["University of Maryland, College Park"]]),
])
def test_a_numbered_unit_is_no_place(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    # '+' as a list's comma: a unit before its institution, a legal form, a campus the table knows
    ("School of Weaving+Loom University", [["School of Weaving", "Loom University"]]),
    ("School of Weaving+WLR+Loom University", [["School of Weaving", "WLR", "Loom University"]]),
    ("State Key Laboratory of Looms+Loom University+Institute of Warps+Tsinghua University",
     [["State Key Laboratory of Looms", "Loom University"], ["Institute of Warps", "Tsinghua University"]]),
    ("Department of Warp+and Weft Institute+Loom University", [["Department of Warp", "Weft Institute", "Loom University"]]),
    ("Difference Engines Co.+Ltd.", [["Difference Engines Co., Ltd."]]),
    ("University of California+Santa Barbara", [["University of California, Santa Barbara"]]),
    # a graduate or doctoral school, before a university: its unit
    ("Graduate School of Weaving+Loom University", [["Graduate School of Weaving", "Loom University"]]),
    ("Weaving Graduate School+Loom University", [["Weaving Graduate School", "Loom University"]]),
    ("Doctoral School Weaving+Loom Institute of Science and Technology",
     [["Doctoral School Weaving", "Loom Institute of Science and Technology"]]),
    # near-misses: '+' between an author's affiliations; a name that only ends in "School" is its own
    ("Loom University+Weave AI", [["Loom University"], ["Weave AI"]]),
    ("University of Pennsylvania+Amazon", [["University of Pennsylvania"], ["Amazon"]]),
    ("Higher School of Weaving+Loom University", [["Higher School of Weaving"], ["Loom University"]]),
    ("Quillon School of Weaving+Loom University", [["Quillon School of Weaving"], ["Loom University"]]),  # may be its own
    ("Yale School of Medicine+Harvard University", [["Yale School of Medicine", "Yale University"], ["Harvard University"]]),
    ("Weaving Graduate School+Loom Inc.", [["Weaving Graduate School"], ["Loom Inc."]]),
    ("London School of Economics+University of Oxford", [["London School of Economics and Political Science"],
                                                         ["University of Oxford"]]),
    ("Alan Turing Institute+University of Cambridge", [["The Alan Turing Institute"], ["University of Cambridge"]]),
])
def test_a_plus_is_a_comma_where_the_parts_show_it(table, entry, expected):
    assert institutions(entry, table) == expected


def test_an_entry_without_a_letter_or_digit_names_nothing(table):
    assert institutions("---", table) == []


# ---------------------------------------------------------------- lists, separators and joins the rules read
@pytest.fixture(scope="module")
def empty():
    """A table that knows no institution: the rules alone, as on a conference the table does not cover."""
    return AliasTable({})


@pytest.mark.parametrize("entry, expected", [
    # a French lab's co-supervisors side by side, the lab a unit of the first, its UMR number no unit
    ("Univ. Grenoble Alpes, CNRS, Grenoble INP, LJK", [["LJK", "Univ. Grenoble Alpes"], ["CNRS"], ["Grenoble INP"]]),
    ("Sorbonne Université, CNRS, LIP6", [["LIP6", "Sorbonne Université"], ["CNRS"]]),
    ("Université Paris-Saclay, CNRS, Inria, LISN", [["LISN", "Université Paris-Saclay"], ["CNRS"], ["Inria"]]),
    ("Univ Lyon, INSA Lyon, CNRS, LIRIS, UMR 5205", [["LIRIS", "Univ Lyon"], ["INSA Lyon"], ["CNRS"]]),
    ("Université de Loomville, Inria, LTX, UMR CNRS 1234", [["LTX", "Université de Loomville"], ["Inria"]]),
    ("Sorbonne Université, LPSM, UMR 8001", [["LPSM", "Sorbonne Université"]]),
    ("CNRS, Institut de Tissage, Loom University", [["Institut de Tissage", "CNRS"], ["Loom University"]]),
    # near-misses: a unit's words make a unit; a list that is not French keeps a unit after the institution before it
    ("Université de Loomville, Faculté des Sciences, LTX", [["LTX", "Faculté des Sciences", "Université de Loomville"]]),
    ("Loom University, Weft University, WLAB", [["Loom University"], ["WLAB", "Weft University"]]),
    ("Loom University, BNRX, WLAB", [["WLAB", "BNRX", "Loom University"]]),
])
def test_a_french_labs_co_supervisors_are_institutions_side_by_side(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_french_co_supervisors_with_the_table(table):
    assert institutions("Univ. Grenoble Alpes, CNRS, Grenoble INP, LJK", table) == [
        ["LJK", "Université Grenoble Alpes"], ["CNRS"], ["Grenoble INP"]]
    # the lab written with and without its number is one unit
    assert (top_keys("Sorbonne Université, LPSM, UMR 8001", table) == top_keys("Sorbonne Université, LPSM", table)
            and resolve_entries("Sorbonne Université, LPSM, UMR 8001", None, table)[0].levels[0].key
            == resolve_entries("Sorbonne Université, LPSM", None, table)[0].levels[0].key)


def test_ip_paris_is_no_other_name_of_ecole_polytechnique():
    # IP Paris groups École Polytechnique with four other schools: an institution of its own. The
    # table is read from this checkout: an editable install may point the package at another one's
    checkout = AliasTable(*read_alias_file(Path(__file__).resolve().parents[1] / "ontology" / "institution-aliases.tsv"))
    assert institutions("Laboratoire d'Informatique (LIX), École Polytechnique, CNRS, Institut Polytechnique de Paris, "
                        "Palaiseau, France", checkout) == [
        ["Laboratoire d'Informatique (LIX)", "École Polytechnique"], ["CNRS"], ["Institut Polytechnique de Paris"]]
    assert not same("IP Paris", "Ecole Polytechnique", checkout)


@pytest.mark.parametrize("entry, expected", [
    # a slash between two organisations' own names, one a brand or an institution
    ("DeepMind/Google", [["DeepMind"], ["Google"]]),
    ("Zorblax / CNRS", [["Zorblax"], ["CNRS"]]),
    ("WLAB/Loom University", [["WLAB"], ["Loom University"]]),
    ("Loomtown Polytechnic Institute and Weft State University",  # "and" between two institutions
     [["Loomtown Polytechnic Institute"], ["Weft State University"]]),
    # an ampersand between a lab's name and a university
    ("Zorblax Brain Robotics & Loom University", [["Zorblax Brain Robotics"], ["Loom University"]]),
    # an ampersand between two institutions written as an acronym and a place, or one and a university
    ("LTH Warpville & WPI Weftburg", [["LTH Warpville"], ["WPI Weftburg"]]),
    ("Loom University & WPI Weftburg", [["Loom University"], ["WPI Weftburg"]]),
    ("LTH Warpville and WPI Weftburg", [["LTH Warpville"], ["WPI Weftburg"]]),
    ("LTH Warpville / Loom University", [["LTH Warpville"], ["Loom University"]]),
    # near-misses: a subject, a two-letter word, a lab's generic word; a letter, a unit, a name's own "&"
    ("Zorblax AI/ML", [["Zorblax AI/ML"]]),
    ("Biology/WLAB", [["Biology/WLAB"]]),
    ("Research/Zorblax", [["Research/Zorblax"]]),
    ("Loomtown A & M University", [["Loomtown A & M University"]]),
    ("Loomtown Polytechnic Institute and State University",  # a kind of institution alone is none
     [["Loomtown Polytechnic Institute and State University"]]),
    ("Electrical Engineering & Computer Science Department", [["Electrical Engineering & Computer Science Department"]]),
    ("The Robotics & AI Institute", [["The Robotics & AI Institute"]]),
    ("Zorblax & Zorblax", [["Zorblax & Zorblax"]]),   # a company named after its founders
    ("Warpman & Weft", [["Warpman & Weft"]]),
    ("EECS & CSAIL, Loom University", [["EECS & CSAIL", "Loom University"]]),   # two units, no place
    ("AI & Robotics Weftburg Lab", [["AI & Robotics Weftburg Lab"]]),
    ("WPI Weaving & Knitting Sciences", [["WPI Weaving & Knitting Sciences"]]),
])
def test_a_slash_or_an_ampersand_between_two_organisations_gives_two(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_a_slash_or_ampersand_where_the_table_knows_the_parent(table):
    assert institutions("DeepMind/Google", table) == [["Google DeepMind", "Google"]]
    assert institutions("Google Brain Robotics & Columbia University", table) == [
        ["Google Brain Robotics", "Google Brain", "Google"], ["Columbia University"]]
    assert institutions("ETH Zurich & WPI Weftburg", table) == [["ETH Zurich"], ["WPI Weftburg"]]
    assert institutions("Johnson & Johnson", table) == [["Johnson & Johnson"]]


@pytest.mark.parametrize("entry, expected", [
    # a company's AI lab after a university's name; a company's legal form after an institute's
    ("Loom University Zorblax AI Lab", [["Loom University"], ["Zorblax AI Lab"]]),
    ("KTH Royal Institute of Technology Weave AB", [["KTH Royal Institute of Technology"], ["Weave AB"]]),
    ("KTH Royal Institute of Technology Weave AB Uppsala University",
     [["KTH Royal Institute of Technology"], ["Weave AB"], ["Uppsala University"]]),
    # a known name with a dash in it, then another institution
    ("Mila - Quebec AI Institute McGill University", [["Mila"], ["McGill University"]]),
    ("Technion - Israel Institute of Technology Loom University", [["Technion - Israel Institute of Technology"],
                                                                   ["Loom University"]]),
    # near-misses: a known company's unit with its legal form; a lab with a subject's name; the university's AI lab;
    # a dash in an unknown name; an acronym and its name on either side of a dash
    ("Tencent Loom Co., Ltd.", [["Tencent Loom Co., Ltd.", "Tencent"]]),
    ("Zorblax - Loom Institute Weft University", [["Zorblax - Loom Institute Weft University"]]),
    ("HKUST - Hong Kong University of Sci. and Tech.", [["Hong Kong University of Sci. and Tech. (HKUST)"]]),
    ("Loom University Robotics Lab", [["Loom University Robotics Lab", "Loom University"]]),
    ("Stanford University AI Lab", [["Stanford University AI Lab", "Stanford University"]]),
])
def test_a_company_after_a_universitys_name_with_only_a_space_is_cut(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    # a country ends an address, so the affiliation: no parent after it
    ("Weft Institute, Japan, Loom Institute of Technology", [["Weft Institute"], ["Loom Institute of Technology"]]),
    # a one-word name before a lab's name is the lab's company, as "Research, Zorblax" is
    ("Zorblax, ZWS AI Labs", [["ZWS AI Labs", "Zorblax"]]),
    # near-misses: without the country the unit is the institution's; a unit's name before a lab's
    ("Weft Institute, Loom Institute of Technology", [["Weft Institute", "Loom Institute of Technology"]]),
    ("Weft Institute of Looms, Zorblax AI Labs", [["Weft Institute of Looms", "Zorblax AI Labs"]]),
    ("Data Lab, Weave Group", [["Data Lab", "Weave Group"]]),
])
def test_a_unit_is_placed_under_the_right_parent(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry", ["Independent Researcher", "Independent", "Unaffiliated", "Self-employed",
                                   "Independent Researcher, Berlin", "None"])
def test_an_entry_that_states_no_affiliation_names_no_organisation(table, entry):
    assert institutions(entry, table) == []


@pytest.mark.parametrize("entry", ["Independent University, Bangladesh", "Independent Research Lab of Looms", "Personal Robotics Lab"])
def test_names_with_such_words_are_organisations(table, entry):
    assert len(institutions(entry, table)) == 1


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


@pytest.mark.parametrize("entry, expected", [
    # a later part that is an earlier name cut before its "for"/"of" (hyphens and spaces alike) names nothing new
    ("Loom Planck Institute for Weaving, Loom-Planck Institute", [["Loom Planck Institute for Weaving"]]),
    ("Technical University of Foo, Technical University", [["Technical University of Foo"]]),
    # near-misses: a beginning followed by a lab's words is the parent; a name that only shares words is another
    ("Zorblax Labs, Zorblax Corporation", [["Zorblax Labs", "Zorblax Corporation"]]),
    ("Loom Institute for Weaving, Loom Foundation", [["Loom Institute for Weaving", "Loom Foundation"]]),
    ("Weft Lab, Loom Planck Institute for Weaving", [["Weft Lab", "Loom Planck Institute for Weaving"]]),
])
def test_a_shortened_repeat_of_a_name_is_no_parent_of_it(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a spaced or half-spaced '+' joins an author's affiliations as a glued one does
    ("Zorblax Group + Loom University", [["Zorblax Group"], ["Loom University"]]),
    ("weave.com+ Loom University, Warpville", [["weave.com"], ["Loom University, Warpville"]]),
    ("Independent Researcher + Loom University", [["Loom University"]]),
    ("Loom Institute of Technology + Weft Research Institute, Inc., Warpville", [["Loom Institute of Technology"], ["Weft Research Institute, Inc., Warpville"]]),
    # a discipline's name is its department's, of the institution after it
    ("Computer Science+Loom University", [["Computer Science", "Loom University"]]),
    ("Electrical Engineering + Loom State University", [["Electrical Engineering", "Loom State University"]]),
    # a unit last, with no institution after it, is the one's before it, as after a comma
    ("Loom Institute of Technology+Department of Weaving", [["Department of Weaving", "Loom Institute of Technology"]]),
    ("Loom Institute of Technology + Computer Science", [["Computer Science", "Loom Institute of Technology"]]),
    # near-misses: a '+' that lists a department's disciplines; a name's own '+'; a company named plainly
    ("Department of Computing + Weaving Sciences, Loom Institute of Technology",
     [["Department of Computing + Weaving Sciences", "Loom Institute of Technology"]]),
    ("C++ Lab, Loom University", [["C++ Lab", "Loom University"]]),
    ("Loom University+Department of Weaving+Weft University", [["Loom University"], ["Department of Weaving", "Weft University"]]),
    ("Zorblax+Department of Weaving", [["Zorblax"], ["Department of Weaving"]]),   # no institution before it
    ("Zorblax Business Machines+Loom University", [["Zorblax Business Machines"], ["Loom University"]]),
    ("Warpton Dynamics+Loom University", [["Warpton Dynamics"], ["Loom University"]]),
    ("Agility Looms Robotics + Loom University", [["Agility Looms Robotics"], ["Loom University"]]),
    ("Robotics+Loom University", [["Robotics", "Loom University"]]),
    ("Zorblax-DL Financial Technology+Loom University", [["Zorblax-DL Financial Technology"], ["Loom University"]]),
    ("Loom University+Weft Medicine, Loom University", [["Weft Medicine", "Loom University"]]),
])
def test_a_spaced_plus_joins_affiliations_as_a_glued_one(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_a_unit_ending_with_its_institutions_name_awaits_none(table):
    # "…TU Darmstadt" ends the centre's name: what follows the '+' is another affiliation, not its parent
    assert institutions("Centre for Weaving TU Darmstadt + weave.ai + Loom University", table) == [
        ["Centre for Weaving TU Darmstadt"], ["weave.ai"], ["Loom University"]]


@pytest.mark.parametrize("entry, expected", [
    # where no institution is known, a part with a unit's own word is never the parent of one without
    ("Zorblax R&D, Lab Weftville", [["Lab Weftville", "Zorblax R&D"]]),
    ("Weave Europe B.V., Warpstadt Laboratory 1, Germany", [["Warpstadt Laboratory 1", "Weave Europe B.V."]]),
    # a country before "Department" names its government's department, an institution
    ("US Department of Loom Affairs, Advanced Weaving Center, Warpville, OH, USA",
     [["Advanced Weaving Center", "US Department of Loom Affairs"]]),
    # a joint research unit's number beside the lab's name is no part of it
    ("IMT Loomique, UMR CNRS 1234 Lab-WEFT, 29238 Warpville, France", [["Lab-WEFT", "IMT Loomique"]]),
    ("LTX UMR 1234, Loom University", [["LTX", "Loom University"]]),
    # a list of subjects before the department's word, ended by "and"
    ("Mechanical, Weaving, and Aerospace Engineering Department, Loom University",
     [["Mechanical, Weaving, and Aerospace Engineering Department", "Loom University"]]),
    # a US state's "Tech" is its university of technology, not a place
    ("Mechanical, Weaving, and Aerospace Engineering Department, Ohio Tech, Columbus, OH, USA",
     [["Mechanical, Weaving, and Aerospace Engineering Department", "Ohio Tech"]]),
    # near-misses: units written smallest first; both units; a department without a country; a lab's plural
    ("Vision Lab, Zorblax Group", [["Vision Lab", "Zorblax Group"]]),
    ("Department of Weaving, Faculty of Looms", [["Department of Weaving", "Faculty of Looms"]]),
    ("Department of Weaving, Advanced Weaving Center", [["Department of Weaving", "Advanced Weaving Center"]]),
    ("Weft Institute of Looms, Zorblax AI Labs", [["Weft Institute of Looms", "Zorblax AI Labs"]]),
    ("Department of Weaving, Zorblax Tech", [["Department of Weaving, Zorblax Tech"]]),
])
def test_the_organisation_part_is_the_parent_whatever_the_order(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_a_labs_number_beside_its_name_is_one_unit_with_it(empty):
    assert (resolve_entries("LTX UMR 1234, Loom University", None, empty)[0].levels[0].key
            == resolve_entries("UMR 1234 LTX, Loom University", None, empty)[0].levels[0].key
            == resolve_entries("LTX, Loom University", None, empty)[0].levels[0].key)


@pytest.mark.parametrize("entry, expected", [
    # a centre "for" a subject named after a company, before an institution, is the institution's unit
    ("Google Centre for Weaving (GCW), Loom University", [["Google Centre for Weaving (GCW)", "Loom University"]]),
    ("Tencent Chair of Looms, Loom University", [["Tencent Chair of Looms", "Loom University"]]),
    ("Google Centre for Weaving, WLAB", [["Google Centre for Weaving", "WLAB"]]),   # an organisation the table does not know
    # near-misses: alone or before a place it is the company's; a company's lab beside a university
    ("Google Centre for Weaving", [["Google Centre for Weaving", "Google"]]),
    ("Google Centre for Weaving, Warpville", [["Google Centre for Weaving, Warpville", "Google"]]),
    ("Google Research, Loom University", [["Google Research", "Google"], ["Loom University"]]),
])
def test_a_centre_named_after_a_company_is_the_institutions_it_is_listed_with(table, entry, expected):
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    # a word a PDF cut at a line's end, whole again where the pieces make a word of organisations' names
    ("Graduate School of Weaving, Loom Univer-sity, Warpville, Japan", [["Graduate School of Weaving", "Loom University, Warpville"]]),
    ("Depart-ment of Weaving, Loom Univer- sity", [["Department of Weaving", "Loom University"]]),
    ("Labo-ratory of Looms, Tech-nical Univer-sität Loomstadt", [["Laboratory of Looms", "Technical Universität Loomstadt"]]),
    # near-misses: a name's own hyphen
    ("Loom Yat-sen University", [["Loom Yat-sen University"]]),
    ("Lab-WEFT, Loom University", [["Lab-WEFT", "Loom University"]]),
    ("Loom-Karls-Universität Weftberg", [["Loom-Karls-Universität Weftberg"]]),
    ("Weft-Loom University", [["Weft-Loom University"]]),
])
def test_a_word_cut_at_a_line_break_is_whole_again(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a sentence about the authors is no part of the institution's name
    ("The authors are affiliated with the Loomland Weaving Research Establishment (LWRE), Warpville, Norway",
     [["Loomland Weaving Research Establishment (LWRE), Warpville"]]),
    ("Work done at Zorblax Labs", [["Zorblax Labs"]]),
    ("Weft Research Institute in Switzerland.", [["Weft Research Institute"]]),
    ("All authors are with Loom University; Weft Research Institute in Japan", [["Loom University"], ["Weft Research Institute"]]),
    # near-misses: "in" a place that is no country; a name's own lower-case words; a legal form's full stop
    ("Loom University in St. Warpville", [["Loom University in St. Warpville"]]),
    ("Loom Technical University in Weftprague", [["Loom Technical University in Weftprague"]]),
    ("Institut de recherche en tissage de Loomville", [["Institut de recherche en tissage de Loomville"]]),
    ("Center for Working Looms, Loom University", [["Center for Working Looms", "Loom University"]]),
    ("Zorblax Inc.", [["Zorblax Inc."]]),
])
def test_a_sentence_around_the_name_is_no_part_of_it(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # every country ISO 3166 names ends an address, in any of its forms; the units before it stay apart
    ("Loom University, Tunisia", [["Loom University"]]),
    ("Loom University, Sofia, Bulgaria", [["Loom University, Sofia"]]),
    ("Loom University, Viet Nam", [["Loom University"]]),
    ("Weft Institute, Kenya, Loom University", [["Weft Institute"], ["Loom University"]]),
    # near-misses: a country's name inside an institution's; a place that is no country
    ("Loom University of Georgia", [["Loom University of Georgia"]]),
    ("Georgia Loom Institute of Technology", [["Georgia Loom Institute of Technology"]]),
    ("Loom University, Warpville", [["Loom University, Warpville"]]),
])
def test_every_country_ends_an_address(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a unit "of" the institution it belongs to: two levels, the last "of" first
    ("School of Weaving of Loom University", [["School of Weaving", "Loom University"]]),
    ("Department of Warping of the University of Loomshire, Warpville", [["Department of Warping", "University of Loomshire, Warpville"]]),
    ("School of Weaving and Technology of Loom University of Science and Technology",
     [["School of Weaving and Technology", "Loom University of Science and Technology"]]),
    ("Weaving Lab of Zorblax Inc.", [["Weaving Lab", "Zorblax Inc."]]),
    # near-misses: a university's own name; a subject or a place after "of"; a ministry after a lab;
    # the institution named again later, so the "of" is the unit's own
    ("Loom University of Science and Technology of Weftland", [["Loom University of Science and Technology of Weftland"]]),
    ("Loom Academy of Sciences Institute of Weaving Technology", [["Loom Academy of Sciences Institute of Weaving Technology"]]),
    ("Institute of Weaving of Warpville", [["Institute of Weaving of Warpville"]]),
    ("Key Laboratory of Weaving of the Ministry of Education, Loom University",
     [["Key Laboratory of Weaving of the Ministry of Education", "Loom University"]]),
    ("Key Lab of Weaving of Loom Academy of Sciences (LAS), Institute of Warping, LAS",
     [["Key Lab of Weaving of Loom Academy of Sciences (LAS)", "Institute of Warping", "LAS"]]),
])
def test_a_unit_of_its_institution_is_two_levels(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_a_unit_of_its_institution_keeps_the_tables_form(table):
    # the table knows "Institute of Automation, Chinese Academy of Sciences": one unit, under its parent
    assert institutions("Institute of Automation of Chinese Academy of Sciences", table) == [
        institutions("Institute of Automation, Chinese Academy of Sciences", table)[0]]
    # an academy's unit "of" an academy the table knows
    [chain] = institutions("Academy of Mathematics and Systems Science of the Chinese Academy of Sciences", table)
    assert chain[0] == "Academy of Mathematics and Systems Science" and chain[-1] == "Chinese Academy of Sciences"


@pytest.mark.parametrize("entry, expected", [
    # a name of two generic words that the table knows as one organisation, before a university that is
    # not its parent: that university's unit of the name
    ("Robotics Institute, Loom University", [["Robotics Institute", "Loom University"]]),
    ("AI Lab, Loom University, Warpville", [["Loom University AI Lab", "Loom University, Warpville"]]),
    # near-misses: alone, or before its own parent, the table's organisation; a name that says which one
    # (also by a subject's ending: "Zorbance"); three generic words; "of" a field
    ("Robotics Institute", [["The Robotics Institute"]]),
    ("AI Lab, Zorblax", [["Zorblax AI Lab", "Zorblax"]]),
    ("Zorblax Institute, Loom University", [["The Zorblax Institute"], ["Loom University"]]),
    ("Zorbance, Loom University", [["Zorbance"], ["Loom University"]]),
    ("Robotics Institute, Japan, Loom University", [["The Robotics Institute"], ["Loom University"]]),
    ("The Robotics Institute, Loom University", [["The Robotics Institute"], ["Loom University"]]),
    ("Institute of Weaving, Loom University", [["The Institute of Weaving"], ["Loom University"]]),
    ("Technology Innovation Institute, Loom University", [["Technology Innovation Institute"], ["Loom University"]]),
])
def test_a_generic_name_before_a_university_is_its_unit(entry, expected):
    table = AliasTable({"robotics institute": "The Robotics Institute", "ai lab": "Zorblax AI Lab",
                        "zorblax institute": "The Zorblax Institute", "institute of weaving": "The Institute of Weaving",
                        "zorbance": "Zorbance", "technology innovation institute": "Technology Innovation Institute"},
                       {"Zorblax AI Lab": "Zorblax"})
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    # a form's placeholder names no institution; an e-mail address and a dangling "and" are no part of a name
    ("N/A", []),
    ("Unknown", []),
    ("Affiliation", []),
    ("n/a, Zorblax Inc.", [["Zorblax Inc."]]),
    ("Loom University (N/A)", [["Loom University"]]),
    ("weaver@loom.edu", []),
    ("Loom University, weaver@loom.edu", [["Loom University"]]),
    ("Loom University (weaver@loom.ac.uk)", [["Loom University"]]),
    ("Loom University and", [["Loom University"]]),
    ("Zorblax Inc., and", [["Zorblax Inc."]]),
    # "U." before "of" abbreviates "University"
    ("Department of Weaving, U. of Loomshire", [["Department of Weaving", "University of Loomshire"]]),
    ("U of Loomshire", [["University of Loomshire"]]),
    # near-misses: a name with "and" or "&" inside; "U" not before "of"; "N/A" inside a name
    ("Loom Institute of Weaving and Technology", [["Loom Institute of Weaving and Technology"]]),
    ("Texas A&M University", [["Texas A&M University"]]),
    ("Zorblax U Labs", [["Zorblax U Labs"]]),
    ("Loom State U. of Weaving", [["Loom State U. of Weaving"]]),
    ("N/A Weaving Lab, Loom University", [["N/A Weaving Lab", "Loom University"]]),
])
def test_placeholders_addresses_and_abbreviations(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a company's shape (a name, then a word only companies' names end with) is no place but a unit of
    # the organisation before it, or a company of its own by a web address for a name
    ("Loom University, Zorblax AI", [["Zorblax AI", "Loom University"]]),
    ("Loom University, Zorblax Technology", [["Zorblax Technology", "Loom University"]]),
    ("Loom University, Zorblax.fit", [["Loom University"], ["Zorblax.fit"]]),
    ("Department of Weaving, Zorblax AI", [["Department of Weaving", "Zorblax AI"]]),
    # near-misses: before an institution, its lab; a field's name; a place; a lab of the university
    ("Frontier Robotics, Zorblax Co. Ltd.", [["Frontier Robotics", "Zorblax Co. Ltd."]]),
    ("Loom University, Artificial Intelligence", [["Loom University, Artificial Intelligence"]]),
    ("Loom University, Warpville", [["Loom University, Warpville"]]),
    ("Loom University, Zorblax AI Lab", [["Zorblax AI Lab", "Loom University"]]),
])
def test_a_companys_shape_is_no_place(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # an institute before an academy of sciences is one of the academy's institutes
    ("Warpville Institute of Advanced Technology, Loom Academy of Sciences",
     [["Warpville Institute of Advanced Technology", "Loom Academy of Sciences"]]),
    # near-misses: a university, an institute the table knows as its own
    ("Loom University, Loom Academy of Sciences", [["Loom University"], ["Loom Academy of Sciences"]]),
    ("Zorblax Institute of Technology, Loom Academy of Sciences", [["Zorblax Institute of Technology"], ["Loom Academy of Sciences"]]),
    ("Warpville Institute of Advanced Technology, University of Loom Academy of Sciences",
     [["Warpville Institute of Advanced Technology"], ["University of Loom Academy of Sciences"]]),
])
def test_an_institute_before_an_academy_of_sciences_is_its_unit(entry, expected):
    table = AliasTable({"zorblax institute of technology": "Zorblax Institute of Technology",
                        "loom academy of sciences": "Loom Academy of Sciences"})
    assert institutions(entry, table) == expected


@pytest.mark.parametrize("entry, expected", [
    # a place the name already says is no part of it as written
    ("Loomville University, Loomville", [["Loomville University"]]),
    ("Department of Weaving, Loomville University, Loomville, China", [["Department of Weaving", "Loomville University"]]),
    # near-miss: another place stays, as where the institution is
    ("Loomville University, Warpville", [["Loomville University, Warpville"]]),
])
def test_a_place_the_name_says_is_not_written_again(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # units of one kind side by side are siblings: each a unit of what follows them
    ("Department of Weaving, Department of Warping, Loom University",
     [["Department of Weaving", "Loom University"], ["Department of Warping", "Loom University"]]),
    ("Dept. of Weaving, Departamento de Tejido, School of Looms, Loom University",
     [["Dept. of Weaving", "School of Looms", "Loom University"], ["Departamento de Tejido", "School of Looms", "Loom University"]]),
    # near-misses: units of two kinds nest; one unit alone
    ("Department of Weaving, School of Looms, Loom University", [["Department of Weaving", "School of Looms", "Loom University"]]),
    ("Department of Weaving, Loom University", [["Department of Weaving", "Loom University"]]),
])
def test_units_of_one_kind_side_by_side_are_siblings(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # two units joined by "and" or "&": siblings under what follows them
    ("Department of Weaving and LWRC, Loom University",
     [["Department of Weaving", "Loom University"], ["LWRC", "Loom University"]]),
    ("Dept. of Warping & Weaving Lab, Loom University", [["Dept. of Warping & Weaving Lab", "Loom University"]]),
    ("Key Laboratory of Weaving of Loomshire Province and School of Warping, Loom University",
     [["Key Laboratory of Weaving of Loomshire Province", "Loom University"], ["School of Warping", "Loom University"]]),
    ("Institute of Weaving and MOE Center for Looms, Loom University",
     [["Institute of Weaving", "Loom University"], ["MOE Center for Looms", "Loom University"]]),
    # near-misses: the subjects a unit's name lists; an acronym of two letters or a generic one; no institution after
    ("Department of Weaving and Computer Engineering, Loom University", [["Department of Weaving and Computer Engineering", "Loom University"]]),
    ("Department of Weaving and AI, Loom University", [["Department of Weaving and AI", "Loom University"]]),
    ("School of EE and CS, Loom University", [["School of EE and CS", "Loom University"]]),
    ("Department of Weaving and LWRC", [["Department of Weaving and LWRC"]]),
])
def test_two_units_joined_by_and_are_siblings(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a compass point's adjective ends no name: the comma after it is inside the name
    ("University of Western, Loomshire", [["University of Western Loomshire"]]),
    ("Department of Weaving, University of Central, Loomland, Japan", [["Department of Weaving", "University of Central Loomland"]]),
    # near-miss: a name of one word ("Northwestern") is no name cut short
    ("Department of Weaving, Northwestern, Warpville", [["Department of Weaving, Northwestern, Warpville"]]),
])
def test_a_compass_adjective_ends_no_name(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a university's name, then a unit's: that university's unit
    ("Loom University Weaving Institute, Warpville, USA", [["Loom University Weaving Institute, Warpville", "Loom University"]]),
    ("University of Loomshire Institute for Warp Studies", [["University of Loomshire Institute for Warp Studies", "University of Loomshire"]]),
    # near-misses: one word after it, no unit's word, a university's own kind words
    ("Loom University Medicine", [["Loom University Medicine"]]),
    ("Loom University Abu Weft", [["Loom University Abu Weft"]]),
    ("Loom State University", [["Loom State University"]]),
    ("Loom University State Key Lab of Weaving", [["Loom University State Key Lab of Weaving", "Loom University"]]),
])
def test_a_universitys_name_before_a_units_is_its_unit(entry, expected):
    table = AliasTable({"loom university": "Loom University", "university of loomshire": "University of Loomshire"})
    assert institutions(entry, table) == expected
    # the same where the table knows neither university: by the name's shape
    assert institutions(entry, AliasTable({})) == expected


def test_a_university_of_a_place_before_a_unit_named_after_a_donor():
    entry = "University of Loomshire Warp School of Weaving"
    # the table knows where the university's name ends; the shape alone does not ("University of Novi Sad …")
    assert institutions(entry, AliasTable({"university of loomshire": "University of Loomshire"})) == [
        [entry, "University of Loomshire"]]
    assert institutions(entry, AliasTable({})) == [[entry]]


@pytest.mark.parametrize("entry, expected", [
    # a province's or state's code before its country is an address, whatever else the code names
    ("Loom University, BC, Canada", [["Loom University"]]),
    ("Zorblax Inc., NB, Canada", [["Zorblax Inc."]]),
    ("Loom University, Warpville ACT, Australia", [["Loom University, Warpville"]]),
    ("Department of Weaving, Loom University, Warpville, BC Canada V6T 1Z4", [["Department of Weaving", "Loom University, Warpville"]]),
    # near-misses: the code without its country, or before another country
    ("Department of Looms, NU", [["Department of Looms", "NU"]]),
    ("Loom University, BC, Japan", [["BC", "Loom University"]]),
])
def test_a_region_code_before_its_country_is_an_address(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_two_words_after_for_begin_no_list_before_places(empty):
    [[warp], [weft]] = [[level.key for level in chain.levels] for chain in (
        resolve_entries(entry, None, empty)[0] for entry in ("Institute for Intelligent Looms, Warpville and Weftburg",
                                                             "Institute for Intelligent Looms, Warpville"))]
    assert warp == weft == "institute for intelligent looms"  # the places are where, not a part of the name


@pytest.mark.parametrize("entry, expected", [
    # a town named after its university, after an institution, is its place
    ("Loom State University, University Park, PA, USA", [["Loom State University"]]),
    ("Loom University, College Station", [["Loom University, College Station"]]),
    # near-misses: a college of a university; alone
    ("Department of Weaving, University College, Loomshire", [["Department of Weaving", "University College, Loomshire"]]),
    ("Loom University, Laboratoire LTSS", [["Laboratoire LTSS", "Loom University"]]),  # an acronym names a lab, not a place
    ("University Park", [["University Park"]]),
])
def test_a_town_named_after_a_university_is_a_place(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a kind of institution alone ("University") ends no name run together with the next
    ("University Zorblax VI Polytechnic", [["University Zorblax VI Polytechnic"]]),
    # near-miss: a whole name before another
    ("Loom University The University of Warpville", [["Loom University"], ["The University of Warpville"]]),
])
def test_a_kind_alone_ends_no_name_run_together(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a footnote number glued to an organisation's, a field's or an acronym's word is no part of the name
    ("1Department of Weaving, Loom University", [["Department of Weaving", "Loom University"]]),
    ("2LWRC, Loom University", [["LWRC", "Loom University"]]),
    ("3Key Laboratory of Looms, Loom University", [["Key Laboratory of Looms", "Loom University"]]),
    # the ministry that funds a key laboratory, by its acronym, is no level of it
    ("Key Laboratory of Looms, MOE, Loom University", [["Key Laboratory of Looms", "Loom University"]]),
    # near-misses: a name that begins with a number; a number and a space
    ("4Zorblax", [["4Zorblax"]]),
    ("3M", [["3M"]]),
    ("360 Weaving Lab, Loom University", [["360 Weaving Lab", "Loom University"]]),
    ("2Zorblax Institute of Weaving, Loom University", [["Zorblax Institute of Weaving", "Loom University"]]),
    # a number inside an entry a footnote number opens begins another affiliation
    ("1Loom University 2Zorblax Research", [["Loom University"], ["Zorblax Research"]]),
    ("1Loom University, 2ZRB", [["Loom University"], ["ZRB"]]),
    ("Loom University 2Department of Weaving", [["Loom University"], ["Department of Weaving"]]),
    ("Loom University 3D Weaving Lab", [["Loom University 3D Weaving Lab"]]),
    ("1Department of Weaving, Loom University, London WC1E 6BT, UK", [["Department of Weaving", "Loom University"]]),
    ("4Zorblax Inc.", [["4Zorblax Inc."]]),
])
def test_a_footnote_number_is_no_part_of_a_name(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # "and" between an institution (its address read past) and a unit written before another institution
    ("Loom University and Weaving Lab, Warp University", [["Loom University"], ["Weaving Lab", "Warp University"]]),
    ("Loom University, Warpville, UK and Weft Institute of Technology, Weftburg, UK",
     [["Loom University, Warpville"], ["Weft Institute of Technology, Weftburg"]]),
    ("Loom University & LWRC, Warp University", [["Loom University"], ["LWRC", "Warp University"]]),
    # near-misses: the subjects of one name; a unit's name with "and"
    ("Loom University of Science and Technology, Warp University", [["Loom University of Science and Technology"], ["Warp University"]]),
    ("Department of Weaving and Warping, Loom University", [["Department of Weaving and Warping", "Loom University"]]),
    ("Urban Weaving & Warping Lab, Loom University", [["Urban Weaving & Warping Lab", "Loom University"]]),
])
def test_and_before_a_unit_of_another_institution_cuts_the_entry(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a discipline's name after a university is its department, not a place
    ("Loom University, Computer Science & Engineering", [["Computer Science & Engineering", "Loom University"]]),
    ("Loom University, Mathematics and Statistics", [["Mathematics and Statistics", "Loom University"]]),
    # near-misses: a place; a company's name with a discipline's ending
    ("Loom University, Warpville", [["Loom University, Warpville"]]),
    ("Loom University, Zorblax Dynamics", [["Zorblax Dynamics", "Loom University"]]),
    ("Weaving Lab, Computer Science", [["Weaving Lab, Computer Science"]]),  # after no university
    ("Loom University, Computer Science, Weaving Lab", [["Weaving Lab", "Loom University, Computer Science"]]),
    ("Weaving Institute, Loom University, Computer Science", [["Weaving Institute", "Loom University, Computer Science"]]),
])
def test_a_disciplines_name_after_a_university_is_its_department(empty, entry, expected):
    assert institutions(entry, empty) == expected


@pytest.mark.parametrize("entry, expected", [
    # a state's code between a unit and an institution ends no affiliation (a department's acronym may be one)
    ("Weaving Lab, DC, Loom University, Brazil", [["Weaving Lab", "Loom University"]]),
    # near-miss: a country does
    ("Weaving Lab, Japan, Loom University", [["Weaving Lab"], ["Loom University"]]),
])
def test_a_state_code_ends_no_affiliation(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_a_company_run_together_after_an_addresss_country_is_cut(empty):
    assert institutions("Loom University, Warpville, China Zorblax.ai Inc", empty) == [
        ["Loom University, Warpville"], ["Zorblax.ai Inc"]]


@pytest.mark.parametrize("entry, expected", [
    # near-misses a review of the rules above found, each kept apart
    ("Loom University, Warpville, China Loom Communications Co., Ltd.",  # a country's word begins a company's name
     [["Loom University, Warpville"], ["China Loom Communications Co., Ltd."]]),
    ("School of Weaving, Loom University NSW Australia", [["School of Weaving", "Loom University"]]),
    ("Zorblax, Weft AI", [["Weft AI", "Zorblax"]]),  # a company's division
    ("Weaving Laboratory, Electrical Engineering & Computer Science", [["Weaving Laboratory, Electrical Engineering & Computer Science"]]),
    ("University of Loomshire Institute of Technology", [["University of Loomshire Institute of Technology"]]),
    ("Loom University-Weft University Joint Institute", [["Loom University-Weft University Joint Institute"]]),
    ("Loom University Joint Weaving Institute", [["Loom University Joint Weaving Institute"]]),
    ("Loom University Warpville Lab", [["Loom University Warpville Lab"]]),
    ("1QLoom", [["1QLoom"]]),
    ("3DV Weaving Lab", [["3DV Weaving Lab"]]),
    ("Case Western, Warpville, OH", [["Case Western"]]),
    ("Loom University, Warpville, China Weft Science and Industry Corporation",
     [["Loom University, Warpville"], ["China Weft Science and Industry Corporation"]]),
    ("School of Weaving, Atlanta, Georgia, Loom University", [["School of Weaving", "Loom University"]]),
    ("Weaving Department, Warpville, PA, Zorblax Inc.", [["Weaving Department"], ["Zorblax Inc."]]),
])
def test_near_misses_of_the_rules_of_2026_12_04(empty, entry, expected):
    assert institutions(entry, empty) == expected


def test_u_of_a_letter_is_a_name_the_table_may_know(table):
    assert institutions("U of T", table) == [["University of Toronto"]]
