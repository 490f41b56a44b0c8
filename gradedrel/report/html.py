"""HTML for the Snakemake report, from the report's own Markdown.

Snakemake's HTML report shows images and HTML inline (other files only as downloads),
so every table and the findings report also get an HTML file. The converter knows only
the Markdown subset this package writes (headings, paragraphs, pipe tables, lists,
check boxes, bold, code and fenced code blocks, links): no new dependency, deterministic output.
"""
from __future__ import annotations

import html
import re
from itertools import takewhile
from pathlib import Path

from gradedrel.core.io import write_text

_CSS = ("body{font-family:sans-serif;max-width:75em;margin:1em auto;padding:0 .5em;"
        "line-height:1.4}"
        # tables fit the report's pane (1,400 px window, workflow/report/report.css): a
        # smaller type, cells that wrap (a token longer than its column breaks too)
        "table{border-collapse:collapse;margin:.5em 0;max-width:100%;font-size:.9em}"
        "td,th{border:1px solid #bbb;padding:.2em .4em;overflow-wrap:break-word;"
        "vertical-align:top}"
        "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}")


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"`(.+?)`", r"<code>\1</code>", text)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', text)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(header: list[str], body: list[list[str]], numeric: list[bool], cell) -> list[str]:
    """``<table>`` lines; ``cell`` makes a cell's HTML, a ``numeric`` column's right-aligned."""
    out = ["<table>", "<tr>" + "".join(f"<th>{cell(h)}</th>" for h in header) + "</tr>"]
    out += ["<tr>" + "".join(f'<td class="n">{cell(c)}</td>' if i < len(numeric) and numeric[i]
                             else f"<td>{cell(c)}</td>" for i, c in enumerate(row)) + "</tr>"
            for row in body]
    return out + ["</table>"]


def _head(title: str, css: str = "") -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(title)}</title><style>{_CSS}{css}</style></head><body>"]


def markdown_to_html(text: str, title: str) -> str:
    """A standalone HTML page of the Markdown the report writes (headings, lists, tables, code)."""
    out, lines, i = _head(title), text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            block = list(takewhile(lambda x: not x.startswith("```"), lines[i + 1:]))
            out.append("<pre>" + html.escape("\n".join(block)) + "</pre>")
            i += len(block) + 2   # the fences
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
            i += 1
        elif line.startswith("|"):
            block = list(takewhile(lambda x: x.startswith("|"), lines[i:]))
            align = [a.endswith(":") for a in _cells(block[1])]
            out += _table(_cells(block[0]), [_cells(b)[:len(align)] for b in block[2:]], align,
                          _inline)
            i += len(block)
        elif line.startswith("- "):
            block = list(takewhile(lambda x: x.startswith("- "), lines[i:]))
            boxes = {"[x] ": "✔ ", "[ ] ": "✘ "}   # check boxes as marks
            out += ["<ul>", *(f"<li>{_inline(boxes.get(b[2:6], b[2:6]) + b[6:])}</li>"
                              for b in block), "</ul>"]
            i += len(block)
        else:
            block = list(takewhile(lambda x: x.strip() and not x.startswith(
                ("#", "|", "- ", "```")), lines[i:]))
            out.append("<p>" + "<br>\n".join(_inline(b) for b in block) + "</p>")
            i += len(block)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# --- report pages: a TSV, Markdown or text result as one HTML page ---------------------------

def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


#: The rows of a TSV file a report page shows (the report embeds every page: a per-topic or
#: per-key file of thousands of rows made it 5 MB a page); the page names the whole file.
PAGE_ROWS = 100


def tsv_to_html(text: str, title: str, source: str = "", rows_shown: int = PAGE_ROWS) -> str:
    """A TSV file (header row, then data rows) as an HTML table, cells exactly as written;
    a column whose non-empty cells are all numbers is right-aligned. Only the first
    ``rows_shown`` data rows are shown; the page says so and names the file."""
    rows = [line.split("\t") for line in text.splitlines()]
    header, body = (rows[0], rows[1:]) if rows else ([], [])
    numeric = [bool(cells) and all(_is_number(c) for c in cells)
               for cells in ([r[i] for r in body if i < len(r) and r[i] != ""]
                             for i in range(len(header)))]
    out = _page_head(title, source) + [f"<p>{len(body)} rows × {len(header)} columns</p>"]
    if len(body) > rows_shown:
        out.append(_cut(f"The first {rows_shown} rows; all {len(body)} are in the file", source))
    out += _table(header, body[:rows_shown], numeric, html.escape) + ["</body></html>"]
    return "\n".join(out) + "\n"


