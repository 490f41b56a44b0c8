"""Check the Snakemake report as a reader sees it, in a real headless browser (chromium).

    python tools/check_report.py results/report.html [--screenshots DIR]

1. From the report's own data (``var results``/``var categories``): the report is at most
   20 MB (it embeds every item), every item has a label (not only its path) and a
   caption, no caption holds a docutils "System Message" (broken reStructuredText), every
   item is shown inline (an image or HTML: a TSV or Markdown item would only be a
   download), and every category of a collection's results names the collection.
2. In chromium (``--headless``): the landing page, which must open within a minute and
   show the answer (the landing page the workflow writes, results/report/landing/<collections>.html),
   and for every category one item shown with its caption (the report's own
   ``app.setView``, driven by a script added to a temporary copy of the report): the
   rendered page must show the caption and no "System Message". A screenshot of each
   view is written to DIR (default: beside the report, ``report-screenshots/``), to look
   at.

Prints one line per problem and exits 1 if there is any; exits 2 if chromium is missing
(Debian: ``apt-get install chromium``).
"""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BROKEN = ("System Message", "system-message")
INLINE = ("text/html", "image/png", "image/svg+xml", "image/jpeg", "application/pdf")
WINDOW = "1400,1000"
#: The most the report may weigh (bytes) and take to open in chromium (seconds).
SIZE_LIMIT = 20_000_000
LOAD_LIMIT = 60
#: The mark of the landing page's answer (gradedrel.report.items.landing_html).
LANDING_MARK = "gradedrel-landing"

# Added to a copy of the report: shows the view named in the URL's fragment (JSON).
NAVIGATE = """
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var view = JSON.parse(decodeURIComponent(location.hash.slice(1)) || "{}");
    if (view.category) {
      app.setView({navbarMode: "subcategory", category: view.category,
                   subcategory: view.subcategory});
    }
    if (view.result) {
      var entry = results[view.result];
      var image = entry.mime_type.indexOf("image/") === 0;
      app.setView({navbarMode: "resultinfo", resultPath: view.result,
                   content: image ? "img" : "html", contentPath: entry.data_uri});
    }
  }, 300);
});
</script>
"""


def embedded(report_text: str, name: str) -> dict:
    """The JSON object the report assigns to ``var <name>`` in ``<script id="<name>">``."""
    anchor = report_text.find(f'<script id="{name}">')
    start = report_text.find(f"var {name} = ", max(anchor, 0))
    if anchor < 0 or start < 0:
        raise ValueError(f"the report holds no 'var {name}' (not a Snakemake 8+ report?)")
    start += len(f"var {name} = ")
    value, _ = json.JSONDecoder().raw_decode(report_text, start)
    return value


def static_problems(results: dict, categories: dict) -> list[str]:
    """Problems visible from the report's data alone (see the module docstring)."""
    problems = []
    for path, entry in sorted(results.items()):
        caption = entry.get("caption") or ""
        if not caption.strip():
            problems.append(f"{path}: no caption")
        if not entry.get("labels"):
            problems.append(f"{path}: no label (the report lists it by its path)")
        if any(mark in caption for mark in BROKEN):
            text = re.sub(r"<[^>]+>", " ", caption)
            problems.append(f"{path}: broken caption (docutils System Message): "
                            f"{' '.join(html.unescape(text).split())[:300]}")
        if entry.get("mime_type") not in INLINE:
            problems.append(f"{path}: shown only as a download ({entry.get('mime_type')}), "
                            "not readable in the report")
    for category, subcategories in sorted(categories.items()):
        paths = [p for items in subcategories.values() for p in items]
        owners = {collection_of(p) for p in paths} - {None}
        if owners and not any(category.startswith(c) for c in owners):
            problems.append(f"category {category!r} does not name its collection "
                            f"({', '.join(sorted(owners))})")
    return problems


def size_problems(size: int) -> list[str]:
    """The report weighs at most SIZE_LIMIT bytes (one HTML file that embeds every item)."""
    if size <= SIZE_LIMIT:
        return []
    return [f"the report weighs {size / 1e6:.1f} MB (at most {SIZE_LIMIT / 1e6:.0f} MB: "
            "embed fewer or smaller items, gradedrel.report.items)"]


def views(categories: dict) -> list[tuple[str, dict]]:
    """The landing page, and in every category the first item of its first subcategory
    (each chromium call loads the whole report: a few seconds)."""
    out = [("landing", {})]
    for category, subcategories in sorted(categories.items()):
        subcategory, items = sorted(subcategories.items())[0]
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", category).strip("_")
        out.append((name, {"category": category, "subcategory": subcategory,
                           "result": sorted(items)[0]}))
    return out


