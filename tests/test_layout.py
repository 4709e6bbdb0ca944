"""The shape of the package, read from its imports (every one, those inside functions too): no
import circle, the product never imports its research, and the rules core imports no adapter and
no module that reaches the outside world."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

#: the standard library the rules core may use: data shapes and arithmetic, no I/O, no clock
PURE_STDLIB = {
    "collections",
    "dataclasses",
    "enum",
    "functools",
    "itertools",
    "operator",
    "random",  # for the type of the seeded RNG a caller passes in
    "types",
    "typing",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imported(name: str) -> set[str]:
    """Every module ``name`` imports, absolute; ``from . import x`` counts as ``x`` when ``x`` is
    a module, else as the package."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            prefix = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{prefix}.{alias.name}"
                found.add(full if full in MODULES else prefix)
    return found


GRAPH = {name: {other for other in imported(name) if other in MODULES and other != name} for name in MODULES}


def circles() -> list[list[str]]:
    """The import graph's strongly connected parts of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in GRAPH[name]:
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == name:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    return found


def test_no_import_circle():
    assert circles() == []


def test_the_circle_finder_finds_a_circle():
    GRAPH["companion.rules"].add("companion.web")
    try:
        assert any("companion.rules" in part and "companion.web" in part for part in circles())
    finally:
        GRAPH["companion.rules"].discard("companion.web")


def test_the_product_never_imports_its_research():
    for name in MODULES:
        assert not {m for m in imported(name) if m.split(".")[0] == "research"}, name


def test_the_rules_core_imports_only_itself_and_pure_standard_modules():
    for name in (n for n in MODULES if n.startswith("companion.rules")):
        for other in imported(name):
            top = other.split(".")[0]
            assert other.startswith("companion.rules") or (top != "companion" and top in PURE_STDLIB), (
                f"{name} imports {other}"
            )
