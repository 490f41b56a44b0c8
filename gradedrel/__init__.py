"""gradedrel: graded-relevance IR evaluation after Järvelin & Kekäläinen (SIGIR 2000)."""


def __getattr__(name: str):
    # __version__ comes from the installed package's metadata (pyproject.toml is the one
    # source); looked up on first use so that `import gradedrel` stays cheap.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("gradedrel")
        except PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