def chromium(binary: str, url: str, *args: str) -> str:
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--window-size={WINDOW}", "--virtual-time-budget=5000", *args, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"chromium failed ({done.returncode}): {done.stderr[-500:]}")
    return done.stdout


def landing_opening(dom: str, words: int = 12) -> str:
    """The first ``words`` words a reader sees on the landing page (its answer, as rendered),
    without markup."""
    start = dom.find(LANDING_MARK)
    if start < 0:
        return ""
    body = re.sub(r"<style.*?</style>|<script.*?</script>", "", dom[start:], flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body.split(">", 1)[-1]))
    return " ".join(text.split()[:words])


def browser_problems(report: Path, results: dict, categories: dict, binary: str,
                     screenshots: Path, opens_with: str | None = None) -> list[str]:
    """Open each view in chromium: screenshot it, and check the rendered page (the landing
    page's first words: ``opens_with``, where given)."""
    problems = []
    screenshots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "report.html"
        text = report.read_text(encoding="utf-8")
        end = text.rfind("</body>")  # the last one: the report's scripts hold others
        copy.write_text(text[:end] + NAVIGATE + text[end:], encoding="utf-8")
        for name, view in views(categories):
            url = copy.resolve().as_uri() + "#" + json.dumps(view)
            started = time.monotonic()
            dom = chromium(binary, url, "--dump-dom")
            took = time.monotonic() - started
            if took > LOAD_LIMIT:
                problems.append(f"{name}: took {took:.0f} s to open (at most {LOAD_LIMIT} s)")
            if name == "landing" and LANDING_MARK not in dom:
                problems.append("landing: the landing page does not show the answer (no "
                                f"{LANDING_MARK!r}: is results/report/landing/<collections>.html included?)")
            elif name == "landing" and opens_with and \
                    not landing_opening(dom, 40).startswith(opens_with):
                problems.append(f"landing: the answer does not open with {opens_with!r}; it "
                                f"opens with {landing_opening(dom)!r}")
            chromium(binary, url, f"--screenshot={screenshots / (name + '.png')}")
            visible = re.sub(r"<script.*?</script>", "", dom, flags=re.S)
            if any(mark in visible for mark in BROKEN):
                problems.append(f"{name}: the rendered page shows a System Message")
            if view.get("result"):
                caption = re.sub(r"<[^>]+>", "", results[view["result"]]["caption"])
                first_words = " ".join(html.unescape(caption).split()[:6])
                rendered = html.unescape(re.sub(r"<[^>]+>", "", visible))
                if first_words and _squeezed(first_words) not in _squeezed(rendered):
                    problems.append(f"{name}: caption of {view['result']} not shown "
                                    f"(looked for {first_words!r})")
    return problems


def _squeezed(text: str) -> str:
    return "".join(text.split())


def collection_of(path: str) -> str | None:
    """The collection a result belongs to: ``results/<collection>/...``,
    ``results/report_pages/<collection>/...`` or ``figures/<collection>/...`` (None for a
    thesaurus, which collections share, and for ``results/report/`` and
    ``figures/across_collections/``, across collections)."""
    parts = Path(path).parts
    if parts[:3] == ("results", "report_pages", "figures"):  # a figure's screen copy
        parts = parts[2:]
    elif parts[:2] == ("results", "report_pages"):
        parts = parts[1:]
    if len(parts) > 2 and parts[0] in ("results", "report_pages", "figures") \
            and parts[1] not in ("thesauri", "report", "across_collections"):
        return parts[1]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--screenshots", type=Path, default=None)
    parser.add_argument("--chromium", default=None, help="the browser (default: chromium on PATH)")
    parser.add_argument("--opens-with", default=None,
                        help="the words the landing page's answer must open with (e.g. "
                             "'The answer Cranfield,' after the Cranfield main job alone)")
    args = parser.parse_args(argv)
    text = args.report.read_text(encoding="utf-8")
    results, categories = embedded(text, "results"), embedded(text, "categories")
    problems = size_problems(args.report.stat().st_size) + static_problems(results, categories)
    binary = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("check_report: chromium not found (Debian: apt-get install chromium)",
              file=sys.stderr)
        return 2
    screenshots = args.screenshots or args.report.parent / "report-screenshots"
    problems += browser_problems(args.report, results, categories, binary, screenshots,
                                 args.opens_with)
    for problem in problems:
        print(f"report: {problem}", file=sys.stderr)
    print(f"report: {len(results)} items in {len(categories)} categories; "
          f"{len(views(categories))} views opened in chromium, screenshots in {screenshots}; "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
