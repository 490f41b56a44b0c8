"""The build step setuptools cannot say in pyproject.toml: the project's own files that the
commands read outside a checkout (the default config, the study designs, the published
numbers; gradedrel.core.project) are copied into the package as ``gradedrel/_project/``.
Everything else is in pyproject.toml. A release: docs/setup.md, "Cutting a release"."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The project files a wheel carries (MANIFEST.in puts the same ones into the sdist).
PROJECT_FILES = ["config/config.yaml", "config/nfcorpus/testbed.yaml", "config/design/*.yaml",
                 "config/published/*.yaml"]


class BuildWithProjectFiles(build_py):
    """build_py, then the project files copied under the built package."""

    def run(self):
        """Build the package, then copy each project file to ``gradedrel/_project/``."""
        super().run()
        here = Path(__file__).resolve().parent
        for pattern in PROJECT_FILES:
            found = sorted(here.glob(pattern))
            if not found:
                raise FileNotFoundError(f"setup.py: no {pattern} to put into the package")
            for source in found:
                target = Path(self.build_lib, "gradedrel", "_project",
                              source.relative_to(here))
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildWithProjectFiles})
