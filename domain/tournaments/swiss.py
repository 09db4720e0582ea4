"""Swiss pairing for two-seat games after the FIDE Dutch system (Handbook C.04.3), its core.

What is implemented:
- ranking by score, then pairing number (the seeding); score brackets from the top down;
- players left unpaired in a bracket move down (downfloaters) and are paired first in the next
  bracket (heterogeneous bracket: S1 = the movers, S2 = the residents), the rest of that bracket
  is paired as a homogeneous one;
- a homogeneous bracket is split into S1 (upper half) and S2 (lower half); S1[i] meets S2[i], and
  when that breaks a rule a transposition of S2 is searched for depth-first in S2 order (so the
  first valid one in lexicographic order wins), then exchanges of one S1 player with one S2
  player (smallest difference of pairing numbers first);
- absolute criteria: no rematch, no pair of players who both must have the same colour
  (colour difference beyond +-1, or the same colour twice running);
- colour quality: a bracket whose S1 has at most ``EXACT_BRACKET`` players is searched exactly
  for the first transposition with no colour clash, then with mild (alternation) clashes only;
  otherwise, and failing that, each S1 player tries the S2 players without a clash first, then
  mild, then strong clashes (a greedy order, not the exact minimum number of clashes);
- in an odd bracket the player moved down is the lowest one that did not move down in the
  previous round;
- completion: a bracket's pairing must leave the players below pairable (a search over the rest,
  exact for up to 40 players, optimistic beyond); a bracket that cannot be paired so is merged
  with the bracket above, which is paired again with it (the Dutch "collapsing" of the last
  brackets, applied anywhere); the whole field paired in ranking order is the last resort;
- colours by the E rules: both preferences granted, else the stronger, else alternate from the
  last round in which the two had different colours, else the higher ranked player's
  preference; with no preference at all (round 1) the higher ranked player gets the initial
  colour (drawn from the seed) when his pairing number is odd, the other colour when even;
- the bye to the lowest ranked player of the lowest score who has not had one and whose
  absence leaves the rest pairable.

Not implemented: exchanges of more than one player, the exact transposition and exchange order
of the rules beyond the S2-order search, the full list of quality criteria of the 2017 rules
(C.04.3 C.5-C.19: minimising the score differences of floaters, upfloat limits, floats two
rounds back), the top-scorer exception to the colour rules in the last round, and choosing the
bye inside the last bracket's pairing rather than before it.

Checked against published Dutch pairings (tests/unit/tournaments/test_swiss_published.py, the
test data of bbpPairings): rounds 1, 2 and 7 of a 60-player, 15-round tournament and the 2025
C.5 case agree game for game and are pinned.  Where ours differs, and why: round 3, the
downfloater is fixed before the colour search although C.12 (fewest unsatisfied colour
preferences) outranks who floats; round 4, when every pairing of a bracket has a colour clash
the one with the fewest clashes first in transposition order (C.12/C.13, D.1) is not searched
for; round 10, upfloats are not tracked, so a player who upfloated the round before upfloats
again (C.15); rounds 5, 6, 8, 9, 11-14, several brackets, cause not isolated beyond those and the
criteria left out above; round 15 (the last) also the top-scorer exception; the 2025 C.9 case, the bye goes
to a player who was absent in round 1 rather than to one who has played.
"""

from __future__ import annotations

import bisect
import contextvars
import functools
import heapq
import itertools
from collections.abc import Iterator, Sequence

import msgspec

WHITE, BLACK = "W", "B"
EXACT_BRACKET = 6  # S1 sizes searched exactly for the best colour quality
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
    return _preference(p.colours)


@functools.lru_cache(maxsize=4096)
def _preference(colours: tuple[str, ...]) -> tuple[str, int]:
    played = [c for c in colours if c]
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


def clash(a: SwissPlayer, b: SwissPlayer) -> int:
    """How strongly a's and b's colour preferences collide: 0 when both can be granted, else the
    weaker of the two strengths (1 mild, 2 strong, 3 both absolute)."""
    ca, sa = _preference(a.colours)
    cb, sb = _preference(b.colours)
    return min(sa, sb) if ca and ca == cb else 0


