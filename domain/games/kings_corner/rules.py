"""Presets of Kings in the Corner (rules/kings-corner.md §4.2 main, §4.3 derived), point tables and
the preset-specific validation of Decision D6.

``robinson`` is not offered (Decision D5, Q17): its source text is garbled; the ``ROBINSON`` point
table and ``up_in_suit`` stay available as parameters.
"""

from __future__ import annotations

import msgspec

from contracts.games.kings_corner import KingsCornerRuleset

R = KingsCornerRuleset

CARDGAMES_ZONE = R()  # the struct defaults are this preset (seed 003)
PAGAT_CLASSIC = R(
    max_players=6,
    setup_cross_kings="manual",
    draw_timing="end",
    empty_cross_accepts="any",
    king_pile_to_corner=True,
    match_end="target",
    match_end_value=50,
)
CLASSIC_CHIPS = msgspec.structs.replace(
    PAGAT_CLASSIC,
    settlement="chips",
    ante=1,
    idle_fee=1,
    per_card=1,
    per_king=10,
    match_end="fixed_rounds",
    match_end_value=5,
    winner="highest_balance",
)
CLASSIC_POOL = msgspec.structs.replace(
    PAGAT_CLASSIC,
    scoring_table="COUNT",
    settlement="pool",
    ante=0,
    idle_fee=1,
    per_card=1,
    per_king=1,
    match_end="fixed_rounds",
    match_end_value=5,
    winner="highest_balance",
)
FAMILY_DRAW_FIRST = R(
    max_players=4,
    setup_cross_kings="manual",
    draw_timing="start",
    empty_cross_accepts="any",
    king_pile_to_corner=True,
    match_end="single_round",
    match_end_value=1,
)
NEGATIVE_25 = msgspec.structs.replace(
    PAGAT_CLASSIC, match_end_value=25, target_compare="strictly_exceed", score_sign="negative"
)
HIGH_COUNT_250 = msgspec.structs.replace(
    NEGATIVE_25,
    scoring_table="A25_F10_PIP",
    match_end_value=250,
    target_compare="reach_or_exceed",
    score_sign="positive",
)
DRAW_TILL_PLAY = msgspec.structs.replace(
    PAGAT_CLASSIC, draw_timing="until_playable", optional_play=False, going_out="draw3_if_open_cross"
)

