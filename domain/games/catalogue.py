"""Presets for people: every preset's family (the rules tradition or source it comes from) and a
short title, as the lobby lists them (``GET /api/games``: ``family`` and ``title`` per preset), in
English and Russian, and each game's title in Russian (its English title is the Decider's).

Preset names (the ids) and rule names stay as the rules files give them (``/work/shared/rules/*.md``);
the Russian titles use the rules files' and the seeds' Russian terms.  Every registered preset has
an entry in both languages (checked by ``tests/unit/test_preset_catalogue``).
"""

from __future__ import annotations

from domain.core.words import Lang

# game -> family -> preset -> title; families in the order the lobby shows them.
FAMILIES: dict[str, dict[str, dict[str, str]]] = {
    "ugolki": {
        "Gambiter": {
            "gambiter-classic": "Gambiter classic",
            "gambiter-diagonal": "Gambiter diagonal",
        },
        "Halma boards": {
            "halma-8x8-1234": "Halma 8×8",
            "halma-8x8-1234-diag": "Halma 8×8 diagonal",
            "halma-10x10-12345": "Halma 10×10",
            "halma-10x10-12345-diag": "Halma 10×10 diagonal",
        },
        "3×3 corners": {
            "mini-3x3": "Mini 3×3",
            "mini-3x3-diag": "Mini 3×3 diagonal",
            "kostrov": "Kostrov",
            "kostrov-diagonal": "Kostrov diagonal",
            "ugolki-50": "The 50-move rules",
            "kids-3x3-40": "Children's rules, 40 moves",
        },
        "Russian folk rules": {
            "kosynka-universal": "«Косынка» universal",
            "pryamye": "«Прямые»",
            "kosye": "«Косые»",
        },
        "12 pieces (3×4)": {
            "shashki-online-12": "Online «Уголки Шашки»",
            "luckforfree-3x4": "LuckForFree 3×4",
            "club-any-direction-40": "Club rules, any direction",
            "min2win-3x4": "Min2Win 3×4",
        },
    },
    "king": {
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
        "Variants": {
            "king-atomic": "Atomic King (47.g)",
        },
    },
    "kings-corner": {
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
        "Chips and pools": {
            "classic-chips": "Chips and pot",
            "classic-pool": "Pool",
        },
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
    "thousand": {
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
        "International": {
            "simple": "International guide",
        },
    },
    "farkle-flip": {
        "Placeholder scoring": {
            "farkle-flip-placeholder": "To 10,000",
            "farkle-flip-placeholder-must-continue": "Must continue below the entry",
            "farkle-flip-placeholder-last-placed": "Lock the card placed last",
            "farkle-flip-placeholder-party-5000": "Party, 6-8 players to 5,000",
        },
    },
    "kings-cup": {
        "Table helper": {
            "kings-cup-neutral": "Neutral card texts",
            "kings-cup-deck-out": "Until the deck is out",
            "kings-cup-stacking-rules": "Kings' rules add up",
        },
    },
}


# The games' titles in Russian (as the Russian rules help names them); English: Decider.title.
GAME_TITLES_RU: dict[str, str] = {
    "ugolki": "Уголки",
    "king": "Кинг",
    "kings-corner": "Короли в углах",
    "thousand": "Тысяча (1000)",
    "farkle-flip": "Farkle Flip",
    "kings-cup": "Kings Cup (помощник для застолья)",
}

# game -> English family -> the family in Russian.
FAMILIES_RU: dict[str, dict[str, str]] = {
    "ugolki": {
        "Gambiter": "Gambiter",
        "Halma boards": "Доски гальмы",
        "3×3 corners": "Уголки 3×3",
        "Russian folk rules": "Народные правила",
        "12 pieces (3×4)": "12 шашек (3×4)",
    },
    "king": {
        "4 players": "4 игрока",
        "3 players": "3 игрока",
        "Variants": "Варианты",
    },
    "kings-corner": {
        "cardgames.zone": "cardgames.zone",
        "Classic (pagat)": "Классика (pagat)",
        "Chips and pools": "Фишки и банк",
        "Negative scoring": "Минусовой счёт",
        "Point counts": "Подсчёт очков",
        "House rules": "Домашние правила",
    },
    "thousand": {
        "Club rules": "Клубные правила",
        "Online tables": "Онлайн-столы",
        "International": "Международные правила",
    },
    "farkle-flip": {
        "Placeholder scoring": "Временная таблица очков",
    },
    "kings-cup": {
        "Table helper": "Помощник для застолья",
    },
}

# game -> preset -> its title in Russian.
TITLES_RU: dict[str, dict[str, str]] = {
    "ugolki": {
        "gambiter-classic": "Gambiter, классика",
        "gambiter-diagonal": "Gambiter, по диагонали",
        "halma-8x8-1234": "Гальма 8×8",
        "halma-8x8-1234-diag": "Гальма 8×8, по диагонали",
        "halma-10x10-12345": "Гальма 10×10",
        "halma-10x10-12345-diag": "Гальма 10×10, по диагонали",
        "mini-3x3": "Мини-уголки 3×3",
        "mini-3x3-diag": "Мини-уголки 3×3, по диагонали",
        "kostrov": "Костров",
        "kostrov-diagonal": "Костров, по диагонали",
        "ugolki-50": "Правила 50 ходов",
        "kids-3x3-40": "Детские правила, 40 ходов",
        "kosynka-universal": "«Косынка» универсальная",
        "pryamye": "«Прямые»",
        "kosye": "«Косые»",
        "shashki-online-12": "Онлайн «Уголки Шашки»",
        "luckforfree-3x4": "LuckForFree 3×4",
        "club-any-direction-40": "Клубные правила, во все стороны",
        "min2win-3x4": "Min2Win 3×4",
    },
    "king": {
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
    "kings-corner": {
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
    "thousand": {
        "classic": "Клубные правила",
        "classic-golden-kon": "Золотой кон",
        "classic-blind": "Игра втёмную",
        "classic-4p-sitout": "4 игрока, сдающий не играет",
        "online": "Онлайн-стол",
        "online-no-barrel-auction": "Без торгов на бочке",
        "online-writeoff-stick": "Роспись стоит палку",
        "simple": "Международное руководство",
    },
    "farkle-flip": {
        "farkle-flip-placeholder": "До 10 000",
        "farkle-flip-placeholder-must-continue": "Не останавливаться ниже входа",
        "farkle-flip-placeholder-last-placed": "Фиксировать последнюю выложенную карту",
        "farkle-flip-placeholder-party-5000": "Вечеринка, 6-8 игроков до 5 000",
    },
    "kings-cup": {
        "kings-cup-neutral": "Нейтральные тексты карт",
        "kings-cup-deck-out": "Пока не кончится колода",
        "kings-cup-stacking-rules": "Правила королей складываются",
    },
}


def preset_family(game: str, preset: str, lang: Lang = "en") -> tuple[str, str]:
    """(family, title) of a preset in ``lang``; ("", preset) for one this table does not know."""
    for family, presets in FAMILIES.get(game, {}).items():
        if preset in presets:
            if lang == "ru":
                return FAMILIES_RU[game][family], TITLES_RU[game][preset]
            return family, presets[preset]
    return "", preset


def family_order(game: str, lang: Lang = "en") -> tuple[str, ...]:
    """The game's families in the order the lobby shows them, named in ``lang``."""
    families = tuple(FAMILIES.get(game, {}))
    return tuple(FAMILIES_RU[game][f] for f in families) if lang == "ru" else families


def game_title(game: str, title: str, lang: Lang = "en") -> str:
    """A game's title in ``lang``: its Decider ``title`` in English, else this table's."""
    return GAME_TITLES_RU.get(game, title) if lang == "ru" else title
