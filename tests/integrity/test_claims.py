"""The README quotes exactly what the verdict tables give (issue 11: claims follow the tables).

The README region is rendered from the frozen copy in docs/results/; CI checks after the main
job that the frozen copy equals the tables the job wrote (.ci/check_outputs.py)."""
import re

import pandas as pd
import pytest

from gradedrel.integrity import claims

from conftest import ROOT

SNAPSHOT = ROOT / "docs" / "results" / "cranfield"


CONFIG = claims.load_config([ROOT / "config" / "config.yaml",
                             ROOT / "config" / "nfcorpus" / "testbed.yaml"])


def test_readme_region_is_what_the_tables_give():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert claims.region(readme) == claims.render_readme(ROOT / "docs" / "results", CONFIG)


def test_the_snapshot_holds_both_testbeds_and_the_headline():
    for collection in ("cranfield", "nfcorpus"):
        assert set(claims.sources(collection, CONFIG)) <= \
            {p.name for p in (ROOT / "docs" / "results" / collection).iterdir()}
    assert claims.sources("nfcorpus", CONFIG)["primary.tsv"] == \
        "report/expert-mesh/InQuery/primary.tsv"  # its design's primary plan set
    # the summaries and the headline the NFCorpus main job writes (issue 43, item 6)
    assert claims.sources("cranfield", CONFIG)["summary.tsv"] == \
        "report/summary.cranfield+nfcorpus+nfcorpus-fresh.tsv"
    assert claims.headline_path("results", CONFIG).as_posix() == \
        "results/report/headline/cranfield+nfcorpus+nfcorpus-fresh.md"
    alone = claims.load_config([ROOT / "config" / "config.yaml"])
    assert claims.sources("cranfield", alone)["summary.tsv"] == "report/summary.tsv"
    assert claims.headline_bullets(claims.read_headline(ROOT / "docs" / "results"))


