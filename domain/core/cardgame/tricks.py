"""Trick-taking, shared by King and 1000.

- Leading and following: a player must follow the led suit if able; void in it, in a deal with a
  trump suit, a player who holds a trump must play one when the game says so; otherwise any card
  (rules/king.md §3.5 and §12.4; rules/thousand-and-farkle-flip.md §2.8 and §2.21.2 PLAY).
  Neither game imposes a duty to beat the winning card or to over-trump (king.md §3.5 [rec];
  thousand §2.8 "Must beat": not required).
- The winner of a trick: the strongest trump if any trump was played, else the strongest card of
  the led suit (king.md §3.6 and §12.5; thousand §2.8 "Trick winner").

Games add their own duties on top (King's hearts-lead ban and King-discard duty, 1000's
marriages) by narrowing the tuple these functions return.  Card ids are those of
``domain.core.cards`` (rank + suit, e.g. ``"10H"``); jokers never take part in tricks.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core.cards import parse

Card = str


def suit_of(card: Card) -> str:
    return parse(card).suit


def rank_of(card: Card) -> str:
    return parse(card).rank


def of_suit(cards: Sequence[Card], suit: str) -> tuple[Card, ...]:
    return tuple(c for c in cards if suit_of(c) == suit)


def legal_follows(
    hand: Sequence[Card],
    led: Card | None,
    trump: str | None,
    *,
    must_trump_when_void: bool,
    must_overtrump: bool = False,
    trick: Sequence[Card] = (),
    strength: Sequence[str] = (),
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick whose first card is ``led``.

    ``led`` is None when the player leads: every card may be led (games narrow this).  The order
    of ``hand`` is kept.  With ``must_overtrump`` (king.md Decision K5), a seat that plays a trump
    to a trick already holding one (``trick``: the cards played so far) must beat the best trump
    in it when it can (``strength``: ranks strongest first).
    """
    cards = tuple(hand)
    if led is None:
        return cards
    follow = of_suit(cards, suit_of(led))
    if follow:
        if must_overtrump and trump is not None and suit_of(led) == trump:
            return _overtrumps(follow, trick, trump, strength)
        return follow
    if trump is not None and must_trump_when_void:
        trumps = of_suit(cards, trump)
        if trumps:
            return _overtrumps(trumps, trick, trump, strength) if must_overtrump else trumps
    return cards


def _overtrumps(
    trumps: tuple[Card, ...], trick: Sequence[Card], trump: str, strength: Sequence[str]
) -> tuple[Card, ...]:
    """The trumps that beat every trump already in ``trick``, or all of them when none can."""
    played = [rank_of(c) for c in trick if suit_of(c) == trump]
    if not played:
        return trumps
    best = min(strength.index(r) for r in played)
    higher = tuple(c for c in trumps if strength.index(rank_of(c)) < best)
    return higher or trumps


def trick_winner(cards: Sequence[Card], trump: str | None, strength: Sequence[str]) -> int:
    """Index into ``cards`` (in the order played) of the card that wins the trick.

    ``strength`` lists ranks strongest first (King: A K Q J 10 9 8 7, reversed in a misère;
    1000: A 10 K Q J 9).
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    power = {rank: len(strength) - i for i, rank in enumerate(strength)}
    led_suit = suit_of(cards[0])
    pool_suit = trump if trump is not None and any(suit_of(c) == trump for c in cards) else led_suit
    best = -1
    best_power = -1
    for i, card in enumerate(cards):
        if suit_of(card) != pool_suit:
            continue
        p = power[rank_of(card)]
        if p > best_power:
            best, best_power = i, p
    return best
