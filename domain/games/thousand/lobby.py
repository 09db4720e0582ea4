"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "Club rules": {
            "classic": "Club rules",
            "classic-golden-kon": "Golden kon",
            "classic-blind": "Blind game",
            "classic-4p-sitout": "4 players, the dealer sits out",
        },
        "Online tables": {
            "online": "Online table",
            "online-no-barrel-auction": "No barrel auction",
            "online-writeoff-stick": "Write-off costs a stick",
        },
        "International": {"simple": "International guide"},
    },
    families_ru={
        "Club rules": "Клубные правила",
        "Online tables": "Онлайн-столы",
        "International": "Международные правила",
    },
    titles_ru={
        "classic": "Клубные правила",
        "classic-golden-kon": "Золотой кон",
        "classic-blind": "Игра втёмную",
        "classic-4p-sitout": "4 игрока, сдающий не играет",
        "online": "Онлайн-стол",
        "online-no-barrel-auction": "Без торгов на бочке",
        "online-writeoff-stick": "Роспись стоит палку",
        "simple": "Международное руководство",
    },
)