def test_every_number_in_the_region_is_in_the_tables():
    """An independent check of the rendering: each number the region prints is a table value
    rounded as printed (so a renderer bug cannot agree with itself)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    text = claims.region(readme)
    values = []
    for collection in claims.TESTBEDS:
        if not (ROOT / "docs" / "results" / collection).is_dir():
            continue
        for frame in claims.read_snapshot(ROOT / "docs" / "results" / collection):
            for column in frame.columns:
                for cell in frame[column]:
                    try:
                        values.append(float(cell))
                    except ValueError:  # a text cell ("2 of 7 hold"): its own numbers
                        values += [float(x) for x in re.findall(r"\d+", cell)]
    headline = claims.read_headline(ROOT / "docs" / "results")
    values += [float(x) for x in re.findall(r"\d+\.\d+|\d+", headline)]
    allowed = {f"{abs(x):.{d}f}" for x in values for d in (1, 2, 3, 4)} | {"0.8", "2", "3", "4"}
    body = text.split("\n", 1)[1]  # the marker line names the module, not numbers
    for number in re.findall(r"\d+\.\d+|\d+", body):
        if number in {"1", "2", "3", "4", "95", "10", "2000"}:  # findings, levels, 95 %, SIGIR
            continue
        assert number in allowed or any(number == str(int(float(x))) for x in values
                                        if float(x).is_integer()), number


def test_derived_plan_sets_leave_the_verdict_table_for_their_own():
    summary = pd.DataFrame({"finding": ["1", "2", "3", "4"] * 2, "collection": "c",
                            "plan_set": ["e"] * 4 + ["e-no-own"] * 4, "model": "InQuery",
                            "effect": ["3.5", "1.25", "2 of 7 hold", "0.9"] * 2,
                            "low": ["1.0", "-2.0", "", "0.5"] * 2,
                            "high": ["9.0", "4.5", "", "1.3"] * 2, "requests": "9",
                            "verdict": "inconclusive"})
    primary = pd.DataFrame([{"comparison": "WSYN/e - SUM/u", "measure": "AvP(level=3)",
                             "requests": "9", "estimate": "1.25", "low": "-2.0",
                             "high": "4.5", "p_value": "0.3", "published": "15.1",
                             "mde": "4.7", "verdict": "inconclusive", "size": ""}])
    text = claims.render(summary, primary, "c", {"e-no-own": "e"})
    assert "| e-no-own |" not in text
    assert "| e | InQuery | inconclusive: +1.2 [-2.0, +4.5] | inconclusive: +1.2 [-2.0, +4.5]" \
        " | – | – | – |" in text
    assert claims.derived_plan_sets({"collections": {"c": {"plan_sets": {
        "e": {}, "e-no-own": {"derived_from": "e", "keep": ["request"]}}}}}) == {"e-no-own": "e"}


def test_render_and_replace():
    summary = pd.DataFrame({"finding": ["1", "2", "3", "4"], "collection": "c",
                            "plan_set": "expert", "model": "InQuery",
                            "effect": ["3.5", "1.25", "2 of 7 hold", "0.9"],
                            "low": ["1.0", "-2.0", "", "0.5"], "high": ["9.0", "4.5", "", "1.3"],
                            "requests": "142",
                            "verdict": ["does not hold", "inconclusive", "inconclusive",
                                        "inconclusive"]})
    primary = pd.DataFrame([{"comparison": "WSYN/e - SUM/u", "measure": "AvP(level=3)",
                             "requests": "142", "estimate": "1.25", "low": "-2.0",
                             "high": "4.5", "p_value": "0.3", "published": "15.1",
                             "mde": "4.7", "verdict": "does not hold", "size": ""}])
    text = claims.render(summary, primary, "c")
    assert "**+1.2 AvP points, 95 % CI [-2.0, +4.5]**" in text or \
        "**+1.3 AvP points, 95 % CI [-2.0, +4.5]**" in text
    assert "| expert | InQuery | does not hold: +3.5 [+1.0, +9.0] | inconclusive: +1.2 [-2.0, " \
        "+4.5] | inconclusive: 2 of 7 hold | inconclusive: 0.90 [0.50, 1.30] |" in text
    doc = f"intro\n{claims.BEGIN}\nold\n{claims.END}\nrest\n"
    assert claims.replace_region(doc, text) == f"intro\n{text}\nrest\n"
    with pytest.raises(ValueError, match="markers"):
        claims.region("no markers here")


def test_docs_query_statistics_are_the_tables():
    """docs/plans.md's table of the automatic plans' query statistics is the frozen copy of
    queries/auto/statistics_means.tsv (CI checks the copy against the main job's file)."""
    frozen = pd.read_csv(SNAPSHOT / "query_statistics_auto.tsv", sep="\t", dtype={"subset": str})
    frozen = frozen[frozen["subset"] == "all"].set_index("query_type")
    text = (ROOT / "docs" / "plans.md").read_text(encoding="utf-8")
    section = text.split("## Measured query statistics", 1)[1]
    rows = [line for line in section.splitlines()
            if re.match(r"\| (SUM|SSYN-C|WSYN)/[ue] \|", line)][:6]
    assert len(rows) == 6
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        expected = frozen.loc[cells[0], ["facets", "concepts", "groups", "keys", "growth"]]
        assert [float(c) for c in cells[1:]] == pytest.approx(expected.to_list(), abs=5e-4), cells


def test_the_readme_evaluate_example_shows_the_main_jobs_means():
    """The output the README shows for `gradedrel evaluate` (Cranfield, expert, InQuery) is
    the main job's means.tsv (frozen; CI checks the copy), to the digits printed; the test
    in tests/workflow/test_readme.py checks the command prints that table on the fixture."""
    readme = (ROOT / "docs" / "evaluate.md").read_text(encoding="utf-8")  # linked from README
    shown = readme.split("<!-- readme-output: evaluate -->", 1)[1].split("```", 2)[1]
    rows = [line.split() for line in shown.splitlines()[2:] if line and not
            line.startswith("wrote")]
    means = pd.read_csv(SNAPSHOT / "means.tsv", sep="\t", dtype={"topics": "Int64"})
    means = means.set_index(["run", "measure"])
    assert len(rows) == 12
    for run, measure, mean, topics in rows:
        assert mean == f"{means.loc[(run, measure), 'mean']:.4f}", (run, measure)
        assert int(topics) == means.loc[(run, measure), "topics"]


def test_the_readme_compare_example_shows_the_main_jobs_means_and_the_paper():
    """The table the README shows for `gradedrel compare` (Cranfield, expert plans, InQuery,
    with the automatic plans' WSYN/e as the user's run): each AvP is the main job's mean
    (frozen: expert and auto, InQuery), each bracket the published number, each difference
    the difference of the means; the Holm p column is checked by form only (the frozen
    tables do not hold the comparison's own test)."""
    import yaml

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("<!-- readme-output: compare -->", 1)[1].split("```", 2)[1]
    rows = [line.split() for line in shown.strip().splitlines()[2:]]  # after "text", the header
    expert = pd.read_csv(SNAPSHOT / "means.tsv", sep="\t").set_index(["run", "measure"])["mean"]
    auto = pd.read_csv(SNAPSHOT / "means_auto.tsv", sep="\t").set_index(["run", "measure"])["mean"]
    published = yaml.safe_load((ROOT / "config" / "published" / "jk2000.yaml").read_text())
    assert len(rows) == 7
    base = expert[("SUM/u", "AvP(level=3)")]
    for row in rows:
        label = row[0]
        means, run = (auto, "WSYN/e") if label == "auto-WSYN-e" else (expert, label)
        values = [c for c in row[1:] if not c.startswith("(")]
        brackets = [c.strip("()") for c in row[1:] if c.startswith("(")]
        for level, value in zip((1, 2, 3), values[:3]):
            assert value == f"{100 * means[(run, f'AvP(level={level})')]:.1f}", (label, level)
        if brackets:
            assert brackets == [f"{published['avp'][level][label]:.1f}" for level in (1, 2, 3)]
        else:
            assert label == "auto-WSYN-e"  # the user's run has no published number
        if label != "SUM/u":
            difference = 100 * (means[(run, "AvP(level=3)")] - base)
            assert values[3] == f"{difference:+.1f}", label
            assert 0 <= float(values[4]) <= 1


def test_how_to_read_it_quotes_only_the_headline_and_the_tables():
    """Amendment 3, C2: "How to read it" says only what a row shows; every number in it is a
    number of the frozen headline (docs/results/headline.md) or the frozen tables."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("How to read it")
    paragraph = readme[start:readme.index("\n\n", start)]
    headline = claims.read_headline(ROOT / "docs" / "results")
    quoted = set(re.findall(r"[+-]?\d+\.\d+", headline))
    for number in re.findall(r"[+-]?\d+\.\d+", paragraph):
        assert number in quoted or number.lstrip("+") in quoted, number
    for count in re.findall(r"(?<![\d.+-])\d+(?![\d.])", paragraph):
        if count in {"3", "2", "30", "21", "63"}:  # levels, the requests the headline counts
            assert count in headline, count
