"""The paper's figures from the evaluation's curves: P–R per relevance level, CG/DCG
(and nCG/nDCG) vectors against the ideal vector, and differences from the baseline.

Each function returns a matplotlib Figure built from contract frames
(:mod:`gradedrel.report.evaluation_files`); :func:`save` writes PNG and PDF without timestamps or
software strings, so that the same inputs give byte-identical files. A query type has one
colour, marker and line style everywhere (config ``report.figures.style``); the ideal
vector is drawn as a black dotted line. Legends sit below the panels, never over data.
"""
from __future__ import annotations

import zlib
from typing import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from gradedrel.core.io import atomic_open  # noqa: E402

from gradedrel.collection.grades import LEVEL_SHORT as LEVEL_NAMES  # noqa: E402
from gradedrel.evaluation.measures.jk import JKMeasure, profile_label  # noqa: E402


def _rc(font_size: float) -> dict:
    return {"font.size": font_size, "axes.titlesize": font_size + 1,
            "axes.labelsize": font_size, "legend.fontsize": font_size,
            "xtick.labelsize": font_size - 1, "ytick.labelsize": font_size - 1,
            "figure.titlesize": font_size + 2, "svg.hashsalt": "gradedrel",
            "pdf.compression": 6}


#: The styles of runs beside the query types (``gradedrel compare``: a user's runs), in
#: order: none shares a query type's colour and marker (config ``report.figures.style``)
#: or the ideal vector's black dotted line (colours from Paul Tol's palettes, beside the
#: query types' Okabe-Ito ones).
RUN_STYLES = ({"colour": "#882255", "marker": "D", "linestyle": "-"},
              {"colour": "#7F7F7F", "marker": "v", "linestyle": "-."},
              {"colour": "#332288", "marker": "P", "linestyle": "-"},
              {"colour": "#999933", "marker": "X", "linestyle": "-."})


def with_runs(style: Mapping, runs: Sequence[str]) -> dict:
    """The query types' ``style`` with a style of its own for each of ``runs`` (from
    :data:`RUN_STYLES`, in order, repeating after the last)."""
    return {**style, **{run: RUN_STYLES[i % len(RUN_STYLES)] for i, run in enumerate(runs)}}


def _line_kw(style: Mapping, qt: str, i: int, n: int, every: int | None) -> dict:
    """The line of query type ``qt``: its configured style; one without (a structure added to
    the registry, ``BAND/u``) gets a colour and marker from :data:`RUN_STYLES` chosen by its
    structure's name (the same on every figure), dashed unexpanded, solid expanded."""
    structure, _, expansion = qt.partition("/")
    s = style[qt] if qt in style else {
        **RUN_STYLES[zlib.crc32(structure.encode("utf-8")) % len(RUN_STYLES)],
        "linestyle": "--" if expansion == "u" else "-"}
    kw = {"color": s["colour"], "marker": s["marker"], "linestyle": s["linestyle"],
          "linewidth": 1.4, "markersize": 4.5, "label": qt}
    if every:   # stagger markers so that curves lying on top of each other stay legible
        kw["markevery"] = (int(i * every / n), every)
    return kw


def _lines(ax, rows: pd.DataFrame, x: str, y: str, query_types: Sequence[str], style: Mapping,
           every: int | None) -> None:
    for i, qt in enumerate(query_types):
        r = rows[rows["run"] == qt].sort_values(x)
        ax.plot(r[x], r[y], **_line_kw(style, qt, i, len(query_types), every))


