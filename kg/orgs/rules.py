"""The rules that build an entry's chains, as data: an id, the step it belongs to, what it does, why it
exists, an entry it reads and a near-miss (an entry that looks like one, which it must not read so).

The order of :data:`RULES` within a step is its precedence: the first rule that applies decides. The
chain builder (:mod:`kg.orgs.institutions`) records on every level of a chain the ids of the rules that
placed it, and ``kg explain "…"`` prints them; docs/organisation-rules.md lists the rules, generated
from this table (:mod:`kg.orgs.reference`); tests/orgs/test_rules.py checks that every rule reads its
example and not its near-miss.

Steps, in the order an entry goes through them:
- ``entry``: the entry is cut into one piece per institution it names (the tokenizer); the cuts that
  made a piece are noted on the top level of its chains;
- ``piece``: one institution's piece of the entry (cut at ";", "+", "/", "&" … by the tokenizer) is read
  whole or cut into parts at its commas;
- ``parts``: the comma parts are made the names they write (joined, cut at dashes, of and brackets,
  left out) by :mod:`kg.orgs.parts`, which these rules live beside (:mod:`kg.orgs.parts_rules`);
- ``part``: each part after the first is dropped, kept as a qualifier of the level before it (a
  place, an address, a number) or made a level of its own; the first test that holds decides;
- ``chain``: the levels are put into chains: an institution ends a chain, a unit waits for its
  institution, a part after an institution is its unit or its place;
- ``parent``: levels between a written unit and its written parent, and the parents above the last
  written level, from the alias table or from the name.
"""

from __future__ import annotations

from .parts_rules import PARTS_RULES
from .rule import Rule

