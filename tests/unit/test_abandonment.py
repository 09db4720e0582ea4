"""Abandonment after ``grace_s`` and seats handed to computer players (docs/architecture.md
"Abandonment", docs/audit.md "Clocks"): what an abandoned seat means is each game's rule."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from contracts.match import (
    ClaimAbandon,
    ClaimTimeout,
    CreateMatch,
    MatchEnded,
    OfferDraw,
    Outcome,
    SeatAbandoned,
    SeatHandedToBot,
    TimeControl,
    TimedOut,
)
from domain.core import match as match_layer
from domain.games import registry
from tests.unit.test_clocks import T0, UGOLKI, Match, create

FORFEIT = TimeControl(base_s=600, grace_s=5, on_timeout="forfeit")
BOT_HASH = "b" * 64


def abandon(m: Match, seat: str, at: int | None = None):
    due = match_layer.abandon_deadline(m.state, seat)
    assert due is not None
    at = due if at is None else at
    return m.decide(None, ClaimAbandon(seat=seat, deadline=due, at=at, bot_token_hash=BOT_HASH), at)


def test_grace_counts_only_the_time_a_seat_is_to_move_since_its_own_last_command() -> None:
    m = Match(tc=FORFEIT)
    assert match_layer.abandon_deadline(m.state, "white") == T0 + 5_000
    assert match_layer.abandon_deadline(m.state, "black") is None  # not to move
    m.play(T0 + 3_000)  # white's move: white is present again
    assert match_layer.abandon_deadline(m.state, "black") == T0 + 3_000 + 5_000
    m.play(T0 + 4_000)
    assert match_layer.abandon_deadline(m.state, "white") == T0 + 4_000 + 5_000
    # The opponent's draw offer is not white's sign of life: white's idle time keeps growing.
    assert not isinstance(m.decide("black", OfferDraw(), T0 + 6_000), Rejected)
    assert match_layer.abandon_deadline(m.state, "white") == T0 + 4_000 + 5_000
    # White's own command (declining, here offering back is refused) resets it.
    from contracts.match import DeclineDraw

    assert not isinstance(m.decide("white", DeclineDraw(), T0 + 7_000), Rejected)
    assert match_layer.abandon_deadline(m.state, "white") == T0 + 7_000 + 5_000
    view = match_layer.view(UGOLKI, m.state, None, "m", m.folded.seq)
    assert view.clock is not None and view.clock.abandon_at == (T0 + 12_000, 0)


def test_ugolki_abandoned_seat_loses_and_an_early_claim_is_refused() -> None:
    """ugolki.md has no abandonment rule: like a timeout, the seat that is gone loses."""
    m = Match(tc=FORFEIT)
    early = abandon(m, "white", at=T0 + 4_999)
    assert isinstance(early, Rejected) and early.code == "not_due"
    wrong = m.decide(None, ClaimAbandon(seat="white", deadline=T0 + 4_000, at=T0 + 6_000), T0 + 6_000)
    assert isinstance(wrong, Rejected) and wrong.code == "not_due"
    by_seat = m.decide("black", ClaimAbandon(seat="white", deadline=T0 + 5_000, at=T0 + 6_000), T0 + 6_000)
    assert isinstance(by_seat, Rejected) and by_seat.code == "not_a_seat"
    events = abandon(m, "white", at=T0 + 5_100)
    assert not isinstance(events, Rejected)
    assert events == (
        SeatAbandoned(seat="white", deadline=T0 + 5_000, at=T0 + 5_100),
        MatchEnded(outcome=Outcome(ranks=(2, 1), reason="abandoned")),
    )


def test_no_grace_no_abandonment() -> None:
    m = Match(tc=TimeControl(base_s=60))
    assert match_layer.abandon_deadline(m.state, "white") is None
    refused = m.decide(None, ClaimAbandon(seat="white", deadline=T0 + 1, at=T0 + 10**6), T0 + 10**6)
    assert isinstance(refused, Rejected) and refused.code == "not_due"


def test_king_abandon_aborts_the_match_with_no_ranks_by_k16() -> None:
    """king.md §12.3 ABANDON and Decision K16: status aborted, the finished deals' scores kept,
    no ranks (never rated)."""
    king = registry.get("king")
    m = Match(king, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"))
    seat = match_layer.to_move(king, m.state)[0]
    events = abandon(m, seat)
    assert not isinstance(events, Rejected), events
    assert isinstance(events[0], SeatAbandoned)
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.outcome.ranks == () and ended.outcome.reason.startswith("aborted")
    assert ended.outcome.scores == (0.0, 0.0, 0.0, 0.0)


def test_king_timeouts_auto_act_but_do_not_keep_a_gone_seat_present() -> None:
    """§12.3 TIMEOUT auto-acts (they are not the seat's commands): a seat the referee keeps
    auto-acting for is still abandoned after grace_s, as Q18 asks ("abort after N misses")."""
    king = registry.get("king")
    m = Match(king, tc=TimeControl(move_s=2, grace_s=5, on_timeout="forfeit"))
    seat = match_layer.to_move(king, m.state)[0]
    due = match_layer.deadline(m.state, seat)
    assert due == T0 + 2_000
    events = m.decide(None, ClaimTimeout(seat=seat, deadline=due, at=due), due)
    assert not isinstance(events, Rejected) and m.state.outcome is None
    clock = m.state.clock
    assert clock is not None and clock.idle_ms[m.state.created.seats.index(seat)] == 2_000


def test_kings_corner_abandoned_seat_resigns_by_d3() -> None:
    """kings-corner.md §5.4 RESIGN meta action with Decision D3: in a two-seat match the
    abandoned seat's resignation ends the match, the seat last."""
    kc = registry.get("kings-corner")
    m = Match(kc, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=2)
    seat = match_layer.to_move(kc, m.state)[0]
    expected = kc.resign(m.state.game_state, seat)
    events = abandon(m, seat)
    assert not isinstance(events, Rejected), events
    assert tuple(events[1 : 1 + len(expected)]) == expected
    assert m.state.outcome is not None
    assert m.state.outcome.ranks[m.state.created.seats.index(seat)] == 2


def test_kings_corner_abandoned_seat_with_three_seats_leaves_the_others_playing() -> None:
    """Decision D3: with three seats, the match goes on for the other two."""
    kc = registry.get("kings-corner")
    m = Match(kc, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=3)
    seat = match_layer.to_move(kc, m.state)[0]
    events = abandon(m, seat)
    assert not isinstance(events, Rejected), events
    assert m.state.outcome is None


@pytest.mark.parametrize("name", ["thousand", "farkle-flip"])
def test_games_without_an_abandonment_rule_rank_the_seat_last(name: str) -> None:
    """The set-up asks every seat at once: one answers, the others stay silent and reach their
    grace together, so they share the last place (tests/unit/test_abandonment_places.py)."""
    game = registry.get(name)
    assert game.abandon is None
    m = Match(game, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"))
    first, *silent = match_layer.to_move(game, m.state)
    answer = game.legal_commands(m.state.game_state, first)[0]
    assert not isinstance(m.decide(first, answer, T0 + 1_000), Rejected)
    seat = silent[0]
    events = abandon(m, seat)
    assert not isinstance(events, Rejected), events
    ranks = m.state.outcome.ranks
    assert m.state.outcome.reason == "abandoned"
    by_seat = dict(zip(m.state.created.seats, ranks, strict=True))
    assert by_seat[first] == 1
    assert {by_seat[s] for s in silent} == {2}


def test_a_casual_timed_out_seat_is_handed_to_a_computer_player_and_the_match_goes_on() -> None:
    m = Match(tc=TimeControl(base_s=2, increment_s=1, on_timeout="bot"))
    m.play(T0 + 500)  # white; black never moves
    due = match_layer.deadline(m.state, "black")
    assert due == T0 + 2_500
    missing = m.decide(None, ClaimTimeout(seat="black", deadline=due, at=due), due)
    assert isinstance(missing, Rejected) and missing.code == "malformed"
    events = m.decide(None, ClaimTimeout(seat="black", deadline=due, at=due, bot_token_hash=BOT_HASH), due)
    assert events == (
        TimedOut(seat="black", deadline=due, at=due),
        SeatHandedToBot(seat="black", strength=UGOLKI.default_bot, token_hash=BOT_HASH),
    )
    assert m.state.outcome is None
    assert match_layer.seat_token_hash(m.state, "black") == BOT_HASH
    assert match_layer.seat_token_hash(m.state, "white") == "a" * 64
    # The computer player starts with a fresh clock, and the move is still black's.
    assert match_layer.deadline(m.state, "black") == due + 2_000
    view = match_layer.view(UGOLKI, m.state, "black", "m", m.folded.seq)
    assert view.clock is not None and view.clock.bots == ("black",) and view.legal_moves
    m.play(due + 100)
    # A computer player that times out in turn forfeits: a seat is handed over once.
    m.play(due + 200)
    late = match_layer.deadline(m.state, "black")
    assert late is not None
    events = m.decide(None, ClaimTimeout(seat="black", deadline=late, at=late), late)
    assert not isinstance(events, Rejected) and m.state.outcome == Outcome(ranks=(1, 2), reason="timeout")


def test_a_casual_abandoned_seat_is_handed_over_too() -> None:
    m = Match(tc=TimeControl(base_s=600, grace_s=3, on_timeout="bot"))
    events = abandon(m, "white")
    assert not isinstance(events, Rejected)
    assert [type(e) for e in events] == [SeatAbandoned, SeatHandedToBot]
    assert match_layer.abandon_deadline(m.state, "white") == T0 + 3_000 + 3_000


def test_a_ranked_match_always_forfeits() -> None:
    tc = TimeControl(base_s=60, on_timeout="bot")
    ranked = CreateMatch(**{**_fields(create(tc=tc)), "ranked": True})
    refused = match_layer.decide(UGOLKI, None, None, ranked)
    assert isinstance(refused, Rejected) and refused.code == "invalid_time_control"
    # Even a ranked match recorded with no choice ("") forfeits: no handover.
    m = Match(tc=TimeControl(base_s=2))
    assert not match_layer.hands_to_bot(m.state, "white")


@pytest.mark.parametrize(
    "tc",
    [
        TimeControl(base_s=60, grace_s=-1),
        TimeControl(base_s=60, on_timeout="pause"),
        TimeControl(grace_s=5),
        TimeControl(base_s=float("nan"), move_s=5),
        TimeControl(move_s=5, grace_s=float("inf")),
    ],
)
def test_bad_grace_or_on_timeout_is_refused(tc: TimeControl) -> None:
    refused = match_layer.decide(UGOLKI, None, None, create(tc=tc))
    assert isinstance(refused, Rejected) and refused.code == "invalid_time_control"


def _fields(cmd: CreateMatch) -> dict:
    return {f: getattr(cmd, f) for f in cmd.__struct_fields__}
