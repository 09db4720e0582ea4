"""Computer players: pure (state, seat, rng) -> command, on the seat's information state.

- ``random``: a uniformly random legal command.
- ``heuristic``: keeps track of voids and of the cards played; in negative deals it leads low,
  ducks under the winning card and dumps penalty cards (K♥ first) when void; in positive and trump
  deals it leads sure winners (drawing trumps while it holds the best one), wins as cheaply as it
  can and otherwise plays low; it declares its longest suit.
- ``search``: determinization.  For each of ``SAMPLES`` samples it deals the unseen cards to the
  other seats consistently with what it has seen (hand sizes, voids shown by failing to follow
  suit or to trump, the "by the last" card), plays out the rest of the deal for every candidate
  card with the heuristic's play for everybody, and plays the card with the best average result
  (its points minus the others' mean).  Outside card play it acts as the heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    KingCommand,
    KingRuleset,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    RefuseBuyout,
)
from domain.games.king import legal, scoring
from domain.games.king.evolve import UNKNOWN
from domain.games.king.legal import scores_in
from domain.games.king.queries import legal_commands
from domain.games.king.state import Contract, KingState

SUITS = ("C", "D", "H", "S")
SAMPLES = 10
_POWER_NORMAL = {r: 8 - i for i, r in enumerate(legal.NORMAL)}  # A 8 .. 7 1
_POWER_MISERE = {r: 8 - i for i, r in enumerate(legal.MISERE)}


def random_bot(state: KingState, seat: str, rng: random.Random) -> KingCommand:
    return rng.choice(legal_commands(state, seat))


# ---------------------------------------------------------------- card sense
def power(c: Contract, card: str) -> int:
    return (_POWER_MISERE if c.misere else _POWER_NORMAL)[card[:-1]]


def penalty(rules: KingRuleset, c: Contract, card: str) -> int:
    """Points the card itself carries in this deal's game (0 in trick-only games)."""
    if c.game in ("HV", "TR", "AU", "OT"):
        return 0
    return sum(
        getattr(rules.v, cat) * scoring.card_units(rules, card, cat)
        for cat in scoring.CATEGORIES[c.game[1]]
        if cat not in ("trick", "last")
    )


def best_in_trick(c: Contract, trick: Sequence[str]) -> str | None:
    if not trick:
        return None
    led = trick[0][-1]
    pool_suit = c.trump if c.trump is not None and any(x[-1] == c.trump for x in trick) else led
    pool = [x for x in trick if x[-1] == pool_suit]
    return max(pool, key=lambda x: power(c, x))


def beats(c: Contract, card: str, best: str | None, led: str | None) -> bool:
    if best is None:
        return True
    if card[-1] == best[-1]:
        return power(c, card) > power(c, best)
    return c.trump is not None and card[-1] == c.trump


def trick_value(rules: KingRuleset, c: Contract, trick: Sequence[str], trick_no: int) -> int:
    """How much taking this trick is worth (positive) or costs (negative) in the deal's game."""
    g = c.game
    if g in ("HV", "TR", "AU", "OT"):
        return rules.hv_trick
    cats = scoring.CATEGORIES[g[1]]
    v = sum(penalty(rules, c, x) for x in trick) * 1  # card categories, already weighted
    if "trick" in cats:
        v += rules.v.trick
    if "last" in cats and trick_no > rules.hand_size - 2:
        v += rules.v.last
    return c.sign * v


def choose_card(
    rules: KingRuleset,
    c: Contract,
    seat: int,
    hand: Sequence[str],
    options: Sequence[str],
    trick: Sequence[str],
    trick_no: int,
    n_active: int,
    unseen: frozenset[str] | set[str],
) -> str:
    """The heuristic's card (also the play-out policy of the search player)."""
    if len(options) == 1:
        return options[0]
    positive = c.sign > 0
    if not trick:
        return _lead(rules, c, hand, options, trick_no, unseen, positive)
    led = trick[0][-1]
    best = best_in_trick(c, trick)
    last = len(trick) == n_active - 1
    winners = [x for x in options if beats(c, x, best, led)]
    losers = [x for x in options if x not in winners]
    if positive:
        if winners and (last or _safe(c, max(winners, key=lambda x: power(c, x)), unseen)):
            # the cheapest card that takes it (last to play), or a winner nobody can beat
            pick = (
                min(winners, key=lambda x: power(c, x)) if last else max(winners, key=lambda x: power(c, x))
            )
            return pick
        if winners and not losers:
            return min(winners, key=lambda x: power(c, x))
        pool = losers or list(options)
        return min(pool, key=lambda x: (penalty(rules, c, x), power(c, x)))
    # negative deal: duck under the winning card, dump what costs most when void
    value = trick_value(rules, c, [*trick], trick_no)
    if losers:
        if led not in {x[-1] for x in options}:  # void: throw away the dearest card
            return max(losers, key=lambda x: (penalty(rules, c, x), power(c, x)))
        return max(losers, key=lambda x: (power(c, x), penalty(rules, c, x)))
    if value == 0 and not last:
        return max(options, key=lambda x: power(c, x))  # a free trick: shed a high card
    # every card wins: take it with the highest card, but never with a penalty card if avoidable
    return max(options, key=lambda x: (-penalty(rules, c, x), power(c, x)))