_r = msgspec.structs.replace

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
    "klepek": "Klepek points: J-K 10, 6-10 5, A-5 1; to 50; going out on your first turn takes off 5 "
    "(our reading of an unclear sentence of the source, 000:L579)",
    "s4-points": "S4 points: A 25, 10-K 10, 2-9 5; to 250",
    "corner-ace-bonus": "Classic, completing a corner pile down to the ace takes off 5 points",
    "becker-four-card": "Becker: 4-card hands; going out while stock remains draws a card",
    "freeman-jokers": "Freeman: two jokers play as any declared card",
    "suit-corners": "Classic with corner piles built down in suit",
    "crestanello": "Crestanello: every pile built down in suit",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "cardgames-zone": "Правила cardgames.zone: 2-4 игрока, карта из колоды в начале хода, короли креста в "
    "углы, на свободное место креста нельзя класть короля, K 10 / остальные 1 за 3 раунда (1 или 5 — "
    "по заданному числу для конца партии)",
    "pagat-classic": "Классика (pagat): 2-6 игроков, карта из колоды в конце хода, на свободное место креста — "
    "любая карта, стопки с королём можно переносить в углы, игра до 50 штрафных очков",
    "classic-chips": "Классика с фишками и банком: ставка 1, 1 фишка за ход без выкладывания, победитель "
    "получает по 1 за карту и по 10 за короля; 5 раундов, побеждает наибольший баланс",
    "classic-pool": "Классика с общим банком: 1 за ход без выкладывания и за каждую оставшуюся карту; "
    "победитель забирает банк; 5 раундов, побеждает наибольший баланс",
    "family-draw-first": "Семейные правила: 2-4 игрока, карта из колоды в начале хода, один раунд, побеждает "
    "первый оставшийся без карт",
    "negative-25": "Минусовой счёт: K -10 / остальные -1, партия заканчивается, когда чей-то счёт опускается "
    "ниже -25",
    "high-count-250": "Крупный счёт (A 25, картинки 10, остальные по номиналу) до 250",
    "draw-till-play": "Брать, пока не сможете сыграть: пока в колоде есть карты, каждый ход нужно выложить "
    "карту или перенести стопку; кто остался без карт при свободном месте креста, берёт 3; до 50",
    "cz-elimination-25": "cardgames.zone, набравшие 25 очков выбывают; побеждает последний оставшийся",
    "cz-draw-when-needed": "cardgames.zone, брать из колоды, только когда нечего выложить",
    "cz-two-decks": "cardgames.zone с двумя колодами для 2-10 игроков",
    "s3-immediate-kings": "Минусовой счёт, короли креста переходят в углы при раздаче",
    "s3-draw-first": "Минусовой счёт, карта из колоды в начале хода",
    "s3-mandatory-kings": "Минусовой счёт, короля нужно выложить в свободный угол при первой возможности",
    "pagat-kings-penalty": "Классика, 3 штрафных очка за каждого короля, придержанного при свободном угле",
    "pagat-draw-first": "Классика, карта из колоды в начале хода",
    "pagat-draw-two": "Классика, по две карты из колоды за ход",
    "pagat-high-count-100": "Классика с крупным счётом (A 25, картинки 10, остальные по номиналу) до 100",
    "pagat-fixed-hands": "Классика с заданным числом раздач (5)",
    "stofka": "Очки Stofka: A 50, 10-K 10, 2-9 5; до 250",
    "klepek": "Очки Klepek: J-K 10, 6-10 5, A-5 1; до 50; кто остался без карт на первом же ходу, снимает 5 "
    "(наше прочтение неясной фразы источника, 000:L579)",
    "s4-points": "Очки S4: A 25, 10-K 10, 2-9 5; до 250",
    "corner-ace-bonus": "Классика, собранная до туза угловая стопка снимает 5 очков",
    "becker-four-card": "Becker: по 4 карты на руке; кто остался без карт, пока есть колода, берёт карту",
    "freeman-jokers": "Freeman: два джокера играют как любая названная карта",
    "suit-corners": "Классика, угловые стопки строятся по убыванию в масть",
    "crestanello": "Crestanello: все стопки строятся по убыванию в масть",
}

# Penalty per card left in hand, by table (rules/kings-corner.md §4.1 point tables), as data:
#                A   2   3   4   5   6   7   8   9  10   J   Q   K
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_TABLE_ROWS: dict[str, tuple[int, ...]] = {
    "K10_O1": (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10),
    "COUNT": (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    "A25_F10_PIP": (25, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    "A50_TF10_P5": (50, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10),
    "F10_6T10_5_A5_1": (1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 10, 10, 10),
    "A25_TF10_P5": (25, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10),
    "ROBINSON": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
}
POINTS: dict[str, dict[str, int]] = {
    name: dict(zip(_RANKS, row, strict=True)) for name, row in _TABLE_ROWS.items()
}


# D6: cardgames-zone plays 1, 3 or 5 rounds (003:L49); so do its derived fixed-round presets.
CZ_ROUNDS: tuple[int, ...] = (1, 3, 5)
_CZ_FAMILY = tuple(PRESETS[name] for name in ("cardgames-zone", "cz-draw-when-needed", "cz-two-decks"))


def preset_problem(ruleset: KingsCornerRuleset) -> str | None:
    """Rules of the preset tables beyond §4.1 (D6): a cardgames-zone ruleset plays N in {1, 3, 5}."""
    if (
        msgspec.structs.replace(ruleset, match_end_value=3) in _CZ_FAMILY
        and ruleset.match_end_value not in CZ_ROUNDS
    ):
        return (
            f"match_end_value must be one of {', '.join(map(str, CZ_ROUNDS))} for cardgames-zone "
            f"(got {ruleset.match_end_value})"
        )
    return None
