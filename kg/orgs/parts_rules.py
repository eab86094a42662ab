"""The rules of the ``parts`` step (kg.orgs.rules): how a piece's comma parts become the names they
write (:mod:`kg.orgs.parts`), in the order they apply. Each part keeps the ids of the rules that reshaped
it, and the level it is read into after them carries them."""

from __future__ import annotations

from .rule import Rule

PARTS_RULES = (
    Rule(
        "direction-joined",
        "parts",
        "the comma after the name's last word is inside the name",
        "A name does not end with \"of\" a compass point's adjective: the comma after one is a broken line's.",
        "Weaving Lab, University of Western, Weftburg",
        "Weaving Lab, Western University, Weftburg",
    ),
    Rule(
        "subjects-listed",
        "parts",
        "the parts are one name",
        'Parts with no organisation word, the last joined by "and", after a part whose "of" or "for" '
        "begins them, are the subjects that name lists.",
        "Institute for Logic, Language and Computation, Loom University",
        "University of Oxford, Mathematics and Statistics",
    ),
    Rule(
        "subjects-listed-before-name",
        "parts",
        "the parts are one name",
        'Parts with no organisation word before one that begins with "and" are the subjects of the name '
        "that part ends with its organisation word.",
        "Mechanical, Materials, and Aerospace Engineering Department, Loom University",
        "Loom University, and Weaving Department",
    ),
    Rule(
        "known-tail",
        "parts",
        "the parts are one name",
        "The parts from the first that begins a name the alias table knows whole, commas and all, are that name.",
        "Weaving Lab, Agency for Science, Technology and Research",
        "Weaving Lab, Agency for Science, Loom University",
    ),
    Rule(
        "unit-of-institution",
        "parts",
        "the part is cut in two, the unit first",
        'A unit, "of", and the institution it belongs to are two parts; not a university\'s own name.',
        "School of Weaving of Loom University",
        "University of Science and Technology of China",
    ),
    Rule(
        "acronym-beside-its-name",
        "parts",
        "the part is one name, the acronym in brackets after it",
        "An acronym and the name it fits, on either side of a spaced dash, are one name.",
        "WRI - Weaving Research Institute",
        "WRI - Loom University",
    ),
    Rule(
        "cut-at-spaced-dash",
        "parts",
        "the part is cut at its spaced dashes",
        "A spaced dash separates names as a comma does; not after one word that begins a name "
        '("Technion - Israel Institute of Technology").',
        "Weaving Lab - Loom University",
        "Technion - Israel Institute of Technology",
    ),
    Rule(
        "bracketed-note-left-out",
        "parts",
        "the bracket is dropped",
        "A bracket with a sentence about the author (most of its words in lower case) names no organisation.",
        "Loom University (work done while at Zorblax)",
        "Loom University (Weftburg)",
    ),
    Rule(
        "bracketed-parent-or-place",
        "parts",
        "the bracket is a part after the name",
        "A bracket after a name holding a name the table knows or no organisation's shape is its parent or "
        "its place; not the name's own acronym.",
        "Weaving Lab (Google)",
        "Weaving Research Institute (WRI)",
    ),
    Rule(
        "placeholder-left-out",
        "parts",
        "the part is dropped",
        'A placeholder ("N/A") where a name would be names no organisation.',
        "Loom University (N/A)",
        "Loom University (NAIST)",
    ),
    Rule(
        "legal-form-joined",
        "parts",
        "the part ends the name before it",
        'A legal form written as a part of its own ("Co., Ltd.") is the end of the name before it.',
        "Zorblax Co., Ltd.",
        "Zorblax Co. Ltd.",
    ),
    Rule(
        "shortened-name-left-out",
        "parts",
        "the part is dropped",
        'An earlier part\'s name cut before its "of" or "for" is the same name shortened and names nothing new.',
        "Weftburg Institute for Weaving, Weftburg Institute",
        "Zorblax Labs, Zorblax",
    ),
)
