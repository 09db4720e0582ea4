"""Decision D3: RESIGN in Kings in the Corner (rules/kings-corner.md §5.4 meta action, D3)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardsDrawn,
    EndTurn,
    PlayCard,
    Ready,
    RoundDealt,
    RoundEnded,
    SeatResigned,
)
from contracts.match import CreateMatch, MatchEnded, Resign, Resigned
from domain.core import match as match_layer
from domain.core import rng
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS

from .conftest import SEED, dealt


def _match(preset: str, n: int, *game_events: Any) -> match_layer.MatchState:
    seats = GAME.seat_names(n)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(PRESETS[preset]),
        seats=seats,
        players=seats,
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng.commitment(SEED),
    )
    created = match_layer.decide(GAME, None, None, create, SEED)
    assert not isinstance(created, Rejected)
    state = match_layer.evolve(GAME, None, created[0], SEED)
    for e in game_events:
        state = match_layer.evolve(GAME, state, e, SEED)
    return state


def _apply(
    state: match_layer.MatchState, seat: str, command: Any
) -> tuple[tuple[Any, ...], match_layer.MatchState]:
    events = match_layer.decide(GAME, state, seat, command, SEED)
    assert not isinstance(events, Rejected), events
    for e in events:
        state = match_layer.evolve(GAME, state, e, SEED)
    return events, state


THREE = dealt(n=3, hands=("8C 2D", "KS 3D", "4H 5S"), layout={"N": "9H"}, stock="6C 7C 8D 9D")


def test_d3_a_resigning_seat_ends_nothing_for_the_others() -> None:
    """D3: in a three-seat match the others play on; the resigning seat takes no more turns."""
    state = _match("pagat-classic", 3, THREE)
    events, state = _apply(state, "p2", Resign())
    assert events == (Resigned(seat="p2"), SeatResigned(seat="p2"))
    assert state.outcome is None
    assert GAME.view(state.game_state, None).resigned == ("p2",)
    # p1 ends its turn: the turn skips p2
    events, state = _apply(state, "p1", EndTurn())
    assert state.game_state.current == 2 and match_layer.to_move(GAME, state) == ("p3",)
    events, state = _apply(state, "p3", EndTurn())
    assert state.game_state.current == 0


def test_d3_resigned_seat_is_scored_and_last() -> None:
    """D3: with p2 resigned, p1 going out ends the round; p2's hand (K 10 + 3D 1) is scored and p2 ranks last."""
    deal = dealt(n=3, hands=("8C", "KS 3D", "4H"), layout={"N": "9H"}, stock="6C 7C 8D")
    state = _match("family-draw-first", 3, deal)
    _, state = _apply(state, "p2", Resign())
    events, state = _apply(state, "p1", PlayCard(card="8C", slot="N"))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    results = {r.seat: r for r in ended.seats}
    assert results["p2"].points == 11 and results["p2"].resigned
    assert results["p3"].points == 1 and not results["p3"].resigned
    assert state.outcome is not None
    assert state.outcome.ranks == (1, 3, 2)
    assert any(isinstance(e, MatchEnded) for e in events)


def test_d3_resigned_seat_ranks_below_a_worse_total() -> None:
    """D3 "ranked last": a resigned seat with the lowest penalty still ranks below every other seat."""
    deal = dealt(n=3, hands=("8C", "3D", "KH QS JS 10S"), layout={"N": "9H"}, stock="6C 7C 8D")
    state = _match("family-draw-first", 3, deal)
    _, state = _apply(state, "p2", Resign())
    events, state = _apply(state, "p1", PlayCard(card="8C", slot="N"))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert {r.seat: r.points for r in ended.seats} == {"p1": 0, "p2": 1, "p3": 13}
    assert state.outcome is not None and state.outcome.ranks == (1, 3, 2)


