"""Computer players: pure (state, seat, rng) -> command, acting on a seat's information state.

- ``random``: a uniformly random legal command.
- ``heuristic``: bids from hand strength and held marriages, claims the redeals it may, gives away
  its weakest cards, raises to what the hand is worth, announces marriages, takes tricks with the
  cheapest winning card, feeds points to the other defender and sheds low cards otherwise.
- ``search``: the heuristic everywhere but the play of the cards, where each legal card is tried
  on sampled deals of the unseen cards (determinization) played out by the heuristic; the card with
  the best average result for the seat wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SetContract,
    ThousandCommand,
    ThousandRuleset,
    WriteOff,
)
from domain.core.cardgame import tricks
from domain.core.cardgame.redact import UNKNOWN
from domain.games.thousand.legal import marriages_held
from domain.games.thousand.phases import legal_commands
from domain.games.thousand.rules import DECK, MARRIAGE_TABLES, POINTS, STRENGTH, card_points, round5
from domain.games.thousand.state import TState

_POWER = {rk: len(STRENGTH) - k for k, rk in enumerate(STRENGTH)}  # A 6 .. 9 1


def random_bot(state: TState, seat: str, rng: random.Random) -> ThousandCommand:
    return rng.choice(legal_commands(state, seat))


def _rank(c: str) -> str:
    return c[:-1]


def _suit(c: str) -> str:
    return c[-1]


def strength(rules: ThousandRuleset, hand: Sequence[str]) -> int:
    """What a hand should bring as declarer: its sure tricks' points, held marriages and a share of
    the talon and the opponents' cards (calibrated on self-play)."""
    hand = tuple(c for c in hand if c != UNKNOWN)
    held = sum(v for _, v in marriages_held(rules, hand))
    aces = [c for c in hand if _rank(c) == "A"]
    tens_guarded = [c for c in hand if _rank(c) == "10" and f"A{_suit(c)}" in hand]
    sure = 11 * len(aces) + 10 * len(tens_guarded)
    rest = sum(card_points(c) for c in hand) - sure
    per_ace = 8 * len(aces)
    return int(sure * 1.4 + rest * 0.5 + held + per_ace + 15)


def _weakest_two(hand: Sequence[str], rules: ThousandRuleset) -> list[str]:
    keep = {c for s, _ in marriages_held(rules, tuple(hand)) if s != "aces" for c in (f"K{s}", f"Q{s}")}

    def cost(c: str) -> tuple[int, int, int]:
        same_suit = sum(1 for x in hand if _suit(x) == _suit(c))
        return (c in keep, POINTS[_rank(c)] + (10 if _rank(c) == "A" else 0), same_suit)

    return sorted(hand, key=cost)[:2]


def heuristic_bot(state: TState, seat: str, rng: random.Random) -> ThousandCommand:
    legal = legal_commands(state, seat)
    if len(legal) == 1:
        return legal[0]
    s = state
    r = s.rules
    i = s.seats.index(seat)
    hand = tuple(c for c in s.hands[i] if c != UNKNOWN)
    phase = s.phase
    if phase in ("waiting", "next_deal"):
        return Ready()
    if phase == "blind_offer":
        return DeclineBlind()
    if phase in ("redeal_window", "talon_window", "after_pass_window"):
        claims = [c for c in legal if isinstance(c, ClaimRedeal)]
        return claims[0] if claims else KeepHand()
    if phase == "auction":
        worth = strength(r, hand)
        bids = sorted(c.amount for c in legal if isinstance(c, Bid))
        ok = [b for b in bids if b <= worth]
        if not ok:
            return Pass()
        return Bid(amount=ok[0])
    if phase == "passing":
        worth = strength(r, hand) - 15
        if any(isinstance(c, WriteOff) for c in legal) and worth < s.bid - 40:
            return WriteOff()
        low = _weakest_two(hand, r)
        first = s.seats[s.next_active(i)]
        other = next(s.seats[j] for j in s.defenders() if s.seats[j] != first)
        return GiveCards(gifts={first: low[0], other: low[1]})
    if phase == "contract":
        worth = strength(r, hand) - 15
        if any(isinstance(c, WriteOff) for c in legal) and worth < s.bid - 40:
            return WriteOff()
        amounts = sorted(c.amount for c in legal if isinstance(c, SetContract))
        best = max([a for a in amounts if a <= worth - 10] or [amounts[0]])
        return SetContract(amount=best)
    return _play(s, i, legal)