def legend_columns(entries: int, most: int = 7) -> int:
    """Columns for ``entries`` legend entries below the panels: one row up to ``most`` (the
    six query types and the ideal fit the page's width), else as few rows of equal length as
    fit (8 entries: 2 rows of 4)."""
    rows = -(-entries // most)
    return -(-entries // rows)


def _panels(items: Sequence, figures: Mapping, title: str, ylabel: str, entries: int, draw):
    """A figure of one panel per item (``draw(ax, item)``), gridded, the y label on the
    first, the legend of ``entries`` entries below the panels."""
    with plt.rc_context(_rc(figures["font_size"])):
        fig, axes = plt.subplots(1, len(items), layout="constrained", squeeze=False,
                                 figsize=(figures["width"], figures["height"] + 0.5))
        axes = axes.ravel()
        for ax, item in zip(axes, items):
            draw(ax, item)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel(ylabel)
        fig.suptitle(title)
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=legend_columns(entries),
                   frameon=False)
    return fig


def _rows(frame: pd.DataFrame, max_rank: int | None = None, **where) -> pd.DataFrame:
    mask = pd.Series(True, index=frame.index)
    for column, value in where.items():
        mask &= frame[column].astype(type(value)) == value
    if max_rank is not None:   # the ranks a figure draws
        mask &= frame["rank"].astype(int) <= max_rank
    return frame[mask]


def pr_figure(pr_curves: pd.DataFrame, levels: Sequence[int], reading: str,
              query_types: Sequence[str], figures: Mapping, title: str):
    """Interpolated precision at the standard recall points, one panel per level
    (separate recall base per level; J&K 2000, Method 1)."""
    def draw(ax, level):
        rows = _rows(pr_curves, level=int(level), reading=reading)
        topics = sorted(set(rows["topics"].astype(int)))
        _lines(ax, rows, "recall", "precision", query_types, figures["style"], None)
        word = "exactly" if reading == "exact" else "at least"
        ax.set_title(f"level {level} ({LEVEL_NAMES[level]}), n = {'/'.join(map(str, topics))}")
        ax.set_xlabel(f"recall ({word} level {level})")
        ax.set_xlim(-0.02, 1.02)    # whole markers at recall 0 and 1
        ax.set_ylim(0, 1.02)
        ax.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])

    return _panels(levels, figures, title, "interpolated precision", len(query_types), draw)


def gain_figure(gain_curves: pd.DataFrame, curve: JKMeasure, profiles: Sequence[str],
                query_types: Sequence[str], figures: Mapping, title: str):
    """Mean gain vectors of ``curve`` (``JK_CG``, ``JK_DCG(b=B)``, ``JK_nCG``,
    ``JK_nDCG(b=B)``: :func:`gradedrel.evaluation.measures.jk.curve`) over ranks
    1..max_rank, one panel per gain profile, with the ideal vector (J&K 2000 Method 2; J&K
    2002 for nCG)."""
    kind, base = curve.curve
    max_rank, every, ideal_style = figures["max_rank"], figures["marker_every"], figures["ideal"]

    def draw(ax, profile):
        rows = _rows(gain_curves, max_rank, profile=str(profile), kind=kind, base=int(base))
        _lines(ax, rows, "rank", "value", query_types, figures["style"], every)
        ideal = rows[rows["run"] == query_types[0]].sort_values("rank")
        ax.plot(ideal["rank"], ideal["ideal"], color=ideal_style["colour"],
                linestyle=ideal_style["linestyle"], linewidth=ideal_style["linewidth"],
                label="ideal vector")
        ax.set_title(profile_label(profile))
        ax.set_xlabel("rank")
        _rank_axis(ax, max_rank)
        if kind.startswith("n"):
            ax.set_ylim(0, 1.05)
        else:
            ax.set_ylim(bottom=0)

    return _panels(profiles, figures, title, f"mean {curve.label()}", len(query_types) + 1, draw)


def _rank_axis(ax, max_rank: int, n: int = 5) -> None:
    """Ranks 1..max_rank with a little room, so that markers and error bars at the first and
    last rank are drawn whole; ticks at rank 1 and n evenly spaced round ranks up to max_rank
    (rank 0 does not exist)."""
    ax.set_xlim(1 - 0.03 * max_rank, max_rank + 0.03 * max_rank)
    step = max(1, int(min(m * 10 ** e for e in range(0, 7) for m in (1, 2, 2.5, 5)
                          if m * 10 ** e >= max_rank / n)))
    ax.set_xticks([1] + list(range(step, max_rank + 1, step)))


