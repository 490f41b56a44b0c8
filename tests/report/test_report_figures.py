"""Figures: one style per query type, ideal curves, titles, legends off the data;
tables and figures byte-identical across two runs on the same inputs."""
import matplotlib.colors as mcolors
import pytest

from gradedrel.evaluation.measures.jk import JK_CG, JK_DCG
from gradedrel.evaluation.comparisons import difference_bands
from gradedrel.report import figures, tables
import synthetic
from report_helpers import QTS, published, report_config


@pytest.fixture(scope="module")
def frames():
    return synthetic.evaluate(synthetic.simulate(n_topics=12, seed=3))


def _check_styles(ax, style):
    for line in ax.get_lines():
        label = line.get_label()
        if label in style:
            assert mcolors.to_hex(line.get_color()).lower() == style[label]["colour"].lower()
            assert line.get_marker() == style[label]["marker"]


def test_pr_figure(frames):
    cfg = report_config()
    fig = figures.pr_figure(frames["pr_curves"], [1, 2, 3], "exact", QTS, cfg["figures"],
                            "P–R — cranfield, InQuery")
    axes = fig.get_axes()
    assert len(axes) == 3 and fig._suptitle.get_text() == "P–R — cranfield, InQuery"
    for ax in axes:
        assert [l.get_label() for l in ax.get_lines()] == QTS
        assert ax.get_xlabel().startswith("recall") and len(ax.get_lines()[0].get_xdata()) == 11
        _check_styles(ax, cfg["figures"]["style"])
    assert axes[0].get_ylabel() == "interpolated precision"
    # the legend lies below every panel: it cannot hide data
    fig.canvas.draw()
    legend_top = fig.legends[0].get_window_extent().y1
    assert all(legend_top <= ax.get_window_extent().y0 for ax in axes)


def test_gain_figure_draws_the_ideal_vector(frames):
    cfg = report_config()
    fig = figures.gain_figure(frames["gain_curves"], JK_DCG(b=10), ["3", "2+3", "all"], QTS,
                              cfg["figures"], "DCG — cranfield, InQuery")
    assert fig.get_axes()[0].get_ylabel() == "mean DCG (b = 10)"
    assert [ax.get_title() for ax in fig.get_axes()] == \
        ["level 3 only", "levels 2+3", "all levels (1–3)"]
    for ax, profile in zip(fig.get_axes(), ["3", "2+3", "all"]):
        lines = ax.get_lines()
        assert [l.get_label() for l in lines] == QTS + ["ideal vector"]
        ideal = lines[-1]
        expected = frames["gain_curves"].query(
            "run == 'SUM/u' and profile == @profile and kind == 'DCG' and base == 10")
        assert list(ideal.get_ydata()) == pytest.approx(list(expected.sort_values("rank")["ideal"]))
        assert ax.get_xlim() == pytest.approx((-2, 103)) and len(lines[0].get_xdata()) == 100
        _check_styles(ax, cfg["figures"]["style"])


def test_difference_figure_subtracts_the_baseline(frames):
    cfg = report_config()
    bands = difference_bands(frames["per_topic"], "CG", 0, ["3", "2+3", "all"], "SUM/u", QTS,
                             range(1, 101), 200, 0.95, 1)
    assert sorted(set(bands["rank"])) == [10, 50, 100] and len(bands) == 3 * 3 * 5
    fig = figures.difference_figure(frames["gain_curves"], bands, JK_CG,
                                    ["3", "2+3", "all"], "SUM/u", QTS, cfg["figures"], "Δ")
    axes = fig.get_axes()
    assert axes[5].get_ylabel() == "levels 2+3\nΔ mean CG"
    assert len(axes) == 15 and axes[4].get_title() == "WSYN/e − SUM/u"
    g = frames["gain_curves"].query("profile == '3' and kind == 'CG' and rank == 10")
    want = float(g[g.run == "WSYN/e"]["value"].iloc[0] - g[g.run == "SUM/u"]["value"].iloc[0])
    line = [l for l in axes[4].get_lines() if l.get_label() == "WSYN/e"][0]
    assert line.get_ydata()[list(line.get_xdata()).index(10)] == pytest.approx(want)
    assert len(axes[4].collections) == 1        # the error bars at ranks 10, 50, 100


def _render_all(frames, out):
    cfg, pub = report_config(), published()
    fg = cfg["figures"]
    t = tables.effort_table(frames["effort"].assign(k=10), pub, QTS, cfg["expanded_strong"], "E")
    (out / "effort.csv").write_text(t.to_csv())
    (out / "effort.md").write_text(t.to_markdown())
    (out / "effort.tex").write_text(t.to_latex())
    figures.save(figures.gain_figure(frames["gain_curves"], JK_CG, ["3", "2+3", "all"], QTS,
                                     fg, "CG"), str(out / "cg.png"), str(out / "cg.pdf"), 80)


