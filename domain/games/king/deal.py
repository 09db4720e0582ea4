"""Set-up and the deal (rules/king.md §3.3, §6.2-§6.3, §8, §11.4): rng_v1 through the card
kernel, a record's deals, and ``verify_chance``.
"""

from __future__ import annotations

from contracts.games.king import (
    Dealt,
    KingEvent,
    KingRuleset,
    RestDealt,
    schedule_deals,
)
from domain.core.cardgame import deal as kernel_deal
from domain.games.king import scoring
from domain.games.king.state import KingState


# ---------------------------------------------------------------- set-up
def initial_state(rules: KingRuleset, seats: tuple[str, ...], seed: bytes | None) -> KingState:
    n = len(seats)
    comp = rules.compensation_value if rules.compensation == "perPlayer" else 0
    remaining: tuple[tuple[str, ...], ...] = ()
    if rules.schedule != "fixed":
        remaining = tuple((*rules.games, *(rules.trump_deal,) * rules.hv_count) for _ in range(n))
    return KingState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        client_seeds=("",) * n,
        ready=(False,) * n,
        remaining=remaining,
        compensation=(comp,) * n,
        totals=(comp,) * n,
    )


def deal(state: KingState) -> Dealt | str:
    """The next deal from rng_v1 (labels ``dealer`` and ``deal:<n>``), or why it cannot be dealt.

    Cards go one at a time clockwise from the player left of the dealer to every active seat;
    what is left is the talon.  In HV and TR deals each seat holds its first ``hvPeek`` cards and
    the rest is pending (§6.2 step 1, §6.3: the declarer's last card is his last dealt card).
    """
    rules = state.rules
    n = state.n()
    deal_no = state.deal_no + 1
    key = b""
    if state.scripted:
        if deal_no > len(state.scripted):
            return f"the record has no deal {deal_no}"
        first = state.scripted_first_dealer
    elif state.seed is None:
        return "the server seed is not available"
    else:
        key = kernel_deal.round_key(state.seed, state.client_seeds)
        first = kernel_deal.dealer_of(key, (0,) * n, 1, -1) if deal_no == 1 else state.first_dealer
    dealer = (first + deal_no - 1) % n  # §11.4, K11
    if state.scripted:
        hands = [tuple(h) for h in state.scripted[deal_no - 1]]
        talon = state.scripted_talons[deal_no - 1] if deal_no <= len(state.scripted_talons) else ()
    else:
        # the dealer sitting out (atomic King with 4 players) is dealt no cards
        out = tuple(1 if rules.sit_out_dealer and i == dealer else 0 for i in range(n))
        shuffled = kernel_deal.shuffled(key, deal_no, scoring.deck(rules))
        dealt, used = kernel_deal.deal_hands(shuffled, out, dealer, rules.hand_size)
        hands = list(dealt)
        talon = tuple(shuffled[used:])
    return dealt_from(state, deal_no, dealer, hands, talon)


def dealt_from(
    state: KingState, deal_no: int, dealer: int, hands: list[tuple[str, ...]], talon: tuple[str, ...]
) -> Dealt:
    """The Dealt event of full hands (each in dealing order) and a talon: in HV and TR deals each
    seat holds its first ``hvPeek`` cards and the rest is pending (§6.2 step 1, §6.3)."""
    rules = state.rules
    n = state.n()
    game: str | None = None
    if rules.schedule == "fixed":
        game = schedule_deals(rules)[state.cursor]
    peek = rules.hv_peek
    held: list[tuple[str, ...]] = hands
    pending: list[tuple[str, ...]] = [() for _ in range(n)]
    if game in ("HV", "TR") and not isinstance(peek, str):
        held = [h[:peek] for h in hands]
        pending = [h[peek:] for h in hands]
    order = [(dealer + k) % n for k in range(1, n + 1)]
    first_active = next(i for i in order if not (rules.sit_out_dealer and i == dealer))
    return Dealt(
        deal_no=deal_no,
        dealer=state.seats[dealer],
        seats=state.seats,
        game=game,  # type: ignore[arg-type]
        declarer=state.seats[first_active] if game in ("HV", "TR") else None,
        hands=tuple(tuple(h) for h in held),
        pending=tuple(tuple(p) for p in pending),
        talon=tuple(talon),
    )


def check_scripted_deal(state: KingState, dealt: Dealt) -> str | None:
    """A record's deal must hold the deck exactly, dealt as the ruleset deals (§12.10)."""
    rules = state.rules
    dealer = state.seats.index(dealt.dealer)
    cards_ = [c for h in dealt.hands for c in h] + [c for p in dealt.pending for c in p] + list(dealt.talon)
    if sorted(cards_) != sorted(scoring.deck(rules)):
        return f"deal {dealt.deal_no} does not hold the {len(scoring.deck(rules))}-card deck exactly once"
    for i in range(state.n()):
        size = len(dealt.hands[i]) + len(dealt.pending[i])
        want = 0 if (rules.sit_out_dealer and i == dealer) else rules.hand_size
        if size != want:
            return f"deal {dealt.deal_no}: seat {i} holds {size} cards, the rules deal {want}"
    if len(dealt.talon) != rules.talon_size:
        return (
            f"deal {dealt.deal_no}: the talon has {len(dealt.talon)} cards, the rules use {rules.talon_size}"
        )
    return None


def verify_chance(state: KingState, event: KingEvent) -> str | None:
    """Re-derive a deal from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, RestDealt):
        if event.cards != state.pending:
            return f"deal {state.deal_no}: the rest dealt is not the cards the shuffle fixed"
        return None
    if not isinstance(event, Dealt):
        return None
    expected = deal(state)
    if isinstance(expected, str):
        return f"deal {event.deal_no}: {expected}"
    return kernel_deal.verify_recorded(
        event, expected, f"deal {expected.deal_no}", order_field="", first=("deal_no", "dealer", "game")
    )
