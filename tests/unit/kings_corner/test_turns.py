"""Turn structure, draw timings, mandatory kings, going out and blocked rounds (§5.3-§5.6, §5.9)."""

from __future__ import annotations

from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    DrawCard,
    EndTurn,
    KingPenaltyCharged,
    MovePile,
    PileMoved,
    PlayCard,
    RoundEnded,
    TurnEnded,
)

from .conftest import dealt, kc, then_from


def test_vector6_seed_003_example_draw_first() -> None:
    """Vector 6 (003:L32): the server draws 8♥; 8♥ on 9♠; 7♣ pile onto it; 10♦ into the freed slot."""
    state = (
        kc()
        .given(dealt(hands=("10D 4C", "2D 3D"), layout={"N": "9S", "E": "7C"}, stock="8H 5S", first="p2"))
        .when("p2", EndTurn())
        .then(
            TurnEnded(seat="p2", next_seat="p1"),
            CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_start"),
        )
    )
    state = (
        then_from(state)
        .when("p1", PlayCard(card="8H", slot="N"))
        .then(CardPlayed(seat="p1", card="8H", slot="N"))
    )
    state = (
        then_from(state)
        .when("p1", MovePile(from_slot="E", to_slot="N"))
        .then(PileMoved(seat="p1", from_slot="E", to_slot="N"))
    )
    state = (
        then_from(state)
        .when("p1", PlayCard(card="10D", slot="E"))
        .then(CardPlayed(seat="p1", card="10D", slot="E"))
    )
    assert state.layout[0] == ("9S", "8H", "7C") and state.layout[1] == ("10D",)


def test_start_timing_player_draw_is_rejected() -> None:
    """A1 [REC]: under start timing the server draws; a DRAW sent by a player is rejected."""
    kc().given(dealt(hands=("2D", "3D"), stock="8H")).when("p1", DrawCard()).then_rejected("draw_not_allowed")


