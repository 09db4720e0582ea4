"""The places of an abandonment the game has no rule for (docs/architecture.md "Abandonment"):
every seat that has gone, by the log alone, shares the last place below every seat still
present; when every seat has gone it is a draw.  A seat has gone when it is the claimed seat,
when the platform acted for it (``timed_out.v1``) since its own last command, or when it is
itself past its abandonment deadline.  Older rules versions (thousand-1, farkle-flip-1,
kings-cup-2 and -1) keep the rule they were played under: the claimed seat alone last."""

from __future__ import annotations

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.integration import MatchFinished
from contracts.match import ClaimAbandon, ClaimTimeout, CreateMatch, MatchEnded, Outcome, TimeControl
from domain.core import match as match_layer
from domain.core.matchlog import Folded
from domain.games import registry
from domain.rating.ranked import GLICKO2, model_for, rate_match
from tests.unit.test_clocks import T0, Match

RANKED_1000 = TimeControl(move_s=60, grace_s=180, on_timeout="forfeit")


def run(m: Match, present: set[str], limit: int = 2_000) -> tuple[str, Outcome]:
    """Play ``m`` with the seats in ``present`` answering at once (their first legal command, a
    second after they are to move) and every other seat silent: its clock's claims are decided
    when due (a timeout auto-acts for it; the first abandonment due ends the match).  Returns
    the abandoned seat and the outcome."""
    game = m.game
    at = T0
    abandoned = ""
    for _ in range(limit):
        if m.state.outcome is not None:
            break
        running = match_layer.to_move(game, m.state)
        here = [s for s in running if s in present]
        if here:
            seat = here[0]
            at += 1_000
            command = game.legal_commands(m.state.game_state, seat)[0]
            assert not isinstance(m.decide(seat, command, at), Rejected)
            continue
        # Only silent seats are to move: the earliest claim against one of them.
        claims = []
        for s in running:
            due = match_layer.abandon_deadline(m.state, s)
            if due is not None:
                claims.append((due, 0, s))
            timeout = match_layer.deadline(m.state, s)
            if timeout is not None:
                claims.append((timeout, 1, s))
        due, kind, seat = min(claims)
        at = max(at, due)
        if kind == 0:
            command = ClaimAbandon(seat=seat, deadline=due, at=at)
            abandoned = seat
        else:
            command = ClaimTimeout(seat=seat, deadline=due, at=at)
        assert not isinstance(m.decide(None, command, at), Rejected)
    assert m.state.outcome is not None, "the match did not end"
    return abandoned, m.state.outcome


class PresetMatch(Match):
    """``Match`` of a named preset."""

    def __init__(self, game, preset: str, tc: TimeControl, seats: int) -> None:  # noqa: ANN001
        self.game = game
        self.seed = b"\x07" * 32 if game.chance else None
        self.folded = Folded()
        ruleset = match_layer.resolve_ruleset(game, preset, {}, seats)
        assert not isinstance(ruleset, Rejected), ruleset
        names = game.seat_names(seats)
        create = CreateMatch(
            preset=preset,
            ruleset=msgspec.to_builtins(ruleset),
            seats=names,
            players=tuple(f"p-{s}" for s in names),
            token_hashes=tuple("a" * 64 for _ in names),
            seed_commitment="c" * 64 if game.chance else "",
            time_control=tc,
        )
        assert not isinstance(self.decide(None, create, T0), Rejected)


def places(m: Match, outcome: Outcome) -> dict[str, int]:
    return dict(zip(m.state.created.seats, outcome.ranks, strict=True))


# ------------------------------------------------------------------ two seats


def test_two_seats_the_abandoned_seat_loses_the_present_one_wins() -> None:
    ugolki = registry.get("ugolki")
    m = Match(ugolki, tc=TimeControl(base_s=600, grace_s=5, on_timeout="forfeit"))
    seat, outcome = run(m, present={"black"})
    assert seat == "white" and places(m, outcome) == {"white": 2, "black": 1}
    assert not outcome.draw and outcome.reason == "abandoned"


def test_two_seats_both_gone_in_the_same_way_is_a_draw() -> None:
    """Farkle Flip's set-up asks both seats at once: neither answers, both reach their grace at
    the same stamp, and the first claim decided no longer makes the other the winner."""
    farkle = registry.get("farkle-flip")
    m = Match(farkle, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=2)
    seat, outcome = run(m, present=set())
    assert seat == "p1" and outcome.ranks == (1, 1) and outcome.draw and outcome.reason == "abandoned"


# ------------------------------------------------------------------ three seats (1000)


