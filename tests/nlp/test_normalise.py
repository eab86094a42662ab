from kg.nlp import pipeline
from kg.nlp.normalise import doc_words


def test_the_word_table_says_what_the_tokens_say():
    """The context rules read the table instead of the tokens: it must hold the tokens' own strings."""
    nlp = pipeline()
    doc = nlp("Unlike  prior work, we use Multi-Agent RL (MARL) on graphs; e.g. LLMs' self-attention.")
    words = doc_words(doc)
    assert words.text == [t.text for t in doc] and words.lower == [t.lower_ for t in doc]
    assert words.norm == [t.norm_ for t in doc] and words.cue == [t.norm_.lower() for t in doc]
    assert words.spaced == [bool(t.whitespace_) for t in doc]
    assert doc_words(doc[3:6]) is words and words.norm[words.text.index("LLMs")] == "LLM"  # a span reads its doc's
