"""Registries of named classes: the class decorator that files a class under its ``name``
(the retrieval back ends of :mod:`gradedrel.retrieval.backends`, the thesaurus sources of
:mod:`gradedrel.thesaurus.sources`)."""


def registrar(registry: dict, kind: str):
    """A class decorator filing a class in ``registry`` under its ``name``; ``kind`` names
    such a class in errors (``back end``): TypeError for a class without a name, ValueError
    for another class registered under the same name."""

    def register(cls):
        """Class decorator: make ``cls`` the one named ``cls.name``."""
        if not getattr(cls, "name", None):
            raise TypeError(f"{cls.__name__}: a {kind} needs a name")
        if cls.name in registry and registry[cls.name] is not cls:
            raise ValueError(f"{kind} {cls.name!r} is registered twice "
                             f"({registry[cls.name].__name__}, {cls.__name__})")
        registry[cls.name] = cls
        return cls

    return register
