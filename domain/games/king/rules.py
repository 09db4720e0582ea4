"""King's presets (rules/king.md §11.2, §11.3, §11.4) as values of ``KingRuleset``.

Thirteen presets plus the alias ``king-short`` of ``king-4p-short`` (K16, Q24).  Every parameter
of §11.1 can be overridden; ``KingRuleset.validate`` rejects combinations the rules cannot play.
"""

from __future__ import annotations

from contracts.games.king import GameId, KingRuleset, UnitValues

_NEG_B: tuple[GameId, ...] = ("NT", "NH", "NB", "NG", "NK", "NL", "NE")  # B / D order
_NEG_F: tuple[GameId, ...] = ("NT", "NB", "NG", "NH", "NK", "NL", "NE")  # F's order
_MIRROR_F: tuple[GameId, ...] = ("PT", "PB", "PG", "PH", "PK", "PL", "PE")
_BAN_MIRROR: tuple[GameId, ...] = ("NH", "NK", "NE", "PH", "PK", "PE")
_DISCARD_MIRROR: tuple[GameId, ...] = ("NK", "NE", "PK", "PE")
_D40 = UnitValues(trick=4, heart=5, boy=10, girl=10, king=40, last=20)  # D's 3-player scale
_CE = UnitValues(trick=2, heart=2, boy=5, girl=5, king=20, last=10)  # C / E 3-player values

CLASSIC = KingRuleset()

PRESETS: dict[str, KingRuleset] = {
    "king-4p-classic": CLASSIC,
    "king-4p-rozaliev": KingRuleset(
        games=("NT", "NB", "NG", "NH", "NL", "NK", "NE"),
        hv_options=("SUIT", "BY_LAST"),
        trump_lead_restriction=True,
    ),
    "king-4p-hv-eralash": KingRuleset(
        games=("NT", "NH", "NB", "NG", "NL", "NK", "NE"),
        hv_count=4,
        games_after=("PE",),
        hv_options=("SUIT", "NO_TRUMP", "BY_LAST"),
        hearts_lead_ban=("NH", "NK", "NE", "PE"),
        king_discard=("NK", "NE", "PE"),
    ),
    "king-4p-short": KingRuleset(
        games=("NT", "NH", "NB", "NG", "NK", "NL"),
        hv_count=4,
        hearts_lead_ban=("NH", "NK"),
        king_discard=("NK",),
    ),
    "king-4p-symmetric": KingRuleset(
        games=_NEG_F + _MIRROR_F,
        hv_count=0,
        hearts_lead_ban=_BAN_MIRROR,
        king_discard=_DISCARD_MIRROR,
    ),
    "king-4p-ordered": KingRuleset(
        schedule="ordered",
        games=_NEG_F + _MIRROR_F,
        hv_count=0,
        hv_peek="all",
        hearts_lead_ban=_BAN_MIRROR,
        king_discard=_DISCARD_MIRROR,
    ),
    "king-4p-trump": KingRuleset(
        games=_NEG_F,
        trump_deal="TR",
        hv_count=4,
        hv_trick=6,
        hv_options=("SUIT", "BY_LAST"),
    ),
    "king-4p-trading": KingRuleset(
        games=_NEG_F,
        trump_deal="AU",
        hv_count=4,
        hv_trick=6,
        hv_options=("SUIT",),
        hv_peek="all",
        trump_leader="leftOfDealer",
        zero_sum=False,
    ),
    "king-3p": KingRuleset(
        players=3,
        deck="black_sevens",
        hand_size=10,
        v=_D40,
        games=_NEG_B,
        hv_count=6,
        hv_trick=8,
        hv_options=("SUIT", "NO_TRUMP", "BY_LAST", "MISERE"),
    ),
    "king-3p-short": KingRuleset(
        players=3,
        deck="black_sevens",
        hand_size=10,
        v=_D40,
        games=("NT", "NH", "NB", "NG", "NK", "NL"),
        hv_count=3,
        hv_trick=8,
        hv_options=("SUIT", "NO_TRUMP", "BY_LAST", "MISERE"),
        hearts_lead_ban=("NH", "NK"),
        king_discard=("NK",),
    ),
    "king-3p-symmetric": KingRuleset(
        players=3,
        deck="black_aces",
        hand_size=10,
        v=_CE,
        games=("NT", "NG", "NB", "NH", "NK", "NL", "NE", *_MIRROR_F),
        hv_count=0,
        hearts_lead_ban=_BAN_MIRROR,
        king_discard=_DISCARD_MIRROR,
    ),
    "king-3p-rozaliev": KingRuleset(
        players=3,
        deck="black_aces",
        hand_size=10,
        v=UnitValues(trick=2, heart=2, boy=5, girl=5, king=24, last=10),
        games=("NT", "NB", "NG", "NH", "NL", "NK", "NE"),
        hv_count=6,
        hv_trick=4,
        hv_options=("SUIT", "BY_LAST"),
        trump_lead_restriction=True,
        compensation="kingValue",
        compensation_value=24,
    ),
    "king-atomic": KingRuleset(
        players=3,
        hand_size=10,
        talon_size=2,
        v=_CE,
        schedule="atomic",
        games=("NT", "NB", "NG", "NH", "NL", "NK"),
        trump_deal="OT",
        hv_count=3,
        hv_trick=4,
        hv_options=("SUIT",),
        hv_peek="all",
        hearts_lead_ban=("NH", "NK"),
        king_discard=("NK",),
        compensation="perPlayer",
        compensation_value=-4,
    ),
}
PRESETS["king-short"] = PRESETS["king-4p-short"]

