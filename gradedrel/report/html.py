"""HTML for the Snakemake report, from the report's own Markdown.

Snakemake's HTML report shows images and HTML inline (other files only as downloads),
so every table and the findings report also get an HTML file. The converter knows only
the Markdown subset this package writes (headings, paragraphs, pipe tables, lists,
check boxes, bold, code, links): no new dependency, deterministic output.
"""
from __future__ import annotations

import html
import re

_CSS = ("body{font-family:sans-serif;max-width:75em;margin:1em auto;line-height:1.4}"
        "table{border-collapse:collapse;margin:.5em 0}"
        "td,th{border:1px solid #bbb;padding:.2em .5em}"
        "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}")


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"`(.+?)`", r"<code>\1</code>", text)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', text)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> list[str]:
    header, align = _cells(lines[0]), _cells(lines[1])
    out = ["<table>", "<tr>" + "".join(f"<th>{_inline(h)}</th>" for h in header) + "</tr>"]
    for line in lines[2:]:
        cells = [f'<td class="n">{_inline(c)}</td>' if a.endswith(":") else f"<td>{_inline(c)}</td>"
                 for c, a in zip(_cells(line), align)]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return out


def markdown_to_html(text: str, title: str) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"]
    lines, i = text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
            i += 1
        elif line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i])
                i += 1
            out += _table(block)
        elif line.startswith("- "):
            out.append("<ul>")
            while i < len(lines) and lines[i].startswith("- "):
                item = lines[i][2:]
                item = {"[x] ": "✔ ", "[ ] ": "✘ "}.get(item[:4], item[:4]) + item[4:]
                out.append(f"<li>{_inline(item)}</li>")
                i += 1
            out.append("</ul>")
        else:
            block = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "|", "- ")):
                block.append(lines[i])
                i += 1
            out.append("<p>" + "<br>\n".join(_inline(b) for b in block) + "</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
