"""1000 deals re-derived from rng_v1 (§2.3 server deal, §2.21.3 step 1, the audit of §2.21.5): the
true deal passes, and each way a recorded deal can differ from the seed is named precisely."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.games.thousand import DealDealt, Ready, SeatReady
from domain.games.thousand import GAME
from domain.games.thousand.deal import deal, verify_chance
from domain.games.thousand.evolve import evolve
from domain.games.thousand.phases import decide
from domain.games.thousand.state import initial_state
from tests.unit.thousand.support import CLASSIC, SEATS, SEED

_r = msgspec.structs.replace


def before_first_deal() -> tuple[Any, DealDealt]:
    """The state just before the first deal (every seat ready, its client seed folded) and the deal."""
    s = initial_state(CLASSIC, SEATS, SEED)
    for seat in SEATS[:2]:
        for e in decide(s, seat, Ready(client_seed=seat)):
            s = evolve(s, e)
    events = decide(s, "p3", Ready(client_seed="p3"))
    assert isinstance(events, tuple) and isinstance(events[0], SeatReady) and isinstance(events[1], DealDealt)
    return evolve(s, events[0]), events[1]


def test_the_true_deal_follows_from_the_seed() -> None:
    s, d = before_first_deal()
    assert verify_chance(s, d) is None
    assert GAME.verify_chance is verify_chance
    assert verify_chance(s, SeatReady(seat="p1")) is None  # not a chance event
    # §2.3: one card at a time, clockwise from the dealer's left, 7 each, then the talon of 3
    left = SEATS.index(d.dealer) + 1
    for k in range(21):
        assert d.order[k] == d.hands[(left + k) % 3][k // 3]
    assert d.talon == d.order[21:] and len(d.order) == 24


def test_without_the_server_seed_nothing_can_be_checked() -> None:
    s, d = before_first_deal()
    assert verify_chance(_r(s, seed=None), d) == "deal 1: the server seed is not available"
    assert (
        verify_chance(_r(s, seed=None), _r(d, shuffle=4)) == "deal 4: the server seed is not available"
    )


def test_shuffle_and_deal_numbers_are_checked() -> None:
    s, d = before_first_deal()
    assert verify_chance(s, _r(d, shuffle=2)) == "shuffle 1 (deal 1): recorded as shuffle 2, deal 1"
    assert verify_chance(s, _r(d, deal_no=3)) == "shuffle 1 (deal 1): recorded as shuffle 1, deal 4"
    # a later deal: the next shuffle (redeals count) and the completed deals so far
    later = _r(s, shuffle=4, deal_no=2, dealer=0)
    expected = deal(later)
    assert isinstance(expected, DealDealt) and expected.shuffle == 5 and expected.deal_no == 2
    assert verify_chance(later, expected) is None
    assert verify_chance(later, _r(expected, deal_no=0)) == (
        "shuffle 5 (deal 3): recorded as shuffle 5, deal 1"
    )


def test_the_first_dealer_is_drawn_from_the_seed_2_3() -> None:
    s, d = before_first_deal()
    other = next(p for p in SEATS if p != d.dealer)
    assert verify_chance(s, _r(d, dealer=other)) == (
        f"shuffle 1 (deal 1): dealer is {other}, rng_v1 gives {d.dealer}"
    )


def test_a_wrong_card_is_named_by_its_place_in_the_deck() -> None:
    s, d = before_first_deal()
    o = list(d.order)
    first = (o[1], o[0], *o[2:])
    assert verify_chance(s, _r(d, order=first)) == (
        f"shuffle 1 (deal 1): card 1 is {o[1]}, rng_v1 gives {o[0]}"
    )
    last = (*o[:22], o[23], o[22])
    assert verify_chance(s, _r(d, order=last)) == (
        f"shuffle 1 (deal 1): card 23 is {o[23]}, rng_v1 gives {o[22]}"
    )


def test_a_short_or_long_deck_is_named() -> None:
    s, d = before_first_deal()
    assert verify_chance(s, _r(d, order=d.order[:23])) == (
        "shuffle 1 (deal 1): 23 cards recorded, the deck has 24"
    )
    assert verify_chance(s, _r(d, order=(*d.order, "AS"))) == (
        "shuffle 1 (deal 1): 25 cards recorded, the deck has 24"
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hands", lambda d: (d.hands[1], d.hands[0], d.hands[2])),
        ("talon", lambda d: tuple(reversed(d.talon))),
        ("forced_seat", lambda d: d.dealer),
        ("sitout", lambda d: d.dealer),
        ("golden", lambda d: True),
        ("blind_seat", lambda d: d.forced_seat),
        ("seats", lambda d: tuple(reversed(d.seats))),
    ],
)
def test_every_dealt_fact_must_follow_from_the_deck_order(field: str, value: Any) -> None:
    s, d = before_first_deal()
    wrong = _r(d, **{field: value(d)})
    assert (
        verify_chance(s, wrong)
        == f"shuffle 1 (deal 1): {field} do not follow from the deck order and the rules"
    )
