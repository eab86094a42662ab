"""Named research artifacts a paper introduces, told apart from those it only mentions.

A candidate is a coined name (:mod:`.artifact_names`) or a capitalised name at a place that
introduces one (:mod:`.introductions`). It counts as *introduced* only with an introducing cue:

- title: the name before the title's colon ("PAWS: Preference Learning with …");
- abstract: the object of "we introduce / propose / present / develop / release …" with no
  preposition or "including / such as / than" in between ("we propose LUMoE"), a name in such
  a sentence described by an apposition ("…, and HalluJudge, a lightweight model"), a name right
  after "a new <type>" ("a new metric, the Residual Knowledge Score (RKS)"), or one that is
  "dubbed / called / termed";
- Chinese summary: a Latin name right after 提出/构建/引入/… or in parentheses in that sentence
  (:mod:`.summaries`).

Everything else (AlphaFold3 in "models, including AlphaFold3", SVDQuant in "over SVDQuant") is
a mention and is not reported. The type comes from the word the paper uses for the artifact,
nearest evidence first; see :func:`.artifact_types.artifact_type`.
"""

from __future__ import annotations

from operator import attrgetter

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..text.names import match_key
from .artifact_names import ArtifactNames, Found, coined_candidates, variant_of
from .artifact_types import (
    after_parenthetical,
    artifact_type,
    in_parentheses,
    sentence,
    title_type,
    type_word,
)
from .context import PRIOR_WORK, says_cue
from .introductions import (
    FUNCTION_WORDS,
    extra_candidates,
    modifies_next_noun,
    named_in_apposition,
    names_a_long_form,
    not_a_name,
    title_name,
)
from .long_forms import long_form_of, long_form_start, named_long_form_start, spelled_long_form
from .name_lists import colon_before_list, joining_end, joining_tokens, list_kinds_shared, name_list
from .naming import (
    after_a_naming_word,
    after_a_result_word,
    kind_named,
    named_part,
    referred_to_in_parentheses,
    we_name,
)
from .normalise import normal_form
from .own_names import described_as_new, enumerated_part, our_kind_first, ours, passive_introduction
from .scheme import TopicScheme, topic_scheme
from .words import (
    ARTICLES,
    BLOCKERS,
    DESCRIPTION_STARTS,
    DESCRIPTION_WORDS,
    INTRODUCING,
    LIST_JOINERS,
    NAMING,
    NOVELTY,
    OTHERS_WORDS,
    PAPER_VERBS,
    SUBJECT_WORDS,
)

if not Doc.has_extension("artifacts"):
    Doc.set_extension("artifacts", default=None)

DEFAULT_KIND = "method"
#: ``Doc.user_data`` key: the names (and kinds) the paper's earlier sections introduce, for their variants.
INTRODUCED = "kg.introduced"
MAX_OBJECT_DISTANCE = 12


def _inside_long_parenthesis(span: Span) -> bool:
    """A name among other words in parentheses ("(Utility & Planning Human-Scale …)") is part of a long form;
    one of a list of names ("(RCDTP and RWDTP)") or one a naming word gives ("(referred to as SPMA)") is not."""
    doc, sent = span.doc, sentence(span)
    opened = next((t.i for t in reversed(doc[sent.start : span.start]) if t.text in "()"), None)
    inside = opened is not None and doc[opened].text == "(" and not in_parentheses(span)
    # "(referred to as SPMA)", "(called X)": the parenthesis names it
    named = inside and (doc[span.start - 1].lower_ in NAMING or after_a_naming_word(doc[opened : span.start]))
    return inside and not named and name_list(span) is None


def _introduced_in_text(span: Span) -> bool:
    doc, sent = span.doc, sentence(span)
    before = doc[sent.start : span.start]
    # "an algorithm that we term Optimistically Safe OCO (OSOCO)": the naming word before the long form
    lead = doc[sent.start : named_long_form_start(span)]
    # a long form's naming word names a thing of a type word ("an algorithm that we term"); "a problem,
    # which we term in-context estimation (ICE)" names a problem, no artifact
    if after_a_naming_word(before) or (after_a_naming_word(lead) and kind_named(lead)):
        return _named_by_the_paper(before, lead) or referred_to_in_parentheses(before)
    k = after_parenthetical(span)
    return _marked_as_own(span, sent, before, k) or _introduced_by_a_verb(span, sent, before, k)


def _named_by_the_paper(before: Span, lead: Span) -> bool:
    """ "we analyze a method named SSCN" names another's method; "a scheme that we call X" names the paper's."""
    verbs_before = {t.lower_ for t in before}
    return (
        bool(verbs_before & INTRODUCING)
        or not verbs_before & (PAPER_VERBS - INTRODUCING)
        or we_name(before)
        or we_name(lead)
    )


