"""Position strings (PDN FEN) of rules/draughts.md §9.3: ``W:W21,22,...:B1,2,...``, ``K`` before
a king, numeric or algebraic squares, numeric ranges (``W21-32``), the lists in either order, empty
lists, and trailing fields such as ``:H0:F1`` ignored.  Canonical output: numeric, White's list
first, squares in increasing order."""

from __future__ import annotations

from .board import BIT, INDEX, NAMES, squares
from .state import Position

START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
_CYRILLIC = str.maketrans(
    {"а": "a", "в": "b", "с": "c", "е": "e", "н": "h", "А": "a", "В": "b", "С": "c", "Е": "e", "Н": "h"}
)


class BadPosition(ValueError):
    """The string is not a position of §9.3 (the message says why)."""


def square(word: str) -> int:
    """A square by its number 1-32 or its algebraic name (dark squares only)."""
    w = word.strip().translate(_CYRILLIC).lower()
    if w.isdigit():
        n = int(w)
        if not 1 <= n <= 32:
            raise BadPosition(f"square {word!r} is not 1-32")
        return n - 1
    if w in INDEX:
        return INDEX[w]
    if len(w) == 2 and w[0] in "abcdefgh" and w[1] in "12345678":
        raise BadPosition(f"{word!r} is a light square")
    raise BadPosition(f"{word!r} is not a square")


def _squares(items: str) -> list[tuple[int, bool]]:
    out = []
    for item in filter(None, (i.strip() for i in items.split(","))):
        king = item[:1].upper() == "K"
        body = item[1:] if king else item
        if "-" in body and all(p.strip().isdigit() for p in body.split("-")):
            a, b = (int(p) for p in body.split("-"))
            if not 1 <= a <= b <= 32:
                raise BadPosition(f"range {item!r} is not within 1-32")
            out += [(n - 1, king) for n in range(a, b + 1)]
        else:
            out.append((square(body), king))
    return out


def parse(text: str) -> Position:
    fields = [f.strip() for f in text.strip().split(":")]
    if len(fields) < 3 or fields[0].upper() not in ("W", "B"):
        raise BadPosition("a position is <W|B>:W<squares>:B<squares>")
    side = 0 if fields[0].upper() == "W" else 1
    men, kings, given = [0, 0], [0, 0], set()
    for field in fields[1:3]:
        colour = field[:1].upper()
        if colour not in ("W", "B") or colour in given:
            raise BadPosition(f"field {field!r}: expected one W list and one B list")
        given.add(colour)
        c = 0 if colour == "W" else 1
        for sq, king in _squares(field[1:]):
            if (men[0] | men[1] | kings[0] | kings[1]) & BIT[sq]:
                raise BadPosition(f"square {sq + 1} is given twice")
            if king:
                kings[c] |= BIT[sq]
            else:
                men[c] |= BIT[sq]
    return Position(men=(men[0], men[1]), kings=(kings[0], kings[1]), side=side)


def write(pos: Position) -> str:
    def side_list(c: int) -> str:
        items = sorted([(s, "") for s in squares(pos.men[c])] + [(s, "K") for s in squares(pos.kings[c])])
        return ",".join(f"{k}{s + 1}" for s, k in items)

    return f"{'W' if pos.side == 0 else 'B'}:W{side_list(0)}:B{side_list(1)}"


__all__ = ["START", "BadPosition", "NAMES", "parse", "square", "write"]
