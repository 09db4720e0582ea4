"""Move notation (rules/ugolki.md §5, D6): ``g2-e2-e4``; Cyrillic look-alikes, dashes, rank-FILE.

Strict where it is ambiguous (D6): empty segments (``h3--h5``, ``h3-h5-``) and ``:`` are bad
notation; a leading move number (``1.``, ``1. …``, ``12...``) is accepted and ignored."""

from __future__ import annotations

import re

from .geometry import Geometry

# §5, 000:L74, L81, L281: Cyrillic letters typed inside square names.
_LOOKALIKES = str.maketrans({"а": "a", "в": "b", "с": "c", "е": "e", "н": "h"})
_DASHES = re.compile(r"\s*[\-\u2010\u2011\u2012\u2013\u2014\u2212]\s*")
_MOVE_NUMBER = re.compile(r"^\d{1,4}\s*\.(?:\s*(?:\.\.|…))?\s*")
_TOKEN = re.compile(r"^[a-z0-9]+$")
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


class BadNotation(ValueError):
    """Text that is not a path in the notation of §5 (D6)."""


def split_path(text: str) -> list[str]:
    """Split a path into square tokens; rank-FILE pairs ('1-A-3-A') are joined up.

    Raises ``BadNotation`` for empty segments, stray characters (``:``) or an empty text."""
    t = _MOVE_NUMBER.sub("", normalise(text), count=1)
    tokens = _DASHES.split(t)
    if not t or any(not p for p in tokens):
        raise BadNotation(f"{text!r}: empty segment (squares are joined by single dashes)")
    bad = [p for p in tokens if not _TOKEN.match(p)]
    if bad:
        raise BadNotation(f"{text!r}: {bad[0]!r} is not a square")
    if all(_SQUARE.match(p) for p in tokens):
        return tokens
    if len(tokens) % 2 == 0 and all(
        _RANK.match(tokens[i]) and _FILE.match(tokens[i + 1]) for i in range(0, len(tokens), 2)
    ):
        return [tokens[i + 1] + tokens[i] for i in range(0, len(tokens), 2)]
    return tokens  # each token is then read (and refused) as a square


def parse_path(geo: Geometry, text: str) -> tuple[int, ...] | None:
    try:
        tokens = split_path(text)
    except BadNotation:
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
