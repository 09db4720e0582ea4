"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "Placeholder scoring": {
            "farkle-flip-placeholder": "To 10,000",
            "farkle-flip-placeholder-must-continue": "Must continue below the entry",
            "farkle-flip-placeholder-last-placed": "Lock the card placed last",
            "farkle-flip-placeholder-party-5000": "Party, 6-8 players to 5,000",
        }
    },
    families_ru={"Placeholder scoring": "Временная таблица очков"},
    titles_ru={
        "farkle-flip-placeholder": "До 10 000",
        "farkle-flip-placeholder-must-continue": "Не останавливаться ниже входа",
        "farkle-flip-placeholder-last-placed": "Фиксировать последнюю выложенную карту",
        "farkle-flip-placeholder-party-5000": "Вечеринка, 6-8 игроков до 5 000",
    },
)
