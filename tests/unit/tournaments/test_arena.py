"""The arena (domain/tournaments/arena.py): Lichess's scoring with win streaks, pairing of the
waiting pool by standing without immediate rematches, late entries, the window's end, and the
audit of an arena log — worked by hand."""

from __future__ import annotations

import msgspec
import pytest

from contracts.tournaments import (
    FinishTournament,
    JoinTournament,
    PairArena,
    RecordForfeit,
    RecordResult,
    RoundStarted,
    StartRound,
    Table,
    TournamentFinished,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments import audit, current_standings
from domain.tournaments.arena import DRAW, LOSS, WIN, game_points, pair, scores
from domain.tournaments.decide import settings_problem
from tests.unit.tournaments.support import Run, opened, settings

WINDOW = {"window_start": 1_000, "window_end": 3_600_000}
W, D, L = WIN, DRAW, LOSS


def arena(players: list[str], ratings: list[float] | None = None) -> Run:
    return opened("arena", players, ratings, **WINDOW)


def pairing(run: Run) -> tuple[Table, ...]:
    started = run.do(PairArena())
    assert len(started) == 1 and isinstance(started[0], RoundStarted)
    return started[0].tables


def play(run: Run, rnd: int, table: int, winner: str | None) -> None:
    """Record round ``rnd`` table ``table``: ``winner`` wins (None: a draw)."""
    seats = run.state.rounds[rnd - 1].games[table - 1].seats
    ranks = (0, 0) if winner is None else tuple(0 if p == winner else 1 for p in seats)
    run.do(RecordResult(round=rnd, table=table, ranks=ranks))


def points(run: Run) -> dict[str, float]:
    return {s.player: s.points for s in current_standings(run.state)}


# ------------------------------------------------------------------ scoring, by hand


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ((W, W, D), (2, 2, 2)),  # Lichess's own example: 2 + 2 + (2 x 1) = 6
        ((W, W, W, W), (2, 2, 4, 4)),  # on fire from the third game
        ((W, W, L, W), (2, 2, 0, 2)),  # the loss puts the fire out: the next win is 2 again
        ((W, W, L, W, W, W), (2, 2, 0, 2, 2, 4)),  # two wins in a row set it alight again
        ((W, W, D, W), (2, 2, 2, 2)),  # a draw on fire scores double but ends the streak
        ((D, D, D), (1, 1, 1)),  # draws never set anyone alight
        ((W, D, W, W, D), (2, 1, 2, 2, 2)),
        ((L, W, W, W, L, D), (0, 2, 2, 4, 0, 1)),
        ((), ()),
    ],
)
def test_streak_scoring_worked_by_hand(results: tuple[str, ...], expected: tuple[int, ...]) -> None:
    assert game_points(results) == expected


def test_scores_follow_the_order_games_finished_in() -> None:
    # ann: W (v bob), W (v cat), W (v dan) -> 2 + 2 + 4, on fire; bob: L, L, D -> 0 + 0 + 1;
    # dan: W (v bob), L (v ann) -> 2 + 0; cat: L (v ann), D (v bob) -> 0 + 1
    finished = [
        (("ann", "bob"), (0, 1)),
        (("cat", "ann"), (1, 0)),
        (("bob", "dan"), (1, 0)),
        (("ann", "dan"), (0, 1)),
        (("bob", "cat"), (0, 0)),
    ]
    got = scores(["ann", "bob", "cat", "dan"], finished)
    assert got["ann"].sheet == (2, 2, 4) and got["ann"].points == 8 and got["ann"].on_fire
    assert got["bob"].sheet == (0, 0, 1) and got["bob"].points == 1 and not got["bob"].on_fire
    assert got["dan"].sheet == (2, 0) and got["dan"].streak == 0
    assert got["cat"].sheet == (0, 1) and got["cat"].games == 2


# ------------------------------------------------------------------ pairing, by hand


def test_pairing_takes_the_nearest_rank_and_skips_an_immediate_rematch() -> None:
    pool = ["a", "b", "c", "d", "e"]
    # nobody has played: 1 v 2, 3 v 4, the fifth waits
    assert pair(pool, {}, {}) == ([("a", "b"), ("c", "d")], ["e"])
    # a just played b: a meets c instead, b meets d, e waits
    assert pair(pool, {"a": "b", "b": "a"}, {}) == ([("a", "c"), ("b", "d")], ["e"])
    # only a rematch left: both wait
    assert pair(["a", "b"], {"a": "b", "b": "a"}, {}) == ([], ["a", "b"])
    # one-sided: c's last opponent was a (a has played someone else since): still a rematch for c
    assert pair(["a", "c"], {"a": "x", "c": "a"}, {}) == ([], ["a", "c"])
    # the first seat goes to the one who sat first less often
    assert pair(["a", "b"], {}, {"a": 1, "b": -1}) == ([("b", "a")], [])
    assert pair(["a", "b"], {}, {"a": 0, "b": 0}) == ([("a", "b")], [])


