"""Tournament pairing and standings at scale (pure domain, no network), CPU time per step:

* a Swiss of ``--swiss-players`` (1,000) players over ``--swiss-rounds`` (9) rounds, through the
  decider, results drawn from a seeded generator (a quarter draws): the time of each round's
  start (the Dutch pairing) -- total, slowest round -- and how many games paired unequal scores;
* fair tables for ``--table-players`` (1,000) players at four seats (tables of 3 when the count does
  not divide) over ``--table-rounds`` (10) rounds: the time to plan and start every round, and the
  evenness measure of the schedule (docs/architecture.md "Tournaments (the pure core)");
* the Swiss's final standings recomputed after one voided game (Buchholz, median Buchholz,
  Sonneborn-Berger, direct encounter): the time of the void's fold plus the standings, and of the
  next round's pairing derived from the changed scores (the void is decided before the last round);
* a large Swiss, ``--big-swiss-players`` (10,000) x ``--big-swiss-rounds`` (11), the same way
  (issue 25's Measure; 0 players skips it);
* an arena of ``--arena-players`` (10,000) over ``--arena-ticks`` (30) pairings: at each tick a
  third of the running games finish (the higher rated wins 55 %, 15 % draws) and ``PairArena``
  pairs everyone waiting; the time of the pairings alone gives games paired per second (and the
  time of one pairing of the waiting pool), the arena's audit is timed too.

    .venv/bin/python bench/tournament_bench.py [--swiss-players 1000] [--swiss-rounds 9]
        [--table-players 1000] [--table-rounds 10] [--big-swiss-players 10000]
        [--big-swiss-rounds 11] [--arena-players 10000] [--arena-ticks 30]

Progress on stderr; the last stdout line is one JSON object (keys ``tournament_*``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts.envelope import Rejected  # noqa: E402
from contracts.tournaments import (  # noqa: E402
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    JoinTournament,
    PairArena,
    RecordResult,
    StartRound,
    TournamentCommand,
    TournamentSettings,
    VoidResult,
)
from domain.tournaments import audit, current_standings, decide, evenness, evolve, initial_state  # noqa: E402
from domain.tournaments.arena import current_scores  # noqa: E402
from domain.tournaments.pairing import counted, next_round  # noqa: E402
from domain.tournaments.standings import points_of  # noqa: E402
from domain.tournaments.state import TournamentState  # noqa: E402

SEED = hashlib.sha256(b"tournament bench").digest()


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def apply(state: TournamentState, command: TournamentCommand) -> TournamentState:
    decided = decide(state, command)
    if isinstance(decided, Rejected):
        raise SystemExit(f"refused: {decided}")
    for event in decided:
        state = evolve(state, event)
    return state


def opened(settings: TournamentSettings, players: int) -> TournamentState:
    rng = random.Random(1)
    state = apply(initial_state(), CreateTournament(tournament_id="bench", settings=settings))
    for i in range(players):
        state = apply(state, JoinTournament(player=f"p{i:04d}", rating=float(rng.randint(1200, 2400))))
    return apply(state, CloseRegistration(server_seed=SEED.hex()))


def record_round(state: TournamentState, rng: random.Random) -> TournamentState:
    last = state.rounds[-1]
    for g in last.games:
        if g.ranks is None:
            n = len(g.seats)
            if n == 2:
                roll = rng.random()
                ranks = (0, 0) if roll < 0.25 else (0, 1) if roll < 0.625 else (1, 0)
            else:
                ranks = tuple(rng.sample(range(n), n))
            state = apply(state, RecordResult(round=last.round, table=g.table, ranks=ranks))
    return state


def half_points(state: TournamentState) -> dict[str, int]:
    """Every player's points so far (games and byes), without the tie-breaks of the standings."""
    score = dict.fromkeys(state.order, 0)
    for rnd in state.rounds:
        for g in rnd.games:
            c = counted(g)
            if c is not None:
                for p, pts in zip(g.seats, points_of(c), strict=True):
                    score[p] += pts
        for p, pts in rnd.byes:
            score[p] += pts
    return score