DESCRIPTIONS: dict[str, str] = {
    "king-4p-classic": "4 players, 7 negative deals then 8 hvalenki at 3 per trick (D, B), 15 deals",
    "king-4p-rozaliev": "Rozaliev 47.a: F-like order, 8 hvalenki by suit or by the last, trump-lead restriction",
    "king-4p-hv-eralash": "A's 12 deals: 7 negative, 4 hvalenki, then a positive Eralash",
    "king-4p-short": "short King (B/D): 6 negative deals without Eralash, then 4 hvalenki",
    "king-4p-symmetric": "F's 14 games: 7 negative, then their 7 positive mirrors, no trumps",
    "king-4p-ordered": "ordered King (F): every seat orders each of the 14 games once, 56 deals",
    "king-4p-trump": "F's King with trump: 7 negative, then 4 trump deals at 6 per trick",
    "king-4p-trading": "F's King with trading: 7 negative, then 4 auctioned trump deals (not zero-sum)",
    "king-3p": "3 players without the black sevens, D's 40-point scale, 6 hvalenki at 8 per trick",
    "king-3p-short": "3 players, 6 negative deals and 3 hvalenki at 8 per trick",
    "king-3p-symmetric": "3 players without the black aces, C's values, 7 negative and 7 mirrors",
    "king-3p-rozaliev": "Rozaliev 47.v: 3 players, the King at 24, 6 hvalenki at 4 per trick",
    "king-atomic": "atomic King (47.g): ordered, 2-card talon and discard, 3 otyigrysh each, -4 each",
    "king-short": "alias of king-4p-short",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "king-4p-classic": "4 игрока, 7 минусовых сдач, затем 8 хвалёнок по 3 за взятку (D, B), 15 сдач",
    "king-4p-rozaliev": "Розалиев 47.a: порядок как у F, 8 хвалёнок по масти или по последней, ограничение на "
    "ход с козыря",
    "king-4p-hv-eralash": "12 сдач по A: 7 минусовых, 4 хвалёнки, затем плюсовой Ералаш",
    "king-4p-short": "короткий Кинг (B/D): 6 минусовых сдач без Ералаша, затем 4 хвалёнки",
    "king-4p-symmetric": "14 игр по F: 7 минусовых, затем 7 их плюсовых зеркал, без козырей",
    "king-4p-ordered": "заказной Кинг (F): каждый игрок по разу заказывает каждую из 14 игр, 56 сдач",
    "king-4p-trump": "Кинг с козырем по F: 7 минусовых, затем 4 козырные сдачи по 6 за взятку",
    "king-4p-trading": "Кинг с торговлей по F: 7 минусовых, затем 4 козырные сдачи с торговлей (сумма не нулевая)",
    "king-3p": "3 игрока без чёрных семёрок, 40-очковая шкала D, 6 хвалёнок по 8 за взятку",
    "king-3p-short": "3 игрока, 6 минусовых сдач и 3 хвалёнки по 8 за взятку",
    "king-3p-symmetric": "3 игрока без чёрных тузов, цены C, 7 минусовых и 7 зеркальных",
    "king-3p-rozaliev": "Розалиев 47.v: 3 игрока, Кинг за 24, 6 хвалёнок по 4 за взятку",
    "king-atomic": "атомный Кинг (47.g): заказной, прикуп и снос по 2 карты, по 3 отыгрыша у каждого, по -4",
    "king-short": "другое имя king-4p-short",
}

GAME_NAMES: dict[str, str] = {
    "NT": "don't take tricks",
    "NH": "don't take hearts",
    "NB": "don't take boys",
    "NG": "don't take girls",
    "NK": "don't take the King",
    "NL": "don't take the last two",
    "NE": "negative Eralash",
    "PT": "take tricks",
    "PB": "take boys",
    "PG": "take girls",
    "PH": "take hearts",
    "PK": "take the King",
    "PL": "take the last two",
    "PE": "positive Eralash",
    "HV": "hvalenka",
    "TR": "King with trump",
    "AU": "King with trading",
    "OT": "otyigrysh",
}
