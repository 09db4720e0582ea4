"""Each round's tables as a pure function of the tournament so far and its revealed seed."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from contracts.envelope import Rejected
from contracts.tournaments import Table
from domain.core.rng import derive_key, permutation, shuffle
from domain.tournaments import berger, knockout, swiss, tables
from domain.tournaments.standings import CountedGame, points_of
from domain.tournaments.state import GameState, TournamentState


class NextRound:
    """What a round's start decides: its tables, byes (player, half points) and the forfeits of
    players who withdrew (table, player)."""

    __slots__ = ("tables", "byes", "forfeits")

    def __init__(
        self,
        tables: tuple[Table, ...],
        byes: tuple[tuple[str, int], ...] = (),
        forfeits: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.tables = tables
        self.byes = byes
        self.forfeits = forfeits


def seed_key(server_seed_hex: str) -> bytes:
    return derive_key(bytes.fromhex(server_seed_hex), ())


def seeding(entrants: Sequence[str], ratings: Sequence[float], key: bytes) -> tuple[str, ...]:
    """Rating high to low; equal ratings in the order of the seed's shuffle of the join order."""
    lots = permutation(key, b"seeding", len(entrants))
    place = {entrants[i]: k for k, i in enumerate(lots)}
    rating = dict(zip(entrants, ratings, strict=True))
    return tuple(sorted(entrants, key=lambda p: (-rating[p], place[p])))


def total_rounds(state: TournamentState) -> int:
    s = state.settings
    assert s is not None
    n = len(state.order)
    if s.format in ("round_robin", "double_round_robin"):
        single = n - 1 + n % 2
        return single * (2 if s.format == "double_round_robin" else 1)
    if s.format == "knockout":
        return knockout.rounds_for(n)
    return s.rounds


def counted(game: GameState) -> CountedGame | None:
    if game.ranks is None:
        return None
    return CountedGame(seats=game.seats, ranks=game.ranks, scores=game.scores)


def forfeit_ranks(seats: Sequence[str], player: str) -> tuple[int, ...]:
    return tuple(1 if p == player else 0 for p in seats)


def next_round(state: TournamentState) -> NextRound | Rejected:
    s = state.settings
    assert s is not None
    key = seed_key(state.server_seed)
    number = len(state.rounds) + 1
    gone = state.withdrawn_players()
    if s.format in ("round_robin", "double_round_robin"):
        result = _round_robin(state, key, number)
    elif s.format == "knockout":
        result = _knockout(state, number)
    elif s.format == "swiss":
        return _swiss(state, key, number)
    else:
        return _fair_tables(state, key, number)
    forfeits = tuple(
        (t.table, next(p for p in t.seats if p in gone))
        for t in result.tables
        if any(p in gone for p in t.seats)
    )
    byes = tuple((p, pts) for p, pts in result.byes if p not in gone)
    return NextRound(result.tables, byes, forfeits)


def _round_robin(state: TournamentState, key: bytes, number: int) -> NextRound:
    s = state.settings
    assert s is not None
    lots = shuffle(key, b"berger-lots", state.order)
    n = len(lots)
    rounds = berger.schedule(n, 2 if s.format == "double_round_robin" else 1)
    out: list[Table] = []
    byes: list[tuple[str, int]] = []
    for white, black in rounds[number - 1]:
        if white > n or black > n:
            byes.append((lots[min(white, black) - 1], s.bye_points))
        else:
            out.append(Table(table=len(out) + 1, seats=(lots[white - 1], lots[black - 1])))
    return NextRound(tuple(out), tuple(byes))


def _knockout(state: TournamentState, number: int) -> NextRound:
    s = state.settings
    assert s is not None
    seed_of = {p: i for i, p in enumerate(state.order)}
    if number == 1:
        out: list[Table] = []
        byes: list[tuple[str, int]] = []
        for a, b in knockout.first_round(len(state.order)):
            if b is None:
                byes.append((state.order[a - 1], s.bye_points))
            else:
                out.append(Table(table=len(out) + 1, seats=(state.order[a - 1], state.order[b - 1])))
        return NextRound(tuple(out), tuple(byes))
    advancing = knockout_slots(state)
    out = []
    for i in range(0, len(advancing), 2):
        pair = sorted(advancing[i : i + 2], key=lambda p: seed_of[p])
        out.append(Table(table=len(out) + 1, seats=tuple(pair)))
    return NextRound(tuple(out))


