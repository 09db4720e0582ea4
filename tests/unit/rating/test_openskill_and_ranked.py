from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from contracts.integration import MatchFinished
from contracts.match import Outcome
from domain.rating import openskill_pl, ranked, seasons

DAY = 86_400_000


def finished(
    players: tuple[str, ...],
    ranks: tuple[int, ...],
    at: int,
    ranked_flag: bool = True,
    guests: tuple[str, ...] = (),
) -> MatchFinished:
    return MatchFinished(
        match_id=f"m{at}",
        game="ugolki",
        preset="classic",
        rules_version="1",
        seats=tuple(f"s{i}" for i in range(len(players))),
        players=players,
        outcome=Outcome(ranks=ranks, draw=len(set(ranks)) == 1),
        moves=10,
        finished_at=at,
        last_seq=3,
        ranked=ranked_flag,
        guests=guests,
    )


def test_openskill_adapter_equals_the_library() -> None:
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating()], [model.rating(mu=30, sigma=5)], [model.rating()]], ranks=[2, 1, 3]
    )
    got = openskill_pl.rate([(25.0, 25 / 3), (30.0, 5.0), (25.0, 25 / 3)], [2, 1, 3])
    assert got == [(t[0].mu, t[0].sigma) for t in expected]
    assert got[1][0] > 30.0 and got[2][0] < 25.0


def test_openskill_rejects_mismatched_ranks() -> None:
    with pytest.raises(ValueError):
        openskill_pl.rate([(25.0, 8.0)], [1])


def test_two_seats_use_glicko2_and_record_inputs() -> None:
    event, states = ranked.rate_match(finished(("ann", "bob"), (1, 2), DAY), "2026-Q4", "classic", {})
    assert event.model == ranked.GLICKO2
    assert event.scores == (1.0, 0.0) and event.ranks == (1, 2)
    assert states["ann"].rating > 1500 > states["bob"].rating
    assert states["ann"].games == 1
    assert event.parameters["tau"] == 0.5


def test_four_seats_use_openskill() -> None:
    event, states = ranked.rate_match(
        finished(("a", "b", "c", "d"), (1, 2, 2, 4), DAY), "2026-Q4", "classic", {}
    )
    assert event.model == ranked.OPENSKILL_PL
    assert states["a"].rating > 25 > states["d"].rating
    assert states["b"].rating == pytest.approx(states["c"].rating)


def test_idle_periods_grow_rd_and_new_season_raises_it() -> None:
    _, s1 = ranked.rate_match(finished(("ann", "bob"), (1, 2), DAY), "S1", "classic", {})
    _, s2 = ranked.rate_match(finished(("ann", "bob"), (2, 1), 2 * DAY), "S1", "classic", dict(s1))
    later = 12 * DAY
    event, _ = ranked.rate_match(finished(("ann", "bob"), (1, 2), later), "S1", "classic", dict(s2))
    assert event.parameters["idle_periods"] == [10, 10]
    assert event.effective_before[0][1] > s2["ann"].rd
    event2, s3 = ranked.rate_match(finished(("ann", "bob"), (1, 2), 2 * DAY + 1), "S2", "classic", dict(s2))
    assert event2.parameters["season_carry"] == [True, True]
    assert event2.effective_before[0][1] == pytest.approx(min(350.0, (s2["ann"].rd ** 2 + 100.0**2) ** 0.5))
    assert s3["ann"].season == "S2"


def test_unranked_and_self_play_are_not_rateable() -> None:
    assert not ranked.rateable(finished(("a", "b"), (1, 2), 1, ranked_flag=False))
    assert not ranked.rateable(finished(("a", "a"), (1, 2), 1))
    with pytest.raises(ValueError):
        ranked.rate_match(finished(("a", "a"), (1, 2), 1), "S", "f", {})


def test_a_match_with_a_guest_seat_is_never_rated() -> None:
    """Issue 9: a guest (no credential) is never rated, nor are the other seats of that match."""
    assert ranked.rateable(finished(("a", "b"), (1, 2), 1))
    assert not ranked.rateable(finished(("a", "b"), (1, 2), 1, guests=("s1",)))


def test_seasons_and_families() -> None:
    cal = seasons.decode_calendar(b'{"ugolki": [{"name": "spring", "start_ms": 0, "end_ms": 1000}]}')
    assert seasons.season_for(cal, "ugolki", 10) == "spring"
    assert seasons.season_for(cal, "ugolki", 1000) == "1970-Q1"
    assert seasons.season_for(cal, "king", 10) == "1970-Q1"
    assert seasons.quarter_of(1_790_000_000_000) == "2026-Q3"
    assert seasons.preset_family("classic@blitz") == "classic"
    assert seasons.preset_family("king-4p-rozaliev") == "king-4p-rozaliev"