def _remaining_top(s: TState, hand: Sequence[str], c: str) -> bool:
    """``c`` is the strongest card of its suit still out (played cards and the own hand known)."""
    gone = set(s.played) | set(hand)
    return all(_POWER[_rank(x)] <= _POWER[_rank(c)] for x in DECK if _suit(x) == _suit(c) and x not in gone)


def _play(s: TState, i: int, legal: Sequence[ThousandCommand]) -> ThousandCommand:
    hand = tuple(c for c in s.hands[i] if c != UNKNOWN)
    plays = [c for c in legal if isinstance(c, Play)]
    if not s.trick:
        marriages = [c for c in plays if c.announce == "marriage"]
        if marriages:
            table = MARRIAGE_TABLES[s.rules.marriage_values]
            # announce the most valuable marriage, leading its queen (the king stays to win later)
            return max(marriages, key=lambda c: (table[_suit(c.card)], _rank(c.card) == "Q"))
        aces = [c for c in plays if c.announce == "aces"]
        if aces:
            return aces[0]
        tops = [c for c in plays if c.announce == "none" and _remaining_top(s, hand, c.card)]
        non_trump_tops = [c for c in tops if _suit(c.card) != s.trump]
        if non_trump_tops:
            return max(non_trump_tops, key=lambda c: POINTS[_rank(c.card)])
        if tops and i == s.declarer:
            return max(tops, key=lambda c: POINTS[_rank(c.card)])
        low = [c for c in plays if c.announce == "none"]
        return min(low, key=lambda c: (POINTS[_rank(c.card)], _POWER[_rank(c.card)]))
    cards_in = tuple(c for _, c in s.trick)
    winner_seat = s.trick[tricks.trick_winner(cards_in, s.trump, STRENGTH)][0]
    last = len(s.trick) == 2
    winning = [c for c in plays if _wins(cards_in + (c.card,), s.trump)]
    friend = i != s.declarer and winner_seat != s.declarer
    if friend and (last or _wins(cards_in, s.trump) and _remaining_top(s, hand, cards_in[-1])):
        return max(plays, key=lambda c: (POINTS[_rank(c.card)], -_POWER[_rank(c.card)]))
    if winning and (last or any(_remaining_top(s, hand, c.card) for c in winning)):
        if not last:
            winning = [c for c in winning if _remaining_top(s, hand, c.card)] or winning
        return min(winning, key=lambda c: (_POWER[_rank(c.card)], _suit(c.card) == s.trump))
    return min(plays, key=lambda c: (POINTS[_rank(c.card)], _POWER[_rank(c.card)]))


def _wins(cards_in: tuple[str, ...], trump: str | None) -> bool:
    return tricks.trick_winner(cards_in, trump, STRENGTH) == len(cards_in) - 1


# ---------------------------------------------------------------- determinized search
SAMPLES = 12


def search_bot(state: TState, seat: str, rng: random.Random) -> ThousandCommand:
    s = state
    legal = legal_commands(s, seat)
    if s.phase != "play" or len(legal) == 1:
        return heuristic_bot(s, seat, rng)
    i = s.seats.index(seat)
    plays = [c for c in legal if isinstance(c, Play)]
    totals = [0.0] * len(plays)
    for _ in range(SAMPLES):
        world = _sample_world(s, i, rng)
        for k, cmd in enumerate(plays):
            totals[k] += _rollout(s, world, i, cmd)
    best = max(range(len(plays)), key=lambda k: (totals[k], -k))
    return plays[best]


def _sample_world(s: TState, me: int, rng: random.Random) -> list[list[str]]:
    """Hands for every active seat: ours as known, the others a random deal of the unseen cards
    (cards given by us as declarer stay where we put them)."""
    hands = [list(h) for h in s.hands]
    known = {c for h in hands for c in h if c != UNKNOWN}
    pool = [c for c in DECK if c not in known and c not in s.played]
    rng.shuffle(pool)
    for j in s.active():
        if j == me:
            continue
        need = sum(1 for c in hands[j] if c == UNKNOWN)
        hands[j] = [c for c in hands[j] if c != UNKNOWN] + pool[:need]
        pool = pool[need:]
    return hands


