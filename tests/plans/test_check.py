"""The curators' plan checker: source-class shares per request (issue 22, item 10)."""
import yaml
import pytest

from gradedrel.core.errors import InputError

from gradedrel import cli
from gradedrel.plans import check, key_sources
from gradedrel.plans.model import parse_plans
from tests.conftest import ROOT, toy_pipeline
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


# ---------------------------------------------------------------- key provenance (protocol)

# request 3 of the wing thesaurus (tests/key_source_cases.py), its keys' sources hand-checked
PROTOCOL = """# curation started: 2027-01-05T09:12Z
# curation ended: 2027-01-05T10:02Z
plans:
- qid: '3'
  request: flutter of swept wings
  source: curated
  facets:
  - name: wings
    concepts:
    - label: swept wings
      uri: '#swept'
      keys:
      - {key: swept wings, relation: request}
      expansion:
      - {key: delta wings, relation: NT, depth: 1, via: swept wings, source: '#delta'}
      - {key: vane, relation: curated, source: '#e2'}
      - {key: wing loading, relation: RT, via: wings, source: '#nowhere'}
      - {key: gust loads, relation: RT, via: wings, source: '#load'}
      - {key: spanwise stiffness, relation: curated, source: '#wing'}
      - {key: planform, relation: curated, source: literature, reason: standard term}
      - {key: wing fence, relation: curated}
      - {key: f-111 wing, relation: curated, source: literature, reason: cited study,
         recalled: true}
  - name: flutter
    concepts:
    - label: flutter
      uri: '#flutter'
      keys:
      - {key: flutter, relation: request}
      expansion:
      - {key: aeroelastic flutter, relation: UF, via: flutter, source: '#flutter', recalled: true}
"""
PROTOCOL_REQUESTS = {"3": "flutter of swept wings"}


def _checked(text=PROTOCOL, strict=False, with_header=True):
    sources = key_sources.KeySources(wing_thesaurus(), toy_pipeline)
    return check.check(parse_plans(text, "p.yaml"), PROTOCOL_REQUESTS, sources, strict=strict,
                       text=text if with_header else None)


def test_the_checker_verifies_each_keys_source_and_lists_recalled_keys():
    text, status = _checked()
    lines = text.splitlines()
    # the source-class shares per request stay
    assert lines[1].startswith("  sources, all keys: request ")
    # verified: delta wings (#delta), vane (entry term #e2 stands for wings, whose label
    # 'vanes' it is, singular by the stemmer), aeroelastic flutter (#flutter);
    # literature: planform, f-111 wing; request words: swept wings, flutter
    assert "  key sources: 3 thesaurus id verified, 2 literature, 2 request words; warnings: 4" \
        in lines
    assert "  source id not in the thesaurus: 'wing loading' source '#nowhere'" in lines
    assert ("  key is not a label of its source: 'gust loads' source '#load' (wing loading); "
            "it is a label of #gust") in lines
    assert ("  key is not a label of its source: 'spanwise stiffness' source '#wing' "
            "(wings; wing structures); it is a label of no concept") in lines
    assert "  no checkable source: 'wing fence' (expansion, relation curated, class own)" in lines
    assert "  recalled keys (2): 'f-111 wing', 'aeroelastic flutter'" in lines
    assert ("curated keys without a checkable source or not verified: 4 in 1 requests; "
            "recalled keys: 2 in 1 requests") in lines
    assert "curation times: curation started 2027-01-05T09:12Z, curation ended " \
           "2027-01-05T10:02Z" in lines
    assert status == 0  # warnings do not fail without --strict


def test_strict_exits_non_zero_on_any_warning_and_zero_without():
    assert _checked(strict=True)[1] == 1
    assert _checked(strict=True)[0].endswith("--strict: 4 warnings\n")
    clean = "\n".join(line for line in PROTOCOL.splitlines()
                      if not any(k in line for k in ("wing loading", "gust loads",
                                                     "spanwise", "wing fence"))) + "\n"
    text, status = _checked(clean, strict=True)
    assert status == 0 and text.endswith("--strict: no warnings\n")
    assert "recalled keys (2)" in text  # recalled keys are listed, not a warning
    # literature without a reason is refused when the file is read
    with pytest.raises(InputError, match=r"p.yaml:\d+: expected search key with source "
                                         r"'literature' and a 'reason'"):
        _checked(clean.replace(", reason: standard term", ""))
    # the header's curation times count under --strict
    no_end = clean.replace("# curation ended: 2027-01-05T10:02Z\n", "")
    text, status = _checked(no_end, strict=True)
    assert status == 1 and "header has no '# curation ended: YYYY-MM-DDTHH:MMZ' line (UTC)" \
        in text.splitlines()
    assert _checked(no_end, strict=True, with_header=False)[1] == 0