def _safe(c: Contract, card: str, unseen: frozenset[str] | set[str]) -> bool:
    """No unseen card of the suit beats it (and, off trumps, no trump is left unseen)."""
    higher = any(u[-1] == card[-1] and power(c, u) > power(c, card) for u in unseen)
    if higher:
        return False
    if c.trump is not None and card[-1] != c.trump:
        return not any(u[-1] == c.trump for u in unseen)
    return True


def _lead(
    rules: KingRuleset,
    c: Contract,
    hand: Sequence[str],
    options: Sequence[str],
    trick_no: int,
    unseen: frozenset[str] | set[str],
    positive: bool,
) -> str:
    if positive:
        if c.trump is not None:
            trumps = [x for x in options if x[-1] == c.trump]
            unseen_trumps = [u for u in unseen if u[-1] == c.trump]
            if trumps and unseen_trumps:
                top = max(trumps, key=lambda x: power(c, x))
                if _safe(c, top, unseen):
                    return top  # draw trumps while holding the best one (counts trumps)
        sure = [x for x in options if _safe(c, x, unseen)]
        if sure:
            return max(sure, key=lambda x: (penalty(rules, c, x) == 0, power(c, x)))
        counts = {t: sum(1 for x in hand if x[-1] == t) for t in SUITS}
        return min(options, key=lambda x: (-counts[x[-1]], power(c, x)))

    # negative: lead low, preferably in a suit where higher cards are still out
    def key(x: str) -> tuple[int, int, int]:
        out_higher = sum(1 for u in unseen if u[-1] == x[-1] and power(c, u) > power(c, x))
        return (penalty(rules, c, x), -min(out_higher, 1), power(c, x))

    return min(options, key=key)


# ---------------------------------------------------------------- what a seat knows
def played_cards(state: KingState) -> set[str]:
    out = {x for t in state.tricks for x in t.cards}
    out |= {card for _, card in state.plays}
    return out


def voids(state: KingState) -> dict[int, set[str]]:
    """Suits each seat has shown it lacks (failed to follow; in a trump deal, failed to trump)."""
    c = state.contract
    out: dict[int, set[str]] = {i: set() for i in range(state.n())}
    seats = state.seats
    order_of = {}
    tricks = [(seats.index(t.leader), t.cards) for t in state.tricks]
    if state.plays:
        tricks.append((state.plays[0][0], tuple(card for _, card in state.plays)))
    for leader, cards_ in tricks:
        i = leader
        led = cards_[0][-1]
        for k, card in enumerate(cards_):
            if k > 0:
                i = state.left_of(i)
            order_of[card] = i
            if card[-1] != led:
                out[i].add(led)
                if c is not None and c.trump is not None and state.rules.must_trump and card[-1] != c.trump:
                    out[i].add(c.trump)
    return out


def unseen_cards(state: KingState, seat: int) -> set[str]:
    own = {x for x in state.hands[seat] if x != UNKNOWN}
    return set(scoring.deck(state.rules)) - own - played_cards(state) - set(state.discards[seat])


# ---------------------------------------------------------------- heuristic
def heuristic_bot(state: KingState, seat: str, rng: random.Random) -> KingCommand:
    options = legal_commands(state, seat)
    if len(options) == 1:
        return options[0]
    s = state
    i = s.seats.index(seat)
    hand = tuple(x for x in s.hands[i] if x != UNKNOWN)
    c = s.contract
    if s.phase == "playing":
        assert c is not None
        cards_ = [cmd.card for cmd in options if isinstance(cmd, Play)]
        card = choose_card(
            s.rules,
            c,
            i,
            hand,
            cards_,
            tuple(card for _, card in s.plays),
            len(s.tricks) + 1,
            len(s.active),
            unseen_cards(s, i),
        )
        return Play(card=card)
    return _heuristic_contract(s, i, hand, options, rng)