def _marked_as_own(span: Span, sent: Span, before: Span, k: int) -> bool:
    """Marked as the paper's own without an introducing verb: "X, a novel prior", "our X", "X is introduced"."""
    if described_as_new(span, sent, k) or our_kind_first(sent, span) or enumerated_part(span, k):
        return True
    return (passive_introduction(span) or ours(span)) and not says_cue(before, PRIOR_WORK)


def _introduced_by_a_verb(span: Span, sent: Span, before: Span, k: int) -> bool:
    """The name is the object of an introducing verb whose subject is the paper ("we", "this work")."""
    doc = span.doc
    # "we", "this work"; "recent work has developed X" is another's
    first_we = next(
        (t.i for t in before if t.lower_ in SUBJECT_WORDS and not (t.i and doc[t.i - 1].lower_ in OTHERS_WORDS)),
        span.start,
    )
    # "…, resulting in the FD-UCB and IS-UCB algorithms": the preposition after a result word stands for the verb
    verbs = [t for t in before if t.lower_ in INTRODUCING and t.i > first_we]
    verbs = sorted(
        verbs + [t for t in before if verbs and t.i > verbs[0].i and after_a_result_word(t)], key=attrgetter("i")
    )
    # "a strategy inspired by the conditional mean estimator (CME)": a prior work's name
    return (
        bool(verbs)
        and not says_cue(doc[max(sent.start, verbs[-1].i - 1) : span.start], PRIOR_WORK)  # "recently introduced"
        and _object_of_the_verb(span, sent, verbs[-1].i, k)
    )


def _object_of_the_verb(span: Span, sent: Span, verb: int, k: int) -> bool:
    """Whether the name is (in) the object of the introducing verb at ``verb``, the last one before it."""
    doc = span.doc
    between = doc[verb + 1 : span.start]
    colon = colon_before_list(span)  # "two benchmarks: A and B": the colon opens the verb's object
    # "a best-of-both-worlds (BoBW) algorithm": the acronym's own long form blocks nothing
    checked = doc[verb + 1 : colon if colon is not None and colon > verb else named_long_form_start(span)]
    # "we release FooBench along with FooData": "with" joins, not blocks (looked for only near the verb)
    joined = joining_tokens(checked) if len(between) <= MAX_OBJECT_DISTANCE else set()
    if len(between) <= MAX_OBJECT_DISTANCE and not any(t.lower_ in BLOCKERS and t.i not in joined for t in checked):
        return True
    if in_parentheses(span) and len(between) <= 2 * MAX_OBJECT_DISTANCE:
        return _names_what_the_verb_introduces(span, sent, verb, k)
    listed = name_list(span)  # "two frameworks: … policies (RCDTP and RWDTP), both of which …"
    if listed is not None and len(between) <= 2 * MAX_OBJECT_DISTANCE:
        return _lists_what_the_verb_introduces(doc[verb + 1 : listed[0]], listed[1] + 1, sent)
    return k + 1 < sent.end and doc[k].text == "," and doc[k + 1].lower_ in DESCRIPTION_STARTS


def _lists_what_the_verb_introduces(description: Span, after: int, sent: Span) -> bool:
    """A parenthesised list of names right after a type word the verb introduces, and not a modifier."""
    doc, joined = description.doc, joining_tokens(description)
    return (
        len(description) > 0
        and bool(type_word(description[-1]))
        and not any(t.lower_ in BLOCKERS - DESCRIPTION_WORDS and t.i not in joined for t in description)
        and (after >= sent.end or not doc[after].is_alpha or doc[after].lower_ in FUNCTION_WORDS)
    )


def _names_what_the_verb_introduces(span: Span, sent: Span, verb: int, k: int) -> bool:
    """A name in parentheses after a description of what the paper introduces ("a framework for … (LTC)");
    a capitalised long form must then follow the verb itself ("… using Structural Causal Models (SCMs)")."""
    doc = span.doc
    long_form = long_form_of(span)
    if long_form is None:  # "(LTC)." names the description; "face recognition (FR) datasets" does not
        return not _names_another_phrase(doc[verb + 1 : span.start]) and (k >= sent.end or not doc[k].is_alpha)
    start = long_form_start(span, long_form)
    # "we present a novel framework called Graph-of-Thought (GoT)"
    described = doc[verb + 1 : max(verb + 1, start)]
    # "we propose differentially Private Stochastic … (PriSMA)": an adverb may lead the long form
    return all(
        t.lower_ in DESCRIPTION_STARTS
        or t.lower_ in NOVELTY
        or t.lower_ in NAMING
        or type_word(t)
        or (t.is_lower and t.lower_.endswith("ly"))
        or (t.lower_ == "of" and t.i >= 1 and type_word(doc[t.i - 1]))  # "our framework of Redundant … (RID)"
        for t in described
    ) or _apposition_to_a_type_word(described)


