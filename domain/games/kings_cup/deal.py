"""Chance at a Kings Cup table: the 52 cards spread around the cup from rng_v1, and
``verify_chance`` (a recorded spread or draw re-derived from the revealed seed)."""

from __future__ import annotations

from contracts.games.kings_cup import CardDrawn, CupDealt, KingsCupEvent
from domain.core import cards, rng
from domain.games.kings_cup.state import CupState


def deal(state: CupState) -> CupDealt | str:
    """The 52 cards around the cup (label ``cup``) and the first drawer (label ``first``)."""
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    order = rng.shuffle(key, b"cup", cards.deck("52"))
    first = rng.Stream(key, b"first").randbelow(len(state.seats))
    return CupDealt(order=order, size=len(order), first_seat=state.seats[first])


def verify_chance(state: CupState, event: KingsCupEvent) -> str | None:
    if isinstance(event, CupDealt):
        expected = deal(state)
        if isinstance(expected, str):
            return f"spread: {expected}"
        if event != expected:
            return "spread: the order around the cup does not follow from rng_v1"
        return None
    if isinstance(event, CardDrawn):
        if not state.cup or state.cup[0] != event.card:
            return f"draw by {event.seat}: {event.card} is not the next card around the cup"
    return None
