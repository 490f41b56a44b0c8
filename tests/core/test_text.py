"""Text is tokenised exactly as Terrier's UTF tokeniser tokenises (documents, requests and
thesaurus labels alike), and what tokenising loses is counted."""
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from gradedrel.core import terrier, text as text_module
from gradedrel.core.text import TERRIER_TOKENISER, dropped, query_text, tokenise


@pytest.fixture(scope="module")
def terrier_tokeniser():
    import pyterrier as pt

    terrier.start("5.11", "0.0.8")
    return pt.java.autoclass(f"org.terrier.indexing.tokenisation.{TERRIER_TOKENISER}")()


def test_rules_by_hand():
    text = "O'Neil's wing-body: Mach 1.5, 12345 x1234 aaaa aaab wörld " + "a" * 21
    assert tokenise(text) == ["o", "neil", "s", "wing", "body", "mach", "1", "5", "x1234",
                              "aaab", "wörld"]
    assert query_text("what is (the) lift?") == "what is the lift"


# Hostile requests: accents, typographic apostrophes, Greek letters, digits, hyphens.
HOSTILE = {
    "Über Strömung … résumé": ["über", "strömung", "résumé"],
    "alzheimer ’ s disease": ["alzheimer", "s", "disease"],
    "Alzheimer’s disease": ["alzheimer", "s", "disease"],
    "β-carotene and ω-3 fatty acids": ["β", "carotene", "and", "ω", "3", "fatty", "acids"],
    "ΟΔΟΣ": ["οδος"],                                  # final sigma, as Java lower-cases
    "vitamin B12 (cobalamin), 2,000 IU": ["vitamin", "b12", "cobalamin", "2", "000", "iu"],
    "long-term low-carb — anti‐inflammatory": ["long", "term", "low", "carb", "anti",
                                                "inflammatory"],
    "naïve café": ["naïve", "café"],
    "Ⅻ ½ cup²": ["cup"],
}


@pytest.mark.parametrize("text", sorted(HOSTILE))
def test_hostile_requests(text):
    assert tokenise(text) == HOSTILE[text]


@pytest.mark.terrier
@pytest.mark.parametrize("text", sorted(HOSTILE))
def test_hostile_requests_as_terrier(terrier_tokeniser, text):
    assert [str(t) for t in terrier_tokeniser.getTokens(text)] == HOSTILE[text]


def test_dropped_counts_what_is_lost_beyond_spaces_and_punctuation():
    lost = dropped("Ⅻ ½ cup², 123456 mg, aaaa — “fine” 𝔸x")
    assert lost == {"not a letter or digit: Ⅻ": 1, "not a letter or digit: ½": 1,
                    "not a letter or digit: ²": 1, "not a letter or digit: 𝔸": 1,
                    "more than 4 digits: 123456": 1,
                    "more than 3 identical characters in a row: aaaa": 1}
    assert dropped("Über Strömung, résumé — it’s fine.") == {}


def test_ascii_text_loses_nothing_but_rejected_runs():
    assert dropped("what is the lift-drag ratio (Mach 2.5)?") == {}


@pytest.fixture(scope="module")
def java_unassigned():
    """Code points of the Basic Multilingual Plane that Terrier's JVM (Java 17: Unicode 13)
    does not know; Python's newer Unicode may call some of them letters."""
    import pyterrier as pt

    character = pt.java.autoclass("java.lang.Character")
    return frozenset(chr(c) for c in range(0x10000)
                     if character.getType(c) == character.UNASSIGNED)


@pytest.mark.terrier
def test_token_characters_as_java_where_java_knows_them(terrier_tokeniser, java_unassigned):
    """Every assigned character of the Basic Multilingual Plane, alone and in a word:
    Python's token characters are Terrier's."""
    text = " ".join(f"a{chr(c)}b" for c in range(0x10000)
                    if chr(c) not in java_unassigned and not 0xD800 <= c < 0xE000)
    assert tokenise(text) == [str(t) for t in terrier_tokeniser.getTokens(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
@pytest.mark.terrier
def test_same_tokens_as_terrier(terrier_tokeniser, java_unassigned, text):
    text = "".join(ch for ch in text if ch not in java_unassigned)
    assert tokenise(text) == [str(t) for t in terrier_tokeniser.getTokens(text)]


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
               max_size=40))
@pytest.mark.terrier
def test_beyond_the_basic_plane_as_terrier(terrier_tokeniser, text):
    text = "".join(ch for ch in text if ord(ch) > 0xFFFF or ch == " ")
    assert tokenise(text) == [str(t) for t in terrier_tokeniser.getTokens(text)]


def _runs_by_character(text):
    """The rule as stated, one character at a time (the table in gradedrel.core.text is
    built from it; this checks the table and the regular expression made of it)."""
    runs, current = [], ""
    for ch in text:
        if text_module._is_token_char(ch):
            current += ch
        elif current:
            runs, current = runs + [current], ""
    return runs + [current] if current else runs


def test_token_table_is_the_per_character_rule_for_every_code_point():
    for start in range(0, 0x110000, 0x1000):
        text = " ".join(f"a{chr(c)}b" for c in range(start, start + 0x1000)
                        if not 0xD800 <= c < 0xE000)
        assert text_module._RUN.findall(text) == _runs_by_character(text), hex(start)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80))
def test_runs_and_rejections_as_the_per_character_rule(text):
    assert text_module._RUN.findall(text) == _runs_by_character(text)
    for run in _runs_by_character(text):
        digits = sum(unicodedata.category(ch) == "Nd" for ch in run)
        assert (text_module._rejection(run) == "more than 4 digits") == \
            (len(run) <= 20 and digits > 4)


# Harman (1991), "How effective is suffixing?", JASIS 42(1): the S-stemmer's rule table,
# row by row (ending, its exceptions, the replacement), worked by hand.
HARMAN_TABLE = [
    # rule 1: -ies -> -y, not after e or a
    ("bodies", "body"), ("series", "sery"), ("aeries", "aery"), ("ies", "y"),
    # rule 1's exceptions do not apply it; rule 2 (-es -> -e) does
    ("zombeies", "zombeie"), ("maies", "maie"),
    # rule 2: -es -> -e, not after a, e or o
    ("diseases", "disease"), ("causes", "cause"), ("gases", "gase"), ("boxes", "boxe"),
    ("stresses", "stresse"), ("analyses", "analyse"),
    # rule 2's exceptions do not apply it; rule 3 (-s -> '') does
    ("toes", "toe"), ("trees", "tree"), ("shoes", "shoe"), ("algaes", "algae"),
    # rule 3: -s -> '', not after u or s
    ("wings", "wing"), ("flows", "flow"), ("gas", "ga"), ("is", "i"), ("analysis", "analysi"),
    # rule 3's exceptions: nothing applies
    ("radius", "radius"), ("stress", "stress"), ("class", "class"),
    # no rule: left as it is
    ("wing", "wing"), ("disease", "disease"), ("", ""),
]


@pytest.mark.parametrize("word, stem", HARMAN_TABLE)
def test_s_stemmer_follows_harmans_table(word, stem):
    assert text_module.s_stem(word) == stem


def test_s_stemmer_uses_only_the_first_rule_that_applies():
    # "diseases" reaches rule 2 and stops there: not stripped again by rule 3 to "diseas"
    assert text_module.s_stem("diseases") == "disease"
    assert text_module.s_stem(text_module.s_stem("bodies")) == "body"
    assert [rule[0] for rule in text_module.S_STEMMER_RULES] == ["ies", "es", "s"]
