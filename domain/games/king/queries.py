"""What a state answers: the outcome, what is hidden, and the TIMEOUT auto-act of §12.3 with
Decision K8; the legal commands and who moves are the phase table's (``phases.py``), read here too.
"""

from __future__ import annotations

from contracts.games.king import (
    SUITS_ORDER,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    KingCommand,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
)
from contracts.match import Outcome
from domain.games.king import legal
from domain.games.king.evolve import UNKNOWN
from domain.games.king.legal import scores_in
from domain.games.king.phases import legal_commands, to_move
from domain.games.king.state import KingState

__all__ = [
    "abandon",
    "canonical_key",
    "hidden",
    "legal_commands",
    "longest_suit",
    "outcome",
    "timeout_command",
    "to_move",
]


# ---------------------------------------------------------------- queries
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
