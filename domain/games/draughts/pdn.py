"""Draughts in PDN, Portable Draughts Notation (``gamehall export ID --pdn``, ``gamehall rules
replay game.pdn``; rules/draughts.md §9): the tag pairs of a PDN game with ``GameType "25"``
(Russian draughts; ``26`` Brazilian, and the giveaway preset as ``25`` with a ``Variant`` tag),
``FEN`` and ``SetUp`` for a set position, the moves in numeric squares (``22-18``, ``22x15x24``),
results ``2-0``, ``0-2``, ``1-1`` and ``*``.  Reading accepts what other programs write: move
numbers, ``-``, ``x`` and ``:``, numeric or algebraic squares, ``{comments}``, ``(variations)``
and annotation symbols skipped (domain/core/movetext.py)."""

from __future__ import annotations

from typing import Any

from domain.core import movetext
from domain.core.decider import Notation

from .board import INDEX
from .fen import START

RESULTS = {"2-0": (1, 2), "0-2": (2, 1), "1-1": (1, 1), "*": None}
GAME_TYPES = {"russian": "25", "russian-giveaway": "25", "brazilian": "26"}


def _numeric(move: str) -> str:
    sep = ":" if ":" in move else "-"
    out = "x" if sep == ":" else "-"
    return out.join(str(INDEX[s] + 1) if s in INDEX else s for s in move.split(sep))


STYLE = movetext.Style(
    game="draughts",
    seats=("white", "black"),
    default_preset="russian",
    results=RESULTS,
    write_move=_numeric,
)


def write(record: Any) -> str:
    preset = str(record.get("preset", "russian"))
    extra = {"GameType": GAME_TYPES.get(preset, "25")}
    fen = (record.get("overrides") or {}).get("start_fen")
    if fen and fen != START:
        extra.update({"SetUp": "1", "FEN": fen})
    return movetext.write(record, STYLE, extra)


def read(text: str) -> dict[str, Any]:
    record = movetext.read(text, STYLE)
    tags = movetext.tags(text)
    if tags.get("FEN"):
        record["overrides"] = {**record.get("overrides", {}), "start_fen": tags["FEN"]}
    if "Preset" not in tags and tags.get("GameType", "25").split(",")[0] == "26":
        record["preset"] = "brazilian"
    return record


PDN = Notation(name="pdn", suffix=".pdn", title="Portable Draughts Notation", write=write, read=read)
