"""The match layer's creation and its refusals, code by code (domain/core/match.py; found untested by
mutation testing, docs/testing.md)."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.match import CreateMatch, MatchCreated, Resign
from domain.core import match as match_layer
from domain.games import registry

UGOLKI = registry.get("ugolki")
KC = registry.get("kings-corner")


def create(game=UGOLKI, **changes: object) -> CreateMatch:  # type: ignore[no-untyped-def]
    seats = game.seat_names(game.min_seats)
    base = CreateMatch(
        preset=game.default_preset,
        ruleset=msgspec.to_builtins(game.presets[game.default_preset].ruleset),
        seats=seats,
        players=tuple(f"player {s}" for s in seats),
        token_hashes=tuple("0" * 64 for _ in seats),
        seed_commitment="c" * 64 if game.chance else "",
    )
    return msgspec.structs.replace(base, **changes)


def refused(command: CreateMatch, game=UGOLKI) -> Rejected:  # type: ignore[no-untyped-def]
    result = match_layer.decide(game, None, None, command)
    assert isinstance(result, Rejected), result
    assert result.detail, result
    return result


def test_the_ruleset_hash_is_the_sha256_of_the_sorted_canonical_json() -> None:
    ruleset = {"b": 1, "a": [1, 2]}
    assert match_layer.ruleset_hash(ruleset) == hashlib.sha256(b'{"a":[1,2],"b":1}').hexdigest()
    created = match_layer.decide(UGOLKI, None, None, create())
    assert isinstance(created, tuple) and isinstance(created[0], MatchCreated)
    assert created[0].ruleset_hash == match_layer.ruleset_hash(created[0].ruleset)
    assert created[0].rules_version == UGOLKI.rules_version and created[0].game == "ugolki"


@pytest.mark.parametrize(
    ("changes", "code", "words"),
    [
        ({"preset": "nope"}, "unknown_preset", "no preset 'nope'"),
        ({"seats": ("white", "white")}, "invalid_seats", "distinct"),
        ({"players": ("ann",)}, "invalid_seats", "one player"),
        ({"token_hashes": ("0" * 64,)}, "invalid_seats", "one token"),
        ({"seats": ("black", "white")}, "invalid_seats", "seats must be ['white', 'black']"),
        ({"seats": ("white",), "players": ("ann",), "token_hashes": ("0" * 64,)}, "invalid_seats", "2-2 seats"),
        ({"guests": ("green",)}, "invalid_seats", "guests"),
        ({"guests": ("white", "white")}, "invalid_seats", "guests"),
        ({"ruleset": {"board": "big"}}, "invalid_ruleset", "board"),
        ({"ruleset": {"board": 16}}, "invalid_ruleset", "16"),
    ],
)
def test_each_bad_creation_is_refused_with_its_code(changes: dict, code: str, words: str) -> None:
    result = refused(create(**changes))
    assert result.code == code and words in result.detail, result


def test_every_seat_may_be_a_guest_and_a_helper_is_never_ranked() -> None:
    created = match_layer.decide(UGOLKI, None, None, create(guests=("white", "black"), ranked=True))
    assert isinstance(created, tuple) and created[0].guests == ("white", "black") and created[0].ranked
    unranked = match_layer.decide(UGOLKI, None, None, create(ranked=False))
    assert isinstance(unranked, tuple) and not unranked[0].ranked


def test_a_game_with_chance_needs_a_seed_commitment() -> None:
    result = refused(create(KC, seed_commitment=""), KC)
    assert result.code == "invalid_seed" and "seed commitment" in result.detail


def test_commands_outside_a_running_match_are_refused_with_their_codes() -> None:
    created = match_layer.decide(UGOLKI, None, None, create())
    assert isinstance(created, tuple)
    state = match_layer.evolve(UGOLKI, None, created[0])
    again = match_layer.decide(UGOLKI, state, None, create())
    assert isinstance(again, Rejected) and again.code == "match_exists" and again.detail
    missing = match_layer.decide(UGOLKI, None, "white", Resign())
    assert isinstance(missing, Rejected) and missing.code == "match_not_found" and missing.detail
    stranger = match_layer.decide(UGOLKI, state, "green", Resign())
    assert isinstance(stranger, Rejected) and stranger.code == "not_a_seat" and "white" in stranger.detail


def _started():  # type: ignore[no-untyped-def]
    created = match_layer.decide(UGOLKI, None, None, create())
    assert isinstance(created, tuple)
    return match_layer.evolve(UGOLKI, None, created[0])


def test_the_match_view_shows_the_match_and_the_viewers_moves() -> None:
    state = _started()
    view = match_layer.view(UGOLKI, state, "white", "m1", 1)
    assert (view.match_id, view.game, view.preset, view.rules_version) == (
        "m1",
        "ugolki",
        UGOLKI.default_preset,
        UGOLKI.rules_version,
    )
    assert view.seats == ("white", "black") and view.players == ("player white", "player black")
    assert (view.viewer, view.seq, view.to_move, view.status) == ("white", 1, ("white",), "running")
    assert view.ruleset == state.created.ruleset and view.outcome is None and view.draw_offer is None
    assert view.game_view == UGOLKI.view(state.game_state, "white")
    assert [m.command for m in view.legal_moves] == list(UGOLKI.legal_commands(state.game_state, "white"))
    assert match_layer.view(UGOLKI, state, "black", "m1", 1).legal_moves == ()


def test_decide_and_evolve_equals_decide_then_evolve_through_draws_and_resignation() -> None:
    """The referee's hot path gives the events and the state that decide and evolve give."""
    from contracts.match import AcceptDraw, DeclineDraw, OfferDraw

    state = _started()
    script = [
        ("white", OfferDraw()),
        ("black", DeclineDraw()),
        ("white", UGOLKI.legal_commands(state.game_state, "white")[0]),
        ("black", OfferDraw()),
        ("white", AcceptDraw()),
    ]
    slow = fast = state
    for seat, command in script:
        events = match_layer.decide(UGOLKI, slow, seat, command)
        assert isinstance(events, tuple), (seat, command, events)
        for event in events:
            slow = match_layer.evolve(UGOLKI, slow, event)
        decided = match_layer.decide_and_evolve(UGOLKI, fast, seat, command)
        assert isinstance(decided, tuple)
        assert decided[0] == events and decided[1] == slow
        fast = decided[1]
    assert slow.outcome is not None and slow.outcome.draw and slow.outcome.reason == "draw agreed"
    assert slow.outcome.ranks == (1, 1)
    resigned = match_layer.decide_and_evolve(UGOLKI, state, "black", Resign())
    assert isinstance(resigned, tuple) and resigned[1].outcome is not None
    assert resigned[1].outcome.ranks == (1, 2) and resigned[1].outcome.reason == "resignation"
    over = match_layer.decide_and_evolve(UGOLKI, slow, "white", Resign())
    assert isinstance(over, Rejected) and over.code == "match_over"


