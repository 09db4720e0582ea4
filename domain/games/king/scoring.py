"""Scoring a deal (rules/king.md §12.7), its early end (§12.6, §9.5) and the match's ranks (K4)."""

from __future__ import annotations

from collections.abc import Sequence

from contracts.games.king import KingRuleset
from domain.core import cards
from domain.games.king.state import Contract, KingState

CATEGORIES: dict[str, tuple[str, ...]] = {
    "T": ("trick",),
    "H": ("heart",),
    "B": ("boy",),
    "G": ("girl",),
    "K": ("king",),
    "L": ("last",),
    "E": ("trick", "heart", "boy", "girl", "king", "last"),
}
SINGLE_CARD_CATEGORY = {"H": "heart", "B": "boy", "G": "girl", "K": "king"}  # may end early


def deck(rules: KingRuleset) -> tuple[str, ...]:
    return cards.deck("32", cut=rules.deck)


def boy_ranks(rules: KingRuleset) -> frozenset[str]:
    return frozenset({"J": ("J",), "K": ("K",), "JK": ("J", "K")}[rules.boys])


def card_units(rules: KingRuleset, card: str, category: str) -> int:
    """How many units of ``category`` one card holds (K♥ is the King and a heart, §4 note)."""
    if card == "??":
        return 0
    rank, s = card[:-1], card[-1]
    if category == "heart":
        return int(s == "H")
    if category == "boy":
        return int(rank in boy_ranks(rules))
    if category == "girl":
        return int(rank == "Q")
    if category == "king":
        return int(card == "KH")
    return 0


def in_play(rules: KingRuleset, category: str) -> int:
    """Units of a card category among the cards of a deal (K9: the cards actually in play)."""
    return sum(card_units(rules, c, category) for c in deck(rules))


def expected_sum(rules: KingRuleset, contract: Contract, won: Sequence[int] = ()) -> int:
    g = contract.game
    if g in ("HV", "TR", "OT"):
        return rules.hv_trick * rules.hand_size
    if g == "AU":
        taken = won[contract.declarer] if won else 0
        return rules.hv_trick * (rules.hand_size - min(contract.bid, taken))
    total = 0
    for cat in CATEGORIES[g[1]]:
        w = getattr(rules.v, cat)
        if cat == "trick":
            total += w * rules.hand_size
        elif cat == "last":
            total += w * 2
        else:
            total += w * in_play(rules, cat)
    return contract.sign * total


def deal_points(state: KingState) -> tuple[int, ...]:
    """Points of every seat for the deal just played (§12.7); the dealer sitting out scores 0."""
    assert state.contract is not None
    rules = state.rules
    last = tuple(state.seats.index(t.winner) for t in state.tricks if t.trick_no > rules.hand_size - 2)
    taken = tuple(cap + dis for cap, dis in zip(state.captured, state.discards, strict=True))  # K14
    return points_for(rules, state.contract, state.active, state.won, taken, last)


def points_for(
    rules: KingRuleset,
    c: Contract,
    active: Sequence[int],
    won: Sequence[int],
    taken: Sequence[Sequence[str]],
    last_two: Sequence[int],
) -> tuple[int, ...]:
    """§12.7 on plain values: tricks won, cards taken (captured and discarded) per seat, and the
    winners of the last two tricks."""
    n = len(won)
    g = c.game
    if g in ("HV", "TR", "OT", "AU"):
        tricks = [2 if i in active else 0 for i in range(n)] if c.raspis else list(won)
        pts = [rules.hv_trick * w for w in tricks]
        if g == "AU":
            d = c.declarer
            pts[d] = rules.hv_trick * max(0, tricks[d] - c.bid)
        if c.buyout is not None:
            buyer, seller, bought = c.buyout
            pts[buyer] -= rules.hv_trick * bought
            pts[seller] += rules.hv_trick * bought
        return tuple(pts)
    cats = CATEGORIES[g[1]]
    out = []
    for i in range(n):
        p = 0
        for cat in cats:
            w = getattr(rules.v, cat)
            if cat == "trick":
                p += w * won[i]
            elif cat == "last":
                p += w * sum(1 for x in last_two if x == i)
            else:
                p += w * sum(card_units(rules, x, cat) for x in taken[i])
        out.append(c.sign * p)
    return tuple(out)


def ends_early(state: KingState) -> bool:
    """§12.6: every scoring card of a single-category game has been captured."""
    c = state.contract
    if (
        not state.rules.early_end
        or c is None
        or c.game not in _NO_TRUMP
        or c.game[1] not in SINGLE_CARD_CATEGORY
    ):
        return False
    cat = SINGLE_CARD_CATEGORY[c.game[1]]
    taken = sum(
        card_units(state.rules, x, cat)
        for i in range(state.n())
        for x in state.captured[i] + state.discards[i]
    )
    return taken == in_play(state.rules, cat)


_NO_TRUMP = frozenset({"NT", "NH", "NB", "NG", "NK", "NL", "NE", "PT", "PB", "PG", "PH", "PK", "PL", "PE"})


def competition_ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """K4: the highest total is first; ties share the better rank and skip the next (1, 1, 3, 4)."""
    return tuple(1 + sum(1 for t in totals if t > mine) for mine in totals)