def test_three_seats_one_gone_ranks_last_the_two_present_share_first() -> None:
    thousand = registry.get("thousand")
    m = Match(thousand, tc=RANKED_1000)
    seat, outcome = run(m, present={"p1", "p2"})
    assert seat == "p3" and places(m, outcome) == {"p1": 1, "p2": 1, "p3": 3}


def test_three_seats_two_gone_share_last_place() -> None:
    """The second silent seat was timed out (auto-acted) when the first reached its grace: it
    has gone as well, so both are last, together, and the present seat wins alone."""
    thousand = registry.get("thousand")
    m = Match(thousand, tc=RANKED_1000)
    seat, outcome = run(m, present={"p1"})
    assert seat in {"p2", "p3"}
    clock = m.state.clock
    assert clock is not None and set(clock.timed_out) | {seat} == {"p2", "p3"}
    assert places(m, outcome) == {"p1": 1, "p2": 2, "p3": 2} and not outcome.draw


def test_three_seats_all_gone_nobody_wins_a_rated_place() -> None:
    """The issue's match: every seat had gone; the first to reach its grace is no longer last
    alone while the other two share a win: nobody is placed above anyone."""
    thousand = registry.get("thousand")
    m = Match(thousand, tc=RANKED_1000)
    # Each seat answers the set-up and then goes: they are all timed out in turn afterwards.
    for seat in ("p1", "p2", "p3"):
        command = thousand.legal_commands(m.state.game_state, seat)[0]
        assert not isinstance(m.decide(seat, command, T0 + 100), Rejected)
    _seat, outcome = run(m, present=set())
    assert outcome.ranks == (1, 1, 1) and outcome.draw


def test_a_seat_that_answers_again_is_present_again() -> None:
    """A seat the platform acted for is gone only until its own next command."""
    thousand = registry.get("thousand")
    m = Match(thousand, tc=TimeControl(move_s=2, grace_s=30, on_timeout="forfeit"))
    at = T0
    while len(match_layer.to_move(thousand, m.state)) > 1:  # the set-up asks every seat at once
        seat = match_layer.to_move(thousand, m.state)[0]
        at += 10
        assert not isinstance(m.decide(seat, thousand.legal_commands(m.state.game_state, seat)[0], at), Rejected)
    (first,) = match_layer.to_move(thousand, m.state)
    due = match_layer.deadline(m.state, first)
    assert due is not None
    assert not isinstance(m.decide(None, ClaimTimeout(seat=first, deadline=due, at=due), due), Rejected)
    assert m.state.clock is not None and m.state.clock.timed_out == (first,)
    # its own command later clears it
    at = due
    for _ in range(20):
        seat = match_layer.to_move(thousand, m.state)[0]
        at += 100
        assert not isinstance(m.decide(seat, thousand.legal_commands(m.state.game_state, seat)[0], at), Rejected)
        if seat == first:
            break
    assert m.state.clock is not None and m.state.clock.timed_out == ()


# ------------------------------------------------------------------ four seats


@pytest.mark.parametrize(
    ("present", "expected"),
    [
        ({"p1", "p2", "p3"}, None),  # one gone: 1, 1, 1, 4 (the gone seat is whoever it is)
        ({"p1", "p2"}, {"p1": 1, "p2": 1, "p3": 3, "p4": 3}),
        ({"p1"}, {"p1": 1, "p2": 2, "p3": 2, "p4": 2}),
    ],
)
def test_four_seats_every_gone_seat_is_below_every_present_one(present: set[str], expected: dict[str, int] | None) -> None:
    thousand = registry.get("thousand")
    m = PresetMatch(thousand, "classic-4p-sitout", RANKED_1000, 4)
    seat, outcome = run(m, present=present)
    got = places(m, outcome)
    if expected is None:
        assert got == {**{s: 1 for s in present}, seat: 4}
    else:
        assert got == expected
    worst_present = max(got[s] for s in present)
    assert all(got[s] > worst_present for s in got if s not in present)


def test_four_seats_in_a_set_up_that_asks_everyone_at_once() -> None:
    """Farkle Flip's set-up: two seats answer, two do not; the two silent seats reach their
    grace at the same stamp and share the last place."""
    farkle = registry.get("farkle-flip")
    m = Match(farkle, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=4)
    _seat, outcome = run(m, present={"p1", "p3"})
    assert places(m, outcome) == {"p1": 1, "p2": 3, "p3": 1, "p4": 3}


# ------------------------------------------------------------------ the older rules versions