def compatible(a: SwissPlayer, b: SwissPlayer, level: int = 3) -> bool:
    """May a meet b?  ``level``: the weakest colour clash allowed is below it (3: only absolute
    clashes are refused; 1: any clash of preferences is refused)."""
    return b.player not in a.opponents and clash(a, b) < level


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
    s1: Sequence[SwissPlayer], s2: Sequence[SwissPlayer], level: int, cap: int, ordered: bool = False
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """The first transposition of S2 (lexicographic) that pairs every S1 player with no colour
    clash of ``level`` or more, or None.  ``ordered``: only absolute clashes are refused, and each
    S1 player tries the S2 players without a clash first, then mild, then strong clashes.

    A depth-first search over S1 in order, one frame per S1 player, kept on an explicit stack
    (an S1 of thousands is as deep): a frame spends one node of ``cap`` when it starts and lists
    its candidates then (the unused S2 players); a set of used S2 players known not to complete
    is not searched again.  Once the nodes are spent every frame still tries its remaining
    candidates, each of which fails at once unless it completes the pairing."""
    n1, n2 = len(s1), len(s2)
    budget = cap
    used = [False] * n2
    chosen: list[int] = []
    failed: set[int] = set()  # masks of used S2 players known not to complete
    mask = 0
    stack: list[Iterator[int]] = []
    # ``ordered``: the unused S2 indices of each colour preference, ascending, so a frame lists
    # its candidates by (clash, index) without computing the clash of every S2 player.
    prefs = [_preference(b.colours) for b in s2]
    classes = sorted(set(prefs))
    unused = {c: [j for j in range(n2) if prefs[j] == c] for c in classes}

    def candidates(a: SwissPlayer) -> Iterator[int]:
        if not ordered:
            return iter(range(n2))
        ca, sa = _preference(a.colours)
        by_clash: dict[int, list[list[int]]] = {}
        for c in classes:
            cb, sb = c
            by_clash.setdefault(min(sa, sb) if ca and ca == cb else 0, []).append(list(unused[c]))
        # a clash of ``level`` or more is never compatible: those S2 players are not listed
        groups = [by_clash[k] for k in sorted(by_clash) if k < level]
        return itertools.chain.from_iterable(g[0] if len(g) == 1 else heapq.merge(*g) for g in groups)

    def enter(i: int) -> bool | None:
        """Start the frame of S1 player ``i``: its result at once, or None (pushed)."""
        nonlocal budget
        if i == n1:
            return True
        if mask in failed:
            return False
        budget -= 1
        if budget < 0:
            return False
        stack.append(candidates(s1[i]))
        return None

    def take(j: int) -> None:
        nonlocal mask
        used[j] = True
        mask |= 1 << j
        chosen.append(j)
        if ordered:
            row = unused[prefs[j]]
            del row[bisect.bisect_left(row, j)]

    def undo() -> None:
        nonlocal mask
        j = chosen.pop()
        used[j] = False
        mask &= ~(1 << j)
        if ordered:
            bisect.insort(unused[prefs[j]], j)

    result = enter(0)
    while True:
        if result is True:
            return [(s1[i], s2[j]) for i, j in enumerate(chosen)]
        if result is False:
            if not stack:
                return None
            undo()  # the frame on top tried its candidate in vain
        i = len(stack) - 1
        a = s1[i]
        for j in stack[-1]:
            if not used[j] and compatible(a, s2[j], level):
                take(j)
                result = enter(i + 1)
                break
        else:
            if budget >= 0:
                failed.add(mask)
            stack.pop()
            if not stack:
                return None
            result = False


# Within one ``pair_round`` the answers of ``pairable`` by (set of players, cap): the bracket
# searches ask the same question many times (a mover search may ask each of its leaves again),
# and the answer depends only on the set, its players being fixed for the round.
_PAIRABLE: contextvars.ContextVar[dict[tuple[frozenset[str], int], bool] | None] = contextvars.ContextVar(
    "swiss_pairable", default=None
)