@pytest.mark.slow  # draws every figure twice
def test_two_runs_are_byte_identical(frames, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _render_all(frames, tmp_path / "a")
    _render_all(synthetic.evaluate(synthetic.simulate(n_topics=12, seed=3)), tmp_path / "b")
    for name in ("effort.csv", "effort.md", "effort.tex", "cg.png", "cg.pdf"):
        a, b = (tmp_path / "a" / name).read_bytes(), (tmp_path / "b" / name).read_bytes()
        assert a == b, name
    assert b"CreationDate" not in (tmp_path / "a" / "cg.pdf").read_bytes()


def test_the_pdf_keeps_the_png_layout_and_is_drawn_once(frames, tmp_path, monkeypatch):
    """``save`` draws the PNG twice (layout, then pixels) and the PDF once, with no layout
    engine left; its bytes are those of a PDF drawn after matplotlib's own placeholder
    engine (``set_layout_engine("none")``, which costs one more draw for layout)."""
    import matplotlib.figure
    import matplotlib.pyplot as plt

    def figure():
        return figures.gain_figure(frames["gain_curves"], JK_CG, ["3", "2+3", "all"], QTS,
                                   report_config()["figures"], "CG")

    draws = []
    real_draw = matplotlib.figure.Figure.draw
    monkeypatch.setattr(matplotlib.figure.Figure, "draw",
                        lambda self, renderer: (draws.append(1), real_draw(self, renderer))[1])
    fig = figure()
    figures.save(fig, str(tmp_path / "a.png"), str(tmp_path / "a.pdf"), 60)
    assert len(draws) == 3 and fig.get_layout_engine() is None
    draws.clear()
    reference = figure()    # the placeholder route, drawn as before
    reference.savefig(tmp_path / "b.png", format="png", dpi=60, metadata={"Software": None})
    reference.set_layout_engine("none")
    reference.savefig(tmp_path / "b.pdf", format="pdf",
                      metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(reference)
    assert len(draws) == 4
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


#: Runs scripts/report_figures.py as Snakemake would (its ``snakemake`` object: named inputs
#: and outputs, params, wildcards, log, config) for the models given on the command line.
FIGURE_JOB = '''
import json, runpy, sys
from types import SimpleNamespace

class Named(list):
    def __init__(self, named):
        super().__init__(named.values())
        self.named = named
    def keys(self):
        return self.named.keys()
    def items(self):
        return self.named.items()
    def __getitem__(self, key):
        return self.named[key] if isinstance(key, str) else super().__getitem__(key)
    def __getattr__(self, name):
        return self.named[name]

job = json.loads(sys.argv[1])
models = job["models"]
snakemake = SimpleNamespace(
    input=Named({k: v for k, v in job["input"].items() if k.rsplit("/", 1)[1] in models}),
    output=Named({k: v for k, v in job["output"].items() if k.rsplit("/", 1)[1] in models}),
    params=SimpleNamespace(models=models, report=job["report"], style=job["style"]),
    wildcards=Named({"collection": "cranfield", "planset": "auto"}),
    log=[job["log"]], config={})
runpy.run_path(job["script"], init_globals={"snakemake": snakemake})
'''


@pytest.mark.slow  # draws nine figures in two processes
def test_a_job_of_two_models_writes_each_models_files_as_its_own_job_would(tmp_path):
    """scripts/report_figures.py draws every model of its job: the second model's figures and
    record, drawn after the first's in one process, are byte for byte those of a job drawing
    it alone (no matplotlib state carried from one model's figures to the next), and each
    model's record covers its own figures."""
    import json
    import os
    import subprocess
    import sys

    from pathlib import Path

    from gradedrel.core.io import write_tsv
    from gradedrel.evaluation.files import write_tables
    from report_helpers import ROOT

    cfg = report_config()
    report = {**cfg, "curves": ["JK_CG"], "difference_curves": ["JK_CG"]}
    style = {**cfg["figures"], "dpi": 40}
    models, inputs = ["BM25", "InQuery"], {}
    for seed, m in enumerate(models):  # each model its own evaluation
        frames = synthetic.evaluate(synthetic.simulate(n_topics=12, seed=seed + 3))
        folder = tmp_path / "evaluation" / m
        write_tables({k: frames[k] for k in ("pr_curves", "gain_curves")}, folder)
        write_tsv(difference_bands(frames["per_topic"], "CG", 0, ["3", "2+3", "all"], "SUM/u",
                                   QTS, range(1, 101), 50, 0.95, 1),
                  folder / "difference_bands.tsv", float_format="%.17g")
        inputs |= {f"{name}/{m}": str(folder / f"{name}.tsv")
                   for name in ("pr_curves", "gain_curves", "difference_bands")}

    def job(run, drawn):
        figures_of = {m: tmp_path / run / m for m in models}
        output = {f"{name}/{ext}/{m}": str(figures_of[m] / f"{name}.{ext}")
                  for m in models for name in ("pr_levels", "cg", "diff_cg")
                  for ext in ("png", "pdf")}
        output |= {f"provenance/{m}": str(figures_of[m] / "provenance.json") for m in models}
        spec = {"models": drawn, "input": inputs, "output": output, "report": report,
                "style": style, "log": str(tmp_path / f"{run}.log"),
                "script": str(ROOT / "scripts" / "report_figures.py")}
        done = subprocess.run([sys.executable, "-c", FIGURE_JOB, json.dumps(spec)],
                              capture_output=True, text=True, cwd=tmp_path,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr + (tmp_path / f"{run}.log").read_text()
        return {p.relative_to(tmp_path / run): p.read_bytes()
                for p in sorted((tmp_path / run).rglob("*")) if p.is_file()}

    both, alone = job("both", models), job("alone", ["InQuery"])
    assert len(both) == 2 * len(alone) == 2 * 7
    for name, content in alone.items():
        if name.name == "provenance.json":  # a record names its figures by path
            content = content.replace(f"{tmp_path}/alone/".encode(),
                                      f"{tmp_path}/both/".encode())
        assert both[name] == content, name
    for m in models:  # each model's record covers its own six figures, no other model's
        record = json.loads(both[Path(m, "provenance.json")])
        assert [o["path"] for o in record["outputs"]] == sorted(
            str(tmp_path / "both" / m / f"{n}.{e}") for n in ("pr_levels", "cg", "diff_cg")
            for e in ("png", "pdf"))
    assert both[Path("BM25", "cg.png")] != both[Path("InQuery", "cg.png")]