@pytest.mark.parametrize(
    ("game", "old"),
    [("thousand", "thousand-1"), ("farkle-flip", "farkle-flip-1"), ("kings-cup", "kings-cup-2"), ("kings-cup", "kings-cup-1")],
)
def test_older_rules_versions_still_decide_as_they_did(game: str, old: str) -> None:
    """A match stored under an older version re-decides as recorded (the audit re-decides every
    stored claim): only the claimed seat last, every other seat first, however gone."""
    new = registry.get(game)
    was = registry.get(game, old)
    assert new.absent_share_last and not was.absent_share_last and new.rules_version != old
    tc = TimeControl(move_s=60, grace_s=10, on_timeout="forfeit")
    m_old, m_new = Match(was, tc=tc), Match(new, tc=tc)
    assert m_old.state.created.rules_version == old
    seat, outcome = run(m_old, present=set())
    n = len(outcome.ranks)
    assert places(m_old, outcome) == {s: (n if s == seat else 1) for s in m_old.state.created.seats}
    _seat, now = run(m_new, present=set())
    assert now.ranks == tuple(1 for _ in range(n)) and now.draw


def test_two_seat_games_without_simultaneous_turns_decide_as_before() -> None:
    """Ugolki, draughts and Tablut keep their version: a two-seat game that asks one seat at a
    time and ends on a timeout can never have a second gone seat at an abandonment, so the rule
    decides every log they can hold exactly as before (their golden logs still audit)."""
    for name in ("ugolki", "draughts", "tablut"):
        game = registry.get(name)
        assert game.absent_share_last and game.timeout is None and game.abandon is None
        m = Match(game, tc=TimeControl(base_s=600, grace_s=5, on_timeout="forfeit"))
        seats = m.state.created.seats
        seat, outcome = run(m, present={seats[1]})
        assert places(m, outcome) == {seats[0]: 2, seats[1]: 1}


# ------------------------------------------------------------------ ratings


def _finished(ranks: tuple[int, ...]) -> MatchFinished:
    players = tuple(f"u{i}" for i in range(len(ranks)))
    return MatchFinished(
        match_id="m-abandoned",
        game="thousand",
        preset="classic",
        rules_version="thousand-2",
        seats=tuple(f"p{i + 1}" for i in range(len(ranks))),
        players=players,
        outcome=Outcome(ranks=ranks, draw=len(set(ranks)) == 1, reason="abandoned"),
        moves=10,
        finished_at=T0,
        last_seq=11,
        ranked=True,
    )


def test_openskill_sees_the_shared_last_place() -> None:
    """Three seats, two gone (1, 2, 2): the two share exactly the same loss, the present seat
    gains; under the old ranks (1, 1, 3) one gone seat would have gained as a winner."""
    applied, after = rate_match(_finished((1, 2, 2)), "s1", "classic", {})
    assert applied.model == model_for(3) != GLICKO2
    assert applied.ranks == (1, 2, 2)
    mu0 = applied.before[0][0]
    assert after["u0"].rating > mu0
    assert after["u1"].rating == after["u2"].rating < mu0
    _, was = rate_match(_finished((1, 1, 3)), "s1", "classic", {})
    assert was["u1"].rating > mu0  # the unfair old place: a gone seat gained
    # All gone: a draw moves nobody's mean (equal ratings in, equal out).
    _, drawn = rate_match(_finished((1, 1, 1)), "s1", "classic", {})
    assert drawn["u0"].rating == drawn["u1"].rating == drawn["u2"].rating


def test_the_end_is_one_match_ended_after_the_seat_abandoned() -> None:
    thousand = registry.get("thousand")
    m = Match(thousand, tc=RANKED_1000)
    due = match_layer.abandon_deadline(m.state, "p1")
    assert due is not None
    events = m.decide(None, ClaimAbandon(seat="p1", deadline=due, at=due), due)
    assert not isinstance(events, Rejected)
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].outcome == Outcome(ranks=(1, 1, 1), reason="abandoned", draw=True)


def test_an_abandoned_kings_cup_table_places_nobody() -> None:
    """rules/king.md §15.1: Kings Cup is served "only as a facilitator, not as an adjudicator";
    so an abandonment, with one seat gone or several, ends the table with every seat sharing the
    result, as the table's own end does (kings-cup-3; kings-cup-2 placed the claimed seat last)."""
    game = registry.get("kings-cup")
    tc = TimeControl(move_s=60, grace_s=10, on_timeout="forfeit")
    for present in ({"p1", "p2"}, {"p1"}, set()):
        m = Match(game, tc=tc, seats=3)
        _seat, outcome = run(m, present=present)
        assert outcome.reason == "abandoned" and outcome.draw
        assert set(outcome.ranks) == {1}
