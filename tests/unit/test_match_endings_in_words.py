"""The match layer's own endings in words (``outcome_text``): abandonment of several seats or of
nobody, and the fallback for a game that words none of its reasons (docs/audit.md "Abandoned
matches"; ``Decider.end_text``)."""

from __future__ import annotations

import dataclasses

import msgspec

from contracts.match import ClaimTimeout, ExpireIdle, Outcome, Resign, TimeControl
from domain.core import match as match_layer
from domain.games import registry
from tests.unit.test_clocks import T0, Match
from tests.unit.test_draw_offers_and_views import SEED, _fold
from tests.unit.test_rules_in_words import _created

KC = registry.get("kings-corner")
UGOLKI = registry.get("ugolki")
# A game that words none of its endings: the match layer shows the reason code as it is.
WORDLESS = dataclasses.replace(UGOLKI, end_text=None)
HOUR = 3_600_000


def _kings_corner(players: tuple[str, ...]) -> match_layer.MatchState:
    return _fold(KC, None, match_layer.decide(KC, None, None, _created(KC, players)))


def _expire(state: match_layer.MatchState) -> match_layer.MatchState:
    expire = ExpireIdle(last_decision_at=0, at=HOUR, limit_ms=HOUR)
    return _fold(KC, state, match_layer.decide(KC, state, None, expire, SEED))


def _started_wordless() -> match_layer.MatchState:
    return _fold(WORDLESS, None, match_layer.decide(WORDLESS, None, None, _created(WORDLESS, ("ann", "bob"))))


def test_two_seats_that_stopped_playing_are_named_together() -> None:
    """The seats that were to move rank last; the sentence names both, joined in its language."""
    state = _kings_corner(("ann", "bob", "cid"))
    ready = KC.legal_commands(state.game_state, "p1")[0]
    state = _fold(KC, state, match_layer.decide(KC, state, "p1", ready, SEED))
    state = _expire(state)
    assert state.outcome == Outcome(ranks=(1, 2, 2), reason="abandoned")
    assert match_layer.outcome_text(KC, state) == (
        "ann (p1) wins: bob (p2) and cid (p3) stopped playing (no move in time)."
    )
    assert match_layer.outcome_text(KC, state, "ru") == (
        "Побеждает ann (p1): игроки bob (p2) и cid (p3) перестали играть (не сделали ход вовремя)."
    )


def test_when_every_seat_was_to_move_nobody_is_blamed_in_words() -> None:
    state = _expire(_kings_corner(("ann", "bob")))
    assert state.outcome is not None and state.outcome.draw
    assert match_layer.outcome_text(KC, state) == "Draw: nobody moved for too long."
    assert match_layer.outcome_text(KC, state, "ru") == "Ничья: слишком долго никто не делал ход."


def test_a_resignation_is_worded_by_the_match_layer_whatever_the_game_says() -> None:
    state = _started_wordless()
    state = _fold(WORDLESS, state, match_layer.decide(WORDLESS, state, "black", Resign()))
    assert match_layer.outcome_text(WORDLESS, state) == "ann (white) wins: bob (black) resigned."


def test_a_game_without_words_shows_its_reason_code_as_words() -> None:
    state = _started_wordless()
    ended = msgspec.structs.replace(state, outcome=Outcome(ranks=(1, 2), reason="home_reached"))
    assert match_layer.outcome_text(WORDLESS, ended) == "ann (white) wins: home reached."
    silent = msgspec.structs.replace(state, outcome=Outcome(ranks=(1, 2)))
    assert match_layer.outcome_text(WORDLESS, silent) == "ann (white) wins: the match is over."
    assert match_layer.outcome_text(WORDLESS, silent, "ru") == "Побеждает ann (белые): партия окончена."


def test_a_match_that_ranks_nobody_names_no_winner() -> None:
    """An outcome without ranks (King's K16: an aborted match) has no winner to name."""
    state = _started_wordless()
    aborted = msgspec.structs.replace(state, outcome=Outcome(ranks=(), reason="aborted"))
    assert match_layer.outcome_text(WORDLESS, aborted) == "Game over: aborted."
    assert match_layer.outcome_text(WORDLESS, aborted, "ru") == "Игра окончена: aborted."


def test_a_seat_out_of_time_is_named_in_words() -> None:
    m = Match(tc=TimeControl(base_s=2))
    assert m.decide(None, ClaimTimeout(seat="white", deadline=T0 + 2_000, at=T0 + 2_000), T0 + 2_000)
    assert (
        match_layer.outcome_text(UGOLKI, m.state) == "p-black (black) wins: p-white (white) ran out of time."
    )
    assert match_layer.outcome_text(UGOLKI, m.state, "ru") == (
        "Побеждает p-black (чёрные): у игрока p-white (белые) кончилось время."
    )


def test_a_player_is_named_once_when_the_name_is_the_seat_or_missing() -> None:
    state = _fold(UGOLKI, None, match_layer.decide(UGOLKI, None, None, _created(UGOLKI, ("white", ""))))
    assert match_layer.seat_names_in_words(state) == {"white": "white", "black": "black"}
    state = _fold(UGOLKI, None, match_layer.decide(UGOLKI, None, None, _created(UGOLKI, ("ann", "bob"))))
    assert match_layer.seat_names_in_words(state) == {"white": "ann (white)", "black": "bob (black)"}
    # in Russian the seat that is a word is said in Russian (p1-style seats stay ids)
    assert match_layer.seat_names_in_words(state, "ru") == {"white": "ann (белые)", "black": "bob (чёрные)"}


def test_two_seats_sharing_first_place_are_named_together() -> None:
    state = _kings_corner(("ann", "bob", "cid"))
    for seat in ("p1", "p3"):
        ready = KC.legal_commands(state.game_state, seat)[0]
        state = _fold(KC, state, match_layer.decide(KC, state, seat, ready, SEED))
    state = _expire(state)
    assert state.outcome == Outcome(ranks=(1, 2, 1), reason="abandoned")
    assert match_layer.outcome_text(KC, state) == (
        "ann (p1) and cid (p3) share first place: bob (p2) stopped playing (no move in time)."
    )
    assert match_layer.outcome_text(KC, state, "ru") == (
        "ann (p1) и cid (p3) делят первое место: игрок bob (p2) перестал играть (не сделал ход вовремя)."
    )