def _rollout(s: TState, world: list[list[str]], me: int, first: Play) -> float:
    """Play the rest of the deal with ``first`` now and the heuristic policy after; the value of
    the deal for ``me`` (declarer: +-contract; defender: own rounded points less half the
    declarer's result)."""
    hands = [list(h) for h in world]
    trump = s.trump
    trick = list(s.trick)
    points = list(s.won_points)
    marr = list(s.marriage_pts)
    played = list(s.played)
    trick_no = s.trick_no
    r = s.rules
    table = MARRIAGE_TABLES[r.marriage_values]
    active = s.active()
    order = {j: s.next_active(j) for j in active}
    to_play = s.leader if not trick else order[trick[-1][0]]
    cmd: Play | None = first
    while trick_no < 8:
        hand = hands[to_play]
        if cmd is None:
            cmd = _fast_policy(r, hand, trick, trump, trick_no, played, to_play, s.declarer)
        card = cmd.card
        if cmd.announce == "marriage":
            trump = _suit(card)
            gets = to_play if r.marriage_points_to == "announcer" else s.declarer
            if r.marriage_points_to == "announcer" or to_play == s.declarer:
                marr[gets] += table[_suit(card)]
        elif cmd.announce == "aces":
            marr[to_play] += r.ace_marriage_value
            if r.ace_marriage_sets_trump:
                trump = _suit(card)
        hand.remove(card)
        trick.append((to_play, card))
        played.append(card)
        cmd = None
        if len(trick) == 3:
            cs = tuple(c for _, c in trick)
            w = trick[tricks.trick_winner(cs, trump, STRENGTH)][0]
            points[w] += sum(card_points(c) for c in cs)
            trick = []
            trick_no += 1
            to_play = w
            if trick_no == 8:
                points[w] += r.last_trick_bonus
        else:
            to_play = order[to_play]
    d = s.declarer
    raw = points[d] + marr[d]
    result = s.contract if raw >= s.contract else -s.contract
    if me == d:
        return float(result)
    return float(round5(points[me] + marr[me])) - result / 2


def _fast_policy(
    r: ThousandRuleset,
    hand: list[str],
    trick: list[tuple[int, str]],
    trump: str | None,
    trick_no: int,
    played: list[str],
    seat: int,
    declarer: int,
) -> Play:
    """The heuristic's card play on plain lists (announcing any marriage it leads)."""
    if not trick:
        if trick_no > 0 or r.marriage_on_first_lead:
            table = MARRIAGE_TABLES[r.marriage_values]
            pairs = [x for x in table if f"K{x}" in hand and f"Q{x}" in hand]
            if pairs:
                best = max(pairs, key=lambda x: table[x])
                return Play(card=f"Q{best}", announce="marriage")
        gone = set(played) | set(hand)
        tops = [
            c
            for c in hand
            if all(
                _POWER[_rank(x)] <= _POWER[_rank(c)] for x in DECK if _suit(x) == _suit(c) and x not in gone
            )
        ]
        if tops:
            return Play(card=max(tops, key=lambda c: (_suit(c) != trump, POINTS[_rank(c)])))
        return Play(card=min(hand, key=lambda c: (POINTS[_rank(c)], _POWER[_rank(c)])))
    cards_in = tuple(c for _, c in trick)
    if r.must_follow_suit:
        allowed = list(
            tricks.legal_follows(hand, cards_in[0], trump, must_trump_when_void=r.must_trump_when_void)
        )
    else:
        allowed = list(hand)
    winner = trick[tricks.trick_winner(cards_in, trump, STRENGTH)][0]
    if seat != declarer and winner != declarer and len(trick) == 2:
        return Play(card=max(allowed, key=lambda c: (POINTS[_rank(c)], -_POWER[_rank(c)])))
    winning = [c for c in allowed if _wins(cards_in + (c,), trump)]
    if winning:
        return Play(card=min(winning, key=lambda c: (_POWER[_rank(c)], _suit(c) == trump)))
    return Play(card=min(allowed, key=lambda c: (POINTS[_rank(c)], _POWER[_rank(c)])))


__all__ = ["heuristic_bot", "random_bot", "search_bot", "strength"]
