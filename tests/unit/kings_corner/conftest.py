"""Kings in the Corner fixtures: constructed deals for given / when / then (tests/support/gwt.py)."""

from __future__ import annotations

from contracts.games.kings_corner import SLOTS, RoundDealt
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS
from tests.support.gwt import Spec, spec

SEED = bytes(range(32))


def cs(text: str) -> tuple[str, ...]:
    """ "9S 8H" -> ("9S", "8H")."""
    return tuple(text.split())


def dealt(
    n: int = 2,
    hands: tuple[str, ...] = (),
    layout: dict[str, str] | None = None,
    stock: str = "",
    first: str = "p1",
    dealer: str | None = None,
    round_no: int = 1,
) -> RoundDealt:
    """A recorded deal with the given hands (one string per seat), piles (base first) and stock (top first)."""
    seats = GAME.seat_names(n)
    hand_t = tuple(cs(h) for h in hands) + ((),) * (n - len(hands))
    piles = tuple(cs((layout or {}).get(slot, "")) for slot in SLOTS)
    stock_t = cs(stock)
    order = tuple(c for h in hand_t for c in h) + tuple(c for p in piles for c in p) + stock_t
    return RoundDealt(
        round_no=round_no,
        dealer=dealer or seats[(seats.index(first) - 1) % n],
        seats=seats,
        order=order,
        hands=hand_t,
        hand_sizes=tuple(len(h) for h in hand_t),
        cross=tuple(p[0] if p else "" for p in piles[:4]),
        setup=(),
        layout=piles,
        stock=stock_t,
        stock_size=len(stock_t),
        first_seat=first,
    )


def kc(preset: str = "cardgames-zone", n: int = 2, **overrides: object) -> Spec:
    import msgspec

    rules = msgspec.structs.replace(PRESETS[preset], **overrides) if overrides else PRESETS[preset]
    return spec(GAME, rules, GAME.seat_names(n), SEED)


def then_from(state: object) -> Spec:
    """Continue a scenario from the state a previous ``then`` returned."""
    return Spec(GAME, state)
