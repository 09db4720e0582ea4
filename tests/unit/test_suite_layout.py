"""The suite collects as one run: pytest imports a test module that is not inside a package by its
file name alone, so two such modules with one name in different folders stop the whole run."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    """The name pytest's default import mode gives a test module (rootdir-less "prepend")."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.append(folder.name)
        folder = folder.parent
    return ".".join(reversed(parts))


def test_no_two_test_modules_share_an_import_name() -> None:
    seen: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if "__pycache__" in path.parts:
            continue
        seen[_module_name(path)].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not clashes, f"test modules that pytest would import under one name: {clashes}"