def pairable(players: Sequence[SwissPlayer], cap: int = REST_CAP) -> bool:
    """Can these players all be paired without breaking an absolute criterion?  A capped search:
    running out of nodes on a large field answers True (the fallback pairs such a field)."""
    memo = _PAIRABLE.get()
    key = (frozenset(p.player for p in players), cap)
    if memo is not None and len(key[0]) == len(players):
        found = memo.get(key)
        if found is None:
            found = memo[key] = _pairable(players, cap)
        return found
    return _pairable(players, cap)


def _pairable(players: Sequence[SwissPlayer], cap: int) -> bool:
    try:
        return _first_pairing(players, cap) is not None
    except _OutOfBudget:
        return len(players) > 40


class _OutOfBudget(Exception):
    pass


def any_pairing(
    players: Sequence[SwissPlayer], cap: int = 200_000
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """The last resort: the first pairing in ranking order (each free player with the highest
    ranked compatible one below) that keeps the absolute criteria, or None."""
    try:
        return _first_pairing(players, cap)
    except _OutOfBudget:
        return None


def _first_pairing(players: Sequence[SwissPlayer], cap: int) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """``any_pairing``'s search; raises ``_OutOfBudget`` after ``cap`` nodes.  Depth first: the
    highest ranked free player takes the highest ranked compatible free player below, one frame
    per pair on an explicit stack (a large field is as deep); a set of taken players known not
    to complete is not searched again."""
    if len(players) % 2:
        return None
    budget = cap
    ordered = sorted(players, key=_rank_key)
    n = len(ordered)
    free = [True] * n
    chosen: list[tuple[int, int]] = []
    failed: set[int] = set()  # masks of taken players known not to complete
    mask = 0
    stack: list[list[int]] = []  # per frame: [i, the next j to try]
    # A player with an absolute colour preference may not meet one with the same: each frame
    # scans only the free players it may meet (by colour), in ranking order.  The free players of
    # each kind are kept in sorted lists; a scan stops at the first pair it takes.
    absolute = [c if s == 3 else "" for c, s in (_preference(p.colours) for p in ordered)]
    rows = {k: [j for j in range(n) if absolute[j] == k] for k in ("", WHITE, BLACK)}
    allowed = {
        "": (rows[""], rows[WHITE], rows[BLACK]),
        WHITE: (rows[""], rows[BLACK]),
        BLACK: (rows[""], rows[WHITE]),
    }

    def scan(i: int, start: int) -> Iterator[int]:
        return heapq.merge(*(itertools.islice(r, bisect.bisect_left(r, start), None) for r in allowed[absolute[i]]))

    def taken(j: int) -> None:
        free[j] = False
        row = rows[absolute[j]]
        del row[bisect.bisect_left(row, j)]

    def freed(j: int) -> None:
        free[j] = True
        bisect.insort(rows[absolute[j]], j)

    def enter() -> bool | None:
        """Start a frame: its result at once, or None (pushed)."""
        nonlocal budget
        if mask in failed:
            return False
        budget -= 1
        if budget < 0:
            raise _OutOfBudget
        try:
            # every player above the top frame's is taken while it stands
            i = free.index(True, stack[-1][0] + 1 if stack else 0)
        except ValueError:
            return True
        taken(i)
        stack.append([i, i + 1])
        return None

    result = enter()
    while True:
        if result is True:
            return [(ordered[i], ordered[j]) for i, j in chosen]
        if result is False:
            if not stack:
                return None
            i, j = chosen.pop()  # the frame on top tried its pair in vain
            freed(j)
            mask &= ~((1 << i) | (1 << j))
        frame = stack[-1]
        i = frame[0]
        a = ordered[i]
        for j in scan(i, frame[1]):
            if free[j] and compatible(a, ordered[j]):
                frame[1] = j + 1
                taken(j)
                mask |= (1 << i) | (1 << j)
                chosen.append((i, j))
                result = enter()
                break
        else:
            freed(i)
            failed.add(mask)
            stack.pop()
            if not stack:
                return None
            result = False


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
            if rest_below and not pairable([*movers, *rest_below]):
                continue
            half = len(left) // 2
            s1, s2 = left[:half], left[half:]
            pairs = _s1_s2_by_quality(s1, s2)
            if pairs is None:
                pairs = _exchanges(s1, s2)
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


def _s1_s2_by_quality(
    s1: Sequence[SwissPlayer], s2: Sequence[SwissPlayer]
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """A small bracket is searched exactly for a transposition with no colour clash, then none
    beyond mild ones; any bracket then takes the clash-ordered search (absolute rules only)."""
    if len(s1) <= EXACT_BRACKET:
        for level in (1, 2):
            pairs = _pair_s1_s2(s1, s2, level, SEARCH_CAP // 10)
            if pairs is not None:
                return pairs
    return _pair_s1_s2(s1, s2, 3, SEARCH_CAP, ordered=True)


def _exchanges(
    s1: Sequence[SwissPlayer], s2: Sequence[SwissPlayer]
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Exchange one S1 player with one S2 player, smallest difference of pairing numbers first."""
    options = sorted(
        ((b.number - a.number, -a.number, i, j) for i, a in enumerate(s1) for j, b in enumerate(s2)),
    )
    for _, _, i, j in options[:100]:
        new_s1 = sorted([*s1[:i], s2[j], *s1[i + 1 :]], key=_rank_key)
        new_s2 = sorted([*s2[:j], s1[i], *s2[j + 1 :]], key=_rank_key)
        pairs = _pair_s1_s2(new_s1, new_s2, 3, SEARCH_CAP // 100, ordered=True)
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
    return _mover_search(movers, residents, rest_below, _Budget(SEARCH_CAP))


def _mover_search(
    movers: Sequence[SwissPlayer],
    residents: Sequence[SwissPlayer],
    rest_below: Sequence[SwissPlayer],
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
        # residents in ranking order, those without a colour clash first
        for b in sorted(residents, key=lambda r: (clash(a, r), _rank_key(r))):
            if b.player not in used and compatible(a, b):
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


def _pair_brackets(groups: list[list[SwissPlayer]]) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Pair the score brackets from the top down.  When a bracket cannot be paired so that the
    rest completes, it is merged with the bracket above and that one is paired again (a merged
    bracket is paired as one, its S1 the upper half by ranking)."""
    groups = [list(g) for g in groups]
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    movers: list[SwissPlayer] = []
    saved: list[tuple[int, list[SwissPlayer]]] = []  # before each bracket: len(pairs), movers
    k = 0
    while k < len(groups):
        residents = groups[k]
        below = [p for g in groups[k + 1 :] for p in g]
        done = _heterogeneous(movers, residents, below) if movers else _homogeneous(residents, below)
        last = k + 1 == len(groups)
        if done is not None and not (last and done[1]):
            saved.append((len(pairs), movers))
            pairs.extend(done[0])
            movers = done[1]
            k += 1
            continue
        if len(groups) == 1:
            return None
        if k == 0:
            groups[0:2] = [sorted(groups[0] + groups[1], key=_rank_key)]
            continue
        size, movers = saved.pop()
        del pairs[size:]
        k -= 1
        groups[k : k + 2] = [sorted(groups[k] + groups[k + 1], key=_rank_key)]
    return pairs if not movers else None


def pair_round(players: Sequence[SwissPlayer], initial_colour: str) -> SwissPairing | None:
    """The round's games, or None when no pairing keeps the absolute criteria."""
    token = _PAIRABLE.set({})
    try:
        return _pair_round(players, initial_colour)
    finally:
        _PAIRABLE.reset(token)


def _pair_round(players: Sequence[SwissPlayer], initial_colour: str) -> SwissPairing | None:
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
    groups = [
        [p for p in ranked if p.score == score] for score in sorted({p.score for p in ranked}, reverse=True)
    ]
    found = _pair_brackets(groups)
    if found is None:
        found = any_pairing(ranked)
        if found is None:
            return None
    pairs = found
    games = []
    for a, b in pairs:
        hi, lo = (a, b) if _rank_key(a) < _rank_key(b) else (b, a)
        games.append((_rank_key(hi), colours_for(hi, lo, initial_colour)))
    games.sort()
    return SwissPairing(games=tuple(g for _, g in games), bye=None if bye is None else bye.player)
