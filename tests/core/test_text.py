"""Query text is tokenised exactly as Terrier's English tokeniser tokenises."""
import pytest
from hypothesis import given, settings, strategies as st

from gradedrel.core import terrier
from gradedrel.core.text import query_text, tokenise


@pytest.fixture(scope="module")
def terrier_tokeniser():
    import pyterrier as pt

    terrier.start("5.11", "0.0.8")
    return pt.java.autoclass("org.terrier.indexing.tokenisation.Tokeniser").getTokeniser()


def test_rules_by_hand():
    text = "O'Neil's wing-body: Mach 1.5, 12345 x1234 aaaa aaab wörld " + "a" * 21
    assert tokenise(text) == ["o", "neil", "s", "wing", "body", "mach", "1", "5", "x1234",
                              "aaab", "w", "rld"]
    assert query_text("what is (the) lift?") == "what is the lift"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
@pytest.mark.terrier
def test_same_tokens_as_terrier(terrier_tokeniser, text):
    assert tokenise(text) == [str(t) for t in terrier_tokeniser.getTokens(text)]
