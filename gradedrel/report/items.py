"""What the Snakemake report shows of each result: its label, its screen-sized figure and the
landing page.

The report (``snakemake --report``) embeds every item in one HTML file, so it holds the
figures at screen resolution (print-quality PNG and PDF stay in ``figures/``), the figures of
each collection's primary condition only (the others are linked from the landing page), and
names every item by a label instead of its path. Its landing page (the workflow description,
workflow/report/workflow.rst) includes :func:`landing_html`: the qualified headline with the
table of what each verdict rests on, then the forest figure.
"""
from __future__ import annotations

import base64
import html
from pathlib import Path

from gradedrel.core.io import atomic_open, write_text

#: Resolution of a figure in the report (dots per inch; the print files keep theirs).
SCREEN_DPI = 100

#: The label of a report item, by its caption file (workflow/report/<caption>).
LABELS = {
    "across_collections.rst": "findings across collections (figure)",
    "across_collections_table.rst": "findings across collections (table)",
    "avp_table.rst": "AvP per relevance level, beside the paper's",
    "curation.rst": "plan sets compared",
    "effort_table.rst": "evaluation effort",
    "evaluation_effort.rst": "evaluation effort per query type",
    "evaluation_means.rst": "mean AvP per query type and level",
    "findings.rst": "findings report",
    "forest.rst": "forest plot of the findings",
    "headline.rst": "headline: what each verdict rests on",
    "key_provenance.rst": "where the primary effect comes from",
    "key_sources_shares.rst": "where the keys came from",
    "leak.rst": "leak diagnostic",
    "memory_probe.rst": "memory probe",
    "memory_probe_v2.rst": "memory probe v2",
    "not_ranked.rst": "judged documents not ranked",
    "plans.rst": "query plans",
    "query_statistics.rst": "query statistics",
    "reproduction_table.rst": "reproduction measures",
    "selected_topics.rst": "selected topics",
    "standard_table.rst": "every measure",
    "summary.rst": "verdicts of every plan set and model",
    "syn_df.rst": "SYN operator document frequencies",
    "testbed.rst": "testbed",
    "testbed_table.rst": "testbed, beside the paper's",
    "thesaurus_summary.rst": "thesaurus summary",
    "verdicts.rst": "verdicts and what decides them",
}

#: The landing page's own style (it applies while the page is shown): the page from its top
#: (Snakemake centres the view, so that the top of a tall one could not be scrolled to), the
#: answer at full width with the rule graph below it, not beside it in a 32em column.
LANDING_STYLE = (
    "<style>#app div.grow.flex.h-screen.overflow-auto{align-items:flex-start}"
    "#app div.grow.flex.gap-3.p-3.items-start{flex-wrap:wrap}"
    "#app div.grow.flex.gap-3.p-3.items-start>div.py-2{flex:1 1 100%;max-width:100%}"
    "#app .prose.max-w-lg{max-width:none}"
    ".gradedrel-landing table{font-size:.8rem;margin:.5em 0}"
    ".gradedrel-landing td,.gradedrel-landing th{padding:.15em .4em;vertical-align:top}"
    ".gradedrel-landing td.n{text-align:right;font-variant-numeric:tabular-nums}</style>")

def label(caption: str) -> str:
    """The label of the report item captioned by ``caption`` (a file name or a path ending
    in one: ``../report/avp_table.rst``)."""
    name = caption.rsplit("/", 1)[-1]
    if name not in LABELS:
        raise KeyError(f"report caption {name!r} has no label in gradedrel.report.items.LABELS "
                       f"(expected one of: {', '.join(sorted(LABELS))})")
    return LABELS[name]


def screen_png(source: str | Path, target: str | Path, source_dpi: float,
               dpi: float = SCREEN_DPI) -> tuple[int, int]:
    """Write the PNG ``source`` (drawn at ``source_dpi``) scaled to ``dpi`` at ``target``
    (atomically; no metadata, so the same source gives the same bytes): over white, in a
    palette of 256 colours without dithering (a third of the bytes of full colour for a
    line plot). Returns the new (width, height); a figure is never scaled up."""
    from PIL import Image

    with Image.open(source) as image:
        factor = min(1.0, dpi / source_dpi)
        size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
        rgba = image.convert("RGBA")
    flat = Image.alpha_composite(Image.new("RGBA", rgba.size, "white"), rgba)
    small = flat.convert("RGB").resize(size, Image.Resampling.LANCZOS)
    small = small.quantize(256, dither=Image.Dither.NONE)
    with atomic_open(str(target), "wb") as handle:
        small.save(handle, format="PNG", optimize=True)
    return size


def landing_html(answer_html: str, figure: bytes | None, figure_alt: str,
                 links: list[tuple[str, str]]) -> str:
    """The report's landing page (an HTML fragment the workflow description includes): the
    answer first (``answer_html``: the headline and the table of what each verdict rests
    on), then the forest ``figure`` (PNG bytes, or None), then ``links`` (text, path)
    to the files the report does not embed."""
    out = [LANDING_STYLE, '<div class="gradedrel-landing">', answer_html]
    if figure is not None:
        uri = "data:image/png;base64," + base64.b64encode(figure).decode("ascii")
        out.append(f'<figure><img src="{uri}" alt="{html.escape(figure_alt)}" '
                   'style="max-width:100%;height:auto"><figcaption>'
                   f"{html.escape(figure_alt)}</figcaption></figure>")
    if links:
        out.append("<p>Not embedded in this report (next to it, in the project folder):</p><ul>")
        out += [f"<li>{html.escape(text)}: <code>{html.escape(path)}</code></li>"
                for text, path in links]
        out.append("</ul>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def write_landing(answer_markdown: str, screen_figure: str | None, figure_alt: str,
                  links: list[tuple[str, str]], target: str) -> None:
    """Write the landing page to ``target``: ``answer_markdown`` converted, the PNG
    ``screen_figure`` (already at screen resolution) embedded, the links."""
    from gradedrel.report.html import markdown_to_html

    page = markdown_to_html(answer_markdown, "answer")   # its body, inside the landing page
    answer = page[page.find("<body>") + len("<body>"):page.rfind("</body>")].strip()
    data = Path(screen_figure).read_bytes() if screen_figure else None
    write_text(landing_html(answer, data, figure_alt, links), target)