def test_end_timing_draw_ends_the_turn() -> None:
    """A1 end timing: draw one card and end the turn (000:L545, 000:L848)."""
    kc("pagat-classic").given(dealt(hands=("2D", "3D"), stock="8H 9C")).when("p1", DrawCard()).then(
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_end_timing_end_turn_performs_the_compulsory_draw() -> None:
    """A6 end timing [REC]: with stock left, END_TURN draws (000:L545 "must")."""
    kc("pagat-classic").given(dealt(hands=("2D", "3D"), stock="8H 9C")).when("p1", EndTurn()).then(
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_vector10_end_timing_with_empty_stock() -> None:
    """Vector 10: empty stock, DRAW rejected, END_TURN accepted (000:L850)."""
    given = dealt(hands=("2D", "3D"), layout={"N": "9S", "E": "8H"})  # a pile move keeps the round alive
    kc("pagat-classic").given(given).when("p1", DrawCard()).then_rejected("stock_empty")
    kc("pagat-classic").given(given).when("p1", EndTurn()).then(TurnEnded(seat="p1", next_seat="p2"))


def test_draw_two() -> None:
    """V11 draw_count = 2 (000:L587); E2: fewer cards left means drawing what remains."""
    kc("pagat-draw-two").given(dealt(hands=("2D", "3D"), stock="8H 9C 4S")).when("p1", DrawCard()).then(
        CardsDrawn(seat="p1", cards=("8H", "9C"), count=2, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )
    kc("pagat-draw-two").given(dealt(hands=("2D", "3D"), layout={"N": "9S", "E": "8H"}, stock="4S")).when(
        "p1", DrawCard()
    ).then(
        CardsDrawn(seat="p1", cards=("4S",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_vector14_idle_counting() -> None:
    """Vector 14: a turn that began with stock is never idle; two idle turns of two seats block the round."""
    given = dealt(hands=("2D 4H", "3D 4C"), layout={"N": "9S", "E": "8H"}, stock="QD")
    state = kc("pagat-classic").given(given).when("p1", DrawCard()).then_accepted()
    assert state.idle == 0 and not state.stock
    state = then_from(state).when("p2", EndTurn()).then(TurnEnded(seat="p2", next_seat="p1"))
    assert state.idle == 1 and state.phase == "play"
    result = then_from(state).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.result == "blocked" and ended.winner is None
    assert state.phase == "scored"


def test_vector15_blocked_when_nobody_can_act() -> None:
    """Vector 15 (§5.6 rule 1): stock empty and no legal action for anyone: BLOCKED at once; 11 and 1.

    Erratum: with one deck a seat holding K♦ always has an empty corner to play it to, so the
    position needs two decks: the corners hold K♣ K♠ K♥ and the second K♦.
    """
    given = dealt(
        hands=("3D", "KD 3C", "5H"),
        n=3,
        layout={"N": "AS", "E": "AH", "S": "AC", "W": "AD2", "NE": "KC", "SE": "KS", "SW": "KH", "NW": "KD2"},
        first="p1",
    )
    result = kc("cz-two-decks", n=3).given(given).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.result == "blocked"
    assert {r.seat: r.points for r in ended.seats} == {"p1": 1, "p2": 11, "p3": 1}
    assert state.totals == (1, 11, 1)


def test_vector16_penalty3() -> None:
    """Vector 16 (000:L581): a king held back while a corner was empty costs 3; played or just drawn, nothing."""
    given = dealt(hands=("KC 2D", "3D"), stock="8H 9C")
    # played: no penalty
    state = kc("pagat-kings-penalty").given(given).when("p1", PlayCard(card="KC", slot="NE")).then_accepted()
    state = then_from(state).when("p1", EndTurn()).then_accepted()
    assert state.totals == (0, 0)
    # held: +3
    result = kc("pagat-kings-penalty").given(given).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    assert KingPenaltyCharged(seat="p1", points=3) in result.result  # private to p1 (D1)
    assert state.king_charges == (3, 0) and state.totals == (0, 0)  # added when the round is scored
    # drawn by the turn-ending DRAW: nothing that turn
    drawn = dealt(hands=("2D", "3D"), stock="KC 9C")
    kc("pagat-kings-penalty").given(drawn).when("p1", DrawCard()).then(
        CardsDrawn(seat="p1", cards=("KC",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2", king_penalty=0),
    )


def test_mandatory_kings_enforced() -> None:
    """V8 (000:L870): END_TURN and the turn-ending DRAW are refused while a king could start a corner."""
    given = dealt(hands=("KC 2D", "3D"), stock="8H 9C")
    kc("s3-mandatory-kings").given(given).when("p1", EndTurn()).then_rejected("kings_must_be_played")
    kc("s3-mandatory-kings").given(given).when("p1", DrawCard()).then_rejected("kings_must_be_played")
    state = kc("s3-mandatory-kings").given(given).when("p1", PlayCard(card="KC", slot="NE")).then_accepted()
    then_from(state).when("p1", EndTurn()).then_accepted()


def test_until_playable() -> None:
    """V18 (000:L932): draw only while nothing can be played; a turn must play or merge while stock lasts."""
    can_play = dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="8H 9C")
    kc("draw-till-play").given(can_play).when("p1", DrawCard()).then_rejected("play_available")
    kc("draw-till-play").given(can_play).when("p1", EndTurn()).then_rejected("must_play_first")
    stuck = dealt(hands=("2D 3S", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "JD"}, stock="8C 9C")
    state = (
        kc("draw-till-play")
        .given(stuck)
        .when("p1", DrawCard())
        .then(CardsDrawn(seat="p1", cards=("8C",), count=1, reason="until_playable"))
    )
    state = then_from(state).when("p1", PlayCard(card="8C", slot="N")).then_accepted()
    then_from(state).when("p1", EndTurn()).then(TurnEnded(seat="p1", next_seat="p2"))
    # with an empty stock the turn may pass
    kc("draw-till-play").given(dealt(hands=("2D", "3D"), layout={"N": "9H", "E": "8S"})).when(
        "p1", EndTurn()
    ).then(TurnEnded(seat="p1", next_seat="p2"))


def test_start_if_stuck() -> None:
    """V20 (003:L47): the server draws at turn start only when no hand play exists; E20 forced draw."""
    # p2 is stuck, p1 holds 8C for 9H; the cross is full so nothing goes to an empty slot
    given = dealt(
        hands=("8C 2D", "3D"),
        layout={"N": "9H", "E": "QD", "S": "5S", "W": "JC"},
        stock="4S 6S 7S",
        first="p2",
    )
    # E20: ending a turn with no draw and no hand play draws; p1 can play, so no draw at its start
    state = (
        kc("cz-draw-when-needed")
        .given(given)
        .when("p2", EndTurn())
        .then(
            CardsDrawn(seat="p2", cards=("4S",), count=1, reason="turn_end"),
            TurnEnded(seat="p2", next_seat="p1"),
        )
    )
    # p1 ends idle: forced draw; p2 (3D 4S) has no play, so the server draws for it at turn start
    then_from(state).when("p1", EndTurn()).then(
        CardsDrawn(seat="p1", cards=("6S",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
        CardsDrawn(seat="p2", cards=("7S",), count=1, reason="turn_start"),
    )
    then_from(state).when("p1", DrawCard()).then_rejected("draw_not_allowed")


def test_e15_going_out_ends_the_round_at_once() -> None:
    """E15 / going_out = immediate (000:L545, 003:L23): no draw, the round ends."""
    result = (
        kc("pagat-classic")
        .given(dealt(hands=("8C", "3D KS"), layout={"N": "9H"}, stock="5S 6S"))
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    assert [type(e).__name__ for e in result.result] == ["CardPlayed", "RoundEnded"]
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.winner == "p1"
    assert {r.seat: r.points for r in ended.seats} == {"p1": 0, "p2": 11}
    assert state.phase == "scored" and state.totals == (0, 11)


def test_becker_going_out_with_stock_draws_and_must_place() -> None:
    """V16 (000:L594): going out with stock left draws; a card fitting an empty slot must go there."""
    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="KS 2C 7D")
    result = kc("becker-four-card").given(given).when("p1", PlayCard(card="8C", slot="N"))
    state = result.then(
        CardPlayed(seat="p1", card="8C", slot="N"),
        CardsDrawn(seat="p1", cards=("KS",), count=1, reason="going_out"),
    )
    assert state.pending == "KS"
    then_from(state).when("p1", EndTurn()).then_rejected("pending_placement")
    then_from(state).when("p1", PlayCard(card="KS", slot="E")).then_rejected("pending_placement")
    # placing it empties the hand again: draw again; 2C fits no empty slot, so the turn passes
    then_from(state).when("p1", PlayCard(card="KS", slot="NW")).then(
        CardPlayed(seat="p1", card="KS", slot="NW"),
        CardsDrawn(seat="p1", cards=("2C",), count=1, reason="going_out"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_becker_going_out_with_empty_stock_wins() -> None:
    """V16: with the stock empty, going out wins."""
    result = (
        kc("becker-four-card")
        .given(dealt(hands=("8C", "3D"), layout={"N": "9H"}))
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    result.then_accepted()
    assert isinstance(result.result, tuple) and isinstance(result.result[-1], RoundEnded)


def test_draw3_if_open_cross() -> None:
    """V18 (000:L932): out of cards with an open cross slot: draw 3 and play on."""
    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S"}, stock="2C 3C 4C 5C")
    kc("draw-till-play").given(given).when("p1", PlayCard(card="8C", slot="N")).then(
        CardPlayed(seat="p1", card="8C", slot="N"),
        CardsDrawn(seat="p1", cards=("2C", "3C", "4C"), count=3, reason="open_cross"),
    )


def test_after_a_round_every_seat_readies_for_the_next_deal() -> None:
    """Between rounds the hands stay public until every seat sends Ready; then the next deal."""
    from contracts.games.kings_corner import Ready, RoundDealt

    state = (
        kc("pagat-classic")
        .given(dealt(hands=("8C", "3D KS"), layout={"N": "9H"}, stock="5S 6S"))
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    then_from(state).when("p1", EndTurn()).then_rejected("round_not_active")
    state = then_from(state).when("p2", Ready()).then_accepted()
    then_from(state).when("p2", Ready()).then_rejected("already_ready")
    result = then_from(state).when("p1", Ready())
    after = result.then_accepted()
    assert isinstance(result.result, tuple) and isinstance(result.result[1], RoundDealt)
    dealt2 = result.result[1]
    assert dealt2.round_no == 2 and dealt2.dealer == "p1"  # the deal passes left from p2
    assert after.phase == "play" and after.round_no == 2
