"""Tables in the paper's layout, beside the published numbers; deterministic rendering."""
import math

import numpy as np
import pandas as pd
import pytest

from gradedrel.report import published as published_mod, evaluation_files as report_io, tables
from gradedrel.core.errors import InputError
from report_helpers import QTS, means_of, paper_like_per_topic, published, report_config


def test_published_file_reads_the_papers_numbers(tmp_path):
    pub = published()
    assert pub.avp_of(3, "WSYN/e") == pytest.approx(0.410)
    assert pub.avp_of(1, "SUM/e") == pytest.approx(0.101)
    assert pub.recall_base == {3: 366, 2: 700, 1: 857, 0: 51970} and pub.requests == 30
    assert [(e.strong, e.others) for e in pub.effort] == [(34, 62), (20, 26), (35, 70)]
    bad = tmp_path / "p.yaml"
    bad.write_text("source: x\navp_scale: 100\navp: {1: {SUM/u: one}}\n")
    with pytest.raises(InputError, match=r"p.yaml.*a number at 'avp.1.SUM/u'"):
        published_mod.load(bad)


def test_avp_table_layout_and_differences():
    pub, cfg = published(), report_config()
    per_topic = paper_like_per_topic(pub)
    means = means_of(per_topic)
    means.loc[(means.run == "WSYN/e") & (means.measure == "AvP(level=3)"), "mean"] -= 0.05
    t = tables.avp_table(means, pub, QTS, [1, 2, 3], "AvP")
    f = t.frame
    assert list(f["level"]) == ["1 marginal"] * 2 + ["2 fair"] * 2 + ["3 high"] * 2
    assert list(f["exp."]) == ["u", "e"] * 3
    assert list(f.columns[2:5]) == ["SUM ours", "SUM paper", "SUM diff"]
    assert f.loc[5, "WSYN paper"] == pytest.approx(41.0)
    assert f.loc[5, "WSYN ours"] == pytest.approx(36.0)
    assert f.loc[5, "WSYN diff"] == pytest.approx(-5.0)
    assert f.loc[0, "SUM diff"] == pytest.approx(0.0, abs=1e-9)
    md = t.to_markdown()
    assert "| 3 high | e | 22.2 | 22.2 | 0.0 |" in md and "Topics per level (ours): level 1: 30" in md
    tex = t.to_latex()
    assert "\\toprule" in tex and "in percent" in tex and "%" not in tex.replace("\\%", "")


def test_missing_measure_is_a_clear_error():
    pub = published()
    means = means_of(paper_like_per_topic(pub))
    with pytest.raises(ValueError, match=r"WSYN/e.*AvP\(level=3\)"):
        tables.avp_table(means[~((means.run == "WSYN/e") & (means.measure == "AvP(level=3)"))],
                         pub, QTS, [1, 2, 3], "AvP")


def test_testbed_table_totals_and_means():
    pub = published()
    rb = pd.DataFrame({"qid": ["1", "2"], "n_0": [10, 20], "n_1": [1, 3], "n_2": [2, 2],
                       "n_3": [0, 4]})
    st = pd.DataFrame({"qid": ["1", "2", "1", "2"], "query_type": ["SUM/u", "SUM/u",
                                                                    "WSYN/e", "WSYN/e"],
                       "keys": [3, 5, 10, 20]})
    f = tables.testbed_table(rb, st, pub, ["SUM/u", "WSYN/e"], "Testbed").frame.set_index(
        "quantity")
    assert f.loc["topics (requests)", "ours"] == 2 and f.loc["topics (requests)", "paper"] == 30
    assert f.loc["recall base, level 3 (high): total", "ours"] == 4
    assert f.loc["recall base, level 3 (high): total", "paper"] == 366
    assert f.loc["recall base, level 1 (marginal): mean per topic", "ours"] == 2
    assert f.loc["recall base, level 2 (fair): mean per topic", "paper"] == pytest.approx(700 / 30)
    assert f.loc["mean keys per query: WSYN/e", "ours"] == 15
    assert math.isnan(f.loc["mean keys per query: WSYN/e", "paper"])


