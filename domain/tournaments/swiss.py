"""Swiss pairing for two-seat games after the FIDE Dutch system (Handbook C.04.3), its core.

What is implemented:
- ranking by score, then pairing number (the seeding); score brackets from the top down;
- players left unpaired in a bracket move down (downfloaters) and are paired first in the next
  bracket (heterogeneous bracket: S1 = the movers, S2 = the residents), the rest of that bracket
  is paired as a homogeneous one;
- a homogeneous bracket is split into S1 (upper half) and S2 (lower half); S1[i] meets S2[i], and
  when that breaks a rule the first transposition of S2 in lexicographic order that keeps every
  rule is taken (a depth-first search in S2 order finds exactly that one), then exchanges of one
  S1 player with one S2 player (smallest difference of pairing numbers first);
- absolute criteria: no rematch, no pair of players who both must have the same colour
  (colour difference beyond +-1, or the same colour twice running);
- quality: the search first asks that every pair's colour preferences fit, then allows mild
  (alternation) clashes, then strong ones; in an odd bracket the player moved down is the lowest
  one that did not move down in the previous round;
- completion: a bracket's pairing must leave the players below pairable (checked by a search
  over the rest, capped; a failure falls back to pairing everything still unpaired as one bracket);
- colours by the E rules: both preferences granted, else the stronger, else alternate from the
  last round in which the two had different colours, else the higher ranked player's
  preference; with no preference at all (round 1) the higher ranked player gets the initial
  colour (drawn from the seed) when his pairing number is odd, the other colour when even;
- the bye to the lowest ranked player of the lowest score who has not had one and whose
  absence leaves the rest pairable.

Not implemented: the ordering of exchanges beyond single ones, the full list of quality criteria
of the 2017 rules (C.04.3 C.5-C.19: upfloat limits, score-difference minimisation across
brackets), the top-scorer exception to the colour rules in the last round and the
"collapsing" of the last bracket beyond the whole-rest fallback.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

WHITE, BLACK = "W", "B"
SEARCH_CAP = 20_000  # nodes of one bracket search before it counts as failed
REST_CAP = 4_000  # nodes of the completion check before the rest counts as pairable


class SwissPlayer(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    number: int  # pairing number, 1-based
    score: int  # half points
    opponents: frozenset[str] = frozenset()
    colours: tuple[str, ...] = ()  # per round played: "W", "B" or "" (no game)
    had_bye: bool = False
    floated_down_last: bool = False


class SwissPairing(msgspec.Struct, frozen=True, kw_only=True):
    games: tuple[tuple[str, str], ...]  # (white, black), in table order
    bye: str | None


def preference(p: SwissPlayer) -> tuple[str, int]:
    """(colour, strength): 3 absolute, 2 strong, 1 mild, 0 none (colour "")."""
    played = [c for c in p.colours if c]
    if not played:
        return "", 0
    diff = played.count(WHITE) - played.count(BLACK)
    last_two = played[-2:]
    if diff < -1 or last_two == [BLACK, BLACK]:
        return WHITE, 3
    if diff > 1 or last_two == [WHITE, WHITE]:
        return BLACK, 3
    if diff == -1:
        return WHITE, 2
    if diff == 1:
        return BLACK, 2
    return (BLACK if played[-1] == WHITE else WHITE), 1


def compatible(a: SwissPlayer, b: SwissPlayer, level: int = 3) -> bool:
    """May a meet b?  ``level``: the weakest colour clash allowed is below it (3: only absolute
    clashes are refused; 1: any clash of preferences is refused)."""
    if b.player in a.opponents:
        return False
    ca, sa = preference(a)
    cb, sb = preference(b)
    return not (ca and ca == cb and min(sa, sb) >= level)


def colours_for(a: SwissPlayer, b: SwissPlayer, initial: str) -> tuple[str, str]:
    """(white, black) for a meeting of a (the higher ranked) and b."""
    ca, sa = preference(a)
    cb, sb = preference(b)
    if not ca and not cb:
        first = initial if a.number % 2 else (BLACK if initial == WHITE else WHITE)
        return (a.player, b.player) if first == WHITE else (b.player, a.player)
    if ca != cb:
        if ca:
            return (a.player, b.player) if ca == WHITE else (b.player, a.player)
        return (b.player, a.player) if cb == WHITE else (a.player, b.player)
    if sa != sb:
        winner, colour = (a, ca) if sa > sb else (b, cb)
        other = b if winner is a else a
        return (winner.player, other.player) if colour == WHITE else (other.player, winner.player)
    for x, y in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if x and y and x != y:
            # alternate: each takes the colour the other had then
            return (a.player, b.player) if x == BLACK else (b.player, a.player)
    return (a.player, b.player) if ca == WHITE else (b.player, a.player)


def _rank_key(p: SwissPlayer) -> tuple[int, int]:
    return (-p.score, p.number)


class _Budget:
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def _pair_s1_s2(
    s1: Sequence[SwissPlayer], s2: Sequence[SwissPlayer], level: int, cap: int
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """The first transposition of S2 (lexicographic) that pairs every S1 player, or None."""
    budget = _Budget(cap)
    used = [False] * len(s2)
    chosen: list[tuple[SwissPlayer, SwissPlayer]] = []
    failed: set[int] = set()  # masks of used S2 players known not to complete
    mask = 0

    def go(i: int) -> bool:
        nonlocal mask
        if i == len(s1):
            return True
        if mask in failed:
            return False
        budget.left -= 1
        if budget.left < 0:
            return False
        a = s1[i]
        for j, b in enumerate(s2):
            if not used[j] and compatible(a, b, level):
                used[j] = True
                mask |= 1 << j
                chosen.append((a, b))
                if go(i + 1):
                    return True
                chosen.pop()
                mask &= ~(1 << j)
                used[j] = False
        if budget.left >= 0:
            failed.add(mask)
        return False

    return chosen if go(0) else None


def pairable(players: Sequence[SwissPlayer], cap: int = REST_CAP) -> bool:
    """Can these players all be paired without breaking an absolute criterion?  A capped search:
    running out of nodes on a large field answers True (the fallback pairs such a field)."""
    if len(players) % 2:
        return False
    budget = _Budget(cap)
    ordered = sorted(players, key=_rank_key)
    free = [True] * len(ordered)
    failed: set[int] = set()  # masks of taken players known not to complete
    mask = 0

    def go() -> bool:
        nonlocal mask
        if mask in failed:
            return False
        budget.left -= 1
        if budget.left < 0:
            raise _OutOfBudget
        try:
            i = free.index(True)
        except ValueError:
            return True
        free[i] = False
        for j in range(i + 1, len(ordered)):
            if free[j] and compatible(ordered[i], ordered[j]):
                free[j] = False
                mask |= (1 << i) | (1 << j)
                if go():
                    return True
                mask &= ~((1 << i) | (1 << j))
                free[j] = True
        free[i] = True
        failed.add(mask)
        return False

    try:
        return go()
    except _OutOfBudget:
        return len(players) > 40


class _OutOfBudget(Exception):
    pass


def any_pairing(
    players: Sequence[SwissPlayer], cap: int = 200_000
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """The last resort: the first pairing in ranking order (each free player with the highest
    ranked compatible one below) that keeps the absolute criteria, or None."""
    if len(players) % 2:
        return None
    budget = _Budget(cap)
    ordered = sorted(players, key=_rank_key)
    free = [True] * len(ordered)
    chosen: list[tuple[SwissPlayer, SwissPlayer]] = []
    failed: set[int] = set()  # masks of taken players known not to complete
    mask = 0

    def go() -> bool:
        nonlocal mask
        if mask in failed:
            return False
        budget.left -= 1
        if budget.left < 0:
            raise _OutOfBudget
        try:
            i = free.index(True)
        except ValueError:
            return True
        free[i] = False
        for j in range(i + 1, len(ordered)):
            if free[j] and compatible(ordered[i], ordered[j]):
                free[j] = False
                mask |= (1 << i) | (1 << j)
                chosen.append((ordered[i], ordered[j]))
                if go():
                    return True
                chosen.pop()
                mask &= ~((1 << i) | (1 << j))
                free[j] = True
        free[i] = True
        failed.add(mask)
        return False

    try:
        return chosen if go() else None
    except _OutOfBudget:
        return None


def _homogeneous(
    group: Sequence[SwissPlayer], rest_below: Sequence[SwissPlayer]
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]] | None:
    """Pair a homogeneous bracket; return the pairs and the players moved down."""
    group = sorted(group, key=_rank_key)
    floats_needed = len(group) % 2
    while floats_needed <= len(group):
        candidates = _float_choices(group, floats_needed)
        for movers in candidates:
            mover_ids = {m.player for m in movers}
            left = [p for p in group if p.player not in mover_ids]
            if movers and not pairable([*movers, *rest_below]) and len(rest_below) <= 40:
                continue
            half = len(left) // 2
            s1, s2 = left[:half], left[half:]
            for level in (1, 2, 3):
                pairs = _pair_s1_s2(s1, s2, level, SEARCH_CAP)
                if pairs is None:
                    pairs = _exchanges(s1, s2, level)
                if pairs is not None:
                    return pairs, list(movers)
        floats_needed += 2
    return None


def _float_choices(group: Sequence[SwissPlayer], count: int) -> list[tuple[SwissPlayer, ...]]:
    if count == 0:
        return [()]
    bottom = list(reversed(group))
    fresh = [p for p in bottom if not p.floated_down_last]
    stale = [p for p in bottom if p.floated_down_last]
    preferred = (fresh + stale)[:count]
    choices = [tuple(sorted(preferred, key=_rank_key))]
    if count == 1:
        choices += [(p,) for p in fresh + stale if (p,) != choices[0]][:8]
    return choices


def _exchanges(
    s1: Sequence[SwissPlayer], s2: Sequence[SwissPlayer], level: int
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Exchange one S1 player with one S2 player, smallest difference of pairing numbers first."""
    options = sorted(
        ((b.number - a.number, -a.number, i, j) for i, a in enumerate(s1) for j, b in enumerate(s2)),
    )
    for _, _, i, j in options[:200]:
        new_s1 = sorted([*s1[:i], s2[j], *s1[i + 1 :]], key=_rank_key)
        new_s2 = sorted([*s2[:j], s1[i], *s2[j + 1 :]], key=_rank_key)
        pairs = _pair_s1_s2(new_s1, new_s2, level, SEARCH_CAP // 10)
        if pairs is not None:
            return pairs
    return None


def _heterogeneous(
    movers: Sequence[SwissPlayer], residents: Sequence[SwissPlayer], rest_below: Sequence[SwissPlayer]
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]] | None:
    """Pair the movers with residents first (S1 = movers), then the remainder homogeneously."""
    movers = sorted(movers, key=_rank_key)
    residents = sorted(residents, key=_rank_key)
    if len(movers) * 2 >= len(movers) + len(residents):
        return _homogeneous([*movers, *residents], rest_below)
    for level in (1, 2, 3):
        budget = _Budget(SEARCH_CAP)
        result = _mover_search(movers, residents, rest_below, level, budget)
        if result is not None:
            return result
    return None


