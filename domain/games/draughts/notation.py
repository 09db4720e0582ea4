"""Move text of rules/draughts.md §9.2 (D11): ``c3-d4``, ``c3:e5:g3``, ``22x15x24``, short forms
naming the origin, some landing squares in order and the final square; move numbers and
annotation glyphs ignored; algebraic or numeric squares, never both in one text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from contracts.envelope import Rejected

from . import fen
from .state import Move

_NUMBER = re.compile(r"^\s*\d+\s*(\.\.\.|…|\.)\s*")
_GLYPHS = re.compile(r"[!?+=#]+\s*$")


@dataclass(frozen=True)
class Written:
    squares: tuple[int, ...]
    capture: bool


def read(text: str) -> Written | Rejected:
    """The squares a text names and whether it writes a capture, or ``bad_notation``."""
    t = text.replace("–", "-").replace("—", "-").replace("×", "x").replace("X", "x")
    t = _GLYPHS.sub("", _NUMBER.sub("", t)).strip()
    seps = set(re.findall(r"[-:x]", t))
    if len(seps) != 1 or (seps == {"-"} and ":" in t):
        return Rejected(code="bad_notation", detail=f"{text!r}: squares joined by one of - : x")
    sep = seps.pop()
    words = t.split(sep)
    if len(words) < 2 or any(not w.strip() for w in words):
        return Rejected(code="bad_notation", detail=f"{text!r}: an empty square")
    kinds = {w.strip().isdigit() for w in words}
    if len(kinds) > 1:
        return Rejected(code="bad_notation", detail=f"{text!r}: numeric and algebraic squares mixed")
    try:
        squares = tuple(fen.square(w) for w in words)
    except fen.BadPosition as exc:
        return Rejected(code="bad_notation", detail=f"{text!r}: {exc}")
    if sep == "-" and len(squares) != 2:
        return Rejected(code="bad_notation", detail=f"{text!r}: a quiet move names two squares")
    return Written(squares, sep != "-")


def _matches(w: Written, m: Move) -> bool:
    if w.capture != bool(m.captured) or w.squares[0] != m.origin or w.squares[-1] != m.final:
        return False
    rest = iter(m.path[1:])
    return all(any(s == p for p in rest) for s in w.squares[1:-1])


def choose(text: str, paths: list[Move]) -> Move | Rejected:
    """The move a text plays among the legal paths (duplicates included): one effect, or
    ``ambiguous_move`` / ``illegal_move`` (§9.2)."""
    w = read(text)
    if isinstance(w, Rejected):
        return w
    hits = [m for m in paths if _matches(w, m)]
    if not hits:
        return Rejected(code="illegal_move", detail=f"{text} is not a legal move here")
    # A text that is the whole path of a move names that move, even where it is also the short
    # form of a longer one: otherwise a single capture ending where a longer capture from the same
    # square ends could not be written at all, not even in the referee's canonical form (§9.2).
    whole = [m for m in hits if m.path == w.squares]
    if whole and len({m.effect() for m in whole}) == 1:
        return whole[0]
    effects = {m.effect() for m in hits}
    if len(effects) > 1:
        return Rejected(code="ambiguous_move", detail=f"{text} names {len(effects)} different moves")
    return hits[0]
