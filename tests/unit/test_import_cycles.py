"""No import cycle inside ``services/`` or ``domain/``, counting every import statement: at module
level, under ``TYPE_CHECKING`` and inside functions (a deferred import still ties two modules
together, and ``lint-imports`` checks only the contracts it is given)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("services", "domain")


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module by dotted name: its file and whether it is a package's ``__init__``."""
    found: dict[str, tuple[Path, bool]] = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            package = parts[-1] == "__init__"
            if package:
                parts = parts[:-1]
            found[".".join(parts)] = (path, package)
    return found


def _imported(name: str, path: Path, package: bool, known: set[str]) -> dict[str, int]:
    """The modules of ``known`` that ``name`` imports, each with the line of its first import."""
    here = name if package else name.rpartition(".")[0]
    targets: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        # `import a.b.c` of a name that is no module of ours (a function, a class): its module.
        while target not in known and "." in target:
            target = target.rpartition(".")[0]
        if target in known and target != name:
            targets.setdefault(target, line)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                if node.level > 1:
                    base = base[: -(node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                add(sub if sub in known else module, node.lineno)
    return targets


def import_graph() -> dict[str, dict[str, int]]:
    modules = _modules()
    known = set(modules)
    return {name: _imported(name, path, package, known) for name, (path, package) in modules.items()}


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), as a path that ends
    where it starts."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep chain of imports does not meet the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, dict[str, int]], group: set[str]) -> list[str]:
    """A shortest cycle through the first module of ``group`` (breadth first inside the group)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    return [*paths[node], start]
                if child in group and child not in paths:
                    paths[child] = [*paths[node], child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in {sorted(group)}")


def _described(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    return " -> ".join(
        f"{a} (line {graph[a][b]})" if i < len(cycle) - 1 else a
        for i, (a, b) in enumerate(zip(cycle, [*cycle[1:], cycle[0]], strict=True))
    )


def test_no_module_of_services_or_domain_imports_itself_through_others() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(_described(graph, c) for c in found)


def test_the_cycle_finder_sees_deferred_and_relative_imports(tmp_path: Path) -> None:
    """The finder on a small made-up package: a function-level import closes a cycle, and so
    does a relative one; a package's ``__init__`` importing its own modules is no cycle."""
    graph = {
        "p": {"p.a": 1},
        "p.a": {"p.b": 3},
        "p.b": {"p.a": 9},  # e.g. inside a function
        "p.c": {},
    }
    assert cycles(graph) == [["p.a", "p.b", "p.a"]]
    assert cycles({"p": {"p.a": 1}, "p.a": {}}) == []
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import one\n")
    (pkg / "one.py").write_text("def f():\n    from .two import g\n")
    (pkg / "two.py").write_text("from pkg.one import f\n")
    known = {"pkg", "pkg.one", "pkg.two"}
    assert _imported("pkg", pkg / "__init__.py", True, known) == {"pkg.one": 1}
    assert _imported("pkg.one", pkg / "one.py", False, known) == {"pkg.two": 2}
    assert _imported("pkg.two", pkg / "two.py", False, known) == {"pkg.one": 1}
