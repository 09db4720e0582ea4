"""What a state answers: legal commands, who moves, the outcome, what is hidden, and the TIMEOUT
auto-act of §12.3 with Decision K8.
"""

from __future__ import annotations

from itertools import combinations

import msgspec

from contracts.games.king import (
    SUITS_ORDER,
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    KingCommand,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
)
from contracts.match import Outcome
from domain.games.king import legal
from domain.games.king.decide import last_eligible, scores_in
from domain.games.king.evolve import UNKNOWN
from domain.games.king.state import KingState


# ---------------------------------------------------------------- queries
def legal_commands(state: KingState, seat_name: str) -> tuple[KingCommand, ...]:
    s = state
    if seat_name not in s.seats:
        return ()
    seat = s.seats.index(seat_name)
    rules = s.rules
    if s.phase in ("waiting", "scored"):
        return () if s.ready[seat] else (Ready(),)
    if s.phase == "finished" or seat != s.to_act:
        return ()
    out: list[KingCommand] = []
    c = s.contract
    if s.phase == "ordering":
        for g in dict.fromkeys(s.remaining[seat]):
            if rules.schedule == "atomic" and g == "OT":
                out.extend(ChooseContract(game=g, trump=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
            else:
                out.append(ChooseContract(game=g))  # type: ignore[arg-type]
        if rules.schedule == "ordered" and seat != last_eligible(s):
            out.append(PassOrder())
    elif s.phase == "buyout":
        low = s.best[1] if s.best is not None else 0
        out.extend(OfferBuyout(tricks=n) for n in range(low + 1, rules.hand_size + 1))
        out.append(PassBuyout())
    elif s.phase == "buyout_answer":
        out.extend((AcceptBuyout(), RefuseBuyout()))
    elif s.phase == "declaring":
        assert c is not None
        if c.game == "HV":
            for opt in rules.hv_options:
                if opt == "SUIT":
                    out.extend(Declare(option="SUIT", suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
                else:
                    out.append(Declare(option=opt))
        else:
            if "SUIT" in rules.hv_options:
                out.extend(ChooseTrump(suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
            if "BY_LAST" in rules.hv_options:
                out.append(ChooseTrump(suit=None))
    elif s.phase == "auction":
        if s.forced:
            out.append(Bid(tricks=1))
        else:
            low = s.best[1] if s.best is not None else 0
            out.extend(Bid(tricks=n) for n in range(low + 1, rules.hand_size + 1))
            out.append(PassBid())
    elif s.phase == "naming":
        out.extend(ChooseTrump(suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
    elif s.phase == "discard":
        assert c is not None
        allowed = [x for x in s.hands[seat] if not scores_in(rules, c.game, x)]
        out.extend(Discard(cards=pair) for pair in combinations(allowed, rules.talon_size))
    elif s.phase == "playing":
        out.extend(Play(card=x) for x in legal.legal_cards(s, seat))
    return tuple(sorted(out, key=msgspec.json.encode))


def to_move(state: KingState) -> frozenset[str]:
    if state.phase in ("waiting", "scored"):
        return frozenset(state.seats[i] for i, r in enumerate(state.ready) if not r)
    if state.phase == "finished" or state.to_act < 0:
        return frozenset()
    return frozenset({state.seats[state.to_act]})


def outcome(state: KingState) -> Outcome | None:
    if state.phase != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(t) for t in state.totals),
        reason="all deals played" + ("" if state.rules.zero_sum else f"; the totals sum to {state.balance}"),
        draw=len(set(state.ranks)) == 1,
    )


def abandon(state: KingState, seat_name: str) -> Outcome:
    """§12.3 ABANDON with Decision K16: the match is aborted; the scores of the finished deals are
    kept, it has no ranks (``ranks`` is empty) and skips the zero-sum check; it is never rated."""
    totals = state.totals or tuple(0 for _ in state.seats)
    return Outcome(ranks=(), scores=tuple(float(t) for t in totals), reason=f"aborted: {seat_name} abandoned")


def hidden(state: KingState, seat: str) -> frozenset[str]:
    """Card ids nobody but ``seat`` may see now: its hand and discards, plus what nobody may see
    (every pending card, an unshown talon).  Shown cards (the "by the last" card, a shown talon)
    are public."""
    if state.phase in ("waiting", "finished") or seat not in state.seats:
        return frozenset()
    i = state.seats.index(seat)
    out = set(state.hands[i]) | set(state.discards[i])  # after an early end the rest stays hidden (Q13)
    for p in state.pending:
        out |= set(p)
    if not state.talon_shown:
        out |= set(state.talon)
    public: set[str] = set()
    c = state.contract
    if c is not None and c.by_last:
        public.add(c.by_last)
    if state.talon_shown:
        public |= set(state.talon)
    return frozenset(out - public - {UNKNOWN})


# ---------------------------------------------------------------- TIMEOUT (§12.3, K8)
_RANK_LOW = ("7", "8", "9", "10", "J", "Q", "K", "A")


def canonical_key(card: str) -> tuple[int, int]:
    """K8's canonical card order: suits C D H S, ranks low to high."""
    return (SUITS_ORDER.index(card[-1]), _RANK_LOW.index(card[:-1]))


def longest_suit(hand: tuple[str, ...]) -> str:
    """The suit the seat holds most cards of; ties by the suit order C D H S (K8)."""
    counts = {t: sum(1 for c in hand if c != UNKNOWN and c[-1] == t) for t in SUITS_ORDER}
    return max(SUITS_ORDER, key=lambda t: (counts[t], -SUITS_ORDER.index(t)))


def timeout_command(state: KingState, seat_name: str) -> KingCommand | None:
    """What the referee plays for a seat whose clock ran out (§12.3 TIMEOUT with K8's
    tie-breaks), or None when the seat has nothing to do.  Never MISERE or RASPIS."""
    legal_now = legal_commands(state, seat_name)
    if not legal_now:
        return None
    s = state
    seat = s.seats.index(seat_name)
    hand = s.hands[seat] if s.hands else ()
    for pass_cmd in (PassOrder(), PassBuyout(), PassBid()):
        if pass_cmd in legal_now:
            return pass_cmd
    if s.phase in ("waiting", "scored"):
        return Ready()
    if s.phase == "buyout_answer":
        return RefuseBuyout()
    if s.phase == "ordering":
        game = s.remaining[seat][0]
        trump = longest_suit(hand) if s.rules.schedule == "atomic" and game == "OT" else None
        return ChooseContract(game=game, trump=trump)  # type: ignore[arg-type]
    if s.phase == "auction":
        return Bid(tricks=1)  # only the forced dealer cannot pass
    if s.phase == "naming":
        return ChooseTrump(suit=longest_suit(hand))  # type: ignore[arg-type]
    if s.phase == "declaring":
        c = s.contract
        assert c is not None
        options = s.rules.hv_options
        if c.game == "TR":
            if "BY_LAST" in options:
                return ChooseTrump(suit=None)
            return ChooseTrump(suit=longest_suit(hand))  # type: ignore[arg-type]
        if "BY_LAST" in options:
            return Declare(option="BY_LAST")
        if "SUIT" in options:
            return Declare(option="SUIT", suit=longest_suit(hand))  # type: ignore[arg-type]
        return Declare(option="NO_TRUMP")
    if s.phase == "discard":
        c = s.contract
        assert c is not None
        allowed = sorted((x for x in hand if not scores_in(s.rules, c.game, x)), key=canonical_key)
        return Discard(cards=tuple(allowed[: s.rules.talon_size]))
    cards_ = sorted(legal.legal_cards(s, seat), key=canonical_key)
    return Play(card=cards_[0])