#: The lines of a text file (YAML: the query plans) a report page shows.
PAGE_LINES = 300


def text_to_html(text: str, title: str, source: str = "", lines_shown: int = PAGE_LINES) -> str:
    """A text file (YAML and the like) as preformatted HTML: its first ``lines_shown``
    lines; when there are more, the page says so and names the file."""
    lines = text.splitlines()
    out = _page_head(title, source)
    if len(lines) > lines_shown:
        out.append(_cut(f"The first {lines_shown} of {len(lines)} lines; all are in the file",
                        source))
        text = "\n".join(lines[:lines_shown]) + "\n"
    out += [f"<pre>{html.escape(text)}</pre>", "</body></html>"]
    return "\n".join(out) + "\n"


def _page_head(title: str, source: str) -> list[str]:
    out = _head(title, "h1{font-size:1.25em}p{margin:.4em 0}") + [f"<h1>{html.escape(title)}</h1>"]
    return out + ([f"<p>File: <code>{html.escape(source)}</code></p>"] if source else [])


def _cut(sentence: str, source: str) -> str:
    return f"<p>{sentence}" + (f" <code>{html.escape(source)}</code>" if source else "") + ".</p>"


def page(text: str, source: str, title: str) -> str:
    """The HTML page of result file ``source`` (its content ``text``), by its suffix:
    TSV as a table, Markdown converted, anything else preformatted."""
    if source.endswith(".tsv"):
        return tsv_to_html(text, title, source)
    if source.endswith(".md"):
        body = markdown_to_html(text, title)
        return body.replace("<body>", f"<body><p>{html.escape(title)}; file: "
                                      f"<code>{html.escape(source)}</code></p>", 1)
    return text_to_html(text, title, source)


def page_title(source: str, wildcards) -> str:
    """``means.tsv: collection cranfield, plan set auto, model BM25``."""
    values = dict(wildcards.items()) if wildcards else {}
    named = [f"{word} {values[key]}" for key, word in (
        ("collection", "collection"), ("thesaurus", "thesaurus"), ("planset", "plan set"),
        ("model", "model"), ("wmodel", "model")) if values.get(key)]
    name = source.rsplit("/", 1)[-1]
    return f"{name}: {', '.join(named)}" if named else name


def write_page(source: str, target: str, wildcards=None) -> None:
    """Write the HTML page of result file ``source`` to ``target`` (atomically)."""
    text = Path(source).read_text(encoding="utf-8")
    write_text(page(text, source, page_title(source, wildcards)), target)


def refresh_page(page_path: str | Path, source: str | Path) -> bool:
    """Rewrite the report page ``page_path`` of result file ``source`` as this version of
    :func:`page` writes it, keeping its title, if it differs (a page written before a change
    of the page's layout, whose job need not run again). True if it was rewritten."""
    old = Path(page_path).read_text(encoding="utf-8")
    found = re.search(r"<title>(.*?)</title>", old, re.S)
    if not found:
        raise ValueError(f"{page_path}: expected a report page (an HTML file with a <title>)")
    new = page(Path(source).read_text(encoding="utf-8"), str(source), html.unescape(found[1]))
    if new == old:
        return False
    write_text(new, page_path)  # atomically: a new file, never the old one rewritten in place
    return True


def refresh_pages(results: str) -> list[str]:
    """:func:`refresh_page` for every page under ``<results>/report_pages`` whose result file
    exists (``report_pages/<path>.html`` is the page of ``<results>/<path>``); the pages
    rewritten."""
    root = Path(results) / "report_pages"
    done = []
    for page_path in sorted(root.rglob("*.html")):
        source = f"{results}/{page_path.relative_to(root).as_posix()[:-len('.html')]}"
        if Path(source).is_file() and refresh_page(page_path, source):
            done.append(str(page_path))
    return done