def swiss(
    players: int, rounds: int, prefix: str = "tournament_swiss"
) -> tuple[dict[str, object], TournamentState, TournamentState]:
    settings = TournamentSettings(
        format="swiss",
        game="ugolki",
        preset="classic",
        seed_commitment=hashlib.sha256(SEED).hexdigest(),
        rounds=rounds,
        tie_breaks=("buchholz", "median_buchholz", "sonneborn_berger", "direct_encounter"),
    )
    state = opened(settings, players)
    rng = random.Random(2)
    times: list[float] = []
    unequal = 0
    before_last = state
    for r in range(rounds):
        if r == rounds - 1:
            before_last = state
        score = half_points(state) if r else {}
        t0 = time.process_time()
        state = apply(state, StartRound())
        times.append(time.process_time() - t0)
        unequal += sum(1 for g in state.rounds[-1].games if score and score[g.seats[0]] != score[g.seats[1]])
        say(f"      swiss round {r + 1}: {times[-1]:.3f} s")
        state = record_round(state, rng)
    return (
        {
            f"{prefix}_players": players,
            f"{prefix}_rounds": rounds,
            f"{prefix}_pairing_total_s": round(sum(times), 3),
            f"{prefix}_pairing_max_round_s": round(max(times), 3),
            f"{prefix}_unequal_score_games": unequal,
        },
        state,
        before_last,
    )


def fair_tables(players: int, rounds: int) -> dict[str, object]:
    settings = TournamentSettings(
        format="fair_tables",
        game="king",
        preset="classic",
        seed_commitment=hashlib.sha256(SEED).hexdigest(),
        rounds=rounds,
        table_size=4,
        min_table_size=3,
    )
    state = opened(settings, players)
    rng = random.Random(3)
    t0 = time.process_time()
    first = 0.0
    for r in range(rounds):
        state = apply(state, StartRound())
        if r == 0:
            first = time.process_time() - t0
        state = record_round(state, rng)
    # the time spent starting rounds (recording results is not pairing)
    total = time.process_time() - t0
    m = evenness([tuple(g.seats for g in rnd.games) for rnd in state.rounds], state.order)
    return {
        "tournament_tables_players": players,
        "tournament_tables_rounds": rounds,
        "tournament_tables_plan_s": round(first, 3),
        "tournament_tables_all_rounds_s": round(total, 3),
        "tournament_tables_pairs_term": m.pairs,
        "tournament_tables_positions_term": m.positions,
        "tournament_tables_measure": m.total,
        "tournament_tables_meetings_min_max": [m.min_meetings, m.max_meetings],
        "tournament_tables_max_position_gap": m.max_position_gap,
    }


def voided(final: TournamentState, before_last: TournamentState) -> dict[str, object]:
    void = VoidResult(round=2, table=1, reason="bench")
    t0 = time.process_time()
    after = apply(final, void)
    rows = current_standings(after)
    standings_s = time.process_time() - t0
    assert rows
    changed = apply(before_last, void)
    t1 = time.process_time()
    pairing = next_round(changed)
    pairing_s = time.process_time() - t1
    assert not isinstance(pairing, Rejected)
    return {
        "tournament_void_standings_s": round(standings_s, 4),
        "tournament_void_next_pairing_s": round(pairing_s, 3),
    }


