"""`gradedrel thesaurus lookup`: matching levels, output, and config resolution."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gradedrel.cli import main
from gradedrel.thesaurus import sources
from gradedrel.thesaurus.lookup import find, s_stem
from gradedrel.thesaurus.skos import read_skos

ROOT = Path(__file__).resolve().parents[2]
MINI_RDF = Path(__file__).parents[1] / "fixtures" / "thesaurus" / "mini_skos.rdf"


def test_lookup_and_analysis_share_one_stem():
    """The curators' lookup and the automatic analysis once used two stemmers; one
    (gradedrel.core.text.s_stem, Harman's, tested in tests/core/test_text.py) serves both."""
    from gradedrel.core import text
    from gradedrel.plans import analysis
    from gradedrel.thesaurus import lookup

    assert lookup.s_stem is text.s_stem and analysis.s_stem is text.s_stem
    assert s_stem is text.s_stem


def test_find_levels_and_order():
    thesaurus = read_skos(MINI_RDF)
    matches = find(thesaurus, "Flutter")
    assert [(m.uri, m.level) for m in matches] == [
        ("#200", "label"), ("#110", "prefix")]
    assert [(m.uri, m.level, m.label) for m in find(thesaurus, "wing")] == [
        ("#310", "label", "wing")]
    assert [(m.uri, m.level) for m in find(thesaurus, "WINGS", ("label",))] == [("#310", "label")]
    assert [(m.uri, m.level) for m in find(thesaurus, "structure")] == [("#300", "stem")]
    aero = {m.uri: m.level for m in find(thesaurus, "aeroelastic")}
    # 'aeroelastic flutter' (an altLabel of #200 and the entry term #900) and
    # 'aeroelasticity' (#100) and 'divergence (aeroelasticity)' begin with the term.
    assert aero == {"#200": "prefix", "#100": "prefix",
                    "http://example.org/other/c120": "prefix"}
    assert find(thesaurus, "helicopter") == []


def test_entry_term_leads_to_preferred_concept():
    thesaurus = read_skos(MINI_RDF)
    (match,) = find(thesaurus, "aeroelastic flutter", ("label",))
    # The altLabel on #200 and the entry term #900 both name it; #200 is shown once.
    assert match.uri == "#200" and match.via is None


def test_cli_prints_uf_bt_nt_rt(capsys):
    assert main(["thesaurus", "lookup", "aeroelasticity", "--path", str(MINI_RDF),
                 "--match", "label"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("aeroelasticity  [#100]  label match")
    assert "  BT  ~ structures" in out
    assert "  NT  #120; panel flutter" in out  # a dangling link shows its URI
    assert "  RT  flutter; loads (forces)" in out
    assert "  DEF The study of the response" in out
    assert main(["thesaurus", "lookup", "flutter", "--path", str(MINI_RDF)]) == 0
    out = capsys.readouterr().out
    assert "  UF  aeroelastic flutter; flutter (aeroelasticity)" in out


def test_cli_no_match_and_limit(capsys):
    assert main(["thesaurus", "lookup", "zeppelin", "--path", str(MINI_RDF)]) == 0
    assert capsys.readouterr().out == "no concept matches 'zeppelin'\n"
    assert main(["thesaurus", "lookup", "aeroelastic", "--path", str(MINI_RDF),
                 "--limit", "1"]) == 0
    assert "... 2 more" in capsys.readouterr().out


def test_cli_reports_bad_source_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.rdf"
    bad.write_text("<rdf:RDF")
    assert main(["thesaurus", "lookup", "x", "--path", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gradedrel: ") and str(bad) in err and len(err.splitlines()) == 1


def test_thesaurus_pins_come_from_config_only(tmp_path):
    pinned = sources.project_thesauri()["nasa"]  # config/config.yaml, the one place
    assert pinned["sha256"] == yaml.safe_load(
        (ROOT / "config" / "config.yaml").read_text())["thesauri"]["nasa"]["sha256"]
    assert not hasattr(sources, "NASA")
    config = {"thesauri": {"mini": {"url": MINI_RDF.as_uri(), "sha256": "0" * 64,
                                    "path": "mini.rdf"}}}
    with pytest.raises(ValueError, match="no thesaurus named 'agrovoc'"):
        sources.entry("agrovoc", config)
    with pytest.raises(ValueError, match="sha256 mismatch"):
        sources.ensure_files("mini", config, root=tmp_path)


def _mini_project(tmp_path):
    """A project with its own config pinning the mini thesaurus (a local copy only: the
    URL cannot be reached), as ``thesaurus lookup --config`` reads it from elsewhere."""
    import hashlib
    import shutil

    project = tmp_path / "project"
    (project / "config").mkdir(parents=True)
    (project / ".data").mkdir()
    shutil.copy(MINI_RDF, project / ".data" / "mini.rdf")
    digest = hashlib.sha256(MINI_RDF.read_bytes()).hexdigest()
    config = {"thesauri": {"mini": {"source": "skos", "url": "http://localhost:9/mini.rdf",
                                    "sha256": digest, "path": ".data/mini.rdf"}}}
    (project / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return project, elsewhere


def _lookup_from(directory, config, cache_dir, term="flutter"):
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(ROOT), GRADEDREL_CACHE_DIR=str(cache_dir))
    command = [sys.executable, "-m", "gradedrel", "thesaurus", "lookup", term, "--thesaurus",
               "mini"] + (["--config", str(config)] if config else [])
    return subprocess.run(command, cwd=directory, env=env, capture_output=True, text=True)


def test_lookup_from_another_directory_uses_the_projects_copy_then_the_cache(tmp_path):
    project, elsewhere = _mini_project(tmp_path)
    cache_dir = tmp_path / "cache"
    first = _lookup_from(elsewhere, project / "config" / "config.yaml", cache_dir)
    assert first.returncode == 0, first.stderr
    assert "panel flutter" in first.stdout and "no concept" not in first.stdout
    assert list(elsewhere.iterdir()) == []  # no ./.data, nothing written in the cwd
    assert len(list(cache_dir.glob("*.thesaurus.json.gz"))) == 1
    # Answered from the cache: the local copy is no longer needed (nor fetched).
    (project / ".data" / "mini.rdf").unlink()
    again = _lookup_from(elsewhere, project / "config" / "config.yaml", cache_dir)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert list(elsewhere.iterdir()) == [] and not (project / ".data" / "mini.rdf").exists()


def test_lookup_falls_back_to_the_workflows_cached_form_by_name(tmp_path):
    project, elsewhere = _mini_project(tmp_path)
    warm = tmp_path / "warm"
    assert _lookup_from(elsewhere, project / "config" / "config.yaml", warm).returncode == 0
    [cached] = warm.glob("*.thesaurus.json.gz")
    workflow_copy = project / "results" / "thesauri" / "mini" / "mini.thesaurus.json.gz"
    workflow_copy.parent.mkdir(parents=True)
    cached.rename(workflow_copy)
    (project / ".data" / "mini.rdf").unlink()
    empty = tmp_path / "empty-cache"
    done = _lookup_from(elsewhere, project / "config" / "config.yaml", empty)
    assert done.returncode == 0, done.stderr
    assert "panel flutter" in done.stdout and list(elsewhere.iterdir()) == []


def test_without_thesaurus_the_lookup_reads_the_configs_own(tmp_path, monkeypatch, capsys):
    """No name is built in: the first active collection's thesaurus, else the only one."""
    from gradedrel.thesaurus.lookup import default_thesaurus

    shipped = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    first = shipped["collections"][shipped["active_collections"][0]]
    assert default_thesaurus(ROOT / "config" / "config.yaml") == first["thesaurus"]
    assert default_thesaurus(ROOT / "tests" / "fixtures" / "tiny" / "config.yaml") == "tiny"
    project, _ = _mini_project(tmp_path)
    config = project / "config" / "config.yaml"
    assert default_thesaurus(config) == "mini"
    monkeypatch.setenv("GRADEDREL_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["thesaurus", "lookup", "flutter", "--config", str(config)]) == 0
    assert "panel flutter" in capsys.readouterr().out
    two = yaml.safe_load(config.read_text())
    two["thesauri"]["other"] = dict(two["thesauri"]["mini"])
    config.write_text(yaml.safe_dump(two))
    with pytest.raises(ValueError, match=r"choose one with --thesaurus \(known: mini, other\)"):
        default_thesaurus(config)


def test_lookup_without_config_reads_the_packages_project_config(tmp_path, monkeypatch):
    from gradedrel.thesaurus.lookup import project_config

    monkeypatch.chdir(tmp_path)
    assert project_config(None) == sources.PROJECT_CONFIG
    assert sources.PROJECT_CONFIG == ROOT / "config" / "config.yaml"
    monkeypatch.chdir(ROOT)
    assert project_config(None) == Path("config/config.yaml")


def test_non_ascii_labels_match_whole_words():
    """Labels are tokenised like the index (Unicode letters kept): "résumé" is not "sum",
    and a term with accents or Greek letters finds its concept."""
    from gradedrel.thesaurus.model import Concept
    from thesaurus_cases import thesaurus_of

    thesaurus = thesaurus_of([
        Concept("#sums", "sums", (), (), (), ()),
        Concept("#sjogren", "Sjögren's Syndrome", ("Sjögren Syndrome",), (), (), ()),
        Concept("#beta", "beta Carotene", ("β-Carotene",), (), (), ()),
    ])
    assert [m.uri for m in find(thesaurus, "résumé")] == []
    assert [m.uri for m in find(thesaurus, "sjögren syndrome")] == ["#sjogren"]
    assert [(m.uri, m.level) for m in find(thesaurus, "β-carotene")] == [("#beta", "label")]
