"""How the lobby lists draughts' presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "Russian draughts": {"russian": "Russian draughts", "russian-giveaway": "Giveaway (поддавки)"},
        "Other rules on the 8×8 board": {"brazilian": "Brazilian draughts"},
    },
    families_ru={
        "Russian draughts": "Русские шашки",
        "Other rules on the 8×8 board": "Другие правила на доске 8×8",
    },
    titles_ru={"russian": "Русские шашки", "russian-giveaway": "Поддавки", "brazilian": "Бразильские шашки"},
)
