"""The package's shape: no import cycle between kg's modules, and no import from a lower layer of
docs/architecture.md's layer table to a higher one (lazy imports inside functions count too), and no
module a reader cannot hold (over :data:`MAX_MODULE_LINES` lines: split it along its seams)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kg"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
MAX_MODULE_LINES = 400
LAYER_ROW = re.compile(r"^\| *(\d+) *\| *`(kg[\w.]*)` *\|", re.MULTILINE)


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


@functools.cache
def syntax_tree(path: Path) -> ast.Module:
    """A module's parsed text (parsed once: the import graph and the purity check both read it)."""
    return ast.parse(path.read_text(encoding="utf-8") if path.exists() else "")


def import_graph() -> nx.DiGraph:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(paths)
    graph = nx.DiGraph()
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph.add_node(name)
        for node in ast.walk(syntax_tree(path)):
            graph.add_edges_from((name, target) for target in imported(node, package, modules) if target != name)
    return graph


@pytest.fixture(scope="module")
def kg_imports() -> nx.DiGraph:
    """kg's import graph, read once for the module's tests (each that changes it works on a copy)."""
    return import_graph()


def test_kg_has_no_import_cycle(kg_imports):
    graph = kg_imports
    assert graph.number_of_nodes() > 50 and graph.has_edge("kg.pipeline", "kg.stores.embedded")  # the graph is real
    assert sorted(sorted(cycle) for cycle in nx.simple_cycles(graph)) == []


def test_a_cycle_would_be_found(tmp_path):
    """The check itself: a package whose __init__ imports a module that imports the package."""
    modules = {"kg.x", "kg.x.a"}
    back = ast.parse("from . import helper").body[0]
    forth = ast.parse("from . import a").body[0]
    assert imported(back, "kg.x", modules) == {"kg.x"} and imported(forth, "kg.x", modules) == {"kg.x.a"}


def names_in(path: Path) -> set[str]:
    tree = syntax_tree(path)
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} | {
        node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
    }


def reads_the_environment(path: Path) -> set[str]:
    """The names in a module that read the environment."""
    return {"environ", "getenv", "environb", "getenvb"} & names_in(path)


def test_mapping_reaches_neither_the_store_nor_the_environment(kg_imports):
    """Records -> triples is pure: configuration is passed in (the command line reads the environment,
    kg/cli/settings.py), and only the pipeline touches the store."""
    reached = nx.descendants(kg_imports, "kg.rdf.mapping") | {"kg.rdf.mapping"}
    assert {"kg.rdf.record_triples", "kg.orgs.aliases", "kg.cache"} <= reached  # the check sees what mapping calls
    assert not {name for name in reached if name.startswith(("kg.stores", "kg.pipeline", "kg.cli"))}
    paths = {name: PACKAGE.parent / (name.replace(".", "/") + ".py") for name in reached}
    assert {name: reads_the_environment(path) for name, path in paths.items() if reads_the_environment(path)} == {}
    # the alias table is passed in too: no module mapping reaches takes the configured one
    assert [name for name, path in paths.items() if "active_aliases" in names_in(path)] == []


def test_a_read_of_the_environment_would_be_found(tmp_path):
    """The check itself: a module that reads a variable is reported; one that only names it is not."""
    reads, names = tmp_path / "reads.py", tmp_path / "names.py"
    reads.write_text('import os\nFOLDER = os.environ.get("KG_CACHE_DIR")\n')
    names.write_text('"""The folder is $KG_CACHE_DIR\'s (the command line reads it)."""\nENV = "KG_CACHE_DIR"\n')
    assert reads_the_environment(reads) == {"environ"} and reads_the_environment(names) == set()


def layer_table(text: str) -> dict[str, int]:
    """Package -> layer number, from the rows ``| 3 | `kg.ingest` | … |`` of the architecture page."""
    return {package: int(layer) for layer, package in LAYER_ROW.findall(text)}


def package_of(module: str, layers: dict[str, int]) -> str | None:
    """The table's package a module belongs to (the longest that contains it); the row ``kg`` is the
    package's own ``__init__`` only, so a package missing from the table is never placed by it."""
    if module == "kg":
        return "kg" if "kg" in layers else None
    owners = [
        package for package in layers if package != "kg" and (module == package or module.startswith(package + "."))
    ]
    return max(owners, key=len, default=None)


def layer_violations(graph: nx.DiGraph, layers: dict[str, int]) -> list[tuple[str, str]]:
    """Every import edge from a module of a lower layer to a module of a higher one."""
    return sorted(
        (source, target)
        for source, target in graph.edges
        if layers[package_of(source, layers)] < layers[package_of(target, layers)]
    )


def package_graph(graph: nx.DiGraph, layers: dict[str, int]) -> nx.DiGraph:
    packages = nx.DiGraph()
    packages.add_edges_from((package_of(source, layers), package_of(target, layers)) for source, target in graph.edges)
    packages.remove_edges_from(nx.selfloop_edges(packages))
    return packages


def test_every_module_has_a_layer(kg_imports):
    layers = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(layers) > 15 and layers["kg.cli"] > layers["kg.pipeline"] > layers["kg.rdf"] > layers["kg.text"]
    assert [name for name in kg_imports if package_of(name, layers) is None] == []


def test_no_import_from_a_lower_layer_to_a_higher_one(kg_imports):
    layers = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    assert layer_violations(kg_imports, layers) == []


def test_no_package_cycle(kg_imports):
    layers = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    assert sorted(sorted(cycle) for cycle in nx.simple_cycles(package_graph(kg_imports, layers))) == []


def test_an_import_against_the_layers_would_be_found(kg_imports):
    """The check itself: a text helper that imports the pipeline, inside a function, is reported."""
    layers = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    graph = kg_imports.copy()
    statement = ast.parse("def helper():\n    from ..pipeline import expand_paths\n")
    for node in ast.walk(statement):
        graph.add_edges_from(("kg.text.names", target) for target in imported(node, "kg.text", set(graph)))
    assert layer_violations(graph, layers) == [("kg.text.names", "kg.pipeline")]
    assert any({"kg.pipeline", "kg.text"} <= set(cycle) for cycle in nx.simple_cycles(package_graph(graph, layers)))


def test_no_module_is_over_the_line_limit():
    lengths = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(lengths) > 100 and max(lengths.values()) > MAX_MODULE_LINES // 2  # every module is really read
    assert {path: n for path, n in lengths.items() if n > MAX_MODULE_LINES} == {}