def test_effort_table_groups_and_not_reached():
    pub, cfg = published(), report_config()
    rows = []
    for spec in pub.effort:
        for i, qt in enumerate(QTS):
            reached = not (spec.kind == "DCG" and qt == "SUM/e")
            rows.append((qt, spec.profile, spec.kind, spec.base, spec.k, 7.5,
                         10 + i if reached else np.nan, reached))
    effort = pd.DataFrame(rows, columns=report_io.COLUMNS["effort"])
    t = tables.effort_table(effort, pub, QTS, cfg["expanded_strong"], "Effort")
    f = t.frame
    # strong = SSYN-C/e (13), WSYN/e (15): mean 14; others: 10, 11, 12, 14 -> 11.75
    assert f.loc[0, "ours strong"] == 14 and f.loc[0, "ours others"] == 11.75
    assert (f.loc[0, "paper strong"], f.loc[0, "paper others"]) == (34, 62)
    assert math.isinf(f.loc[2, "SUM/e"]) and math.isinf(f.loc[2, "ours others"])
    assert "not reached" in t.to_markdown()


def test_significance_and_standard_tables():
    sig = pd.DataFrame({"measure": ["AvP(level=1)", "AvP(level=3)"], "statistic": [3.0, 20.0],
                        "p_value": [0.7, 0.0012345]})
    t = tables.significance_table(sig, "Friedman", "p_value", 0.05)
    assert list(t.frame["significant"]) == [False, True]
    assert "| AvP(level=3) | 20.0000 | 0.00123 | yes |" in t.to_markdown()
    with pytest.raises(ValueError, match="p-value column 'p'"):
        tables.significance_table(sig, "Friedman", "p", 0.05)


def test_every_measure_the_evaluation_computes_reaches_the_measures_table():
    """The paper's grid, evaluation.also and the standard measures: each a row of the table,
    in the evaluation's order, its values read from means.tsv (issue 44, item 3)."""
    from gradedrel.evaluation.evaluate import evaluate
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings
    from gradedrel.retrieval.runs import rank_frame
    from synthetic import QUERY_TYPES, runs_and_qrels, simulate

    topics = simulate(n_topics=6, depth=20)
    qrels, runs = runs_and_qrels(topics)
    settings = Settings.from_config({"depth": 20, "cutoffs": [10], "also": ["Q(beta=1)"],
                                     "significance": None}, ["P@10"])
    means = evaluate({qt: rank_frame(r) for qt, r in runs.items()},
                     Judgements.from_qrels(qrels, list(topics)), settings,
                     bootstrap=False)["means"]
    table = tables.measures_table(means, QUERY_TYPES, "Every measure").frame
    assert list(table["measure"]) == [str(m) for m in settings.measure_list()]
    assert {"Q(beta=1)", "P@10", "JK_DCG(b=10,profile='3')@10"} <= set(table["measure"])
    assert list(table.columns) == ["measure", *QUERY_TYPES, "topics"]
    for _, row in means[means["run"].isin(QUERY_TYPES)].iterrows():
        got = table.set_index("measure").loc[row["measure"], row["run"]]
        assert got == pytest.approx(float(row["mean"]), nan_ok=True)


def test_report_io_names_the_missing_column(tmp_path):
    path = tmp_path / "means.tsv"
    path.write_text("run\tmeasure\tvalue\nSUM/u\tP@10\t0.1\n")
    with pytest.raises(InputError, match=r"means.tsv:1: .*missing \['mean', 'topics'\]"):
        report_io.read(path, "means")


def test_html_for_the_snakemake_report_escapes_and_aligns():
    from gradedrel.report.html import markdown_to_html
    text = "# T <1>\n\n| a | b |\n|---|---:|\n| x<y | 1.5 |\n\n- [x] done\n- [ ] not **yet**\n"
    page = markdown_to_html(text, "T")
    assert "<h1>T &lt;1&gt;</h1>" in page and "<td>x&lt;y</td>" in page
    assert '<td class="n">1.5</td>' in page
    assert "<li>✔ done</li>" in page and "<li>✘ not <strong>yet</strong></li>" in page