def test_the_first_pairing_is_by_rating_then_by_standing_and_only_the_waiting() -> None:
    run = arena(["ann", "bob", "cat", "dan", "eve", "fay"], [1900, 1800, 1700, 1600, 1500, 1400])
    assert run.state.order == ("ann", "bob", "cat", "dan", "eve", "fay")
    first = pairing(run)
    assert [t.seats for t in first] == [("ann", "bob"), ("cat", "dan"), ("eve", "fay")]
    # Nobody is waiting: no pairing.
    assert run.refuse(PairArena()) == "no_pairing"
    # fay beats eve and dan beats cat; the four waiting are paired by standing, no rematches:
    play(run, 1, 3, "fay")
    play(run, 1, 2, "dan")
    second = pairing(run)
    # standing among the waiting: dan 2, fay 2 (dan seeded higher), cat 0, eve 0
    # dan v fay (no rematch), cat v eve.  Seats: dan and fay both sat second once (level: dan
    # ranks higher and sits first), cat and eve both sat first once (level: cat).
    assert [t.seats for t in second] == [("dan", "fay"), ("cat", "eve")]
    # ann and bob are still playing round 1: nobody pairs them
    assert all("ann" not in t.seats and "bob" not in t.seats for t in second)
    # a result of the first pairing may still come in while the second is played
    play(run, 1, 1, "bob")
    assert points(run)["bob"] == 2.0


def test_colours_balance_over_pairings() -> None:
    run = arena(["ann", "bob", "cat", "dan"], [4, 3, 2, 1])
    (t1, t2) = pairing(run)
    assert t1.seats == ("ann", "bob") and t2.seats == ("cat", "dan")
    play(run, 1, 1, "ann")
    play(run, 1, 2, "cat")
    # ann 2, cat 2, bob 0, dan 0; ann v cat (ann sat first, cat sat first: level, ann ranks higher),
    # bob v dan (both sat second: level, bob ranks higher)
    (a, b) = pairing(run)
    assert a.seats == ("ann", "cat") and b.seats == ("bob", "dan")
    play(run, 2, 1, "cat")
    play(run, 2, 2, "dan")
    # cat 4, ann 2, dan 2, bob 0.  cat v ann is a rematch: cat meets dan; ann meets bob.
    # cat sat first once, second once (0); dan second twice (-2): dan sits first.
    # ann first twice (+2), bob second, first (0): bob sits first.
    (c, d) = pairing(run)
    assert c.seats == ("dan", "cat") and d.seats == ("bob", "ann")


# ------------------------------------------------------------------ the arena as a Decider


def test_an_arena_scored_with_streaks_through_the_decider() -> None:
    run = arena(["ann", "bob", "cat", "dan"], [4, 3, 2, 1])
    pairing(run)  # 1: ann v bob, cat v dan
    play(run, 1, 1, "ann")
    play(run, 1, 2, "cat")
    pairing(run)  # 2: ann v cat, bob v dan
    play(run, 2, 1, "ann")  # ann: W W
    play(run, 2, 2, None)  # bob, dan draw
    pairing(run)  # 3: ann meets the nearest non-rematch
    third = run.state.rounds[2].games
    ann_table = next(g for g in third if "ann" in g.seats)
    play(run, 3, ann_table.table, None)  # ann on fire: a draw scores 2 and ends the streak
    got = points(run)
    assert got["ann"] == 2 + 2 + 2
    assert got["dan"] >= 1.0 and got["bob"] >= 1.0
    standings = current_standings(run.state)
    assert standings[0].player == "ann" and standings[0].rank == 1
    assert all(s.tie_breaks == () for s in standings)


