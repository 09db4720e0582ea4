"""An arena (Lichess's format), pure: a time window in which players are paired again as soon as
they finish a game, scored with win streaks.

**Scoring** (Lichess's arena rules): a win scores 2, a draw 1, a loss 0 (the same half points as
every other format).  A player who has won their last two games is *on fire*: every game from
the next on scores double (a win 4, a draw 2, a loss 0) until they fail to win one; the streak
then starts again from nothing (two more wins to catch fire).  Two wins and a draw: 2 + 2 + 2 = 6.
A player's games count in the order their results were recorded (``GameState.finished_seq``), which is
the order they finished; a voided game counts for nobody and is left out of the streak; a
forfeit is a loss for the player who forfeits and a win for the opponent.  Not implemented:
berserk (halving one's clock for an extra point), Lichess's rule that draws in the first moves
score nothing, and its tie-break by tournament performance: players level on points share a
place, listed in seeding order.

**Pairing**: the players waiting (entered, not withdrawn, not at a game without a result) are
ranked by the standings (points high to low, then the seeding: at the start, rating order) and
paired top down, each with the nearest-ranked waiting player who is not an immediate rematch
(neither's most recent opponent is the other).  A player with nobody else to meet waits for the
next pairing; there are no byes.  The first seat (White) goes to the player who has sat first
less often than second, and when they are level, to the higher ranked.

**The window**: the service closes registration at ``window_start`` (the seed is revealed, the
seeding fixed), sends ``PairArena`` on a timer and whenever a game ends, takes late entries
while the window lasts (a late entrant is seeded last) and finishes the arena at
``window_end``: games still running then do not count (Lichess: "games in progress may be
finished, but they don't count").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from contracts.tournaments import Standing, Table
from domain.tournaments.state import TournamentState

WIN, DRAW, LOSS = "win", "draw", "loss"
BASE = {WIN: 2, DRAW: 1, LOSS: 0}
FIRE_AFTER = 2  # wins in a row that set a player on fire


class ArenaScore(msgspec.Struct, frozen=True, kw_only=True):
    """A player's arena so far: points (half points), games counted, wins, the current run of
    wins, and whether the next game scores double."""

    player: str
    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0
    on_fire: bool = False
    sheet: tuple[int, ...] = ()  # points of each counted game, in order


def game_points(results: Iterable[str]) -> tuple[int, ...]:
    """The points of each game of one player's results (``"win"``, ``"draw"``, ``"loss"``) in
    the order they finished: ``("win", "win", "draw")`` -> ``(2, 2, 2)``."""
    out: list[int] = []
    streak = 0
    for result in results:
        fire = streak >= FIRE_AFTER
        out.append(BASE[result] * (2 if fire else 1))
        streak = streak + 1 if result == WIN else 0
    return tuple(out)


def _results(
    order: Sequence[str], finished: Iterable[tuple[tuple[str, ...], tuple[int, ...]]]
) -> dict[str, list[str]]:
    """Each player's results, in the order their games finished."""
    out: dict[str, list[str]] = {p: [] for p in order}
    for (a, b), (ra, rb) in finished:
        out[a].append(WIN if ra < rb else DRAW if ra == rb else LOSS)
        out[b].append(WIN if rb < ra else DRAW if ra == rb else LOSS)
    return out


def _score(player: str, results: Sequence[str]) -> ArenaScore:
    sheet = game_points(results)
    streak = 0
    for result in results:
        streak = streak + 1 if result == WIN else 0
    return ArenaScore(
        player=player,
        points=sum(sheet),
        games=len(results),
        wins=sum(r == WIN for r in results),
        streak=streak,
        on_fire=streak >= FIRE_AFTER,
        sheet=sheet,
    )


def scores(order: Sequence[str], finished: Iterable[tuple[tuple[str, ...], tuple[int, ...]]]) -> dict[str, ArenaScore]:
    """Every player's score (``order``: the seeding) from the counted games ``(seats, ranks)`` in
    the order they finished (each player's sheet is ``game_points`` of their results)."""
    return {p: _score(p, results) for p, results in _results(order, finished).items()}


def points(order: Sequence[str], finished: Iterable[tuple[tuple[str, ...], tuple[int, ...]]]) -> dict[str, int]:
    """``scores``' points alone (what pairing and standings need), by player."""
    return {p: sum(game_points(results)) for p, results in _results(order, finished).items()}


def ranked(order: Sequence[str], total: Mapping[str, int]) -> list[str]:
    """``order`` (the seeding) by points, high to low; level players in seeding order."""
    seed = {p: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (-total[p], seed[p]))


def standings(order: Sequence[str], total: Mapping[str, int]) -> tuple[Standing, ...]:
    """Points high to low; players level on points share a rank (listed in seeding order)."""
    out: list[Standing] = []
    last: int | None = None
    rank = 0
    for i, p in enumerate(ranked(order, total), 1):
        if total[p] != last:
            rank, last = i, total[p]
        out.append(Standing(rank=rank, player=p, points=float(total[p])))
    return tuple(out)


def pair(
    pool: Sequence[str],
    last_opponent: Mapping[str, str],
    balance: Mapping[str, int],
) -> tuple[list[tuple[str, str]], list[str]]:
    """Pair ``pool`` (the waiting players, best ranked first): each unpaired player, top down,
    with the nearest-ranked unpaired player that is not an immediate rematch.  ``balance``: times
    a player sat first minus times second; the lower sits first (level: the higher ranked).
    Returns the pairs (first seat, second seat) and the players left waiting."""
    free = list(pool)
    taken = [False] * len(free)
    pairs: list[tuple[str, str]] = []
    left: list[str] = []
    for i, p in enumerate(free):
        if taken[i]:
            continue
        taken[i] = True
        mate = -1
        for j in range(i + 1, len(free)):
            if taken[j]:
                continue
            q = free[j]
            if last_opponent.get(p) == q or last_opponent.get(q) == p:
                continue
            mate = j
            break
        if mate < 0:
            left.append(p)
            continue
        taken[mate] = True
        q = free[mate]
        pairs.append((q, p) if balance.get(q, 0) < balance.get(p, 0) else (p, q))
    return pairs, left


def finished_games(state: TournamentState) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """The games that count, ``(seats, ranks)``, in the order their results were recorded."""
    games = sorted((g for r in state.rounds for g in r.games if g.ranks is not None), key=lambda g: g.finished_seq)
    return [(g.seats, g.ranks) for g in games if g.ranks is not None]


def current_scores(state: TournamentState) -> dict[str, ArenaScore]:
    return scores(state.order, finished_games(state))


def current_points(state: TournamentState) -> dict[str, int]:
    return points(state.order, finished_games(state))


def next_pairing(state: TournamentState) -> tuple[Table, ...]:
    """The tables of a pairing now: the waiting players paired (``pair``)."""
    gone = state.withdrawn_players()
    busy: set[str] = set()
    last_opponent: dict[str, str] = {}
    balance: dict[str, int] = {}
    for rnd in state.rounds:
        for g in rnd.games:
            first, second = g.seats
            last_opponent[first], last_opponent[second] = second, first
            balance[first] = balance.get(first, 0) + 1
            balance[second] = balance.get(second, 0) - 1
            if g.ranks is None and not g.voided:
                busy.update(g.seats)
    pool = [p for p in ranked(state.order, current_points(state)) if p not in gone and p not in busy]
    pairs, _left = pair(pool, last_opponent, balance)
    return tuple(Table(table=i, seats=seats) for i, seats in enumerate(pairs, 1))
