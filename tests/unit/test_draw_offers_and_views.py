"""Draw offers at a table of three (every seat must agree) and what the match view shows of the
match layer: the pending offer, the game's view in the viewer's language."""

from __future__ import annotations

import dataclasses

import pytest

from contracts.envelope import Rejected
from contracts.match import AcceptDraw, DeclineDraw, DrawAccepted, MatchEnded, OfferDraw, Resign, Resigned
from domain.core import match as match_layer
from domain.games import registry
from tests.unit.test_rules_in_words import _created

KC = registry.get("kings-corner")
UGOLKI = registry.get("ugolki")
SEED = b"\x05" * 32


def _fold(game, state, events):  # type: ignore[no-untyped-def]
    assert isinstance(events, tuple), events
    for event in events:
        state = match_layer.evolve(game, state, event, SEED if game.chance else None)
    return state


def _started(game, players):  # type: ignore[no-untyped-def]
    return _fold(game, None, match_layer.decide(game, None, None, _created(game, players)))


def test_a_draw_at_a_table_of_three_needs_every_seat_to_agree() -> None:
    state = _started(KC, ("ann", "bob", "cid"))
    state = _fold(KC, state, match_layer.decide(KC, state, "p1", OfferDraw(), SEED))
    first = match_layer.decide(KC, state, "p2", AcceptDraw(), SEED)
    assert first == (DrawAccepted(seat="p2"),)  # one of two: the match goes on
    state = _fold(KC, state, first)
    assert state.draw_agreed == ("p2",) and state.outcome is None
    again = match_layer.decide(KC, state, "p2", AcceptDraw(), SEED)
    assert isinstance(again, Rejected) and again.code == "no_draw_offer"
    last = match_layer.decide(KC, state, "p3", AcceptDraw(), SEED)
    assert isinstance(last, tuple) and isinstance(last[1], MatchEnded)
    assert last[1].outcome.draw and last[1].outcome.ranks == (1, 1, 1)
    state = _fold(KC, state, last)
    assert match_layer.outcome_text(KC, state) == "Draw: every player agreed to a draw."


def test_the_view_shows_who_offered_a_draw() -> None:
    state = _started(UGOLKI, ("ann", "bob"))
    assert match_layer.view(UGOLKI, state, "black", "m", 1).draw_offer is None
    state = _fold(UGOLKI, state, match_layer.decide(UGOLKI, state, "white", OfferDraw()))
    assert match_layer.view(UGOLKI, state, "black", "m", 2).draw_offer == "white"


def test_the_game_view_is_given_in_the_viewers_language() -> None:
    """``Decider.view_in``: the view with its sentences in ``lang`` (Ugolki's warnings)."""
    seen = []

    def view_in(state, viewer, lang):  # type: ignore[no-untyped-def]
        seen.append((viewer, lang))
        return UGOLKI.view(state, viewer)

    game = dataclasses.replace(UGOLKI, view_in=view_in)
    state = _started(game, ("ann", "bob"))
    view = match_layer.view(game, state, "white", "m", 1, "ru")
    assert seen == [("white", "ru")] and view.game_view == UGOLKI.view(state.game_state, "white")


def test_a_declined_offer_clears_the_acceptances_given_so_far() -> None:
    state = _started(KC, ("ann", "bob", "cid"))
    state = _fold(KC, state, match_layer.decide(KC, state, "p1", OfferDraw(), SEED))
    state = _fold(KC, state, match_layer.decide(KC, state, "p2", AcceptDraw(), SEED))
    state = _fold(KC, state, match_layer.decide(KC, state, "p3", DeclineDraw(), SEED))
    assert state.draw_offer is None and state.draw_agreed == ()


def test_an_event_before_the_match_was_created_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="^event Resigned before MatchCreated$"):
        match_layer.evolve(UGOLKI, None, Resigned(seat="white"))


def test_each_seat_sees_its_own_cards_in_the_game_view() -> None:
    """Hidden information: the match view gives the game's view for its viewer, never the
    spectator's to a seat (nor a seat's to anyone else)."""
    state = _started(KC, ("ann", "bob"))
    for seat in ("p1", "p2"):
        ready = KC.legal_commands(state.game_state, seat)[0]
        state = _fold(KC, state, match_layer.decide(KC, state, seat, ready, SEED))
    mine = match_layer.view(KC, state, "p1", "m", 3).game_view
    assert mine == KC.view(state.game_state, "p1")
    assert mine != KC.view(state.game_state, None)
    assert match_layer.view(KC, state, None, "m", 3).game_view == KC.view(state.game_state, None)


def test_the_view_says_whether_the_match_runs_or_is_finished() -> None:
    state = _started(UGOLKI, ("ann", "bob"))
    assert match_layer.view(UGOLKI, state, None, "m", 1).status == "running"
    state = _fold(UGOLKI, state, match_layer.decide(UGOLKI, state, "black", Resign()))
    view = match_layer.view(UGOLKI, state, None, "m", 2)
    assert view.status == "finished" and view.outcome == state.outcome and view.to_move == ()
