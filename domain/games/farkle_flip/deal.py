"""Chance in Farkle Flip (rules/thousand-and-farkle-flip.md §3.3, §3.9): the set-up from rng_v1,
the scored pile reshuffled into a new draw pile, and ``verify_chance`` (a recorded deal, draw or
reshuffle re-derived from the revealed seed)."""

from __future__ import annotations

from contracts.games.farkle_flip import CardDrawn, FarkleFlipEvent, GameDealt, PileReshuffled
from domain.core import rng
from domain.games.farkle_flip.rules import deck
from domain.games.farkle_flip.state import FFState


def deal(state: FFState) -> GameDealt | str:
    """The set-up from rng_v1 (§3.3, FF2): a random dealer, the shuffled deck, one card to each
    seat from the dealer's left; the first player sits left of the dealer (004:L1158)."""
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    dealer = rng.Stream(key, b"dealer").randbelow(len(state.seats))
    return deal_from(state, dealer, rng.shuffle(key, b"deck", deck(state.rules)))


def deal_from(state: FFState, dealer: int, order: tuple[str, ...]) -> GameDealt:
    """The set-up by seat index ``dealer`` from a deck order (top first): one card to each seat,
    starting left of the dealer."""
    n = len(state.seats)
    dealt = [""] * n
    for k in range(n):
        dealt[(dealer + 1 + k) % n] = order[k]
    return GameDealt(
        dealer=state.seats[dealer],
        first_seat=state.seats[(dealer + 1) % n],
        seats=state.seats,
        deck=order,
        dealt=tuple(dealt),
        draw_size=len(order) - n,
    )


def reshuffle(state: FFState, seat: str) -> PileReshuffled | str:
    """The scored pile shuffled into a new draw pile (004:L1186): rng_v1 label ``reshuffle:<n>``
    over the pile's cards sorted, so the order depends on the seed and the pile's contents only."""
    no = state.reshuffles + 1
    if state.given_order is not None:  # a game record gives the order (rules/records.md)
        return PileReshuffled(
            seat=seat, reshuffle_no=no, order=state.given_order, size=len(state.given_order)
        )
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    order = rng.shuffle(key, b"reshuffle:%d" % no, sorted(state.scored_pile))
    return PileReshuffled(seat=seat, reshuffle_no=no, order=order, size=len(order))


def _verify_draw(state: FFState, event: CardDrawn) -> str | None:
    if not state.draw_pile:
        return f"draw by {event.seat}: the draw pile is empty"
    if event.card != state.draw_pile[0]:
        return f"draw by {event.seat}: drew {event.card}, the draw pile gives {state.draw_pile[0]}"
    return None


def _verify_reshuffle(state: FFState, event: PileReshuffled) -> str | None:
    expected = reshuffle(state, event.seat)
    if isinstance(expected, str):
        return f"reshuffle {event.reshuffle_no}: {expected}"
    if event != expected:
        return f"reshuffle {event.reshuffle_no}: the order does not follow from rng_v1"
    return None


def _verify_deal(state: FFState, event: GameDealt) -> str | None:
    dealt = deal(state)
    if isinstance(dealt, str):
        return f"set-up: {dealt}"
    if event.dealer != dealt.dealer:
        return f"set-up: dealer is {event.dealer}, rng_v1 gives {dealt.dealer}"
    for k, (got, want) in enumerate(zip(event.deck, dealt.deck, strict=False), start=1):
        if got != want:
            return f"set-up: card {k} is {got}, rng_v1 gives {want}"
    if event != dealt:
        return "set-up: the deal does not follow from the deck order"
    return None


def verify_chance(state: FFState, event: FarkleFlipEvent) -> str | None:
    """Re-derive a chance event from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, CardDrawn):
        return _verify_draw(state, event)
    if isinstance(event, PileReshuffled):
        return _verify_reshuffle(state, event)
    if isinstance(event, GameDealt):
        return _verify_deal(state, event)
    return None