def difference_figure(gain_curves: pd.DataFrame, bands: pd.DataFrame | None,
                      curve: JKMeasure, profiles: Sequence[str], baseline: str,
                      query_types: Sequence[str], figures: Mapping, title: str,
                      band_note: str = "bootstrap confidence interval of the mean difference"):
    """Mean gain of each query type minus the baseline's, per rank, with its bootstrap
    interval (bands: run, profile, kind, base, rank, lo, hi): a shaded band where it is
    given at more than five ranks, error bars at the ranks given otherwise.
    Small multiples: a row per gain profile, a column per query type, shared y per row,
    so that bands do not overlap each other. ``curve``: as for :func:`gain_figure`."""
    kind, base = curve.curve
    others = [q for q in query_types if q != baseline]
    max_rank, every = figures["max_rank"], figures["marker_every"]
    drawn = 0
    with plt.rc_context(_rc(figures["font_size"])):
        fig, grid = plt.subplots(len(profiles), len(others), sharex=True, sharey="row",
                                 figsize=(figures["width"], 0.75 * figures["height"]
                                          * len(profiles) + 0.6),
                                 layout="constrained", squeeze=False)
        for row, profile in enumerate(profiles):
            rows = _rows(gain_curves, max_rank, profile=str(profile), kind=kind, base=int(base))
            ref = rows[rows["run"] == baseline].set_index("rank")["value"]
            for col, qt in enumerate(others):
                ax = grid[row, col]
                r = rows[rows["run"] == qt].set_index("rank")["value"].sort_index()
                kw = _line_kw(figures["style"], qt, 0, 1, every)
                if bands is not None and len(bands):
                    b = _rows(bands, max_rank, run=qt, profile=str(profile), kind=kind,
                              base=int(base)).sort_values("rank")
                    if len(b) > 5:
                        ax.fill_between(b["rank"].astype(int), b["lo"], b["hi"],
                                        color=kw["color"], alpha=0.25, linewidth=0)
                    elif len(b):
                        mid = (r - ref.reindex(r.index)).reindex(b["rank"].astype(int))
                        ax.errorbar(b["rank"].astype(int), mid.to_numpy(),
                                    yerr=[mid.to_numpy() - b["lo"].to_numpy(),
                                          b["hi"].to_numpy() - mid.to_numpy()],
                                    fmt="none", ecolor="#000000", elinewidth=1.0, capsize=2.5,
                                    zorder=3)
                    drawn += len(b) > 0
                ax.plot(r.index, r - ref.reindex(r.index), **kw)
                ax.axhline(0, color="#000000", linewidth=0.8)
                _rank_axis(ax, max_rank, 3)
                ax.grid(alpha=0.3)
                if row == 0:
                    ax.set_title(f"{qt} − {baseline}")
                if row == len(profiles) - 1:
                    ax.set_xlabel("rank")
            grid[row, 0].set_ylabel(f"{profile_label(profile)}\nΔ mean {curve.label()}")
        fig.supxlabel(band_note if drawn else
                      "no bootstrap interval: no per-topic values for this curve",
                      fontsize=figures["font_size"] - 1)
        fig.suptitle(title)
    return fig


def save(fig, png: str, pdf: str, dpi: int) -> None:
    """Write PNG and PDF atomically, without dates or software versions in the metadata.

    The layout (constrained layout: a third of the drawing time) is worked out once, when
    the PNG is drawn; the PDF keeps it, with no layout engine at all, so that it is drawn
    once (a placeholder engine, ``set_layout_engine("none")``, would still draw it twice)."""
    with atomic_open(png, "wb") as handle:
        fig.savefig(handle, format="png", dpi=dpi, metadata={"Software": None})
    with plt.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
    with atomic_open(pdf, "wb") as handle:
        fig.savefig(handle, format="pdf",
                    metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(fig)