def _suit_strength(hand: Sequence[str], suit: str) -> tuple[int, int]:
    cards_ = [x for x in hand if x[-1] == suit]
    return (len(cards_), sum(_POWER_NORMAL[x[:-1]] for x in cards_))


def _longest(hand: Sequence[str]) -> str:
    return max(SUITS, key=lambda t: _suit_strength(hand, t))


def _danger(rules: KingRuleset, game: str, hand: Sequence[str]) -> float:
    """A rough cost of playing a negative game with this hand (higher is worse)."""
    high = sum(1 for x in hand if _POWER_NORMAL[x[:-1]] >= 6)
    if game == "NT":
        return high * 2.0
    if game == "NL":
        return sum(1 for x in hand if _POWER_NORMAL[x[:-1]] == 8) * 3.0
    if game == "NH":
        return sum(_POWER_NORMAL[x[:-1]] for x in hand if x[-1] == "H") / 2
    if game == "NK":
        hearts = sum(1 for x in hand if x[-1] == "H")
        return 16.0 if "KH" in hand and hearts <= 2 else 2.0 if "KH" in hand else 0.0
    if game in ("NB", "NG"):
        rank = "Q" if game == "NG" else "J"
        return sum(4 for x in hand if x[:-1] == rank) + high
    return 10.0 + high * 3  # NE


def _heuristic_contract(
    s: KingState, i: int, hand: tuple[str, ...], options: tuple[KingCommand, ...], rng: random.Random
) -> KingCommand:
    rules = s.rules
    if s.phase == "ordering":
        orders = [x for x in options if isinstance(x, ChooseContract)]
        strength = sum(_POWER_NORMAL[x[:-1]] for x in hand) / max(1, len(hand))

        def est(cmd: ChooseContract) -> float:
            g = cmd.game
            if g == "OT":
                if cmd.trump != _longest(hand):
                    return -100.0
                n, pw = _suit_strength(hand, cmd.trump)
                return n * 2 + pw / 4 - 8
            if g.startswith("P"):
                return (strength - 4.5) * 4
            return -_danger(rules, g, hand)

        best = max(orders, key=est)
        if PassOrder() in options and est(best) < -8:
            return PassOrder()
        return best
    if s.phase == "discard":
        c = s.contract
        assert c is not None
        discards = [x for x in options if isinstance(x, Discard)]
        if c.sign > 0 or c.game == "OT":
            return min(discards, key=lambda d: sum(_POWER_NORMAL[x[:-1]] for x in d.cards))
        return max(discards, key=lambda d: sum(_POWER_NORMAL[x[:-1]] for x in d.cards))
    if s.phase == "buyout":
        return PassBuyout() if PassBuyout() in options else options[0]
    if s.phase == "buyout_answer":
        assert s.best is not None
        return AcceptBuyout() if s.best[1] >= 3 else RefuseBuyout()
    if s.phase == "auction":
        n, pw = _suit_strength(hand, _longest(hand))
        bids = [x for x in options if isinstance(x, Bid)]
        want = 2 if n >= 6 else 1 if n >= 5 and pw >= 28 else 0
        fitting = [b for b in bids if b.tricks <= want]
        if fitting:
            return min(fitting, key=lambda b: b.tricks)
        return PassBid() if PassBid() in options else bids[0]
    if s.phase == "naming":
        return ChooseTrump(suit=_longest(hand))  # type: ignore[arg-type]
    if s.phase == "declaring":
        suit = _longest(hand)
        n, _pw = _suit_strength(hand, suit)
        declares = [x for x in options if isinstance(x, Declare)]
        if declares:
            wanted = Declare(option="SUIT", suit=suit)  # type: ignore[arg-type]
            if n >= 2 and wanted in options:
                return wanted
            weak = all(_POWER_NORMAL[x[:-1]] <= 4 for x in hand)
            for opt in (("RASPIS",) if weak else ()) + ("BY_LAST", "NO_TRUMP"):
                if Declare(option=opt) in options:  # type: ignore[arg-type]
                    return Declare(option=opt)  # type: ignore[arg-type]
            if wanted in options:
                return wanted
            return declares[0]
        if n >= 2 and ChooseTrump(suit=suit) in options:  # type: ignore[arg-type]
            return ChooseTrump(suit=suit)  # type: ignore[arg-type]
        return ChooseTrump(suit=None) if ChooseTrump(suit=None) in options else options[0]
    return options[0]