@pytest.mark.parametrize("header, warning", [
    ("# curation started: 2027-01-05T09:12+01:00\n# curation ended: 2027-01-05T10:02Z\n",
     "header 'curation started' is not in UTC (end it with Z): '2027-01-05T09:12+01:00'"),
    ("# curation started: 2027-01-05T09:12Z\n# curation ended: soon\n",
     "header 'curation ended' is not an ISO 8601 time: 'soon'"),
    ("# curation started: 2027-01-05T11:00Z\n# curation ended: 2027-01-05T10:02Z\n",
     "header: the curation ended before it started"),
    ("plans: []\n# curation started: 2027-01-05T09:12Z\n",
     "header has no '# curation started: YYYY-MM-DDTHH:MMZ' line (UTC)"),
])
def test_header_times(header, warning):
    assert warning in check.header_times(header)[1]
    assert check.header_times(PROTOCOL) == ({"curation started": "2027-01-05T09:12Z",
                                             "curation ended": "2027-01-05T10:02Z"}, [])


def test_automatic_plans_have_no_provenance_warnings(sources):
    text, status = check.check(parse_plans(PLANS), REQUESTS, sources, strict=True)
    # plan 2 is automatic: no key-source line; plan 1 (curated, no source fields) warns
    block_2 = text.split("\n2: ")[1].split("\n\n")[0]
    assert "key sources" not in block_2 and status == 1
    assert "  key sources: 0 thesaurus id verified, 0 literature, 5 request words; warnings: 10" \
        in text.splitlines()


def test_the_command_offers_strict(capsys):
    with pytest.raises(SystemExit):
        cli.main(["plans", "check", "--help"])
    out = capsys.readouterr().out
    assert "--strict" in out and "recalled" in out


def test_the_command_reads_the_header_and_honours_strict(tmp_path, monkeypatch, capsys):
    """The command's wiring, with the JVM and the thesaurus replaced by the test's."""
    from gradedrel.core import terrier
    from gradedrel.thesaurus import lookup
    monkeypatch.setattr(terrier, "start", lambda *a, **k: None)
    monkeypatch.setattr(terrier, "named_pipeline", lambda: toy_pipeline)
    monkeypatch.setattr(lookup, "named_thesaurus", lambda name, config: wing_thesaurus())
    plans_file, requests_file = tmp_path / "plans.yaml", tmp_path / "requests.tsv"
    plans_file.write_text(PROTOCOL)
    requests_file.write_text("qid\tquery\n3\tflutter of swept wings\n")
    assert cli.main(["plans", "check", str(plans_file), str(requests_file)]) == 0
    out = capsys.readouterr().out
    assert "curation times: curation started 2027-01-05T09:12Z" in out
    assert "recalled keys (2)" in out
    assert cli.main(["plans", "check", str(plans_file), str(requests_file), "--strict"]) == 1
    assert capsys.readouterr().out.endswith("--strict: 4 warnings\n")


def test_a_config_given_is_laid_over_the_packages_own(tmp_path, monkeypatch, capsys):
    """`--config` with only a collection (no terrier pins, no analysis rules): the defaults
    come from the package's config, as the workflow lays --configfile over it (it was a
    KeyError: 'terrier' from an installed wheel)."""
    from gradedrel.core import terrier
    from gradedrel.thesaurus import lookup
    started = []
    monkeypatch.setattr(terrier, "start", lambda *a, **k: started.append(a))
    monkeypatch.setattr(terrier, "named_pipeline", lambda: toy_pipeline)
    monkeypatch.setattr(lookup, "named_thesaurus", lambda name, config: wing_thesaurus())
    config = tmp_path / "mine.yaml"
    config.write_text("collections:\n  mine:\n    ir_datasets: cranfield\n"
                      "    grade_map: {'1': 3}\n    thesaurus: nasa\n")
    plans_file, requests_file = tmp_path / "plans.yaml", tmp_path / "requests.tsv"
    plans_file.write_text(PROTOCOL)
    requests_file.write_text("qid\tquery\n3\tflutter of swept wings\n")
    assert cli.main(["plans", "check", str(plans_file), str(requests_file), "--config",
                     str(config), "--collection", "mine"]) == 0
    pins = yaml.safe_load((ROOT / "config/config.yaml").read_text())["terrier"]
    assert started == [(pins["version"], pins["helper_version"])]
    assert "recalled keys (2)" in capsys.readouterr().out
