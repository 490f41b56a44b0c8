"""The package's import graph (every ``import`` of a gradedrel module, at module level or
inside a function, read from the source): no circle between modules or between the stages,
and no import from a lower stage to a higher one (issue 44: kept at 0)."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gradedrel"
#: The stages, lowest first; modules outside them (study, preflight, job, cli) sit above.
#: The integrity annex (memory probe, cited studies, leak, ...: issue 44) reads the report's.
STAGES = ["core", "thesaurus", "collection", "plans", "queries", "retrieval", "evaluation",
          "report", "integrity"]
#: Subpackages of the commands, beside study, preflight, job and cli above every stage
#: (``gradedrel compare`` finds a plan set's files through study.Layout).
COMMANDS = ["compare"]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["gradedrel", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """module → the gradedrel modules it imports (a name imported from a package resolves
    to the submodule of that name when there is one)."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                if target.startswith("gradedrel"):
                    resolved = resolve(target)
                    if resolved and resolved != name:
                        graph[name].add(resolved)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def stage(module: str) -> int:
    parts = module.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else len(STAGES)


def test_the_graph_reader_sees_a_circle_and_an_upward_import():
    """The checks below can fail: a made-up graph with both is caught."""
    graph = {"gradedrel.core.a": {"gradedrel.report.b"}, "gradedrel.report.b": {"gradedrel.core.a"}}
    assert cycles(graph) == [["gradedrel.core.a", "gradedrel.report.b"]]
    assert stage("gradedrel.core.a") < stage("gradedrel.report.b") < stage("gradedrel.study")


def test_the_graph_is_read():
    graph = import_graph()
    assert "gradedrel.evaluation.contract" in graph["gradedrel.evaluation.tables"]
    assert "gradedrel.queries.weighted_concepts" in graph["gradedrel.queries"]


def test_no_module_imports_itself_round_a_circle():
    assert cycles(import_graph()) == []


def test_no_circle_between_stages():
    graph = import_graph()
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        for target in targets:
            a, b = ".".join(module.split(".")[:2]), ".".join(target.split(".")[:2])
            if a != b:
                packages.setdefault(a, set()).add(b)
    assert cycles(packages) == []


def test_no_import_from_a_lower_stage_to_a_higher_one():
    upward = sorted(f"{m} -> {t}" for m, targets in import_graph().items() for t in targets
                    if stage(t) > stage(m))
    assert upward == []


def test_every_subpackage_with_modules_is_a_stage():
    """A new subpackage is placed among the stages or the commands (else its upward imports
    go unseen)."""
    packages = {p.parent.name for p in PACKAGE.glob("*/*.py")}  # not schemas/, reference/
    assert packages <= set(STAGES) | set(COMMANDS), sorted(packages - set(STAGES) - set(COMMANDS))