def _names_another_phrase(description: Span) -> bool:
    """ "an estimator in the conditional sampling model (COND)", "an algorithm based on majorization-minimization
    (MM)": a blocker opens a phrase of its own ("in the", "based on"), whose words the parenthesis names;
    "a framework for … tasks using dexterous hands (LTC)" names the framework."""
    doc = description.doc
    return any(
        t.lower_ in BLOCKERS - DESCRIPTION_WORDS
        and t.i + 1 < description.end
        and (doc[t.i + 1].lower_ in ARTICLES or doc[t.i - 1].lower_ == "based")
        for t in description
    )


def _apposition_to_a_type_word(described: Span) -> bool:
    """ "we propose a direct policy optimization method, Accelerated … Games (ASAC-MFG)": the long form
    set off by a comma after "a … <type word>" the verb introduces, with no blocker in the description."""
    return (
        len(described) >= 3
        and described[0].lower_ in {"a", "an", "our"}
        and described[-1].text == ","
        and bool(type_word(described[-2]))
        and not any(t.lower_ in BLOCKERS for t in described)
    )


def _ends_a_name(span: Span) -> bool:
    """What may follow a name the rules found by its place alone: a comma, a parenthesis, a type word, the end,
    "and" / "or" before the next capitalised name of a list ("Flames and Rhapsody"), or, after a naming
    word, a relative or purpose word."""
    doc, k = span.doc, span.end
    if k >= len(doc) or doc[k].text in {",", "(", ".", ";", ":"} or type_word(doc[k]) or _passive_subject(span):
        return True
    if doc[k].lower_ in LIST_JOINERS or joining_end(doc, k) is not None:
        return _next_name_listed(doc, k)
    # "a dataset called Harmon that covers music", "… called Interlacers leveraging …": a naming word
    # bounds the name before it
    bound = doc[k].lower_ in {"that", "which", "to", "for"} or (doc[k].is_lower and doc[k].lower_.endswith("ing"))
    named = span.start >= 1 and doc[span.start - 1].lower_ in NAMING
    # "an error-bounded Invariant Link Selector that …": a relative word bounds a name of several words,
    # "we propose Multi-sourced Value Maps to model …"
    return bound and (named or (len(span) >= 2 and doc[k].lower_ in {"that", "which", "to"}))


def _next_name_listed(doc, k: int) -> bool:
    """ "Flames and Rhapsody", "an Encoder and a Decoder", "Flames along with Rhapsody": the joiner at ``k``
    (and an article) stands before a capitalised word."""
    joined = joining_end(doc, k)
    m = joined if joined is not None else k + 1
    m += m + 1 < len(doc) and doc[m].lower_ in ARTICLES
    return m < len(doc) and doc[m].text[:1].isupper()


def _passive_subject(span: Span) -> bool:
    """ "In this paper, Sparse Routing is proposed as …": the name is the subject of a passive introducing
    verb; "methods for … in the LBCM are developed" is a preposition's object."""
    doc, i = span.doc, span.start - 1
    while i >= 0 and doc[i].lower_ in ARTICLES:
        i -= 1
    return (i < 0 or doc[i].lower_ not in BLOCKERS) and passive_introduction(span)


def _acronym_after(span: Span) -> Found | None:
    """ "called Stein Boltzmann Sampling (SBS)": the acronym the name's words spell, with them as its long form
    (so "SBS-PF" is a variant of the paper's SBS)."""
    doc, k = span.doc, span.end
    if k + 2 >= len(doc) or doc[k].text != "(" or doc[k + 2].text != ")":
        return None
    spelled = spelled_long_form(doc, k)
    if spelled is None or spelled.start != span.start:
        return None
    return Found(doc[k + 1].text, artifact_type(span, None), span.text)


def _found(span: Span) -> Found:
    """The name, its kind (the type words before its long form count, not those inside) and its long form."""
    long_form = long_form_of(span)
    return Found(span.text, artifact_type(span, long_form, long_form_start(span, long_form)), long_form)


