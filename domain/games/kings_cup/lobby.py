"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "Table helper": {
            "kings-cup-neutral": "Neutral card texts",
            "kings-cup-deck-out": "Until the deck is out",
            "kings-cup-stacking-rules": "Kings' rules add up",
        }
    },
    families_ru={"Table helper": "Помощник для застолья"},
    titles_ru={
        "kings-cup-neutral": "Нейтральные тексты карт",
        "kings-cup-deck-out": "Пока не кончится колода",
        "kings-cup-stacking-rules": "Правила королей складываются",
    },
)