_RULES = (
    Rule(
        "cut-at-semicolon",
        "entry",
        "one piece per institution, at each semicolon",
        "A semicolon always separates two affiliations.",
        "Loom University; Zorblax Institute of Technology",
        "Loom University;",
    ),
    Rule(
        "cut-at-plus",
        "entry",
        "one piece per affiliation, at each '+'",
        "Aggregators join one author's affiliations with '+', glued or spaced.",
        "Zorblax Research + Loom University",
        "C++ Group, Loom University",
    ),
    Rule(
        "cut-names-run-together",
        "entry",
        "one piece per institution, where one name ends and the next begins",
        "Some lists join an author's affiliations with only a space: a complete institution's name, then another's.",
        "Loom University The University of Weftburg",
        "The University of Weftburg",
    ),
    Rule(
        "cut-at-separator",
        "entry",
        "one piece per institution, at '|', '/', '&' or 'and'",
        "A separator with an institution's name on each side joins two institutions; not one inside a "
        'name ("Texas A & M University", "Virginia Polytechnic Institute and State University").',
        "ETH Zurich & MPI Tübingen",
        "Texas A & M University",
    ),
    Rule(
        "known-name",
        "piece",
        "the piece is one level",
        "A piece the alias table knows whole is one organisation, whatever commas it holds.",
        "Agency for Science, Technology and Research",
        "Agency for Science, Loom University",
    ),
    Rule(
        "lab-word-before-name",
        "piece",
        "the two parts are one name, the lab's",
        "A lab's word alone before a company's name is the company's lab, written the other way round.",
        "Research, Zorblax",
        "Research, Germany",
    ),
    Rule(
        "name-before-its-lab",
        "piece",
        "the lab is a level under the name",
        "One word no rule knows, no place, before a lab's name (ending in Lab, Labs, Research or AI) is "
        'the lab\'s organisation, written first ("Amazon, AWS AI Labs").',
        "Zorblax, Quillon AI Labs",
        "Zorblax, Quillon Robotics",
    ),
    Rule(
        "two-units-joined-by-and",
        "piece",
        "two chains, one per unit",
        'Two units joined by "and" or "&", the second beginning as a unit does, are siblings under '
        "what follows them; not the subjects one unit's name lists.",
        "Department of Automation and BNRist, Tsinghua University",
        "Department of Electrical and Computer Engineering, Loom University",
    ),
    Rule(
        "sponsor-of-key-lab",
        "part",
        "the part is dropped",
        "The ministry that funds a Chinese key laboratory, written after it, is neither a level between "
        "the lab and its university nor part of the lab's name.",
        "Key Laboratory of Weaving, Ministry of Education, Loom University",
        "Defence Science and Technology Laboratory, Ministry of Defence",
    ),
    Rule(
        "region-code-before-country",
        "part",
        "the code is dropped from the part",
        "A province's or state's code before its country is an address's, whatever organisation the code "
        'also names (Boston College, a lab "ACT").',
        "Loom University, Vancouver BC, Canada",
        "Loom Lab, BC, Loom University",
    ),
    Rule(
        "country",
        "part",
        "the part qualifies the level before it",
        "A country after a name is where it is, never part of its identity.",
        "Loom University, Japan",
        "Loom University, Georgia",
    ),
    Rule(
        "unit-number",
        "part",
        "the part qualifies the level before it",
        'A French joint research unit\'s number ("UMR 5205") names no organisation.',
        "LIRIS, UMR 5205, Loom University",
        "LIRIS, CNRS, Loom University",
    ),
    Rule(
        "town-named-after-university",
        "part",
        "the part qualifies the level before it",
        '"University Park", "College Station": a town named after its university, written as a place.',
        "Loom State University, University Park",
        "Loom State University, University of Weftburg",
    ),
    Rule(
        "no-organisation-word",
        "part",
        "the part qualifies the level before it",
        "A part that does not look like an organisation (no organisation word, not a company's shape, "
        "not a department's subject right after its university) is a place or an address.",
        "Loom University, Weftburg",
        "Loom University, Weftburg Institute",
    ),
    Rule(
        "place-of-university",
        "part",
        "the part qualifies the level before it",
        "A place a university is named after, written alone after an organisation that is not academic "
        "and no unit, is where that organisation is, not the university.",
        "Google, Stanford",
        "Department of Computer Science, Stanford",
    ),
    Rule(
        "new-level",
        "part",
        "the part is a level of its own",
        "A part after the first that none of the tests above makes a qualifier.",
        "Weaving Lab, Loom University",
        "Loom University, Weftburg",
    ),
    Rule(
        "generic-name-before-university",
        "chain",
        "the level is read without the alias table",
        'A name of two generic words the table knows as one organisation ("AI Institute"), written before '
        "a university the table does not make its parent, is that university's unit.",
        "AI Institute, University of South Carolina",
        "Technology Innovation Institute, Khalifa University",
    ),
    Rule(
        "country-ends-affiliation",
        "chain",
        "the units so far are a chain of their own",
        "A country ends an address, and so the affiliation, before the next organisation.",
        "Weaving Institute, Japan, Loom Institute of Technology",
        "Weaving Institute, Loom Institute of Technology",
    ),
    Rule(
        "and-begins-affiliation",
        "chain",
        "the level begins a new chain",
        '", and" before a list\'s last affiliation begins it.',
        "Department of Looms, Loom University, and ZRX",
        "Department of Looms, Loom University, ZRX",
    ),
    Rule(
        "co-supervisor",
        "chain",
        "the level is an institution of its own",
        "A French lab's co-supervisors (tutelles), written side by side before it, are institutions side "
        "by side; the lab is a unit of the first.",
        "Univ. Grenoble Alpes, CNRS, Grenoble INP, LJK",
        "Loom University, Google",
    ),
    Rule(
        "web-name-company",
        "chain",
        "the level is an institution of its own",
        "A web address for a name after an institution is a company.",
        "Loom University, Contract.fit",
        "Contract.fit, Loom University",
    ),
    Rule(
        "institution",
        "chain",
        "the level is an institution",
        "A name the table knows, or shaped like an institution's (a university, a company's legal form), "
        "ends a chain: the units before it are its units.",
        "Weaving Lab, Loom University",
        "Weaving Lab, Spinning Group",
    ),
    Rule(
        "generic-unit-of-company",
        "chain",
        "the unit is renamed after the company",
        "A bare lab's word before a company names the company's lab (\"Research, Google\").",
        "Research, Google",
        "Weaving Lab, Google",
    ),
    Rule(
        "institution-repeated",
        "chain",
        "the level is left out",
        "An institution written again right after itself is one level.",
        "Loom University, Loom University",
        "Loom University, Weftburg University",
    ),
    Rule(
        "parent-after-institution",
        "chain",
        "the level is the parent of the one before",
        "An institution after another that the table makes its parent, or an academy of sciences after one "
        "of its institutes, is the chain's next level, not a second institution.",
        "Google DeepMind, Google",
        "Google DeepMind, Loom University",
    ),
    Rule(
        "child-after-parent",
        "chain",
        "the level goes below the one before",
        'An institution written after its own parent ("Amazon, AWS AI Labs") is the parent\'s unit.',
        "Amazon, AWS AI Labs",
        "AWS AI Labs, Amazon",
    ),
    Rule(
        "siblings-apart",
        "chain",
        "one chain per sibling",
        "Units of one kind written side by side are siblings, each a unit of what follows them.",
        "Department of Weaving, Department of Spinning, Loom University",
        "Department of Weaving, School of Spinning, Loom University",
    ),
    Rule(
        "unit-after-institution",
        "chain",
        "the level goes below the institution before it",
        "A unit written after its institution is its unit (after a French lab's co-supervisors, the first's).",
        "Loom University, Department of Weaving",
        "Department of Weaving, Loom University",
    ),
    Rule(
        "place-after-institution",
        "chain",
        "the level qualifies the institution before it",
        'An organisation word followed by a name only ("Centre Weftburg") after an institution is its place.',
        "Loom University, Centre Weftburg",
        "Loom University, Centre of Weaving",
    ),
    Rule(
        "unit-before-institution",
        "chain",
        "the level waits for its institution",
        "A level that is no institution, before any, is a unit of the institution that follows.",
        "Weaving Lab, Loom University",
        "Loom University",
    ),
    Rule(
        "no-institution",
        "chain",
        "the units are a chain, unit words first",
        "An affiliation that names no institution the rules know is a chain of its levels, those with a "
        "unit's own word first (never the parent of one without).",
        "Weaving Lab, Spinning Group",
        "Weaving Lab, Loom University",
    ),
    Rule(
        "parent-from-alias-table",
        "parent",
        "a level is added above",
        "The alias table's parent of the chain's top, or of a unit below a written ancestor.",
        "Google DeepMind",
        "Loom University",
    ),
    Rule(
        "parent-from-name",
        "parent",
        "a level is added above",
        'A brand or lab named after a known organisation ("Zorblax AI Lab") is that organisation\'s unit.',
        "Google Brain Robotics",
        "Weaving Lab",
    ),
)
RULES = (*_RULES, *PARTS_RULES)
BY_ID = {rule.id: rule for rule in RULES}
STEPS = ("entry", "piece", "parts", "part", "chain", "parent")