# ---------------------------------------------------------------- search
def _sample(state: KingState, me: int, unseen: set[str], rng: random.Random) -> dict[int, list[str]] | None:
    """Deal the unseen cards to the other seats: hand sizes kept, shown voids respected, a seat's
    known cards (the "by the last" card) kept; None when the draw fails."""
    s = state
    c = s.contract
    void = voids(s)
    hands: dict[int, list[str]] = {}
    need: dict[int, int] = {}
    pool = set(unseen)
    for j in s.active:
        if j == me:
            continue
        known = [x for x in s.hands[j] if x != UNKNOWN]
        hands[j] = list(known)
        pool -= set(known)
        need[j] = len(s.hands[j]) - len(known)
    # the other seats' discards (atomic) are unseen cards that nobody holds
    hidden_aside = sum(len(d) for j, d in enumerate(s.discards) if j != me)
    cards_ = list(pool)
    rng.shuffle(cards_)
    # most constrained seats first
    order = sorted(need, key=lambda j: -len(void[j]))
    for j in order:
        ok = [x for x in cards_ if x[-1] not in void[j]]
        if len(ok) < need[j]:
            return None
        take = ok[: need[j]]
        hands[j].extend(take)
        taken = set(take)
        cards_ = [x for x in cards_ if x not in taken]
    if len(cards_) != hidden_aside and c is not None:
        return None
    return hands


def _play_out(
    state: KingState, me: int, hands: dict[int, list[str]], first: str, rng: random.Random
) -> float:
    """Play the rest of the deal with the heuristic's play; my points minus the others' mean."""
    s = state
    rules = s.rules
    c = s.contract
    assert c is not None
    won = list(s.won)
    taken = [list(cap) + list(dis) for cap, dis in zip(s.captured, s.discards, strict=True)]
    last_two = [s.seats.index(t.winner) for t in s.tricks if t.trick_no > rules.hand_size - 2]
    seen = played_cards(s) | set(s.hands[me])
    plays = list(s.plays)
    trick_no = len(s.tricks) + 1
    hands = {j: list(h) for j, h in hands.items()}
    hands[me] = [x for x in s.hands[me]]
    hands[me].remove(first)
    plays.append((me, first))
    seat = s.left_of(me)
    deck = set(scoring.deck(rules))
    while True:
        if len(plays) == len(s.active):
            winner = legal.trick_winner(c, tuple(plays))
            won[winner] += 1
            taken[winner].extend(card for _, card in plays)
            if trick_no > rules.hand_size - 2:
                last_two.append(winner)
            seen |= {card for _, card in plays}
            plays = []
            trick_no += 1
            seat = winner
            if not hands[winner]:
                break
            if rules.early_end and _early(rules, c, taken):
                break
        hand = hands[seat]
        trick = tuple(card for _, card in plays)
        options = legal.legal_for(tuple(hand), trick, c, rules, seat)
        unseen = deck - seen - set(hand)
        card = choose_card(rules, c, seat, hand, options, trick, trick_no, len(s.active), unseen)
        hand.remove(card)
        plays.append((seat, card))
        seat = s.left_of(seat)
    points = scoring.points_for(rules, c, s.active, won, taken, last_two)
    others = [points[j] for j in s.active if j != me]
    return points[me] - sum(others) / max(1, len(others))


def _early(rules: KingRuleset, c: Contract, taken: list[list[str]]) -> bool:
    cat = scoring.SINGLE_CARD_CATEGORY.get(c.game[1]) if c.game in scoring._NO_TRUMP else None
    if cat is None:
        return False
    got = sum(scoring.card_units(rules, x, cat) for t in taken for x in t)
    return got == scoring.in_play(rules, cat)


def search_bot(state: KingState, seat: str, rng: random.Random) -> KingCommand:
    s = state
    if s.phase != "playing":
        return heuristic_bot(s, seat, rng)
    options = legal_commands(s, seat)
    if len(options) == 1:
        return options[0]
    me = s.seats.index(seat)
    cards_ = [cmd.card for cmd in options if isinstance(cmd, Play)]
    unseen = unseen_cards(s, me)
    totals = dict.fromkeys(cards_, 0.0)
    done = 0
    for _ in range(SAMPLES * 3):
        hands = _sample(s, me, unseen, rng)
        if hands is None:
            continue
        for card in cards_:
            totals[card] += _play_out(s, me, hands, card, rng)
        done += 1
        if done >= SAMPLES:
            break
    if done == 0:
        return heuristic_bot(s, seat, rng)
    best = max(totals.values())
    return Play(card=min(c for c in cards_ if totals[c] == best))


BOTS = {"random": random_bot, "heuristic": heuristic_bot, "search": search_bot}

__all__ = ["BOTS", "heuristic_bot", "random_bot", "search_bot", "scores_in", "OfferBuyout"]