def knockout_slots(state: TournamentState) -> list[str]:
    """The players through the latest round, in bracket order."""
    last = state.rounds[-1]
    winners = {g.table: g.seats[g.ranks.index(0)] for g in last.games if g.ranks is not None}
    if last.round > 1:
        return [winners[g.table] for g in last.games]
    slots: list[str] = []
    games = iter(last.games)
    for a, b in knockout.first_round(len(state.order)):
        slots.append(state.order[a - 1] if b is None else winners[next(games).table])
    return slots


def _swiss(state: TournamentState, key: bytes, number: int) -> NextRound | Rejected:
    s = state.settings
    assert s is not None
    gone = state.withdrawn_players()
    numbers = {p: i + 1 for i, p in enumerate(state.order)}
    score = dict.fromkeys(state.order, 0)
    opponents: dict[str, set[str]] = {p: set() for p in state.order}
    colours: dict[str, list[str]] = {p: [] for p in state.order}
    had_bye = dict.fromkeys(state.order, False)
    floated = dict.fromkeys(state.order, False)
    for rnd in state.rounds:
        before = dict(score)
        floated = dict.fromkeys(state.order, False)
        seen: set[str] = set()
        for g in rnd.games:
            white, black = g.seats
            opponents[white].add(black)
            opponents[black].add(white)
            colours[white].append(swiss.WHITE)
            colours[black].append(swiss.BLACK)
            seen.update(g.seats)
            if before[white] != before[black]:
                floated[white if before[white] > before[black] else black] = True
            c = counted(g)
            if c is not None:
                for p, pts in zip(g.seats, points_of(c), strict=True):
                    score[p] += pts
        for p, pts in rnd.byes:
            had_bye[p] = True
            floated[p] = True
            score[p] += pts
            seen.add(p)
        for p in state.order:
            if p not in seen:
                colours[p].append("")
    players = [
        swiss.SwissPlayer(
            player=p,
            number=numbers[p],
            score=score[p],
            opponents=frozenset(opponents[p]),
            colours=tuple(colours[p]),
            had_bye=had_bye[p],
            floated_down_last=floated[p],
        )
        for p in state.order
        if p not in gone
    ]
    initial = swiss.WHITE if permutation(key, b"initial-colour", 2)[0] == 0 else swiss.BLACK
    pairing = swiss.pair_round(players, initial)
    if pairing is None:
        return Rejected(code="no_pairing", detail=f"round {number}: no pairing without a rematch")
    out = tuple(Table(table=i + 1, seats=g) for i, g in enumerate(pairing.games))
    byes = () if pairing.bye is None else ((pairing.bye, s.bye_points),)
    return NextRound(out, byes)


@functools.lru_cache(maxsize=4)
def _cached_plan(
    players: tuple[str, ...],
    prior: tuple[tables.PlannedRound, ...],
    rounds: int,
    size: int,
    min_size: int,
    key: bytes,
    label: bytes,
) -> tuple[tables.PlannedRound, ...]:
    return tables.plan(players, prior, rounds, size, min_size, key, label)


def _fair_tables(state: TournamentState, key: bytes, number: int) -> NextRound:
    s = state.settings
    assert s is not None
    gone = state.withdrawn_players()
    active = tuple(p for p in state.order if p not in gone)
    # the plan holds from the round after the last withdrawal
    start = max((started for _, started in state.withdrawn), default=0) + 1
    prior = tuple(
        tables.PlannedRound(tables=tuple(g.seats for g in r.games), byes=tuple(p for p, _ in r.byes))
        for r in state.rounds[: start - 1]
    )
    planned = _cached_plan(
        active,
        prior,
        s.rounds - (start - 1),
        s.table_size,
        s.min_table_size or s.table_size,
        key,
        b"tables:" + str(start).encode(),
    )[number - start]
    out = tuple(Table(table=i + 1, seats=seats) for i, seats in enumerate(planned.tables))
    return NextRound(out, tuple((p, s.bye_points) for p in planned.byes))
