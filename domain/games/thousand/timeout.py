"""The timeout action of 1000 (rules/thousand-and-farkle-flip.md §2.21.2): the lowest legal
command of a seat whose clock ran out."""

from __future__ import annotations

from contracts.games.thousand import (
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    SetContract,
    ThousandCommand,
)
from domain.games.thousand.legal import WINDOWS, playable
from domain.games.thousand.phases import legal_commands
from domain.games.thousand.rules import low_key
from domain.games.thousand.state import TState


def lowest_legal(state: TState, seat: str) -> ThousandCommand | None:
    """The timeout action of §2.21.2 for ``seat`` (None when it is not to act): decline the blind,
    keep the hand, pass, give the two lowest cards, keep the winning bid, play the lowest card."""
    s = state
    legal = legal_commands(s, seat)
    if not legal:
        return None
    i = s.seats.index(seat)
    p = s.phase
    if p == "blind_offer":
        return DeclineBlind()
    if p in WINDOWS:
        return KeepHand()
    if p == "auction":
        return Pass()
    if p == "passing":
        low = sorted(s.hands[i], key=low_key)[:2]
        first = s.seats[s.next_active(i)]
        other = next(s.seats[j] for j in s.defenders() if s.seats[j] != first)
        return GiveCards(gifts={first: low[0], other: low[1]})
    if p == "contract":
        return SetContract(amount=s.bid)
    if p == "play":
        _, allowed = playable(s, i)
        return Play(card=min(allowed, key=low_key))
    return legal[0]
