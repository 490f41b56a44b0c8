"""The user data home (issue 43, item 1): outside a checkout, what the commands download or
cache goes to ``$GRADEDREL_HOME`` (default ``~/.gradedrel``), never into the installed
package (docs/setup.md, "Installed from the wheel")."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from gradedrel.core import project
from gradedrel.thesaurus import cache

from base_install import ROOT, source_copy

NASA = ".data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2"
WORDNET = ".data/thesauri/wordnet/wordnet-base_3.0-37_all.deb"


def test_the_packaged_projects_data_paths_are_in_the_data_home(monkeypatch, tmp_path):
    monkeypatch.setenv("GRADEDREL_HOME", str(tmp_path / "home"))
    assert project.data_file(project.PACKAGED, NASA) == \
        tmp_path / "home" / "thesauri" / "nasa" / "NASA_Thesaurus_Alpha_SKOS.xml.bz2"
    assert project.data_file(project.PACKAGED, "elsewhere/x.rdf") == \
        tmp_path / "home" / "elsewhere" / "x.rdf"
    assert project.data_file(project.PACKAGED, tmp_path / "abs.rdf") == tmp_path / "abs.rdf"
    # a checkout's (or any user project's) paths stay under it
    assert project.data_file(tmp_path / "mine", NASA) == tmp_path / "mine" / NASA
    monkeypatch.delenv("GRADEDREL_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert project.data_home() == tmp_path / "user" / ".gradedrel"


def test_the_cache_outside_a_checkout_is_in_the_data_home(monkeypatch, tmp_path):
    monkeypatch.delenv("GRADEDREL_CACHE_DIR", raising=False)
    monkeypatch.setenv("GRADEDREL_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.default_cache_dir() == tmp_path / "xdg" / "gradedrel" / "thesauri"  # checkout
    monkeypatch.setattr(project, "CHECKOUT", tmp_path / "no-checkout")
    assert cache.default_cache_dir() == tmp_path / "cache" / "thesauri"


def _tree(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*")}


@pytest.mark.slow
def test_the_installed_wheel_writes_nothing_into_site_packages(tmp_path):
    """The wheel in a fresh venv (its dependencies: this environment's, through a .pth file,
    so nothing is downloaded), `thesaurus lookup` in an empty folder with HOME a temporary
    folder: offline, the download it tries goes to ~/.gradedrel; with the file there, the
    lookup reads it and caches it there. site-packages gains no file either way."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "GRADEDREL_HOME", "GRADEDREL_CACHE_DIR",
                          "XDG_CACHE_HOME")}
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--no-build-isolation", "-w", str(dist),
                            str(source_copy(tmp_path / "source"))],
                           capture_output=True, text=True, env=env, timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = dist.glob("gradedrel-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                                str(wheel)], capture_output=True, text=True, env=env,
                               timeout=900)
    assert installed.returncode == 0, installed.stderr[-3000:]
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies from this environment: a plain path (its .pth files, among them the
    # editable install of this checkout, are not read), after the venv's own site-packages
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run([str(python), "-c", "import gradedrel; print(gradedrel.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert where.stdout.startswith(str(site)), where.stdout
    before = _tree(site)
    home, empty = tmp_path / "home", tmp_path / "empty"
    empty.mkdir()
    offline = dict(env, HOME=str(home), https_proxy="http://127.0.0.1:9",
                   http_proxy="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9")

    def lookup(*argv):
        return subprocess.run([str(venv / "bin" / "gradedrel"), "thesaurus", "lookup", *argv],
                              capture_output=True, text=True, env=offline, cwd=empty,
                              timeout=600)

    failed = lookup("--thesaurus", "wordnet", "car")
    assert failed.returncode == 1
    target = home / ".gradedrel" / "thesauri" / "wordnet" / Path(WORDNET).name
    assert failed.stderr.startswith(f"gradedrel: {target}: could not download"), failed.stderr
    assert _tree(site) == before
    assert not list(empty.iterdir())
    seeded = ROOT / NASA  # CI seeds it (.ci/run); a checkout has it after `make reproduce`
    if not seeded.is_file():
        pytest.skip(f"{seeded}: absent, the lookup that reads the data home is not run")
    copy = home / ".gradedrel" / "thesauri" / "nasa" / seeded.name
    copy.parent.mkdir(parents=True)
    shutil.copy(seeded, copy)
    found = lookup("aeroelasticity", "--limit", "1")
    assert found.returncode == 0, found.stderr
    assert found.stdout.startswith("aeroelasticity  [#"), found.stdout
    assert [p.name for p in (home / ".gradedrel" / "cache" / "thesauri").iterdir()] != []
    assert _tree(site) == before
    assert not list(empty.iterdir())
