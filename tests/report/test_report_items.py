"""What the Snakemake report shows of each result (gradedrel.report.items): labels, screen
copies of figures, the landing page; and the caps on a report page's rows and lines."""
from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from PIL import Image

from gradedrel.report import html, items
from gradedrel.study import Layout

ROOT = Path(__file__).resolve().parents[2]
#: The caption files of items labelled by LABELS (a figure's label names its curve instead).
CAPTIONS = sorted(p.name for p in (ROOT / "workflow" / "report").glob("*.rst")
                  if p.name != "workflow.rst" and not p.name.startswith("figure_"))


def test_every_caption_file_has_a_label_and_every_label_a_caption_file():
    assert sorted(items.LABELS) == CAPTIONS


def test_every_caption_the_rules_name_has_a_label():
    """Each ``caption=`` (or page_of caption) in the rule files and the outputs they build
    (gradedrel/study_outputs.py) is a labelled caption file."""
    files = [*(ROOT / "workflow" / "rules").glob("*.smk"), ROOT / "gradedrel" / "study_outputs.py"]
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    named = set(re.findall(r'"([a-z_0-9]+\.rst)"', text)) - {"workflow.rst"}
    named = {n for n in named if not n.startswith("figure_")}
    assert named and named <= set(items.LABELS), named - set(items.LABELS)


def test_label_of_an_unknown_caption_names_it_and_the_known_ones():
    with pytest.raises(KeyError, match=r"'nope\.rst'.*avp_table\.rst"):
        items.label("../report/nope.rst")
    assert items.label("../report/avp_table.rst") == items.LABELS["avp_table.rst"]


