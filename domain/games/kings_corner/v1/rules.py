"""Presets of Kings in the Corner (rules/kings-corner.md §4.2 main, §4.3 derived) and point tables."""

from __future__ import annotations

from contracts.games.kings_corner import KingsCornerRuleset
from domain.games.kings_corner.rules import (
    _RANKS,
    CARDGAMES_ZONE,
    CLASSIC_CHIPS,
    CLASSIC_POOL,
    DRAW_TILL_PLAY,
    FAMILY_DRAW_FIRST,
    HIGH_COUNT_250,
    NEGATIVE_25,
    PAGAT_CLASSIC,
    _r,
)

PRESETS: dict[str, KingsCornerRuleset] = {
    # main presets (§4.2)
    "cardgames-zone": CARDGAMES_ZONE,
    "pagat-classic": PAGAT_CLASSIC,
    "classic-chips": CLASSIC_CHIPS,
    "classic-pool": CLASSIC_POOL,
    "family-draw-first": FAMILY_DRAW_FIRST,
    "negative-25": NEGATIVE_25,
    "high-count-250": HIGH_COUNT_250,
    "draw-till-play": DRAW_TILL_PLAY,
    # derived presets (§4.3)
    "cz-elimination-25": _r(CARDGAMES_ZONE, match_end="elimination", match_end_value=25),
    "cz-draw-when-needed": _r(CARDGAMES_ZONE, draw_timing="start_if_stuck"),
    "cz-two-decks": _r(CARDGAMES_ZONE, decks=2, max_players=10),
    "s3-immediate-kings": _r(NEGATIVE_25, setup_cross_kings="auto_corner_refill_from_stock"),
    "s3-draw-first": _r(NEGATIVE_25, draw_timing="start"),
    "s3-mandatory-kings": _r(NEGATIVE_25, mandatory_kings="enforce"),
    "pagat-kings-penalty": _r(PAGAT_CLASSIC, mandatory_kings="penalty3"),
    "pagat-draw-first": _r(PAGAT_CLASSIC, draw_timing="start"),
    "pagat-draw-two": _r(PAGAT_CLASSIC, draw_count=2),
    "pagat-high-count-100": _r(PAGAT_CLASSIC, scoring_table="A25_F10_PIP", match_end_value=100),
    "pagat-fixed-hands": _r(PAGAT_CLASSIC, match_end="fixed_rounds", match_end_value=5),
    "stofka": _r(PAGAT_CLASSIC, scoring_table="A50_TF10_P5", match_end_value=250),
    "klepek": _r(
        PAGAT_CLASSIC, scoring_table="F10_6T10_5_A5_1", match_end_value=50, first_turn_out_adjust=-5
    ),
    "s4-points": _r(PAGAT_CLASSIC, scoring_table="A25_TF10_P5", match_end_value=250),
    "corner-ace-bonus": _r(PAGAT_CLASSIC, corner_ace_bonus=5),
    "becker-four-card": _r(PAGAT_CLASSIC, hand_size=4, going_out="after_stock_exhausted"),
    "freeman-jokers": _r(PAGAT_CLASSIC, jokers=2, joker_penalty=1),
    "suit-corners": _r(PAGAT_CLASSIC, corner_build="down_in_suit"),
    "crestanello": _r(PAGAT_CLASSIC, cross_build="down_in_suit", corner_build="down_in_suit"),
    "robinson": _r(
        PAGAT_CLASSIC, cross_build="up_in_suit", corner_build="down_in_suit", scoring_table="ROBINSON"
    ),
}


