"""The package's shape: no import cycle between kg's modules (lazy imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "kg"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(node: ast.AST, package: str, modules: set[str]) -> set[str]:
    """The kg modules an import statement loads: the submodules it names, else the module it is from."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & modules
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        source = ".".join(parts + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    submodules = {f"{source}.{alias.name}" for alias in node.names} & modules
    return submodules or ({source} & modules)


def import_graph() -> nx.DiGraph:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph.add_node(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            graph.add_edges_from((name, target) for target in imported(node, package, set(paths)) if target != name)
    return graph


def test_kg_has_no_import_cycle():
    graph = import_graph()
    assert graph.number_of_nodes() > 50 and graph.has_edge("kg.pipeline", "kg.stores.embedded")  # the graph is real
    assert sorted(sorted(cycle) for cycle in nx.simple_cycles(graph)) == []


def test_a_cycle_would_be_found(tmp_path):
    """The check itself: a package whose __init__ imports a module that imports the package."""
    modules = {"kg.x", "kg.x.a"}
    back = ast.parse("from . import helper").body[0]
    forth = ast.parse("from . import a").body[0]
    assert imported(back, "kg.x", modules) == {"kg.x"} and imported(forth, "kg.x", modules) == {"kg.x.a"}


def test_mapping_reaches_neither_the_store_nor_the_environment():
    """Records -> triples is pure: configuration is passed in, and only the pipeline touches the store."""
    reached = nx.descendants(import_graph(), "kg.rdf.mapping") | {"kg.rdf.mapping"}
    assert "kg.rdf.record_triples" in reached  # the check sees the modules mapping calls
    assert not {name for name in reached if name.startswith(("kg.stores", "kg.pipeline"))}
    for name in reached:
        path = PACKAGE.parent / (name.replace(".", "/") + ".py")
        tree = ast.parse(path.read_text(encoding="utf-8") if path.exists() else "")
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        if name != "kg.orgs.aliases":  # which may read its variable; nothing mapping reaches calls that
            assert not {"active_aliases", "environ", "getenv"} & names, name