def test_a_void_takes_the_game_out_of_the_streak_and_a_forfeit_counts() -> None:
    run = arena(["ann", "bob", "cat", "dan"], [4, 3, 2, 1])
    pairing(run)
    play(run, 1, 1, "ann")
    play(run, 1, 2, "cat")
    pairing(run)
    play(run, 2, 1, "ann")  # ann W W
    play(run, 2, 2, "dan")
    pairing(run)
    ann3 = next(g for g in run.state.rounds[2].games if "ann" in g.seats)
    play(run, 3, ann3.table, "ann")  # on fire: 4
    assert points(run)["ann"] == 8
    run.do(VoidResult(round=2, table=1, reason="disputed"))
    # ann's counted games are now W (round 1), W (round 3): 2 + 2, not on fire
    assert points(run)["ann"] == 4
    # Round 3's other game: bob v cat (bob L, D so far... by the pairings above), forfeited by
    # its first seat: a loss for them (0), a win for the other (2, or 4 on fire).
    other = next(g for g in run.state.rounds[2].games if "ann" not in g.seats)
    loser, winner = other.seats
    before = {p: points(run)[p] for p in other.seats}
    run.do(RecordForfeit(round=3, table=other.table, player=loser))
    assert run.state.rounds[2].games[other.table - 1].ranks == (1, 0)
    assert points(run)[loser] == before[loser]
    assert points(run)[winner] == before[winner] + 2


def test_late_entries_withdrawals_and_the_window_end() -> None:
    run = arena(["ann", "bob", "cat"], [3, 2, 1])
    (t,) = pairing(run)
    assert t.seats == ("ann", "bob")  # cat waits: nobody else is free
    run.do(JoinTournament(player="dan", rating=2500))  # a late entrant, seeded last
    assert run.state.order == ("ann", "bob", "cat", "dan")
    (u,) = pairing(run)
    assert u.seats == ("cat", "dan")
    run.do(WithdrawFromTournament(player="bob"))
    play(run, 1, 1, "bob")  # bob's game still counts
    assert points(run)["bob"] == 2.0
    assert run.refuse(PairArena()) == "no_pairing"  # ann waits alone; bob withdrew
    # the window ends with cat v dan unfinished: it does not count
    finished = run.do(FinishTournament())
    assert isinstance(finished[0], TournamentFinished)
    assert {s.player: s.points for s in finished[0].standings} == {"bob": 2.0, "ann": 0.0, "cat": 0.0, "dan": 0.0}
    assert run.refuse(RecordResult(round=2, table=1, ranks=(0, 1))) == "finished"
    assert audit(run.events) is None


def test_the_arena_refuses_what_other_formats_take_and_bad_settings() -> None:
    run = arena(["ann", "bob"])
    assert run.refuse(StartRound()) == "wrong_format"
    other = opened("swiss", ["ann", "bob"], rounds=1)
    assert other.refuse(PairArena()) == "wrong_format"
    assert settings_problem(settings("arena")) is not None  # no window
    assert settings_problem(settings("arena", window_start=5, window_end=5)) is not None
    assert settings_problem(settings("arena", tie_breaks=("buchholz",), **WINDOW)) is not None
    assert settings_problem(settings("arena", table_size=3, **WINDOW)) is not None
    assert settings_problem(settings("swiss", rounds=3, **WINDOW)) is not None
    assert settings_problem(settings("arena", **WINDOW)) is None


def test_the_audit_re_derives_every_pairing_and_names_a_changed_one() -> None:
    run = arena([f"p{i}" for i in range(8)], [float(8 - i) for i in range(8)])
    for _ in range(5):
        tables = pairing(run)
        rnd = len(run.state.rounds)
        for t in tables:
            play(run, rnd, t.table, t.seats[0] if (rnd + t.table) % 3 else None)
    run.do(FinishTournament())
    assert audit(run.events) is None
    # swap the seats of one table of pairing 3: the audit names that pairing
    events = list(run.events)
    i, started = next((i, e) for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 3)
    first = started.tables[0]
    changed = msgspec.structs.replace(first, seats=(first.seats[1], first.seats[0]))
    events[i] = msgspec.structs.replace(started, tables=(changed, *started.tables[1:]))
    found = audit(events)
    assert found is not None and "round 3 pairings" in found
    # change a result: the next pairing (or the standings) differs
    events = list(run.events)
    j = next(i for i, e in enumerate(events) if getattr(e, "round", 0) == 1 and type(e).__name__ == "ResultRecorded")
    flipped = msgspec.structs.replace(events[j], ranks=tuple(1 - r for r in events[j].ranks))  # type: ignore[attr-defined]
    events[j] = flipped
    assert audit(events) is not None