DESCRIPTIONS: dict[str, str] = {
    "cardgames-zone": "cardgames.zone rules: 2-4 players, draw at turn start, cross kings to corners, "
    "no king on an empty cross slot, K 10 / other 1 over 3 rounds (1 or 5 by match_end_value)",
    "pagat-classic": "Classic (pagat): 2-6 players, draw at turn end, any card to an empty cross slot, "
    "king piles may move to corners, play to 50 penalty points",
    "classic-chips": "Classic with chips and pot: ante 1, 1 chip per idle turn, the winner collects "
    "1 per card and 10 per king; 5 rounds, highest balance wins",
    "classic-pool": "Classic with a pool: 1 unit per idle turn and per card left; the winner takes the "
    "pool; 5 rounds, highest balance wins",
    "family-draw-first": "Family rules: 2-4 players, draw at turn start, one round, first out wins",
    "negative-25": "Negative scoring: K -10 / other -1, the match ends when someone goes below -25",
    "high-count-250": "High-count points (A 25, faces 10, pips face value) to 250",
    "draw-till-play": "Draw until you can play: every turn must play or merge while the stock lasts; "
    "going out with an open cross slot draws 3; to 50",
    "cz-elimination-25": "cardgames.zone, players reaching 25 points drop out; last one in wins",
    "cz-draw-when-needed": "cardgames.zone, draw only when you have nothing to lay out",
    "cz-two-decks": "cardgames.zone with two decks for 2-10 players",
    "s3-immediate-kings": "Negative scoring with cross kings moved to corners at the deal",
    "s3-draw-first": "Negative scoring, draw at the start of the turn",
    "s3-mandatory-kings": "Negative scoring, kings must go to an empty corner at the first chance",
    "pagat-kings-penalty": "Classic, 3 penalty points for each king held back while a corner was empty",
    "pagat-draw-first": "Classic, draw at the start of the turn",
    "pagat-draw-two": "Classic, draw two cards per turn",
    "pagat-high-count-100": "Classic with high-count points (A 25, faces 10, pips face value) to 100",
    "pagat-fixed-hands": "Classic over a fixed number of hands (5)",
    "stofka": "Stofka points: A 50, 10-K 10, 2-9 5; to 250",
    "klepek": "Klepek points: J-K 10, 6-10 5, A-5 1; going out on the first turn takes off 5; to 50",
    "s4-points": "S4 points: A 25, 10-K 10, 2-9 5; to 250",
    "corner-ace-bonus": "Classic, completing a corner pile down to the ace takes off 5 points",
    "becker-four-card": "Becker: 4-card hands; going out while stock remains draws a card",
    "freeman-jokers": "Freeman: two jokers play as any declared card",
    "suit-corners": "Classic with corner piles built down in suit",
    "crestanello": "Crestanello: every pile built down in suit",
    "robinson": "Robinson (provisional): cross piles built up in suit, corners down in suit, "
    "A-10 face value, J 11, Q 12, K 13",
}


# rank -> penalty per table (rules/kings-corner.md §4.1 point tables)
_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _pip(rank: str) -> int:
    return _FACE.get(rank) or int(rank)


def _k10_o1(rank: str) -> int:
    return 10 if rank == "K" else 1


def _a25_f10_pip(rank: str) -> int:
    return 25 if rank == "A" else min(_pip(rank), 10)


def _a50_tf10_p5(rank: str) -> int:
    return 50 if rank == "A" else 10 if _pip(rank) >= 10 else 5


def _f10_6t10_5_a5_1(rank: str) -> int:
    p = _pip(rank)
    return 10 if p >= 11 else 5 if p >= 6 else 1


def _a25_tf10_p5(rank: str) -> int:
    return 25 if rank == "A" else 10 if _pip(rank) >= 10 else 5


_TABLES = {
    "K10_O1": _k10_o1,
    "COUNT": lambda rank: 1,
    "A25_F10_PIP": _a25_f10_pip,
    "A50_TF10_P5": _a50_tf10_p5,
    "F10_6T10_5_A5_1": _f10_6t10_5_a5_1,
    "A25_TF10_P5": _a25_tf10_p5,
    "ROBINSON": _pip,
}


POINTS: dict[str, dict[str, int]] = {name: {r: f(r) for r in _RANKS} for name, f in _TABLES.items()}
