"""The two input formats on the real samples and on hostile hand-written listings."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ABSTRACTS, LISTING

from kg.errors import InputError
from kg.ingest.formats import FORMATS, read_source
from kg.ingest.formats.listing import looks_like_authors, parse_institutions, split_bracketed
from kg.records import PaperRecord, Rejection

DATA = Path(__file__).resolve().parents[2] / "data"


def read_all(path: Path, **kwargs) -> tuple[str, list[PaperRecord], list[Rejection]]:
    source, items = read_source(path, path.name, **kwargs)
    items = list(items)
    return (
        source.format,
        [i for i in items if isinstance(i, PaperRecord)],
        [i for i in items if isinstance(i, Rejection)],
    )


def test_registry_knows_both_formats():
    assert {"listing", "abstracts"} <= set(FORMATS)


def test_listing_sample_reads_30_papers_with_every_field():
    fmt, papers, rejected = read_all(LISTING)
    assert fmt == "listing" and rejected == [] and len(papers) == 30
    first = papers[0]
    assert first.title == "MLUBench: A Benchmark for Lifelong Unlearning Evaluation in MLLMs"
    assert first.title_zh == "MLUBench: 多模态大语言模型终身遗忘评估基准"
    assert first.authors[0] == "He Li" and first.authors[-1] == "Bo Han" and len(first.authors) == 9
    assert first.institutions[0].name == "University of Science and Technology of China"
    assert first.institutions[0].name_zh == "中国科学技术大学"
    assert first.summary_zh.startswith("提出MLUBench基准")
    assert first.comments == "36 pages, accepted to the ICML 2026"
    assert first.source.line == 3
    assert sum(p.title_zh is not None for p in papers) == 30
    assert sum(bool(p.comments) for p in papers) == 30
    assert [p.journal_ref for p in papers if p.journal_ref] == [
        "https://icml.cc/virtual/2026/poster/67185",
        "43rd International Conference on Machine Learning 2026",
    ]
    # Two papers list no institutions at all; every other block's entries are parsed.
    assert sum(not p.institutions for p in papers) == 2
    assert len({a for p in papers for a in p.authors}) == 135


def test_abstracts_sample_reads_14_abstracts():
    fmt, papers, rejected = read_all(ABSTRACTS)
    assert fmt == "abstracts" and rejected == [] and len(papers) == 14
    assert all(p.venue_header == "ICML 2026 Papers" for p in papers)
    assert papers[0].abstract.startswith("Multimodal large language models (MLLMs)")
    assert [p.source.line for p in papers][:3] == [3, 5, 7]


def test_format_override_beats_detection():
    fmt, papers, _ = read_all(ABSTRACTS, format_name="abstracts")
    assert fmt == "abstracts" and len(papers) == 14


def test_institutions_keep_nested_brackets_and_chinese_names():
    entries = parse_institutions(
        "German Research Center for Artificial Intelligence (DFKI, DSA)（德国人工智能研究中心（DFKI, DSA）） ； "
        "Dmitrii Gavrilev 纠错"
    )
    assert [(e.name, e.name_zh) for e in entries] == [
        ("German Research Center for Artificial Intelligence (DFKI, DSA)", "德国人工智能研究中心（DFKI, DSA）"),
        ("Dmitrii Gavrilev", None),
    ]
    assert split_bracketed("Caltech（加州理工学院）") == ("Caltech", "加州理工学院")


@pytest.mark.parametrize(
    "line, expected",
    [
        ("Jiangtao Kong, Peijun Zhao, Chun-Fu Chen, Youngwook Do, Shaohan Hu", True),
        ("Michelle Vaccaro", True),
        ("R. Michael Alvarez, Ludwig van Beethoven", True),
        ("Preregistration for Experiments with AI Agents", False),
        ("Reason, Then Re-reason: Cross-view Revisiting Improves Spatial Reasoning", False),
        ("Attention Is All You Need", False),
        # every real name form is a name: lower case, bare initials, particles, words as given names, CJK
        ("brian ichter, Min zhang, sujay sanghavi", True),
        ("Katherine A Heller, Zoubin Ghahramani", True),
        ("Mireia Planas i Lisbona, Joan Serrà", True),
        ("Deep Ganguli, Will Ma, Hope Chen", True),
        ("Katherine A Heller", True),
        ("张伟, 李娜, 王芳", True),
        # near misses that stay titles
        ("Sparse, Efficient, and Robust Models", False),
        ("Learning a Model of the World", False),
        ("Deep Learning for Vision", False),
        ("Scaling Laws in the Wild, Revisited", False),
    ],
)
def test_author_line_detection(line, expected):
    assert looks_like_authors(line) is expected


def test_hostile_listing_keeps_markup_as_text_and_reports_bad_blocks():
    _, papers, rejected = read_all(DATA / "hostile_listing.txt")
    assert [p.title for p in papers] == [
        'A Title With <script>alert("x")</script> and "Quotes" & Ampersands',
        "Valid Paper After The Broken One",
    ]
    assert papers[0].authors == ['O\'Brien "Bob" Smith', "Zoë <img src=x onerror=alert(1)> Martín"]
    assert papers[0].institutions[0].name == "Evil <b>Org</b>"
    assert [(r.source.line, r.reason) for r in rejected] == [
        (13, "block has no author line"),
        (29, "block has no author line"),
    ]


def test_crlf_and_bom_read_like_the_original(tmp_path):
    original = LISTING.read_bytes()
    variant = tmp_path / "crlf.txt"
    variant.write_bytes(b"\xef\xbb\xbf" + original.replace(b"\n", b"\r\n"))
    _, expected, _ = read_all(LISTING)
    _, got, _ = read_all(variant)
    assert [(p.title, p.authors, p.source.line) for p in got] == [(p.title, p.authors, p.source.line) for p in expected]


def test_latin1_file_is_an_error_naming_file_and_line_unless_encoding_given():
    path = DATA / "latin1_abstracts.txt"
    with pytest.raises(InputError) as caught:
        read_all(path)
    assert str(caught.value).startswith(f"{path}:3: is not valid utf-8 (byte 0xef")
    _, papers, _ = read_all(path, encoding="latin-1")
    assert "naïve Bayes and café" in papers[0].abstract


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    with pytest.raises(InputError, match="binary file"):
        read_all(path)


def test_empty_file_has_no_records():
    assert read_all(DATA / "empty.txt")[1:] == ([], [])


@pytest.mark.slow
def test_ten_megabyte_single_line_is_rejected_not_crashed(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(
        "ICML 2026 Papers\n\n" + "word " * 2_100_000 + "\n\nA normal abstract " + "that goes on " * 10 + "\n",
        encoding="utf-8",
    )
    fmt, papers, rejected = read_all(path, format_name="abstracts")
    assert len(papers) == 1 and len(rejected) == 1
    assert rejected[0].source.line == 3 and "too long" in rejected[0].reason
    _, papers, rejected = read_all(path, format_name="listing")
    assert papers == [] and rejected and "too long" in rejected[0].reason


def test_listing_without_header_starts_with_a_paper(tmp_path):
    body = LISTING.read_text(encoding="utf-8").split("\n", 2)[2]  # drop "ICML" and the blank line
    path = tmp_path / "no-header.txt"
    path.write_text(body, encoding="utf-8")
    _, papers, rejected = read_all(path, format_name="listing")
    assert rejected == [] and len(papers) == 30
    assert papers[0].title.startswith("MLUBench") and papers[0].venue_header == ""


LIVE_NAMES = "brian ichter, Katherine A Heller, Deep Ganguli, Mireia Planas i Lisbona, 张伟"


def write_listing(tmp_path, text: str) -> Path:
    path = tmp_path / "listing.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_byline_before_the_fields_is_read_by_position_whatever_its_names(tmp_path):
    path = write_listing(
        tmp_path,
        (
            "COLM\n\nA Paper\n\nA Paper\n\n" + LIVE_NAMES + "\n\nComments Accepted at COLM 2024\n\n"
            "Another Paper\n\nthe odd one: lower case and a colon\n\n机构 * Somewhere University 纠错\n\n"
            "Third Paper\n\n第三篇论文\n\nAnn Lee\n\nAI总结\n"
        ),
    )
    _, papers, rejected = read_all(path, format_name="listing")
    assert rejected == []
    assert [(p.title, p.title_zh, p.source.line) for p in papers] == [
        ("A Paper", None, 3),
        ("Another Paper", None, 11),
        ("Third Paper", "第三篇论文", 17),
    ]
    assert papers[0].authors == LIVE_NAMES.split(", ")
    assert papers[1].authors == ["the odd one: lower case", "a colon"]  # position decides, not shape
    assert papers[2].authors == ["Ann Lee"]
    assert papers[0].venue_header == "COLM"


def test_a_generational_suffix_stays_with_its_name(tmp_path):
    path = write_listing(
        tmp_path, "A Paper\n\nMartin Luther King, Jr., Ann Lee, John Smith III, Iva Novak\n\nComments ICML 2026\n"
    )
    _, papers, _ = read_all(path, format_name="listing")
    assert papers[0].authors == ["Martin Luther King, Jr.", "Ann Lee", "John Smith III", "Iva Novak"]


def test_blocks_without_fields_fall_back_to_name_shape_and_one_broken_block_is_one_rejection(tmp_path):
    path = write_listing(
        tmp_path,
        (
            "First Paper Without Fields\n\n" + LIVE_NAMES + "\n\n"
            "A Title Alone, Followed by Another Title\n\n"
            "Second Paper\n\nDeep Ganguli\n\n"
            "Third Paper\n\nThird Paper\n\nAnn Lee, Bo Chen\n\nComments Accepted at ICML 2026\n"
        ),
    )
    _, papers, rejected = read_all(path, format_name="listing")
    assert [(p.title, p.authors) for p in papers] == [
        ("First Paper Without Fields", LIVE_NAMES.split(", ")),
        ("Second Paper", ["Deep Ganguli"]),
        ("Third Paper", ["Ann Lee", "Bo Chen"]),
    ]
    assert [(r.source.line, r.reason) for r in rejected] == [(5, "block has no author line")]


def test_first_title_repeated_is_not_taken_for_a_header(tmp_path):
    path = write_listing(tmp_path, "Short Title\n\nShort Title\n\nAnn Lee\n\nComments Accepted at ICML 2026\n")
    _, papers, rejected = read_all(path, format_name="listing")
    assert rejected == [] and [(p.title, p.venue_header) for p in papers] == [("Short Title", "")]


def test_an_escaped_apostrophe_in_an_institution_splits_nothing():
    entries = parse_institutions("Northwest Polytechnic University Xi&amp;amp;#x27;an ； AT&T Labs 纠错")
    assert [entry.name for entry in entries] == ["Northwest Polytechnic University Xi'an", "AT&T Labs"]


@pytest.mark.parametrize(
    ("body", "names"),
    [
        # a list made by cutting the source's affiliations at every ';' cut the references too
        (
            "Northwest Polytechnical University Xi&amp ； amp ； #x27 ； an ； Nanjing University",
            ["Northwest Polytechnical University Xi'an", "Nanjing University"],
        ),
        ("Xi&#x27 ； an Jiaotong University ； Peking University", ["Xi'an Jiaotong University", "Peking University"]),
        ("Ecole Polytechnique F&eacute ； d&eacute ； rale de Lausanne", ["Ecole Polytechnique Fédérale de Lausanne"]),
        # near-misses: an '&' that begins no reference stays a separator's neighbour
        ("AT&T ； Bell Labs", ["AT&T", "Bell Labs"]),
        ("R&D ； Foo University", ["R&D", "Foo University"]),
        ("Johnson&Johnson ； Foo University", ["Johnson&Johnson", "Foo University"]),
    ],
)
def test_a_reference_cut_at_the_separator_is_one_name_again(body, names):
    assert [entry.name for entry in parse_institutions(body + " 纠错")] == names
