"""A game added after the game shape is declared once (docs/architecture.md "How to add a game"):
its name and module appear in its own files and the one registry line only — never in the
services, the client library, the match layer, the shared contracts, the page's shell, the
deployment or the scripts.  The games that predate the shape are the docs' examples and are left
out of the check; every game registered later is in it without a change here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from contracts.games import BUILT_IN
from domain.games import registry

ROOT = Path(__file__).resolve().parents[2]
# The games the shape was drawn from (their names serve as examples in help texts and docs).
BEFORE_THE_SHAPE = {"ugolki", "kings_corner", "thousand", "farkle_flip", "kings_cup", "king"}
CHECKED = sorted(m for m in BUILT_IN if m not in BEFORE_THE_SHAPE)
# Where no game is named: everything that is not a game's own file.
SHARED = ("services", "gamehall", "domain/core", "deploy", "scripts", "web")
SUFFIXES = {".py", ".js", ".html", ".css", ".yaml", ".yml", ".toml", ".json", ".conf", ".sh"}


def _own(path: Path, name: str) -> bool:
    return path.relative_to(ROOT).as_posix() == f"web/games/{name}.js"


def _shared_files() -> list[Path]:
    files = [p for top in SHARED for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    files += [p for p in (ROOT / "domain").glob("*.py")] + [
        p for p in (ROOT / "domain" / "games").glob("*.py")
    ]
    files += [p for p in (ROOT / "contracts").glob("*.py")]
    files += [p for p in (ROOT / "contracts" / "games").glob("*.py") if p.stem in ("registry",)]
    return [p for p in files if "__pycache__" not in p.parts]


@pytest.mark.parametrize("module", CHECKED or ["(none yet)"])
def test_a_game_added_after_the_shape_is_named_in_its_own_files_only(module: str) -> None:
    if module == "(none yet)":
        pytest.skip("no game registered after the shape")
    game = next(
        g for g in registry.GAMES.values() if g.ruleset_type.__module__ == f"contracts.games.{module}"
    )
    words = re.compile(rf"\b({re.escape(module)}|{re.escape(game.name)})\b", re.IGNORECASE)
    named = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()[:100]}"
        for p in _shared_files()
        if not _own(p, game.name)
        for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), start=1)
        if words.search(line)
    ]
    assert not named, "\n".join(named)


def test_the_registry_line_is_the_one_place_outside_a_game_that_names_it() -> None:
    source = (ROOT / "contracts" / "games" / "__init__.py").read_text()
    for module in CHECKED:
        assert source.count(f'"{module}"') == 1, module
