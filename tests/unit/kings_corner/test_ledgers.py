"""The chips and pool ledgers (rules/kings-corner.md §5.3 step 8, §5.4 A6 penalty3, §5.6 Scoring):
the ante of both ledgers, king charges paid into the pot, and the fold of a turn end that carries
a king charge (the form of the events stored before Decision D1)."""

from __future__ import annotations

from contracts.games.kings_corner import DrawCard, PlayCard, RoundEnded, TurnEnded

from .conftest import dealt, kc, then_from


def test_a_pool_with_an_ante_collects_it_at_the_deal() -> None:
    """§5.3 step 8: "Chips and pool: collect the ante from each seat into the pot"."""
    state = kc("classic-pool", n=3, ante=2).given(dealt(n=3, hands=("8C", "3D", "4D"), stock="5S 6S")).state
    assert state.pot == 3 * 2 and state.totals == (-2, -2, -2)


def test_penalty_points_have_no_ante() -> None:
    """§4.1: the ante is a parameter of the chips and pool ledgers; penalty points pay nothing."""
    state = kc("pagat-classic", ante=2).given(dealt(hands=("8C", "3D"), stock="5S 6S")).state
    assert state.pot == 0 and state.totals == (0, 0)


def test_penalty3_under_chips_pays_the_charge_into_the_pot() -> None:
    """§5.4 A6 penalty3: "add 3 penalty points (or 3 chips to the pot)"; D1: the charge is settled
    with the round.  p1 holds K♣ while NE is empty and ends its turn by drawing (idle: 1 chip);
    p2 goes out and takes the pot and p1's dues (1 per card, 10 per king, 000:L567)."""
    given = dealt(hands=("KC 5D", "8C"), layout={"N": "9H"}, stock="2S 3S")
    state = (
        kc("classic-chips", mandatory_kings="penalty3").given(given).when("p1", DrawCard()).then_accepted()
    )
    assert state.pot == 2 + 1  # two antes and p1's idle fee; the charge is not public yet (D1)
    result = then_from(state).when("p2", PlayCard(card="8C", slot="N"))
    after = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.winner == "p2"
    dues = 10 + 1 + 1  # K♣, 5♦ and the drawn 2♠
    p1 = next(r for r in ended.seats if r.seat == "p1")
    p2 = next(r for r in ended.seats if r.seat == "p2")
    assert p1.king_penalty == 3 and p1.balance_change == -3 - dues
    assert p2.balance_change == (2 + 1 + 3) + dues  # the pot with the charge, and p1's dues
    assert after.totals == (-1 - 1 - 3 - dues, -1 + 6 + dues) and after.pot == 0


def test_a_turn_end_carrying_a_king_charge_is_folded_into_the_ledger() -> None:
    """Events stored before D1 charged penalty3 with the turn end: 3 penalty points on the seat's
    total, or, with a ledger, 3 chips from the seat into the pot (§5.4 A6)."""
    given = dealt(hands=("KC 5D", "8C"), stock="2S 3S")
    penalty = kc("pagat-kings-penalty").given(given, TurnEnded(seat="p1", next_seat="p2", king_penalty=3))
    assert penalty.state.totals == (3, 0) and penalty.state.pot == 0
    chips = kc("classic-chips", mandatory_kings="penalty3").given(
        given, TurnEnded(seat="p2", next_seat="p1", king_penalty=3)
    )
    assert chips.state.totals == (-1, -1 - 3) and chips.state.pot == 2 + 3
