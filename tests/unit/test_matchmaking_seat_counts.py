"""A queue for a seat count its preset cannot play is refused at join (``unplayable_seats``),
ranked or not: such a table would form and never become a match.  The counts come from the
game's own declaration (``domain.core.match.playable_seats``)."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from contracts.matchmaking import MATCHMAKING_REJECTION_CODES, JoinQueue, Queued
from domain.core.match import playable_seats
from domain.games import registry
from services.gateway.errors import QUEUE_REFUSALS, ROUTE_ERRORS, Malformed
from services.matchmaking.app import Matchmaker, seat_counts


def test_the_seat_counts_a_preset_plays_are_the_games_declaration() -> None:
    king, thousand, corner = registry.GAMES["king"], registry.GAMES["thousand"], registry.GAMES["kings-corner"]
    assert playable_seats(king, "king-4p-classic") == (4,)
    assert playable_seats(king, "king-3p") == (3,)
    assert playable_seats(thousand, "classic") == (3,)
    assert playable_seats(thousand, "CLASSIC") == (3,)  # an alias is its preset
    assert playable_seats(thousand, "classic-4p-sitout") == (4,)
    assert playable_seats(corner, "cardgames-zone") == (2, 3, 4)
    assert playable_seats(king, "no-such-preset") is None


@pytest.mark.parametrize("ranked", [True, False])
def test_a_four_seat_king_preset_is_refused_for_three_seats_at_join(ranked: bool) -> None:
    mm = Matchmaker()
    three = JoinQueue(player="ann", game="king", preset="king-4p-classic", seats=3, ranked=ranked)
    refused = mm.join(three, 1500.0, 0)
    assert isinstance(refused, Rejected) and refused.code == "unplayable_seats"
    assert refused.detail == "Classic King is played with 4 seats, not 3"
    four = JoinQueue(player="ann", game="king", preset="king-4p-classic", seats=4, ranked=ranked)
    assert isinstance(mm.join(four, 1500.0, 0), Queued)
    assert isinstance(mm.join(JoinQueue(player="ann", game="king", preset="king-3p", seats=3), 1500.0, 0), Queued)


@pytest.mark.parametrize(
    ("game", "preset", "seats", "ok"),
    [
        ("thousand", "classic", 3, True),
        ("thousand", "classic", 4, False),
        ("thousand", "classic-4p-sitout", 4, True),
        ("thousand", "classic-4p-sitout", 3, False),
        ("kings-corner", "cardgames-zone", 4, True),
        ("kings-corner", "cardgames-zone", 5, False),
        ("kings-corner", "pagat-classic", 5, True),
        ("farkle-flip", "farkle-flip-placeholder-party-5000", 5, False),
        ("farkle-flip", "farkle-flip-placeholder-party-5000", 6, True),
        ("ugolki", "mini-3x3", 3, False),
        # a preset the game does not know is held to the game's own seat counts
        ("ugolki", "no-such-preset", 2, True),
        ("ugolki", "no-such-preset", 4, False),
    ],
)
def test_every_game_refuses_the_counts_its_preset_does_not_play(game: str, preset: str, seats: int, ok: bool) -> None:
    reply = Matchmaker().join(JoinQueue(player="ann", game=game, preset=preset, seats=seats), 1500.0, 0)
    if ok:
        assert isinstance(reply, Queued)
    else:
        assert isinstance(reply, Rejected) and reply.code == "unplayable_seats"
        assert f"not {seats}" in reply.detail


def test_the_computer_table_and_invites_are_held_to_the_same_counts() -> None:
    mm = Matchmaker()
    for extra in ({"vs_computer": True}, {"invite": "K1"}, {"bots_ok": True}):
        join = JoinQueue(player="ann", game="king", preset="king-4p-classic", seats=3, **extra)  # type: ignore[arg-type]
        refused = mm.join(join, 1500.0, 0)
        assert isinstance(refused, Rejected) and refused.code == "unplayable_seats", extra


def test_the_refusal_is_declared_and_answered_400_by_the_gateway() -> None:
    assert "unplayable_seats" in MATCHMAKING_REJECTION_CODES
    assert QUEUE_REFUSALS["unplayable_seats"] is Malformed
    assert "unplayable_seats" in ROUTE_ERRORS["POST /api/queue"][400]


def test_seat_counts_in_words() -> None:
    assert [seat_counts(c) for c in ((4,), (3, 4), (2, 3, 4, 5), (2, 4, 6), ())] == ["4", "3 or 4", "2-5", "2, 4 or 6", "no"]