def _mover_search(
    movers: Sequence[SwissPlayer],
    residents: Sequence[SwissPlayer],
    rest_below: Sequence[SwissPlayer],
    level: int,
    budget: _Budget,
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]] | None:
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    floated: list[SwissPlayer] = []
    used: set[str] = set()

    def go(i: int) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]] | None:
        budget.left -= 1
        if budget.left < 0:
            return None
        if i == len(movers):
            remainder = [r for r in residents if r.player not in used]
            done = _homogeneous(remainder, [*floated, *rest_below])
            if done is None:
                return None
            return [*pairs, *done[0]], [*floated, *done[1]]
        a = movers[i]
        for b in residents:
            if b.player not in used and compatible(a, b, level):
                used.add(b.player)
                pairs.append((a, b))
                found = go(i + 1)
                if found is not None:
                    return found
                pairs.pop()
                used.discard(b.player)
        floated.append(a)  # no partner here: the mover moves down again
        found = go(i + 1)
        floated.pop()
        return found

    return go(0)


def pair_round(players: Sequence[SwissPlayer], initial_colour: str) -> SwissPairing | None:
    """The round's games, or None when no pairing keeps the absolute criteria."""
    ranked = sorted(players, key=_rank_key)
    bye: SwissPlayer | None = None
    if len(ranked) % 2:
        for p in reversed(ranked):
            if p.had_bye:
                continue
            others = [q for q in ranked if q.player != p.player]
            if pairable(others):
                bye = p
                break
        if bye is None:
            return None
        ranked = [p for p in ranked if p.player != bye.player]
    scores = sorted({p.score for p in ranked}, reverse=True)
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    movers: list[SwissPlayer] = []
    for k, score in enumerate(scores):
        residents = [p for p in ranked if p.score == score]
        below = [p for p in ranked if p.score < score]
        if movers:
            done = _heterogeneous(movers, residents, below)
        else:
            done = _homogeneous(residents, below)
        if done is not None and (k + 1 < len(scores) or not done[1]):
            pairs.extend(done[0])
            movers = done[1]
            continue
        # this bracket cannot be paired so that the rest completes: pair all that is left at
        # once, and when even that fails, the whole field in ranking order
        left = [*movers, *residents, *below]
        whole = _homogeneous(left, ())
        if whole is not None and not whole[1]:
            pairs.extend(whole[0])
        else:
            anyhow = any_pairing(left)
            if anyhow is None:
                anyhow = any_pairing(ranked)
                if anyhow is None:
                    return None
                pairs = []
            pairs.extend(anyhow)
        movers = []
        break
    if movers:
        return None
    games = []
    for a, b in pairs:
        hi, lo = (a, b) if _rank_key(a) < _rank_key(b) else (b, a)
        games.append((_rank_key(hi), colours_for(hi, lo, initial_colour)))
    games.sort()
    return SwissPairing(games=tuple(g for _, g in games), bye=None if bye is None else bye.player)