def test_d3_d9_in_a_two_seat_match_resign_ends_the_match_and_scores_the_round() -> None:
    """D3, D9: in a two-seat match, RESIGN ends the match; the round in play is scored at once as
    a blocked round, every hand as it stands, and the resigning seat is last whatever the points."""
    state = _match("pagat-classic", 2, dealt(hands=("2D", "KS QH JS 3D"), stock="6C 7C"))
    events, state = _apply(state, "p1", Resign())
    assert events[:2] == (Resigned(seat="p1"), SeatResigned(seat="p1"))
    ended = events[2]
    assert isinstance(ended, RoundEnded) and ended.result == "blocked" and ended.winner is None
    assert ended.match_over and ended.ranks == (2, 1) and ended.reason == "resignation"
    points = {r.seat: r.points for r in ended.seats}
    assert points["p1"] < points["p2"]  # fewer penalty points, still last
    assert isinstance(events[3], MatchEnded)
    assert state.outcome is not None and state.outcome.ranks == (2, 1)
    assert state.outcome.reason == "resignation"


def test_d9_before_kings_corner_3_the_round_in_play_was_not_scored() -> None:
    """kings-corner-2 matches keep their rule: the resignation ended the match at once."""
    from domain.games import registry

    old = registry.get("kings-corner", "kings-corner-2")
    state = _match("pagat-classic", 2, dealt(hands=("2D", "KS QH JS 3D"), stock="6C 7C"))
    game_state = msgspec.structs.replace(state.game_state, decisions_1202=False)
    events = old.resign(game_state, "p1")  # type: ignore[misc]
    assert isinstance(events, tuple)
    assert events == (SeatResigned(seat="p1", match_over=True, ranks=(2, 1)),)


def test_d3_the_match_ends_when_fewer_than_two_seats_are_left() -> None:
    """D3: the second resignation of a three-seat match leaves one seat: it wins; the later resigner
    ranks above the earlier."""
    state = _match("pagat-classic", 3, THREE)
    _, state = _apply(state, "p3", Resign())
    events, state = _apply(state, "p2", Resign())
    assert state.outcome is not None and state.outcome.ranks == (1, 2, 3)


def test_d3_the_current_seat_resigning_passes_the_turn() -> None:
    """D3: when the current seat resigns, the next seat's turn starts (start timing: its draw)."""
    state = _match("cardgames-zone", 3, THREE)
    events, state = _apply(state, "p1", Resign())
    assert events == (
        Resigned(seat="p1"),
        SeatResigned(seat="p1"),
        CardsDrawn(seat="p2", cards=("6C",), count=1, reason="turn_start"),
    )
    assert match_layer.to_move(GAME, state) == ("p2",)


def test_d3_a_resigned_seat_may_not_act_or_resign_again() -> None:
    """D3: the seat is out: a second RESIGN is refused, and it is dealt no further round."""
    state = _match("pagat-classic", 3, THREE)
    _, state = _apply(state, "p2", Resign())
    again = match_layer.decide(GAME, state, "p2", Resign(), SEED)
    assert isinstance(again, Rejected) and again.code == "seat_out"
    assert "seat_out" in GAME.rejection_codes


def test_d3_resigning_between_rounds_deals_when_the_rest_are_ready() -> None:
    """D3 between rounds: the seat leaves at once; when every seat left is ready the next round is
    dealt without it."""
    deal = dealt(n=3, hands=("8C", "KS 3D", "4H"), layout={"N": "9H"}, stock="6C 7C 8D")
    state = _match("pagat-classic", 3, deal)
    _, state = _apply(state, "p1", PlayCard(card="8C", slot="N"))
    assert state.game_state.phase == "scored"
    _, state = _apply(state, "p1", Ready())
    _, state = _apply(state, "p3", Ready())
    events, state = _apply(state, "p2", Resign())
    dealt2 = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt2.hands[1] == () and dealt2.hands[0] and dealt2.hands[2]
    assert state.game_state.phase == "play" and 1 not in state.game_state.turn_seats()
