"""Dealing from rng_v1 (ARCHITECTURE §4, ``domain.core.rng``) and the generic chance check.

A round's deck is the canonical deck (``domain.core.cards.deck``) shuffled under the label
``deal:<round>`` with the key of the match's server seed and the seats' client seeds; the first
dealer is drawn under the label ``dealer`` among the seats still playing, and the deal then
passes to the next seat on the left that still plays.  Hands are dealt one card at a time,
round-robin, starting left of the dealer, from the top (first element) of the shuffled deck.

``verify_recorded`` compares a recorded chance event with the one the game re-derives from the
revealed seed and names the first difference; a game's ``verify_chance`` re-derives its event
and calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from contracts.envelope import Rejected
from domain.core import rng
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.lifecycle import active
from domain.core.cardgame.scoring import next_seat, seats_from

S = TypeVar("S")
E = TypeVar("E")


def round_key(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    return rng.derive_key(server_seed, client_seeds)


def dealer_of(key: bytes, out_round: Sequence[int], round_no: int, previous: int) -> int:
    """The dealer of round ``round_no`` (1-based): random among the seats still playing in the
    first round, then the next seat left of ``previous`` that still plays."""
    if round_no == 1:
        playing = active(out_round)
        return playing[rng.Stream(key, b"dealer").randbelow(len(playing))]
    return next_seat(out_round, previous)


def shuffled(key: bytes, round_no: int, deck: Sequence[str]) -> tuple[str, ...]:
    """The deck of round ``round_no``, top first."""
    return rng.shuffle(key, b"deal:%d" % round_no, deck)


def deal_hands(
    order: Sequence[str], out_round: Sequence[int], dealer: int, hand_size: int
) -> tuple[tuple[tuple[str, ...], ...], int]:
    """Hands per seat (seat order; () for a seat that is out) dealt round-robin from the top,
    starting left of ``dealer``, and the number of cards used."""
    seq = seats_from(out_round, dealer)
    hands: list[list[str]] = [[] for _ in out_round]
    pos = 0
    for _ in range(hand_size):
        for i in seq:
            hands[i].append(order[pos])
            pos += 1
    return tuple(tuple(h) for h in hands), pos


def verify_recorded(
    recorded: Any, expected: Any, where: str, *, order_field: str = "order", first: Sequence[str] = ()
) -> str | None:
    """The first difference between a recorded chance event and the re-derived one, or None.

    Fields are compared in the order ``first``, then the struct's own order.  ``order_field``
    (the shuffled deck) is compared card by card: ``"<where>: card 7 is QS, rng_v1 gives 4H"``.
    A scalar field reads ``"<where>: dealer is p2, rng_v1 gives p1"``; any other field
    ``"<where>: hands do not follow from the deck order"``.
    """
    if type(recorded) is not type(expected):
        return f"{where}: recorded {type(recorded).__name__}, rng_v1 gives {type(expected).__name__}"
    fields = [*first, *(f for f in expected.__struct_fields__ if f not in first)]
    for name in fields:
        got, want = getattr(recorded, name), getattr(expected, name)
        if got == want:
            continue
        if name == order_field:
            if len(got) != len(want):
                return f"{where}: {len(got)} cards recorded, the deck has {len(want)}"
            k, (a, b) = next(
                (k, p) for k, p in enumerate(zip(got, want, strict=True), start=1) if p[0] != p[1]
            )
            return f"{where}: card {k} is {a}, rng_v1 gives {b}"
        if isinstance(want, (str, int)) and not isinstance(want, bool):
            return f"{where}: {name} is {got}, rng_v1 gives {want}"
        return f"{where}: {name} do not follow from the deck order"
    return None


def verify_draw(stock: Sequence[str], drawn: Sequence[str], count: int, where: str) -> str | None:
    """A recorded draw of ``count`` cards against the top of the stock."""
    top = tuple(stock[:count])
    if tuple(drawn) != top or count != len(drawn):
        return f"{where}: drew {list(drawn)}, the stock gives {list(top)}"
    return None


def step(
    b: Builder[S, E],
    draw: Callable[[S], E | str],
    after: Callable[[Builder[S, E]], Rejected | None] | None = None,
) -> Rejected | None:
    """The deal step of every card game: the chance event ``draw`` makes from rng_v1 for the
    builder's state (or the reason it cannot: ``seed_unavailable``), folded at once, then the
    game's ``after`` step (the first turn's automatic draw, kings to the corners ...)."""
    dealt = draw(b.state)
    if isinstance(dealt, str):
        return Rejected(code="seed_unavailable", detail=dealt)
    b.emit(dealt)
    return after(b) if after is not None else None
