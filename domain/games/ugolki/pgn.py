"""Ugolki in PGN-style move text (``gamehall export ID --pgn``, ``gamehall rules replay game.pgn``),
so a game opens in ordinary PGN tools: the tag pairs of a PGN game plus ``Variant "Ugolki"`` and
``Preset``, and the moves in the notation of rules/ugolki.md §5 (``1. h3-h5 a6-a4``; a jump chain
``h3-h5-f5``; a forced pass leaves its number's half empty, ``2... b6-b4``).  See
``domain/core/movetext.py`` for what is read and skipped."""

from __future__ import annotations

from typing import Any

from domain.core import movetext
from domain.core.decider import Notation

STYLE = movetext.Style(
    game="ugolki",
    seats=("white", "black"),
    fixed_tags={"Variant": "Ugolki"},
    default_preset="halma-8x8-1234",
)


def write(record: Any) -> str:
    return movetext.write(record, STYLE)


def read(text: str) -> dict[str, Any]:
    return movetext.read(text, STYLE)


PGN = Notation(name="pgn", suffix=".pgn", title="PGN move text", write=write, read=read)