class ArtifactExtractor:
    def __init__(self, scheme: TopicScheme):
        self.names = ArtifactNames(scheme)

    def __call__(self, doc: Doc) -> Doc:
        if doc.user_data.get("kg.section") == "title":
            doc._.artifacts = self._in_title(doc)
            return doc
        found: list[tuple[Span, Found]] = []
        covered: set[int] = set()
        starts = {sent.start for sent in doc.sents}
        coined = coined_candidates(doc, self.names)
        defined = self._defined(coined)
        for span in extra_candidates(doc, starts):
            if (
                defined.get(normal_form(span.text), len(doc)) >= span.start
                and self._may_name(span)
                and _ends_a_name(span)
                and not names_a_long_form(span)
                and (_introduced_in_text(span) or named_part(span, sentence(span), self._known(doc, found)))
            ):
                covered.update(range(span.start, span.end))
                found.append((span, _acronym_after(span) or _found(span)))
        for span in coined:
            later = defined.get(normal_form(span.text), len(doc)) < span.start
            if later or covered.intersection(range(span.start, span.end)):
                continue
            if self._introduced_coined(span):
                found.append((span, _found(span)))
        found += self._variants(coined, found, doc.user_data.get(INTRODUCED, {}))
        doc._.artifacts = list_kinds_shared(found)
        return doc

    def _defined(self, coined: list[Span]) -> dict[str, int]:
        """ "the standard Cross-Validation (CV) estimator … we present the bias-corrected CV estimator": an
        acronym the text first defines in parentheses as something it does not introduce names that thing
        after (its first place, by name; its plural too: "CCSPs" of "(CCSP)")."""
        first: dict[str, Span] = {}
        for span in coined:
            if in_parentheses(span):
                first.setdefault(normal_form(span.text), span)
        return {name: span.start for name, span in first.items() if not self._introduced_coined(span)}

    @staticmethod
    def _known(doc: Doc, found: list[tuple[Span, Found]]) -> set[str]:
        """The names the paper introduced before: its title's and this section's so far."""
        return set(doc.user_data.get(INTRODUCED, {})) | {item.name for _, item in found}

    def _introduced_coined(self, span: Span) -> bool:
        return (
            self._may_name(span)
            and not names_a_long_form(span)
            and not _inside_long_parenthesis(span)
            and _introduced_in_text(span)
        )

    def _variants(
        self, coined: list[Span], found: list[tuple[Span, Found]], earlier: dict[str, str | None]
    ) -> list[tuple[Span, Found]]:
        """Names that extend one the paper introduces ("ADEPT-PCA" of "ADEPT", "DriveVLM-Dual" of
        "DriveVLM") are its own too, wherever they stand, unless after a prior-work cue."""
        kinds = {**earlier, **{item.name: item.kind for _, item in found}}
        variants: list[tuple[Span, Found]] = []
        for span in coined:
            base = variant_of(span.text, kinds)
            sent = sentence(span)
            if (
                base is None
                or span.text in kinds
                or not self.names.allowed(span.text)  # "DriveVLM-Dual runs": a variant is named before any word
                or not_a_name(span.text)
                or says_cue(span.doc[max(sent.start, span.start - 6) : span.start], PRIOR_WORK)
            ):
                continue
            kinds[span.text] = artifact_type(span, None) or kinds[base]
            variants.append((span, Found(span.text, kinds[span.text])))
        return variants

    def _may_name(self, span: Span) -> bool:
        return (
            self.names.allowed(span.text)
            # "HAR-former, a Hybrid Transformer", "referred to as EPN-reg", "D-learning is proposed as a
            # method": named, a compound is a name
            and (
                not not_a_name(span.text)
                or named_in_apposition(span)
                or self._named(span)
                or ("-" in span.text and passive_introduction(span))
            )
            and not modifies_next_noun(span)
            and not self._abbreviates_a_topic(span)
        )

    @staticmethod
    def _named(span: Span) -> bool:
        return "-" in span.text and after_a_naming_word(span.doc[sentence(span).start : span.start])

    def _abbreviates_a_topic(self, span: Span) -> bool:
        """ "continual learning (CL)": an acronym in parentheses after a topic's label is that topic's."""
        doc = span.doc
        if not in_parentheses(span):
            return False
        letters = "".join(ch for ch in span.text if ch.isalpha()).lower().removesuffix("s")
        for n in range(1, min(9, span.start)):  # "Multi-Modal Large Language Model (MM-LLM)": 6 tokens
            words = doc[span.start - 1 - n : span.start - 1]
            initials = "".join(t.text[0] for t in words if t.is_alpha).lower()
            if initials == letters and match_key(words.text) in self.names.topic_keys:
                return True
        return False

    def _in_title(self, doc: Doc) -> list[Found]:
        named = title_name(doc)
        if named is None or not self._may_name(named[0]):
            return []
        name, long_form = named
        long_text = long_form.text if long_form else None
        return [Found(name.text, title_type(name, long_text), long_text)]


@Language.factory("kg_artifacts", assigns=["doc._.artifacts"], requires=["token.norm"])
def make_artifact_extractor(nlp: Language, name: str) -> ArtifactExtractor:
    return ArtifactExtractor(topic_scheme())
