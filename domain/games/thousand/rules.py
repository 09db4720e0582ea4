"""The presets of rules/thousand-and-farkle-flip.md §2.20 and the fixed card facts of 1000 (§2.1, §2.2)."""

from __future__ import annotations

import msgspec

from contracts.games.thousand import ThousandRuleset
from domain.core import cards

R = ThousandRuleset

CLASSIC = R()  # the struct defaults are CLASSIC ("club rules")
ONLINE = R(
    redeal_weak_before_bid=None,
    redeal_four_nines_before_bid=False,
    redeal_weak_after_passing=14,
    redeal_four_nines_after_passing=True,
    redeal_talon_low=None,
    bid_jumps=True,
    max_contract=300,
    minus_bidding_threshold=-1000,
    writeoff_mode="W2",
    target=1001,
    barrel_bidding="auto_bid",
    barrel_freeze_opponents=True,
    bolt_trigger="no_tricks",
    bolt_mode="cumulative",
)
SIMPLE = R(
    ace_marriage=False,
    redeal_weak_before_bid=None,
    redeal_four_nines_before_bid=True,
    redeal_weak_after_passing=None,
    redeal_four_nines_after_passing=True,
    redeal_talon_low=None,
    forced_bidder="dealer",
    bid_jumps=True,
    cap_mode="any_marriage_uncapped",
    pass_cards_visibility="recipient",
    writeoff_allowed=False,
    must_trump_when_void=False,
    barrel_success="made_and_raw_ge_required",
    barrel_fail_mode="minus_contract",
    barrel_jump=True,
    barrel_exclusive=False,
    barrel_falls_result="none",
    bolt_mode="immediate",
    bolt_limit=1,
    samosval=False,
    settlement_report="none",
)

_r = msgspec.structs.replace

PRESETS: dict[str, ThousandRuleset] = {
    "classic": CLASSIC,
    "online": ONLINE,
    "simple": SIMPLE,
    # the supported house rules of §2.18 on CLASSIC, as ready-made tables
    "classic-golden-kon": _r(CLASSIC, golden_kon=True),
    "classic-blind": _r(CLASSIC, blind_on=True),
    "classic-4p-sitout": _r(CLASSIC, sitout_4p=True),
    "online-no-barrel-auction": _r(ONLINE, barrel_bidding="no_auction"),
    "online-writeoff-stick": _r(ONLINE, writeoff_mode="W3"),
}

DESCRIPTIONS: dict[str, str] = {
    "classic": "Club rules: forced 100 left of the dealer, +5 steps, cap 120 + held marriages, "
    "must trump, barrel at 880 (make 120), consecutive zero-deal bolts, write-off W1, dump truck (±555 to 0); to 1000",
    "online": "Online table: bid jumps, max 300, barrel bid 121 automatic and opponents frozen, "
    "no-trick sticks (3 = -120), write-off W2, redeal after the passing; to 1001",
    "simple": "International guide: the dealer holds 100, jumps, uncapped with any marriage, "
    "no duty to trump, no write-off, a zero deal costs 120 at once, barrel jump; to 1000",
    "classic-golden-kon": "Club rules with the golden kon: the first three deals doubled, 120 forced",
    "classic-blind": "Club rules with the blind game (120 without looking, doubled)",
    "classic-4p-sitout": "Club rules for 4 players: the dealer sits out and scores the talon",
    "online-no-barrel-auction": "Online table where a barrel sitter plays 121 without an auction",
    "online-writeoff-stick": "Online table where a write-off costs a stick instead of points (W3)",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "classic": "Клубные правила: обязательные 100 у игрока слева от сдающего, шаг +5, не выше 120 + марьяжи на "
    "руке, бить козырем обязательно, бочка на 880 (сыграть 120), болты за раздачи без очков подряд, роспись "
    "W1, самосвал; до 1000",
    "online": "Онлайн-стол: торги с перескоком, не выше 300, на бочке заказ 121 автоматически и соперники "
    "замораживаются, палки за раздачи без взяток (3 = -120), роспись W2, пересдача, если все спасовали; до 1001",
    "simple": "Международное руководство: у сдающего 100, перескоки, без предела при любом марьяже, бить "
    "козырем не обязательно, без росписи, раздача без очков сразу стоит 120, перескок бочки; до 1000",
    "classic-golden-kon": "Клубные правила с золотым коном: первые три раздачи в двойном размере, обязательные "
    "120",
    "classic-blind": "Клубные правила с игрой втёмную (120 не глядя в карты, вдвойне)",
    "classic-4p-sitout": "Клубные правила на 4 игрока: сдающий не играет и записывает себе прикуп",
    "online-no-barrel-auction": "Онлайн-стол, где сидящий на бочке играет 121 без торгов",
    "online-writeoff-stick": "Онлайн-стол, где роспись стоит палку вместо очков (W3)",
}

ORDER = cards.THOUSAND_ORDER  # 9 < J < Q < K < 10 < A
STRENGTH: tuple[str, ...] = tuple(reversed(ORDER))  # strongest first, for trick_winner
POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
DECK: tuple[str, ...] = cards.deck("24")
SUITS: tuple[str, ...] = ("S", "C", "D", "H")  # tie order of the timeout rule (§2.21.2)
MARRIAGE_TABLES: dict[str, dict[str, int]] = {
    "H100_D80_C60_S40": {"H": 100, "D": 80, "C": 60, "S": 40},
    "S100_H80_C60_D40": {"S": 100, "H": 80, "C": 60, "D": 40},
    "S100_C80_H60_D40": {"S": 100, "C": 80, "H": 60, "D": 40},
}


def card_points(cid: str) -> int:
    return POINTS[cards.parse(cid).rank]


def low_key(cid: str) -> tuple[int, int]:
    """Rank order 9 < J < Q < K < 10 < A, ties by suit order S < C < D < H (timeouts, §2.21.2)."""
    c = cards.parse(cid)
    return (ORDER.index(c.rank), SUITS.index(c.suit))


def round5(x: int) -> int:
    """§2.9: nearest multiple of 5 (last digit 1, 2, 6, 7 down; 3, 4, 8, 9 up); negatives symmetric."""
    if x < 0:
        return -round5(-x)
    return 5 * ((x + 2) // 5)


def half5(x: int) -> int:
    """§2.21.4: half of x rounded to the nearest multiple of 5, halves up (105 -> 55, 115 -> 60)."""
    return 5 * -(-x // 10)
