"""Move notation (rules/ugolki.md §5): ``g2-e2-e4``; parse Cyrillic look-alikes, dashes, rank-FILE."""

from __future__ import annotations

import re

from .geometry import Geometry

# §5, 000:L74, L81, L281: Cyrillic letters typed inside square names.
_LOOKALIKES = str.maketrans({"а": "a", "в": "b", "с": "c", "е": "e", "н": "h"})
_DASHES = re.compile(r"\s*[\-\u2010\u2011\u2012\u2013\u2014\u2212:]\s*")
_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")
_RANK = re.compile(r"^\d{1,2}$")
_FILE = re.compile(r"^[a-z]$")

PASS = "--"


def normalise(text: str) -> str:
    return text.strip().lower().translate(_LOOKALIKES)


def parse_square(geo: Geometry, text: str) -> int | None:
    """'e4', 'E4', 'е4' (Cyrillic) or rank-FILE '4-E' -> bit index, None when not a square."""
    t = normalise(text)
    m = _SQUARE.match(t)
    if m is None:
        parts = _DASHES.split(t)
        if len(parts) == 2 and _RANK.match(parts[0]) and _FILE.match(parts[1]):
            t = parts[1] + parts[0]
        else:
            return None
    return geo.index.get(t)


def split_path(text: str) -> list[str] | None:
    """Split a path into square tokens; rank-FILE pairs ('1-A-3-A') are joined up."""
    tokens = [p for p in _DASHES.split(normalise(text)) if p]
    if not tokens:
        return None
    if all(_SQUARE.match(p) for p in tokens):
        return tokens
    if len(tokens) % 2 == 0 and all(
        _RANK.match(tokens[i]) and _FILE.match(tokens[i + 1]) for i in range(0, len(tokens), 2)
    ):
        return [tokens[i + 1] + tokens[i] for i in range(0, len(tokens), 2)]
    return None


def parse_path(geo: Geometry, text: str) -> tuple[int, ...] | None:
    tokens = split_path(text)
    if tokens is None:
        return None
    out = []
    for token in tokens:
        idx = geo.index.get(token)
        if idx is None:
            return None
        out.append(idx)
    return tuple(out)


def format_path(geo: Geometry, path: tuple[int, ...]) -> str:
    """Squares joined by hyphens; a forced pass prints as ``--``."""
    return "-".join(geo.names[i] for i in path) if path else PASS
