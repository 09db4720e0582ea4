"""How the lobby lists Tablut's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "The rules page's game": {
            "tablut-seed": "Tablut (corner escape)",
            "tablut-armed": "Armed king",
            "tablut-weak-king": "Weak king",
        },
        "Escape to the edge": {"tablut-edge": "Edge escape", "tablut-linnaeus": "Linnaeus' Tablut"},
    },
    families_ru={"The rules page's game": "Игра со страницы правил", "Escape to the edge": "Уход на край"},
    titles_ru={
        "tablut-seed": "Тавлеи (уход в угол)",
        "tablut-armed": "Вооружённый король",
        "tablut-weak-king": "Слабый король",
        "tablut-edge": "Уход на край",
        "tablut-linnaeus": "Таблут Линнея",
    },
)
