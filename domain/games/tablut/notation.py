"""Move text (rules/tablut.md §9.1-§9.2): ``e2-c2``, captures ``e1-e4xd4xf4``, a ``+`` / ``++``
suffix ignored on input; case-insensitive, the en dash read as ``-``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from contracts.envelope import Rejected

from .board import INDEX, NAMES
from .state import Played

_MOVE = re.compile(r"([a-i][1-9])-([a-i][1-9])((?:x[a-i][1-9])*)(\+\+|\+)?")


@dataclass(frozen=True, slots=True)
class Written:
    origin: int
    to: int
    captured: tuple[int, ...] | None  # None: the text gives no capture list


def read(text: str) -> Written | Rejected:
    t = text.strip().lower().replace("–", "-")
    m = _MOVE.fullmatch(t)
    if m is None:
        return Rejected(code="bad_notation", detail=f"{text!r}: write a move as from-to, e.g. e2-c2 or e1-e4xd4xf4")
    caps = m.group(3)
    captured = tuple(INDEX[c] for c in caps.split("x")[1:]) if caps else None
    return Written(INDEX[m.group(1)], INDEX[m.group(2)], captured)


def text(origin: int, to: int, captured: tuple[int, ...] = ()) -> str:
    """The canonical text of a move: from-to and each captured square after an ``x``, in the
    order of square names (T3)."""
    return f"{NAMES[origin]}-{NAMES[to]}" + "".join(f"x{NAMES[q]}" for q in sorted(captured, key=lambda q: NAMES[q]))


def written(p: Played) -> str:
    """A move as the referee writes it: canonical text and ``+`` (check) or ``++`` (a win)."""
    return text(p.origin, p.to, p.captured) + ("++" if p.wins else "+" if p.check else "")
