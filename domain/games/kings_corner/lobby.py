"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "cardgames.zone": {
            "cardgames-zone": "cardgames.zone",
            "cz-elimination-25": "Elimination at 25",
            "cz-draw-when-needed": "Draw only when needed",
            "cz-two-decks": "Two decks, 2-10 players",
        },
        "Classic (pagat)": {
            "pagat-classic": "Classic",
            "pagat-kings-penalty": "Penalty for held kings",
            "pagat-draw-first": "Draw first",
            "pagat-draw-two": "Draw two",
            "pagat-high-count-100": "High count to 100",
            "pagat-fixed-hands": "Five hands",
            "corner-ace-bonus": "Corner ace bonus",
            "suit-corners": "Corners in suit",
        },
        "Chips and pools": {"classic-chips": "Chips and pot", "classic-pool": "Pool"},
        "Negative scoring": {
            "negative-25": "Negative to -25",
            "s3-immediate-kings": "Kings to corners at the deal",
            "s3-draw-first": "Draw first",
            "s3-mandatory-kings": "Kings must go to corners",
        },
        "Point counts": {
            "high-count-250": "High count to 250",
            "stofka": "Stofka",
            "klepek": "Klepek",
            "s4-points": "S4 points",
        },
        "House rules": {
            "family-draw-first": "Family rules",
            "draw-till-play": "Draw until you can play",
            "becker-four-card": "Becker, four cards",
            "freeman-jokers": "Freeman, jokers",
            "crestanello": "Crestanello",
        },
    },
    families_ru={
        "cardgames.zone": "cardgames.zone",
        "Classic (pagat)": "Классика (pagat)",
        "Chips and pools": "Фишки и банк",
        "Negative scoring": "Минусовой счёт",
        "Point counts": "Подсчёт очков",
        "House rules": "Домашние правила",
    },
    titles_ru={
        "cardgames-zone": "cardgames.zone",
        "cz-elimination-25": "Выбывание на 25",
        "cz-draw-when-needed": "Брать, только когда нечего выложить",
        "cz-two-decks": "Две колоды, 2-10 игроков",
        "pagat-classic": "Классика",
        "pagat-kings-penalty": "Штраф за удержанных королей",
        "pagat-draw-first": "Сначала взять карту",
        "pagat-draw-two": "Брать по две",
        "pagat-high-count-100": "Крупный счёт до 100",
        "pagat-fixed-hands": "Пять раздач",
        "corner-ace-bonus": "Бонус за туза в углу",
        "suit-corners": "Углы в масть",
        "classic-chips": "Фишки и банк",
        "classic-pool": "Общий банк",
        "negative-25": "Минус до -25",
        "s3-immediate-kings": "Короли в углы при раздаче",
        "s3-draw-first": "Сначала взять карту",
        "s3-mandatory-kings": "Короли обязательно в углы",
        "high-count-250": "Крупный счёт до 250",
        "stofka": "Stofka",
        "klepek": "Klepek",
        "s4-points": "Очки S4",
        "family-draw-first": "Семейные правила",
        "draw-till-play": "Брать, пока не сможете сыграть",
        "becker-four-card": "Becker, четыре карты",
        "freeman-jokers": "Freeman, джокеры",
        "crestanello": "Crestanello",
    },
)
