"""Set-up of a round (rules/kings-corner.md §5.3): the deck, the deal from rng_v1, the cross and
its clean-up loop, and ``verify_chance`` (a recorded deal or draw re-derived from the seed)."""

from __future__ import annotations

from contracts.games.kings_corner import (
    SLOTS,
    CardsDrawn,
    KingsCornerEvent,
    KingsCornerRuleset,
    RoundDealt,
    SetupStep,
)
from domain.core import cards
from domain.core.cardgame import deal as dealing
from domain.core.cardgame.scoring import next_seat
from domain.games.kings_corner.v1.state import CORNERS, CROSS, FACTS, KCState


def full_deck(ruleset: KingsCornerRuleset) -> tuple[str, ...]:
    """One or two 52-card packs; the game's jokers (0 or 2) come with the first pack."""
    first = cards.deck("52", copies=1, jokers=ruleset.jokers)
    if ruleset.decks == 1:
        return first
    return first + tuple(c for c in cards.deck("52", copies=2) if FACTS[c].face != c)


def deal(state: KCState) -> RoundDealt | str:
    """The next round's deal from rng_v1 (§5.3), or why it cannot be dealt."""
    if state.seed is None:
        return "the server seed is not available"
    ruleset = state.ruleset
    round_no = state.round_no + 1
    key = dealing.round_key(state.seed, state.client_seeds)
    dealer = dealing.dealer_of(key, state.out_round, round_no, state.dealer)
    order = dealing.shuffled(key, round_no, full_deck(ruleset))
    return deal_from(state, round_no, dealer, order)


def deal_from(state: KCState, round_no: int, dealer: int, order: tuple[str, ...]) -> RoundDealt:
    """The deal of round ``round_no`` by ``dealer`` from a shuffled deck (top first)."""
    ruleset = state.ruleset
    hands, pos = dealing.deal_hands(order, state.out_round, dealer, ruleset.hand_size)
    first = next_seat(state.out_round, dealer)
    cross = order[pos : pos + 4]
    layout, stock, steps = lay_out_cross(ruleset, cross, order[pos + 4 :])
    return RoundDealt(
        round_no=round_no,
        dealer=state.seats[dealer],
        seats=state.seats,
        order=order,
        hands=hands,
        hand_sizes=tuple(len(h) for h in hands),
        cross=tuple(cross),
        setup=tuple(steps),
        layout=layout,
        stock=stock,
        stock_size=len(stock),
        first_seat=state.seats[first],
    )


def lay_out_cross(
    ruleset: KingsCornerRuleset, cross: tuple[str, ...], rest: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[SetupStep, ...]]:
    """§5.3 steps 4-5: the cross N E S W, then the clean-up loop in slot order N, E, S, W.

    A king leaves under auto set-up for the first empty corner (NE, SE, SW, NW), or the bottom of
    the stock when every corner is taken (E3); a joker always goes to the bottom of the stock.
    Each emptied slot is refilled from the top of the stock and checked again.
    """
    stock = list(rest)
    layout: list[list[str]] = [[c] for c in cross] + [[] for _ in CORNERS]
    steps: list[SetupStep] = []
    auto = ruleset.setup_cross_kings == "auto_corner_refill_from_stock"
    guard = 0
    while True:
        slot = next(
            (s for s in CROSS if FACTS[layout[s][0]].joker or (auto and FACTS[layout[s][0]].rank == 13)),
            None,
        )
        if slot is None:
            break
        guard += 1
        if guard > 10 * (len(rest) + 4) or not stock:
            raise AssertionError("cross set-up does not terminate: the deck check is broken")
        card = layout[slot][0]
        corner = next((c for c in CORNERS if not layout[c]), None)
        if FACTS[card].joker or corner is None:
            stock.append(card)
            to = "stock_bottom"
        else:
            layout[corner] = [card]
            to = SLOTS[corner]
        refill = stock.pop(0)
        layout[slot] = [refill]
        steps.append(SetupStep(card=card, slot=SLOTS[slot], to=to, refill=refill))
    return tuple(tuple(p) for p in layout), tuple(stock), tuple(steps)


def verify_chance(state: KCState, event: KingsCornerEvent) -> str | None:
    """Re-derive a chance event from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, CardsDrawn):
        return dealing.verify_draw(
            state.stock, event.cards, event.count, f"draw in round {state.round_no} by {event.seat}"
        )
    if not isinstance(event, RoundDealt):
        return None
    expected = deal(state)
    if isinstance(expected, str):
        return f"deal of round {event.round_no}: {expected}"
    return dealing.verify_recorded(
        event, expected, f"deal of round {expected.round_no}", first=("round_no", "dealer", "order")
    )
