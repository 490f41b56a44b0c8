"""The findings across collections: the collections' summaries combined with each plan set's
thesaurus, as a table and a figure (built from the frozen Cranfield summary)."""
from pathlib import Path

import pandas as pd
import pytest
import yaml

from gradedrel.report import across

ROOT = Path(__file__).resolve().parents[2]
FIGURES = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["report"]["figures"]


def read(path):
    return pd.read_csv(path, sep="\t", keep_default_na=False,
                       na_values={"low": [""], "high": [""]}, dtype={"effect": str})


@pytest.fixture
def summaries():
    cranfield = read(ROOT / "docs" / "results" / "cranfield" / "summary.tsv")
    nf = cranfield[cranfield["plan_set"] == "auto"].copy()
    nf["collection"], nf["plan_set"] = "nfcorpus", "auto-wordnet"
    return [cranfield, nf]


def test_combined_with_thesauri_and_every_row_kept(summaries):
    thesauri = {("cranfield", p): "nasa" for p in summaries[0]["plan_set"].unique()}
    thesauri[("nfcorpus", "auto-wordnet")] = "wordnet"
    frame = across.combine(summaries, thesauri)
    assert list(frame.columns) == across.COLUMNS
    assert len(frame) == sum(len(s) for s in summaries)
    assert frame["finding"].is_monotonic_increasing
    assert set(frame.loc[frame["collection"] == "nfcorpus", "thesaurus"]) == {"wordnet"}
    text = across.markdown(frame, "Across")
    assert text.count("\n| ") == len(frame) + 1      # header and one line per row
    primary = frame[(frame["finding"] == 2) & (frame["plan_set"] == "expert")
                    & (frame["model"] == "InQuery")].iloc[0]
    assert f"| 2 | cranfield | nasa | expert | InQuery | {primary['requests']} | +1.9 | [-1.4, +5.4]" \
        in text
    with pytest.raises(ValueError, match="no thesaurus known"):
        across.combine(summaries, {})


def test_finding_three_as_a_share():
    assert across.numeric_effect({"effect": "2 of 7 hold", "low": "", "high": ""})[0] == 2 / 7
    assert across.numeric_effect({"effect": "1.5", "low": 1.0, "high": 2.0}) == (1.5, 1.0, 2.0)


def test_figure_has_a_panel_per_finding_and_a_row_per_condition(summaries):
    thesauri = {("cranfield", p): "nasa" for p in summaries[0]["plan_set"].unique()}
    thesauri[("nfcorpus", "auto-wordnet")] = "wordnet"
    frame = across.combine(summaries, thesauri)
    fig = across.figure(frame, FIGURES)
    axes = fig.get_axes()
    assert [a.get_title() for a in axes] == [f"finding {k}" for k in (1, 2, 3, 4)]
    conditions = frame.drop_duplicates(["collection", "plan_set", "model"])
    assert len(axes[0].get_yticklabels()) == len(conditions)


def test_testbeds_beside_the_papers():
    nf = pd.DataFrame({"level": [3, 2, 1, 0], "judged_total": [464, 2034, 610, 0]})
    text = across.testbeds_markdown({"nfcorpus": nf}, {"nfcorpus": 102}, 30,
                                    {3: 366, 2: 700, 1: 857, 0: 51970})
    assert "| requests | 30 | 102 |" in text
    assert "| level 3 (highly) | 366 (12.2 per request) | 464 (4.5 per request) |" in text


def test_a_qualified_verdict_has_its_verdicts_colour():
    assert across.verdict_colour("holds (as large as published)") == across.VERDICT_COLOURS["holds"]
    assert across.verdict_colour("holds (smaller than published)") == across.VERDICT_COLOURS["holds"]
    assert across.verdict_colour("does not hold") == across.VERDICT_COLOURS["does not hold"]
    assert across.verdict_colour("") == "#000000"


def test_the_deciding_condition_is_drawn_first_marked_and_bold(summaries):
    """Amendment 3, C2: a marked condition (the deciding row) heads the forest plot."""
    frame = summaries[0].assign(thesaurus="nasa")
    frame["mark"] = ["deciding" if (p, m) == ("expert", "InQuery") else ""
                     for p, m in zip(frame["plan_set"], frame["model"])]
    fig = across.figure(frame, FIGURES, findings=[2], label_collection=False)
    ticks = fig.get_axes()[0].get_yticklabels()
    top = max(ticks, key=lambda t: t.get_position()[1])
    assert top.get_text() == "deciding: nasa · expert · InQuery"
    assert top.get_fontweight() == "bold"
    assert all(t.get_fontweight() == "normal" for t in ticks if t is not top)
    plain = across.figure(frame.drop(columns="mark"), FIGURES, findings=[2],
                          label_collection=False)
    assert not any(t.get_text().startswith("deciding")
                   for t in plain.get_axes()[0].get_yticklabels())
