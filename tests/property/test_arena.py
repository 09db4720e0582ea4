"""Arena invariants over random arenas (hypothesis): nobody is ever at two unfinished games, nobody
meets themselves, no pairing is an immediate rematch, every player's points are the sum of their
counted games scored with streaks (recomputed here from the results in the order they came in),
and the whole log audits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.envelope import Rejected
from contracts.tournaments import (
    FinishTournament,
    JoinTournament,
    PairArena,
    RecordForfeit,
    RecordResult,
    RoundStarted,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments import audit, current_standings, decide
from tests.unit.tournaments.support import Run, opened

STEP = st.tuples(st.sampled_from(["pair", "result", "result", "result", "void", "forfeit", "join", "withdraw"]), st.integers(0, 10**6))


def _expected_points(run: Run) -> dict[str, int]:
    """Each player's points from the counted games in the order their results came in: 2 a win,
    1 a draw, 0 a loss, doubled after two wins in a row until a game is not won."""
    games = sorted(
        (g for r in run.state.rounds for g in r.games if g.ranks is not None), key=lambda g: g.finished_seq
    )
    points = dict.fromkeys(run.state.order, 0)
    run_of = dict.fromkeys(run.state.order, 0)
    for g in games:
        assert g.ranks is not None
        for i, p in enumerate(g.seats):
            mine, other = g.ranks[i], g.ranks[1 - i]
            base = 2 if mine < other else 1 if mine == other else 0
            points[p] += base * (2 if run_of[p] >= 2 else 1)
            run_of[p] = run_of[p] + 1 if base == 2 else 0
    return points


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 12),
    ratings=st.lists(st.integers(1000, 2000), min_size=12, max_size=12),
    steps=st.lists(STEP, min_size=1, max_size=80),
)
def test_arena_invariants(n: int, ratings: list[int], steps: list[tuple[str, int]]) -> None:
    players = [f"p{i}" for i in range(n)]
    run = opened("arena", players, [float(r) for r in ratings[:n]], window_start=0, window_end=10**9)
    joined = n
    last_met: dict[str, str] = {}
    for kind, x in steps:
        state = run.state
        open_games = [(r.round, g) for r in state.rounds for g in r.games if g.ranks is None and not g.voided]
        done_games = [(r.round, g) for r in state.rounds for g in r.games if g.ranks is not None]
        if kind == "pair":
            decided = decide(state, PairArena())
            if isinstance(decided, Rejected):
                assert decided.code == "no_pairing"
                continue
            (started,) = decided
            assert isinstance(started, RoundStarted)
            busy = {p for _, g in open_games for p in g.seats}
            gone = state.withdrawn_players()
            seen: set[str] = set()
            for t in started.tables:
                a, b = t.seats
                assert a != b  # nobody meets themselves
                assert not {a, b} & seen  # nobody at two tables of one pairing
                assert not {a, b} & busy  # nor at a table while still playing another
                assert not {a, b} & gone  # withdrawn players are not paired
                assert last_met.get(a) != b and last_met.get(b) != a  # no immediate rematch
                seen |= {a, b}
            run.do(PairArena())
            for t in started.tables:
                a, b = t.seats
                last_met[a], last_met[b] = b, a
        elif kind == "result" and open_games:
            rnd, g = open_games[x % len(open_games)]
            ranks = ((0, 1), (1, 0), (0, 0))[x // 7 % 3]
            run.do(RecordResult(round=rnd, table=g.table, ranks=ranks))
        elif kind == "forfeit" and open_games:
            rnd, g = open_games[x % len(open_games)]
            run.do(RecordForfeit(round=rnd, table=g.table, player=g.seats[x // 3 % 2]))
        elif kind == "void" and done_games:
            rnd, g = done_games[x % len(done_games)]
            run.do(VoidResult(round=rnd, table=g.table, reason="ruling"))
        elif kind == "join" and joined < 14:
            run.do(JoinTournament(player=f"late{joined}", rating=float(x % 3000)))
            joined += 1
        elif kind == "withdraw":
            left = [p for p in run.state.entrants if p not in run.state.withdrawn_players()]
            if len(left) > 2:
                run.do(WithdrawFromTournament(player=left[x % len(left)]))
        # after every step: nobody at two unfinished games, points are the sum of scored games
        playing = [p for r in run.state.rounds for g in r.games if g.ranks is None and not g.voided for p in g.seats]
        assert len(playing) == len(set(playing))
        expected = _expected_points(run)
        got = {s.player: s.points for s in current_standings(run.state)}
        assert got == {p: float(v) for p, v in expected.items()}
        ranks = [s.rank for s in current_standings(run.state)]
        assert ranks == sorted(ranks)
    run.do(FinishTournament())
    assert audit(run.events) is None