def arena(players: int, ticks: int) -> dict[str, object]:
    settings = TournamentSettings(
        format="arena",
        game="ugolki",
        preset="classic",
        seed_commitment=hashlib.sha256(SEED).hexdigest(),
        window_start=1,
        window_end=3_600_000,
    )
    events: list[object] = []

    def run(state: TournamentState, command: TournamentCommand) -> TournamentState:
        decided = decide(state, command)
        if isinstance(decided, Rejected):
            raise SystemExit(f"refused: {decided}")
        events.extend(decided)
        for event in decided:
            state = evolve(state, event)
        return state

    rng = random.Random(4)
    state = run(initial_state(), CreateTournament(tournament_id="arena", settings=settings))
    for i in range(players):
        state = run(state, JoinTournament(player=f"p{i:05d}", rating=float(rng.randint(1200, 2400))))
    state = run(state, CloseRegistration(server_seed=SEED.hex()))
    rating = dict(zip(state.entrants, state.ratings, strict=True))
    pair_s: list[float] = []
    paired = 0
    pool_sizes: list[int] = []
    for tick in range(ticks):
        if tick:
            # a third of the running games finish
            running = [(r.round, g) for r in state.rounds for g in r.games if g.ranks is None and not g.voided]
            for rnd, g in running:
                if rng.random() >= 1 / 3:
                    continue
                a, b = g.seats
                roll = rng.random()
                better = 0 if rating[a] >= rating[b] else 1
                ranks = (0, 0) if roll < 0.15 else (0, 1) if (roll < 0.70) == (better == 0) else (1, 0)
                state = run(state, RecordResult(round=rnd, table=g.table, ranks=ranks))
        busy = sum(2 for r in state.rounds for g in r.games if g.ranks is None and not g.voided)
        pool_sizes.append(players - busy)
        t0 = time.process_time()
        decided = decide(state, PairArena())
        pair_s.append(time.process_time() - t0)
        if isinstance(decided, Rejected):
            continue
        paired += len(decided[0].tables)  # type: ignore[union-attr]
        events.extend(decided)
        for event in decided:
            state = evolve(state, event)
    state = run(state, FinishTournament())
    scores = current_scores(state)
    counted = sum(1 for r in state.rounds for g in r.games if g.ranks is not None)
    t1 = time.process_time()
    found = audit(events)  # type: ignore[arg-type]
    audit_s = time.process_time() - t1
    assert found is None, found
    say(f"      arena: {paired} games paired in {sum(pair_s):.2f} s over {ticks} pairings")
    return {
        "tournament_arena_players": players,
        "tournament_arena_pairings": ticks,
        "tournament_arena_games_paired": paired,
        "tournament_arena_games_counted": counted,
        "tournament_arena_pairing_total_s": round(sum(pair_s), 3),
        "tournament_arena_games_paired_per_s": round(paired / sum(pair_s)) if sum(pair_s) else None,
        "tournament_arena_first_pairing_s": round(pair_s[0], 3),
        "tournament_arena_max_pairing_s": round(max(pair_s), 3),
        "tournament_arena_mean_pool": round(sum(pool_sizes) / len(pool_sizes)),
        "tournament_arena_top_points": max(s.points for s in scores.values()),
        "tournament_arena_on_fire_at_end": sum(1 for s in scores.values() if s.on_fire),
        "tournament_arena_audit_s": round(audit_s, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--swiss-players", type=int, default=1000)
    ap.add_argument("--swiss-rounds", type=int, default=9)
    ap.add_argument("--table-players", type=int, default=1000)
    ap.add_argument("--table-rounds", type=int, default=10)
    ap.add_argument("--big-swiss-players", type=int, default=10_000)
    ap.add_argument("--big-swiss-rounds", type=int, default=11)
    ap.add_argument("--arena-players", type=int, default=10_000)
    ap.add_argument("--arena-ticks", type=int, default=30)
    a = ap.parse_args()
    t0 = time.perf_counter()
    say(f"[tournaments] Swiss, {a.swiss_players} players x {a.swiss_rounds} rounds...")
    out, final, before_last = swiss(a.swiss_players, a.swiss_rounds)
    say(f"[tournaments] fair tables, {a.table_players} players x {a.table_rounds} rounds...")
    out.update(fair_tables(a.table_players, a.table_rounds))
    say("[tournaments] standings after a voided game...")
    out.update(voided(final, before_last))
    if a.big_swiss_players:
        say(f"[tournaments] Swiss, {a.big_swiss_players} players x {a.big_swiss_rounds} rounds...")
        big, _, _ = swiss(a.big_swiss_players, a.big_swiss_rounds, "tournament_swiss_big")
        out.update(big)
    if a.arena_players:
        say(f"[tournaments] arena, {a.arena_players} players x {a.arena_ticks} pairings...")
        out.update(arena(a.arena_players, a.arena_ticks))
    out["tournament_bench_wall_s"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
