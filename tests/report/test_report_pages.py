"""The Snakemake report's pages and captions: TSV and Markdown results as readable HTML,
captions that are valid reStructuredText naming collection, plan set and model, and the
report check that fails on a broken caption."""
from __future__ import annotations

import io
import re
from pathlib import Path

import jinja2
import pytest
from docutils.core import publish_parts

from gradedrel.report import html
from conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
CAPTIONS = sorted((ROOT / "workflow" / "report").glob("*.rst"))


def _check_report():
    return load_script(ROOT / "tools" / "check_report.py", "check_report")


def test_tsv_page_is_a_table_with_cells_as_written_and_numbers_right_aligned():
    text = "run\tmeasure\tmean\ttopics\nSUM/u\tAvP(level=3)\t0.262000\t30\nWSYN/e\t<b>\t\t\n"
    page = html.page(text, "results/c/evaluation/auto/BM25/means.tsv", "means.tsv: c")
    assert "<th>measure</th>" in page and "<td>AvP(level=3)</td>" in page
    assert '<td class="n">0.262000</td>' in page and '<td class="n">30</td>' in page
    assert "<td>&lt;b&gt;</td>" in page  # escaped, not markup
    assert "2 rows × 4 columns" in page
    assert "results/c/evaluation/auto/BM25/means.tsv" in page


def test_markdown_page_renders_tables_and_fenced_blocks():
    text = "# Testbed\n\n| a | b |\n|:--|--:|\n| x | 1 |\n\n```\n3 highly: 1, 2\n```\n\nDone.\n"
    page = html.page(text, "results/c/testbed.md", "testbed.md: collection c")
    assert "<h1>Testbed</h1>" in page and '<td class="n">1</td>' in page
    assert "<pre>3 highly: 1, 2</pre>" in page and "```" not in page


def test_yaml_page_is_preformatted_and_escaped():
    page = html.page("plans:\n- qid: '1' # <x>\n", "results/c/plans/auto/plans.yaml", "t")
    assert "<pre>plans:\n- qid: &#x27;1&#x27; # &lt;x&gt;\n</pre>" in page


def test_page_title_names_the_wildcards():
    wildcards = {"collection": "cranfield", "planset": "auto", "model": "BM25"}
    assert html.page_title("results/cranfield/x/means.tsv", wildcards) == \
        "means.tsv: collection cranfield, plan set auto, model BM25"


@pytest.mark.parametrize("caption", CAPTIONS, ids=lambda p: p.name)
def test_every_caption_is_valid_rst(caption, tmp_path):
    """Rendered as Snakemake renders it (Jinja with the job's wildcards, then docutils):
    no warning, no "System Message" in the HTML. The workflow description includes the
    landing page from the results folder (config results_dir)."""
    class Wildcards(dict):
        __getattr__ = dict.__getitem__

    (tmp_path / "report" / "landing").mkdir(parents=True)
    (tmp_path / "report" / "landing" / "cranfield+nfcorpus.html").write_text(
        "<p>the answer</p>", encoding="utf-8")

    class Snakemake:
        wildcards = Wildcards(collection="cranfield", planset="auto", model="BM25",
                              thesaurus="nasa")
        params = Wildcards(models={"InQuery": {}, "BM25": {}})  # the retrieve job's
        config = {"results_dir": str(tmp_path), "active_collections": ["nfcorpus", "cranfield"]}

    text = jinja2.Template(caption.read_text(encoding="utf-8")).render(snakemake=Snakemake)
    warnings = io.StringIO()
    body = publish_parts(text, writer="html",
                         settings_overrides={"warning_stream": warnings, "report_level": 1})["body"]
    assert warnings.getvalue() == "" and "system-message" not in body, warnings.getvalue()


