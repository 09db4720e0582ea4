"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "4 players": {
            "king-4p-classic": "Classic King",
            "king-4p-rozaliev": "Rozaliev 47.a",
            "king-4p-hv-eralash": "Hvalenki and Eralash",
            "king-4p-short": "Short King",
            "king-short": "Short King (alias)",
            "king-4p-symmetric": "Symmetric, 14 games",
            "king-4p-ordered": "Ordered King",
            "king-4p-trump": "King with trump",
            "king-4p-trading": "King with trading",
        },
        "3 players": {
            "king-3p": "King for 3",
            "king-3p-short": "Short King for 3",
            "king-3p-symmetric": "Symmetric King for 3",
            "king-3p-rozaliev": "Rozaliev 47.v",
        },
        "Variants": {"king-atomic": "Atomic King (47.g)"},
    },
    families_ru={"4 players": "4 игрока", "3 players": "3 игрока", "Variants": "Варианты"},
    titles_ru={
        "king-4p-classic": "Классический Кинг",
        "king-4p-rozaliev": "Розалиев 47.a",
        "king-4p-hv-eralash": "Хвалёнки и Ералаш",
        "king-4p-short": "Короткий Кинг",
        "king-short": "Короткий Кинг (другое имя)",
        "king-4p-symmetric": "Симметричный, 14 игр",
        "king-4p-ordered": "Заказной Кинг",
        "king-4p-trump": "Кинг с козырем",
        "king-4p-trading": "Кинг с торговлей",
        "king-3p": "Кинг на троих",
        "king-3p-short": "Короткий Кинг на троих",
        "king-3p-symmetric": "Симметричный Кинг на троих",
        "king-3p-rozaliev": "Розалиев 47.v",
        "king-atomic": "Атомный Кинг (47.g)",
    },
)
