"""Placeholder redaction: what a seat may not see is replaced, never dropped.

A card a viewer may not see (another seat's hand, the stock, a face-down talon) becomes
``UNKNOWN`` (``"??"``, ``domain.core.cards.UNKNOWN``) in the events redacted for that viewer.
Counts survive, so the redacted events fold into the viewer's **information state**: its view and
its legal commands equal those of the full state (tests/property/test_conformance.py).
Folding code must therefore accept placeholders wherever another seat's cards appear:
``remove_cards`` takes a played card out of a hand, consuming a placeholder when the card itself
is not known there; rules that inspect another seat's hand must only read it from the full state
(they run in ``decide``, never in ``evolve`` for another seat).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core.cards import UNKNOWN

__all__ = ["UNKNOWN", "blank", "blank_hands", "hidden_hand", "is_known", "remove_cards"]


def blank(cards: Sequence[str]) -> tuple[str, ...]:
    """As many placeholders as ``cards``."""
    return (UNKNOWN,) * len(cards)


def blank_hands(
    seats: Sequence[str], hands: Sequence[Sequence[str]], viewer: str | None
) -> tuple[tuple[str, ...], ...]:
    """Every hand but the viewer's own as placeholders (a spectator sees none)."""
    return tuple(tuple(h) if s == viewer else blank(h) for s, h in zip(seats, hands, strict=True))


def is_known(card: str) -> bool:
    return card != UNKNOWN


def remove_cards(hand: Sequence[str], played: Sequence[str]) -> tuple[str, ...]:
    """``hand`` without ``played``; a card not in the hand takes one placeholder instead.

    Raises ValueError when the hand holds neither the card nor a placeholder (a corrupt fold).
    """
    left = list(hand)
    for c in played:
        left.remove(c if c in left else UNKNOWN)
    return tuple(left)


def hidden_hand(
    seats: Sequence[str], hands: Sequence[Sequence[str]], seat: str, dealt: bool
) -> frozenset[str]:
    """The Decider's ``hidden(state, seat)`` for a game whose only secret is each hand: the card
    ids only ``seat`` may see (none outside a round)."""
    if not dealt or seat not in seats:
        return frozenset()
    return frozenset(c for c in hands[list(seats).index(seat)] if c != UNKNOWN)
