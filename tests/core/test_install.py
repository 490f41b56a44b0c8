"""The install advice (issue 43, item 2): every command the project prints or documents
installs from a clone or the release's wheel, never from a package index gradedrel is not
on; the workflow's extra located before any job."""
from __future__ import annotations

import re
from importlib.metadata import packages_distributions
from importlib.util import find_spec

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from gradedrel.core import install

from base_install import PROJECT, ROOT

#: `pip install gradedrel`, `'gradedrel[workflow]'`, `gradedrel==0.2.0`: a name for an index
FROM_AN_INDEX = re.compile(r"pip install (-\S+ )*['\"]?gradedrel(\[|==|@|[\s'\"`]|$)")
SCANNED = ["gradedrel", "docs", "workflow", "scripts", "tools", "config", "README.md",
           ".snakemake-workflow-catalog.yml", "pyproject.toml", "Snakefile", "Makefile"]


def test_no_file_advises_an_install_from_an_index():
    found = []
    for name in SCANNED:
        path = ROOT / name
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()
                                               and p.suffix in (".py", ".md", ".smk", ".yml",
                                                                ".yaml", ".toml", "")]
        for file in files:
            for number, line in enumerate(file.read_text(encoding="utf-8",
                                                         errors="replace").splitlines(), 1):
                if FROM_AN_INDEX.search(line):
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_pattern_finds_what_the_review_found():
    assert FROM_AN_INDEX.search("found none: pip install 'gradedrel[workflow]==0.2.0'")
    assert FROM_AN_INDEX.search("lacks: pip install 'gradedrel[workflow]'")
    assert not FROM_AN_INDEX.search("pip install gradedrel-0.2.0-py3-none-any.whl")
    assert not FROM_AN_INDEX.search("pip install './gradedrel[workflow]'")


def test_the_extra_from_where_the_installation_came(tmp_path):
    wheel = tmp_path / "gradedrel-0.2.0-py3-none-any.whl"
    assert install.extra_command((str(wheel), False)) == f"pip install '{wheel}[workflow]'"
    assert install.extra_command((str(tmp_path), True)) == f"pip install -e '{tmp_path}[workflow]'"


def test_the_extra_without_a_known_source_names_no_index(monkeypatch):
    monkeypatch.setattr(install, "installed_from", lambda: None)
    command = install.extra_command()
    assert not FROM_AN_INDEX.search(command)
    assert "a clone of the repository" in command and "on no package index" in command


def test_this_installation_is_known():
    # the editable install of the checkout (make setup): pip's direct_url.json names it
    source = install.installed_from()
    assert source is not None and source[1] is True and (
        __import__("pathlib").Path(source[0]) / "pyproject.toml").is_file()


def test_the_extra_is_located_not_only_versioned():
    assert install.workflow_extra_problem() is None   # here: everything installed
    without = lambda name: None if name in ("pyterrier", "jnius") else find_spec(name)
    assert install.missing_packages(install.WORKFLOW_IMPORTS, without) == ["pyterrier", "jnius"]
    problem = install.workflow_extra_problem(("/x/gradedrel-0.2.0-py3-none-any.whl", False),
                                             locate=without)
    assert problem == ("the workflow's jobs need gradedrel's extra [workflow]; missing here: "
                       "pyterrier, jnius: pip install "
                       "'/x/gradedrel-0.2.0-py3-none-any.whl[workflow]' (docs/module.md)")


def test_the_located_packages_are_the_extras():
    """WORKFLOW_IMPORTS: the import names of pyproject's [workflow] requirements (and of
    pyjnius, which pyterrier[java] brings; the [compare] extra within it aside);
    COMPARE_IMPORTS: those of the [compare] requirements, one for each."""
    by_distribution: dict[str, set[str]] = {}
    for module, distributions in packages_distributions().items():
        for distribution in distributions:
            by_distribution.setdefault(canonicalize_name(distribution), set()).add(module)
    for extra, imports, more in (("workflow", install.WORKFLOW_IMPORTS, {"pyjnius"}),
                                 ("compare", install.COMPARE_IMPORTS, set())):
        wanted = {canonicalize_name(Requirement(r).name)
                  for r in PROJECT["optional-dependencies"][extra]} - {"gradedrel"} | more
        for distribution in wanted:
            assert by_distribution.get(distribution, set()) & set(imports), distribution
    assert len(install.COMPARE_IMPORTS) == len(PROJECT["optional-dependencies"]["compare"])


def test_the_compare_extra_is_named_from_where_the_installation_came(tmp_path):
    wheel = tmp_path / "gradedrel-0.2.0-py3-none-any.whl"
    assert install.extra_command((str(wheel), False), extra="compare") == \
        f"pip install '{wheel}[compare]'"
    assert not FROM_AN_INDEX.search(install.extra_command(extra="compare"))


def test_a_checkouts_egg_info_first_on_the_path_hides_no_record(tmp_path, monkeypatch):
    """A build leaves gradedrel.egg-info in the checkout, which may come first on sys.path
    and has no direct_url.json: pip's record of the installation is still found."""
    import sys

    info = tmp_path / "gradedrel.egg-info"
    info.mkdir()
    (info / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: gradedrel\nVersion: 0.0\n")
    before = install.installed_from()
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert install.installed_from() == before and before is not None
