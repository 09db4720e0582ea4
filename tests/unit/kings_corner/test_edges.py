"""Edges of the rules the broad tests rarely reach: the texts of rejections a player reads, the
V16 placement phase, elimination while the match goes on, resignation ranks with eliminations,
closed up-built piles, jokers in corners (rules/kings-corner.md §5.4, §5.6, §5.7, V16, V17, D3)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    DrawCard,
    EndTurn,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
    RoundEnded,
    SeatReady,
    SeatResult,
)
from contracts.match import Resign
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS

from .conftest import dealt, kc, then_from


def _rejected(spec: object, seat: str, command: object) -> Rejected:
    result = spec.when(seat, command).result  # type: ignore[attr-defined]
    assert isinstance(result, Rejected), result
    return result


def test_rejection_texts() -> None:
    """What a player reads when a command is refused (one text per reason)."""
    given = dealt(hands=("KC 2D RJ 8C 7D", "3D"), layout={"N": "9H"}, stock="8H 9C")
    assert _rejected(
        kc("pagat-classic", run_play_action=False).given(given), "p1", PlayRun(cards=("8C", "7D"), slot="N")
    ) == Rejected(code="runs_disabled", detail="this ruleset plays cards one at a time")
    assert _rejected(
        kc("freeman-jokers").given(given), "p1", PlayRun(cards=("RJ", "2D"), slot="N")
    ) == Rejected(code="bad_run", detail="jokers are played one at a time")
    assert _rejected(kc("s3-mandatory-kings").given(given), "p1", EndTurn()) == Rejected(
        code="kings_must_be_played", detail="a king must go to the empty corner first"
    )
    assert _rejected(kc("s3-mandatory-kings").given(given), "p1", DrawCard()) == Rejected(
        code="kings_must_be_played", detail="a king must go to the empty corner first"
    )
    stuck = dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="8H 9C")
    assert _rejected(kc("draw-till-play").given(stuck), "p1", EndTurn()) == Rejected(
        code="must_play_first", detail="play or merge at least once (draw until you can)"
    )
    assert _rejected(kc("draw-till-play").given(stuck), "p1", DrawCard()) == Rejected(
        code="play_available", detail="you can play: draw only when nothing can be laid out"
    )
    assert _rejected(kc().given(stuck), "p1", DrawCard()) == Rejected(
        code="draw_not_allowed", detail="under start timing the server draws for you"
    )
    empty = dealt(hands=("8C 2D", "3D"), layout={"N": "9S", "E": "8H"})
    assert _rejected(kc("pagat-classic").given(empty), "p1", DrawCard()) == Rejected(
        code="stock_empty", detail="the stock is empty: end the turn instead"
    )


def test_a_deal_without_the_server_seed_says_so() -> None:
    state = GAME.initial_state(PRESETS["cardgames-zone"], ("p1", "p2"), None)
    state = GAME.evolve(state, SeatReady(seat="p1"))
    assert GAME.decide(state, "p2", Ready()) == Rejected(
        code="seed_unavailable", detail="the server seed is not available"
    )


def test_verify_chance_names_a_wrong_draw() -> None:
    state = kc("pagat-classic").given(dealt(hands=("8C", "3D"), stock="8H 9C")).state
    wrong = CardsDrawn(seat="p1", cards=("9C",), count=1, reason="turn_end")
    assert GAME.verify_chance is not None
    assert GAME.verify_chance(state, wrong) == "draw in round 1 by p1: drew ['9C'], the stock gives ['8H']"


BECKER = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="KS 2C 7D")


def _placing() -> object:
    return kc("becker-four-card").given(BECKER).when("p1", PlayCard(card="8C", slot="N")).then_accepted()


def test_v16_placement_phase_offers_only_the_pending_card_to_empty_slots() -> None:
    """V16 [REC]: while a drawn card is pending, the only valid action is PLAY_CARD of that card to
    an empty slot: for the king, the four empty corners; the view shows it to its holder only."""
    state = _placing()
    assert state.phase == "place"  # type: ignore[attr-defined]
    assert GAME.view(state, "p1").legal == ("KS>NE", "KS>NW", "KS>SE", "KS>SW")  # type: ignore[arg-type]
    assert GAME.legal_commands(state, "p1") == tuple(
        PlayCard(card="KS", slot=s)
        for s in ("NE", "NW", "SE", "SW")  # type: ignore[arg-type]
    )
    assert GAME.legal_commands(state, "p2") == ()
    assert GAME.view(state, "p1").pending_card == "KS"  # type: ignore[arg-type]
    assert GAME.view(state, "p2").pending_card is None  # type: ignore[arg-type]
    assert GAME.view(state, None).pending_card is None  # type: ignore[arg-type]


def test_v16_placement_phase_texts() -> None:
    state = _placing()
    spec = then_from(state)
    assert _rejected(spec, "p1", EndTurn()) == Rejected(
        code="pending_placement", detail="KS must first go to an empty slot"
    )
    assert _rejected(then_from(state), "p2", PlayCard(card="3D", slot="NE")) == Rejected(
        code="not_your_turn", detail="it is p1's turn"
    )
    assert _rejected(then_from(state), "p1", PlayCard(card="KS", slot="E")) == Rejected(
        code="pending_placement", detail="KS must go to an empty slot"
    )


def test_v16_a_pending_card_that_is_placed_is_drawn_for_again() -> None:
    """V16: placing the pending card empties the hand again: draw again; then the turn passes."""
    state = _placing()
    after = then_from(state).when("p1", PlayCard(card="KS", slot="SE")).then_accepted()
    assert after.phase == "play" and after.current == 1 and after.hands[0] == ("2C",)


def _prior(totals: tuple[int, ...]) -> RoundEnded:
    seats = GAME.seat_names(len(totals))
    return RoundEnded(
        round_no=1,
        result="blocked",
        winner=None,
        seats=tuple(
            SeatResult(seat=s, hand=(), points=0, balance_change=0, total=t)
            for s, t in zip(seats, totals, strict=True)
        ),
    )


def test_elimination_while_the_match_goes_on() -> None:
    """V19 (003:L46): a seat reaching 25 drops out and is dealt no more; the others play on."""
    deal2 = dealt(n=3, hands=("8C", "KD 2D 3D 4D 5D 6D", "2S"), layout={"N": "9H"}, stock="5S", round_no=2)
    result = (
        kc("cz-elimination-25", n=3)
        .given(_prior((0, 10, 0)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and not ended.match_over
    assert {r.seat: r.eliminated for r in ended.seats} == {"p1": False, "p2": True, "p3": False}
    assert state.out_round == (0, 2, 0) and GAME.view(state, None).eliminated == ("p2",)
    assert GAME.to_move(state) == frozenset({"p1", "p3"})


def test_d3_ranks_after_resignation_keep_eliminated_seats_by_total() -> None:
    """D3 with V19: the last seat left wins; seats eliminated in the same round rank by total
    (lower better); the resigned seat is last."""
    from domain.core.cardgame.scoring import standings

    deal2 = dealt(
        n=4,
        hands=("8C", "2S", "KD KC 2D 3D 4D", "KH KS 2H 3H 4H 5H"),
        layout={"N": "9H"},
        stock="5S",
        round_no=2,
    )
    state = (
        kc("cz-elimination-25", n=4)
        .given(_prior((0, 0, 2, 2)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.out_round == (0, 0, 2, 2) and state.phase == "scored"
    assert GAME.resign is not None
    events = GAME.resign(state, "p2")
    assert isinstance(events, tuple)
    ranks = events[-1].ranks  # type: ignore[union-attr]
    assert state.totals == (0, 1, 25, 26)
    assert ranks == (1, 4, 2, 3)
    assert ranks == standings(state.totals, state.out_round, resigned=(0, 1, 0, 0))


def test_an_up_built_pile_is_closed_by_its_king() -> None:
    """§5.2 up_in_suit (provisional): nothing goes on a king; building up in suit otherwise."""
    given = dealt(hands=("AS 2S", "3D"), layout={"N": "KS", "E": "AH"}, stock="4C")
    spec = kc("pagat-classic", cross_build="up_in_suit", corner_build="down_in_suit")
    assert _rejected(spec.given(given), "p1", PlayCard(card="AS", slot="N")).code == "pile_closed"
    spec = kc("pagat-classic", cross_build="up_in_suit", corner_build="down_in_suit")
    assert _rejected(spec.given(given), "p1", PlayCard(card="2S", slot="E")).code == "does_not_fit"
    spec = kc("pagat-classic", cross_build="up_in_suit", corner_build="down_in_suit")
    given2 = dealt(hands=("2H 2S", "3D"), layout={"N": "KS", "E": "AH"}, stock="4C")
    spec.given(given2).when("p1", PlayCard(card="2H", slot="E")).then_accepted()


def test_v17_a_declared_joker_bars_its_card_from_corners() -> None:
    """V17 (000:L596): a joker declared as Q♥ in a corner bars Q♥ from every corner pile; the
    pile then builds on the declared card."""
    given = dealt(hands=("RJ QH JS", "3D"), layout={"NE": "KS", "NW": "KC", "N": "10D"}, stock="4C 5C")
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="NE", as_card="QH"))
        .then_accepted()
    )
    assert state.barred == frozenset({"QH"}) and dict(state.declared) == {"RJ": "QH"}
    assert _rejected(then_from(state), "p1", PlayCard(card="QH", slot="NW")).code == "card_barred"
    then_from(state).when("p1", PlayCard(card="JS", slot="NE")).then_accepted()


def test_move_pile_onto_a_corner_with_a_barred_joker_is_refused() -> None:
    """V17 A4: a barred card "can no longer be played or moved to a corner pile"."""
    given = dealt(hands=("RJ 2D", "3D"), layout={"E": "10C", "NE": "KH QS JD"}, stock="4C")
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="E", as_card="9D"))
        .then_accepted()
    )
    then_from(state).when("p1", MovePile(from_slot="E", to_slot="NE")).then_accepted()
    barred = msgspec.structs.replace(state, barred=frozenset({"9D"}))
    assert _rejected(then_from(barred), "p1", MovePile(from_slot="E", to_slot="NE")).code == "card_barred"


def test_a_barred_card_is_refused_on_the_first_corner_too() -> None:
    """V17 A4 on the corner NE (the first corner slot): a joker declared as K♠ in the corner SE
    bars K♠ from every corner, NE included, though an empty corner takes a king."""
    given = dealt(hands=("RJ KS 2D", "3H"), layout={"N": "9H"}, stock="4C")
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="SE", as_card="KS"))
        .then_accepted()
    )
    assert _rejected(then_from(state), "p1", PlayCard(card="KS", slot="NE")).code == "card_barred"


def test_a_king_pile_holding_a_joker_declared_as_a_barred_card_may_not_enter_a_corner() -> None:
    """V17 A4 with A5: a cross pile K♠, joker-as-Q♥ may not move to an empty corner while Q♥ is
    barred (another joker declared Q♥ in a corner): the joker counts as its declared card."""
    given = dealt(hands=("2D", "3H"), layout={"N": "KS BJ", "NE": "KC RJ"}, stock="4C")
    state = kc("freeman-jokers").given(given).state
    state = msgspec.structs.replace(
        state, declared=(("BJ", "QH"), ("RJ", "QH")), barred=frozenset({"QH"})
    )
    refused = _rejected(then_from(state), "p1", MoveKingPile(from_slot="N", to_slot="NW"))
    assert refused.code == "card_barred"
    free = msgspec.structs.replace(state, barred=frozenset())
    then_from(free).when("p1", MoveKingPile(from_slot="N", to_slot="NW")).then_accepted()


def test_malformed_commands_and_strangers_are_refused_with_their_texts() -> None:
    """Bad input gets a typed rejection naming what is wrong."""
    spec = kc().given(dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="4C"))
    state = spec.state
    assert GAME.decide(state, "p9", EndTurn()) == Rejected(
        code="not_your_turn", detail="'p9' is not a seat of this match"
    )
    slots = "N, E, S, W, NE, SE, SW, NW"
    for command, field in (
        (PlayCard(card="8C", slot="X"), "slot"),  # type: ignore[arg-type]
        (MovePile(from_slot="X", to_slot="N"), "from_slot"),  # type: ignore[arg-type]
        (MovePile(from_slot="N", to_slot="X"), "to_slot"),  # type: ignore[arg-type]
    ):
        assert GAME.decide(state, "p1", command) == Rejected(
            code="malformed", detail=f"{field} must be one of {slots}"
        )
    assert GAME.decide(state, "p1", PlayCard(card=5, slot="N")) == Rejected(  # type: ignore[arg-type]
        code="malformed", detail="card ids are strings"
    )
    assert GAME.decide(state, "p1", Resign()) == Rejected(  # type: ignore[arg-type]
        code="malformed", detail="not a Kings in the Corner command: Resign"
    )


def test_resign_refusals() -> None:
    assert GAME.resign is not None
    state = kc().given(dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="4C")).state
    assert GAME.resign(state, "p9") == Rejected(
        code="not_your_turn", detail="'p9' is not a seat of this match"
    )
    over = msgspec.structs.replace(state, phase="over")
    assert GAME.resign(over, "p1") == Rejected(code="round_not_active", detail="the match is over")
    waiting = GAME.initial_state(PRESETS["pagat-classic"], ("p1", "p2", "p3"), None)
    waiting = GAME.evolve(GAME.evolve(waiting, SeatReady(seat="p1")), SeatReady(seat="p2"))
    assert GAME.resign(waiting, "p3") == Rejected(
        code="seed_unavailable", detail="the server seed is not available"
    )


def test_joker_declarations_are_checked() -> None:
    """V17: a joker needs a declared real card; only a joker is declared."""
    given = dealt(hands=("RJ 8C 2D", "3D"), layout={"N": "9H"}, stock="4C")
    spec = kc("freeman-jokers").given(given)
    assert _rejected(spec, "p1", PlayCard(card="RJ", slot="N")) == Rejected(
        code="joker_needs_declaration", detail="say which card the joker stands for (as_card)"
    )
    for bad in ("ZZ", "BJ", "8S2"):
        assert _rejected(
            kc("freeman-jokers").given(given), "p1", PlayCard(card="RJ", slot="N", as_card=bad)
        ) == Rejected(code="bad_declaration", detail=f"{bad!r} is not a card a joker can stand for")
    assert _rejected(
        kc("freeman-jokers").given(given), "p1", PlayCard(card="8C", slot="N", as_card="8S")
    ) == Rejected(code="bad_declaration", detail="only a joker is declared as another card")
    kc("freeman-jokers").given(given).when("p1", PlayCard(card="RJ", slot="N", as_card="8S")).then_accepted()
    kc("freeman-jokers").given(given).when("p1", PlayCard(card="8C", slot="N", as_card="8C")).then(
        CardPlayed(seat="p1", card="8C", slot="N")  # a natural card records no declaration
    )


def test_v18_going_out_draws_the_last_cards_and_plays_on() -> None:
    """V18 / E2: out of cards with an open cross slot and two cards left: draw both; the stock is
    now empty but the seat can still play, so the round goes on."""
    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S"}, stock="2C 7H")
    result = kc("draw-till-play").given(given).when("p1", PlayCard(card="8C", slot="N"))
    state = result.then(
        CardPlayed(seat="p1", card="8C", slot="N"),
        CardsDrawn(seat="p1", cards=("2C", "7H"), count=2, reason="open_cross"),
    )
    assert state.phase == "play" and state.current == 0 and not state.stock