def test_the_match_layer_states_each_refusal_in_words() -> None:
    """The detail of every match-level refusal, as a client shows it."""
    from contracts.match import AcceptDraw, DeclineDraw, OfferDraw

    state = _started()

    def detail(state, seat, command) -> str:  # type: ignore[no-untyped-def]
        result = match_layer.decide(UGOLKI, state, seat, command)
        assert isinstance(result, Rejected), result
        return f"{result.code}: {result.detail}"

    assert detail(state, None, create()) == "match_exists: the match already exists"
    assert detail(None, "white", Resign()) == "match_not_found: no such match"
    assert detail(state, "green", Resign()) == "not_a_seat: seat must be one of ['white', 'black']"
    assert detail(state, "white", AcceptDraw()) == "no_draw_offer: there is no draw offer for you to accept"
    assert detail(state, "white", DeclineDraw()) == "no_draw_offer: there is no draw offer for you to decline"
    offered = match_layer.evolve(UGOLKI, state, match_layer.decide(UGOLKI, state, "white", OfferDraw())[0])  # type: ignore[index]
    assert detail(offered, "black", OfferDraw()) == "draw_already_offered: white has offered a draw already"
    assert detail(offered, "white", AcceptDraw()) == "no_draw_offer: there is no draw offer for you to accept"
    ended = match_layer.decide_and_evolve(UGOLKI, state, "white", Resign())
    assert isinstance(ended, tuple)
    assert detail(ended[1], "black", Resign()) == "match_over: the match is over"
    assert detail(None, None, create(preset="x")) == "unknown_preset: ugolki has no preset 'x'"