def _png(path: Path, size: tuple[int, int], mode: str = "RGBA") -> None:
    image = Image.new(mode, size, (255, 255, 255, 0) if mode == "RGBA" else "white")
    for x in range(size[0]):  # a diagonal line in a colour
        image.putpixel((x, x * size[1] // size[0]), (200, 30, 30, 255) if mode == "RGBA"
                       else (200, 30, 30))
    image.save(path)


def test_screen_png_scales_300_dpi_to_100_keeping_the_aspect_and_whitening_transparency(
        tmp_path):
    source, target = tmp_path / "print.png", tmp_path / "screen.png"
    _png(source, (2160, 990))
    assert items.screen_png(source, target, 300) == (720, 330)
    with Image.open(target) as small:
        assert small.size == (720, 330)
        assert small.mode == "P" and len(small.getcolors(256)) <= 256
        assert small.convert("RGB").getpixel((700, 5)) == (255, 255, 255)  # was transparent
    first = target.read_bytes()
    items.screen_png(source, target, 300)
    assert target.read_bytes() == first


def test_screen_png_never_scales_up(tmp_path):
    source, target = tmp_path / "small.png", tmp_path / "screen.png"
    _png(source, (50, 20), "RGB")
    assert items.screen_png(source, target, 72) == (50, 20)


def test_landing_html_puts_the_answer_before_the_figure_and_lists_the_rest():
    page = items.landing_html("<h1>Headline</h1><table></table>", b"\x89PNG", "the forest <plot>",
                              [("every figure", "figures/")])
    assert page.index("Headline") < page.index("<img") < page.index("every figure")
    assert 'src="data:image/png;base64,iVBORw=="' in page
    assert 'alt="the forest &lt;plot&gt;"' in page and "<code>figures/</code>" in page
    assert "<img" not in items.landing_html("<p>a</p>", None, "", [])


def test_write_landing_converts_the_markdown_and_embeds_the_screen_figure(tmp_path):
    figure = tmp_path / "f.png"
    _png(figure, (30, 20), "RGB")
    target = tmp_path / "landing.html"
    items.write_landing("# The headline\n\n| a | b |\n|---|--:|\n| x | 1 |\n", str(figure), "f",
                        [], str(target))
    page = target.read_text(encoding="utf-8")
    assert "<h1>The headline</h1>" in page and '<td class="n">1</td>' in page
    assert "<html" not in page and "<body" not in page  # a fragment, for the description
    assert "data:image/png;base64," + base64.b64encode(figure.read_bytes()).decode("ascii") \
        in page


def test_the_workflow_description_includes_the_landing_page_the_workflow_writes():
    """workflow.rst names the landing page by config results_dir and active_collections;
    Layout.landing by its results folder and the set of collections: the same file."""
    import jinja2

    text = (ROOT / "workflow" / "report" / "workflow.rst").read_text(encoding="utf-8")
    included = re.search(r":file: (.+)", text).group(1).strip()
    results = "some/results"
    for active in (["cranfield"], ["nfcorpus-fresh", "cranfield", "nfcorpus"]):
        config = {"results_dir": results, "active_collections": active}
        assert jinja2.Template(included).render(snakemake={"config": config}) == \
            Layout(results=results).landing(active)


def test_screen_copy_of_a_figure_lies_in_the_report_pages_of_its_collection():
    layout = Layout(results="r", figures="f")
    assert layout.screen("f/cranfield/auto/BM25/cg.png") == \
        "r/report_pages/figures/cranfield/auto/BM25/cg.png"


def test_tsv_page_shows_the_first_rows_and_says_where_the_rest_are():
    text = "qid\tavp\n" + "".join(f"{i}\t0.5\n" for i in range(1, 251))
    page = html.tsv_to_html(text, "per_topic.tsv", "results/c/per_topic.tsv", rows_shown=100)
    assert "250 rows × 2 columns" in page
    assert "The first 100 rows; all 250 are in the file <code>results/c/per_topic.tsv</code>" \
        in page
    assert "<td class=\"n\">100</td>" in page and "<td class=\"n\">101</td>" not in page
    assert "The first" not in html.tsv_to_html("qid\n1\n2\n", "t", "s", rows_shown=2)


def test_text_page_shows_the_first_lines_and_says_where_the_rest_are():
    text = "".join(f"line {i}\n" for i in range(1, 11))
    page = html.text_to_html(text, "plans.yaml", "results/c/plans.yaml", lines_shown=3)
    assert "The first 3 of 10 lines" in page and "<code>results/c/plans.yaml</code>" in page
    assert "line 3\n</pre>" in page and "line 4" not in page
    assert "The first" not in html.text_to_html(text, "t", "s", lines_shown=10)


def test_refresh_pages_rewrites_an_old_page_keeping_its_title_and_only_once(tmp_path):
    results = tmp_path / "results"
    source = results / "c" / "evaluation" / "per_topic.tsv"
    source.parent.mkdir(parents=True)
    source.write_text("qid\tavp\n" + "".join(f"{i}\t0.5\n" for i in range(1, 151)),
                      encoding="utf-8")
    page_path = results / "report_pages" / "c" / "evaluation" / "per_topic.tsv.html"
    page_path.parent.mkdir(parents=True)
    source_name = f"{results}/c/evaluation/per_topic.tsv"
    old = html.tsv_to_html(source.read_text(encoding="utf-8"), "per_topic.tsv: collection c",
                           source_name, rows_shown=1000)  # as written before the cap
    page_path.write_text(old, encoding="utf-8")
    kept = tmp_path / "hard_link.html"
    kept.hardlink_to(page_path)
    orphan = results / "report_pages" / "c" / "gone.tsv.html"  # its result was deleted
    orphan.write_text("<title>x</title>", encoding="utf-8")
    assert html.refresh_pages(str(results)) == [str(page_path)]
    new = page_path.read_text(encoding="utf-8")
    assert "<title>per_topic.tsv: collection c</title>" in new
    assert f"The first {html.PAGE_ROWS} rows; all 150" in new and "<td class=\"n\">150</td>" \
        not in new
    assert kept.read_text(encoding="utf-8") == old  # a new file: a hard link keeps the old
    assert html.refresh_pages(str(results)) == []


def test_refresh_page_refuses_a_file_that_is_not_a_page(tmp_path):
    (tmp_path / "a.tsv").write_text("x\n1\n", encoding="utf-8")
    (tmp_path / "a.tsv.html").write_text("no title here", encoding="utf-8")
    with pytest.raises(ValueError, match=r"a\.tsv\.html: expected a report page"):
        html.refresh_page(tmp_path / "a.tsv.html", tmp_path / "a.tsv")
