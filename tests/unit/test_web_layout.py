"""The web client's shape: one renderer file per game in web/games/, one registry line in
web/app.js, and no game knowledge in the page itself or rules in a renderer."""

from __future__ import annotations

import re
from pathlib import Path

from domain.games import registry

WEB = Path(__file__).resolve().parents[2] / "web"
ENTRY = re.compile(r'^\s*"([a-z0-9-]+)": \(\) => import\("\./games/([a-z0-9-]+)\.js"\),$', re.M)


def app_js() -> str:
    return (WEB / "app.js").read_text()


def registered() -> dict[str, str]:
    return {game: file for game, file in ENTRY.findall(app_js())}


def test_every_renderer_is_one_file_named_by_its_game_and_one_registry_line() -> None:
    files = {p.stem for p in (WEB / "games").glob("*.js")}
    entries = registered()
    assert entries, "no renderer registered in web/app.js"
    assert all(game == file for game, file in entries.items())
    assert set(entries) == files
    assert set(entries) <= set(registry.GAMES)
    for game in entries:
        assert "export function create(" in (WEB / "games" / f"{game}.js").read_text()


def test_the_page_names_no_game_outside_the_registry() -> None:
    body = ENTRY.sub("", app_js())
    for game in registry.GAMES:
        assert f'"{game}"' not in body, f"web/app.js names {game} outside RENDERERS"
    titles = [registry.get(g).title for g in registry.GAMES]
    assert not [t for t in titles if t in body], "game titles come from GET /api/games"
    assert "heuristic" not in body and "greedy" not in body, "bot strengths come from GET /api/games"


def test_renderers_send_only_listed_moves_and_parse_no_notation() -> None:
    for path in (WEB / "games").glob("*.js"):
        text = path.read_text()
        assert "legal_moves" in text, f"{path.name} does not offer the view's legal moves"
        sent = re.findall(r"ctx\.send\(([^)]*)\)", text)
        assert sent and all(arg.endswith(".command") for arg in sent), (path.name, sent)
        assert ".split(" not in text, f"{path.name} splits strings (notation parsing)"
