"""The referee writes the bytecode of the project modules it imported (where the stack runs with
``PYTHONDONTWRITEBYTECODE``, every start would compile them again: docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

from services.referee.app import missing_bytecode, write_bytecode


def test_the_modules_without_bytecode_are_compiled_once_and_then_none_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg_bytecode_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("ANSWER = 42\n")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "installed.py").write_text("X = 1\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path / ".venv"))
    import installed  # type: ignore[import-not-found]  # noqa: F401
    import pkg_bytecode_probe.rules  # type: ignore[import-not-found]

    try:
        assert pkg_bytecode_probe.rules.ANSWER == 42
        rules = str(package / "rules.py")
        missing = missing_bytecode(tmp_path)
        assert rules in missing and str(package / "__init__.py") in missing
        assert not any(".venv" in m for m in missing)  # installed packages are not the project's
        assert not Path(importlib.util.cache_from_source(rules)).exists()

        written = asyncio.run(write_bytecode(asyncio.Event(), after_s=0, root=tmp_path))

        assert written == 2
        assert Path(importlib.util.cache_from_source(rules)).exists()
        assert missing_bytecode(tmp_path) == []
        assert asyncio.run(write_bytecode(asyncio.Event(), after_s=0, root=tmp_path)) == 0
    finally:
        for name in ("pkg_bytecode_probe.rules", "pkg_bytecode_probe", "installed"):
            sys.modules.pop(name, None)


def test_nothing_is_written_when_the_referee_stops_first(tmp_path: Path) -> None:
    stop = asyncio.Event()
    stop.set()
    assert asyncio.run(write_bytecode(stop, after_s=30, root=tmp_path)) == 0