def test_captions_of_per_condition_results_name_collection_plan_set_and_model():
    per_condition = ["figure_pr", "figure_gain", "figure_difference"]
    for name in per_condition:
        text = (ROOT / "workflow" / "report" / f"{name}.rst").read_text(encoding="utf-8")
        for wildcard in ("collection", "planset", "model"):
            assert f"snakemake.wildcards.{wildcard}" in text, (name, wildcard)
    # one retrieve (evaluate_runs, report_findings) job per plan set writes every model's
    # not_ranked.tsv (means.tsv, tables, findings): its caption names the plan set's
    # models, its subcategory ("{planset}, {model}") and page title the one
    for name in ("not_ranked", "evaluation_means", "evaluation_effort", "avp_table",
                 "effort_table", "standard_table", "testbed_table", "findings",
                 "reproduction_table", "verdicts"):
        text = (ROOT / "workflow" / "report" / f"{name}.rst").read_text(encoding="utf-8")
        for named in ("wildcards.collection", "wildcards.planset", "params.models"):
            assert f"snakemake.{named}" in text, (name, named)
        assert "snakemake.wildcards.model" not in text, name  # no such wildcard in the job


def test_report_check_fails_on_a_broken_caption_a_download_and_a_category_without_collection():
    check = _check_report()
    good = {"caption": "<p><strong>cranfield</strong>, plan set auto</p>",
            "mime_type": "text/html", "labels": {"item": "AvP per relevance level"}}
    results = {
        "results/cranfield/report/auto/BM25/tables/avp.html": good,
        "results/cranfield/report/auto/BM25/tables/effort.html": {
            "caption": '<div class="system-message"><p class="system-message-title">System '
                       'Message: WARNING/2</p></div>', "mime_type": "text/html"},
        "results/cranfield/evaluation/auto/BM25/means.tsv": {
            "caption": "<p>means</p>", "mime_type": "text/tab-separated-values"},
    }
    categories = {"Tables": {"auto, BM25": list(results)}}
    problems = check.static_problems(results, categories)
    assert any("effort.html: broken caption" in p for p in problems)
    assert any("means.tsv: shown only as a download" in p for p in problems)
    assert any("category 'Tables' does not name its collection" in p for p in problems)
    assert any("means.tsv: no label" in p for p in problems)
    assert not any("avp.html" in p for p in problems)
    fixed = {"cranfield tables": {"auto, BM25": list(results)[:1]}}
    assert check.static_problems({k: results[k] for k in list(results)[:1]}, fixed) == []


def test_report_check_reads_the_report_data():
    check = _check_report()
    text = ('<script>var results = "not this one";</script>\n<script id="results">\n'
            'var results = {"a": {"caption": "x"}};\n</script>')
    assert check.embedded(text, "results") == {"a": {"caption": "x"}}
    assert check.collection_of("results/report_pages/thesauri/nasa/summary.tsv.html") is None
    assert check.collection_of("results/report_pages/cranfield/testbed.md.html") == "cranfield"
    assert check.collection_of("figures/cranfield/auto/BM25/cg.png") == "cranfield"
    assert check.collection_of("results/report/across_collections/cranfield.md") is None
    assert check.collection_of("figures/across_collections/cranfield+nfcorpus.png") is None
    assert check.collection_of("results/report_pages/figures/cranfield/auto/BM25/cg.png") == \
        "cranfield"
    assert check.collection_of(
        "results/report_pages/figures/across_collections/cranfield+nfcorpus.png") is None


def test_report_check_limits_the_report_to_20_mb():
    check = _check_report()
    assert check.size_problems(20_000_000) == []
    assert check.size_problems(93_154_134) == [
        "the report weighs 93.2 MB (at most 20 MB: embed fewer or smaller items, "
        "gradedrel.report.items)"]


def test_report_check_reads_the_landing_pages_first_words():
    """Amendment 3, C2: after the Cranfield main job alone the report opens on Cranfield's
    headline; the check reads what the landing page shows first, without markup."""
    check = _check_report()
    dom = ('<div class="gradedrel-landing"><style>p {x: 1}</style><h1>The answer</h1>\n'
           "<p>Cranfield, 142 requests: the effect does not hold &amp; more</p></div>")
    assert check.landing_opening(dom, 5) == "The answer Cranfield, 142 requests:"
    assert check.landing_opening(dom, 40).startswith("The answer Cranfield,")
    assert check.landing_opening("<p>no landing</p>") == ""
