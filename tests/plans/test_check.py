"""The curators' plan checker: source-class shares per request (issue 22, item 10)."""
import pytest

from gradedrel import cli
from gradedrel.plans import check, key_sources
from gradedrel.plans.model import parse_plans
from tests.conftest import toy_pipeline
from tests.key_source_cases import PLANS, REQUESTS, wing_thesaurus


@pytest.fixture
def sources():
    return key_sources.KeySources(wing_thesaurus(), toy_pipeline)


def test_the_checker_prints_source_shares_per_request(sources):
    text, status = check.check(parse_plans(PLANS), REQUESTS, sources)
    lines = text.splitlines()
    assert lines[0] == ("1: 2 facets (1 major), 2 concepts, 3 unexpanded + 12 expansion keys "
                        "(ratio 5.0)")
    assert lines[1] == ("  sources, all keys: request 5 (33 %), thesaurus 7 (47 %), "
                        "other_concept 2 (13 %), own 1 (7 %)")
    assert lines[2] == ("  sources, expansion keys: request 2 (17 %), thesaurus 7 (58 %), "
                        "other_concept 2 (17 %), own 1 (8 %)")
    assert "  declared relation does not hold: 'gust loads' RT depth 1 via wings " \
           "(found: RT\u00b7NT depth 2)" in lines
    assert "  declared relation does not hold: 'rocket engines' NT depth 1 via wings " \
           "(found: other_concept)" in lines
    assert "declared relations checked: 7, not holding: 2" in lines
    assert status == 0


def test_a_request_without_plan_is_listed_and_a_plan_without_request_is_an_error(sources):
    text, status = check.check(parse_plans(PLANS), {**REQUESTS, "7": "more"}, sources)
    assert status == 1 and "requests without a plan: 7" in text
    with pytest.raises(ValueError, match=r"not in the requests file: \['2'\]"):
        check.check(parse_plans(PLANS), {"1": REQUESTS["1"]}, sources)


def test_request_files_of_the_workflow_and_of_the_curators(tmp_path):
    path = tmp_path / "r.tsv"
    path.write_text("qid\ttitle\tdescription\nP-1\tEggs?\tcholesterol and eggs\n")
    assert check.request_texts(path) == {"P-1": "Eggs? cholesterol and eggs"}
    path.write_text("qid\tquery\n0001\twings\n")
    assert check.request_texts(path) == {"0001": "wings"}
    path.write_text("qid\tbody\n1\tx\n")
    with pytest.raises(ValueError, match="r.tsv:1: expected a column query"):
        check.request_texts(path)


def test_the_command_is_registered(capsys):
    with pytest.raises(SystemExit):
        cli.main(["plans", "check", "--help"])
    assert "source class" in capsys.readouterr().out
