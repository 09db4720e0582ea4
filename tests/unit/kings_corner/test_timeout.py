"""§5.4 meta action TIMEOUT (Decision D4 of rules/kings-corner.md) through the game's
``Decider.timeout`` (``timeout.py``): between rounds, during a turn, and the compulsory steps
before END_TURN; and RESIGN's refusal of a seat that is out (D3)."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    EndTurn,
    PlayCard,
    RoundEnded,
    SeatReady,
    TurnEnded,
)
from domain.games.kings_corner import GAME
from domain.games.kings_corner.decide import resign
from domain.games.kings_corner.decide import timeout as turn_timeout
from domain.games.kings_corner.rules import PRESETS
from domain.games.kings_corner.timeout import timeout

from .conftest import SEED, dealt, kc


def test_d4_timeout_between_rounds_makes_the_seat_ready() -> None:
    """D4: before a deal the clock runs for the seats waited for; TIMEOUT makes such a seat ready."""
    state = GAME.initial_state(PRESETS["pagat-classic"], GAME.seat_names(2), SEED)
    assert timeout(state, "p1") == (SeatReady(seat="p1", client_seed=""),)
    for event in timeout(state, "p1"):  # type: ignore[union-attr]
        state = GAME.evolve(state, event)
    # p1 is ready: nothing is waited for from it, so its TIMEOUT is refused
    refused = timeout(state, "p1")
    assert isinstance(refused, Rejected) and refused.code == "not_your_turn"


def test_d4_timeout_during_a_turn_is_the_seats_end_turn() -> None:
    state = kc("pagat-classic").given(dealt(hands=("2D 3S", "3D"), stock="8H 9C")).state
    assert timeout(state, "p1") == GAME.decide(state, "p1", EndTurn())
    refused = timeout(state, "p2")
    assert isinstance(refused, Rejected) and refused.code == "not_your_turn" and "p2" in refused.detail


def test_d4_no_timeout_once_the_round_is_scored() -> None:
    """After a round is scored no seat is to move in it: the last current seat's TIMEOUT is refused."""
    result = kc("pagat-classic").given(dealt(hands=("2D", "3D 4C"), layout={"N": "3S"}, stock="8H 9C"))
    state = result.when("p1", PlayCard(card="2D", slot="N")).then_accepted()
    assert state.phase == "scored"
    for seat in ("p1", "p2"):
        refused = turn_timeout(state, seat)
        assert isinstance(refused, Rejected) and refused.code == "not_your_turn"


def test_d4_timeout_under_enforce_plays_the_king_not_the_first_card_of_the_hand() -> None:
    """D4 under ``enforce``: the obliged king goes to the first empty corner (NE), whatever precedes
    it in the hand; then END_TURN with its draw."""
    state = kc("s3-mandatory-kings").given(dealt(hands=("2D KC 3S", "3D"), stock="8H 9C")).state
    assert timeout(state, "p1") == (
        CardPlayed(seat="p1", card="KC", slot="NE"),
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_d4_timeout_that_plays_the_last_card_ends_the_round_without_end_turn() -> None:
    """D4 under ``enforce``: the obliged king is the seat's last card, so it goes out (§5.5): the
    round is scored and no END_TURN follows."""
    state = kc("s3-mandatory-kings").given(dealt(hands=("KC", "3D"), stock="8H 9C")).state
    events = timeout(state, "p1")
    assert not isinstance(events, Rejected)
    assert events[0] == CardPlayed(seat="p1", card="KC", slot="NE")
    assert isinstance(events[-1], RoundEnded)
    assert not any(isinstance(e, (TurnEnded, CardsDrawn)) for e in events)


def test_d4_timeout_under_enforce_and_until_playable() -> None:
    """A ruleset with both ``enforce`` and ``until_playable`` (§4.1 allows it): the king is played,
    which is a play, so END_TURN needs no draw."""
    state = (
        kc("draw-till-play", mandatory_kings="enforce")
        .given(dealt(hands=("8C KC", "3D"), layout={"N": "9H"}, stock="8H 9C"))
        .state
    )
    assert timeout(state, "p1") == (
        CardPlayed(seat="p1", card="KC", slot="NE"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_d3_resigning_again_is_refused_naming_the_seat() -> None:
    state = kc("pagat-classic", n=3).given(dealt(n=3, hands=("2D 3S", "3D", "4C"), stock="8H 9C")).state
    for event in resign(state, "p2"):  # type: ignore[union-attr]
        state = GAME.evolve(state, event)
    again = resign(state, "p2")
    assert isinstance(again, Rejected) and again.code == "seat_out"
    assert again.detail == "p2 is out of the match already"
