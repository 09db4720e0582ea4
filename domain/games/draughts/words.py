"""Draughts' words for the table: a move's label (the notation of §9.2, the same in every
language) and a line of the match log for each move, in English and Russian."""

from __future__ import annotations

from typing import Any

from contracts.games.draughts import DraughtsMove, PiecesMoved
from domain.core.words import DEFAULT_LANG, Lang, Words

WORDS = Words(
    en={
        "moved": "{seat} {path}",
        "captured": "{seat} {path}, takes {n}",
        "crowned": "; a new king on {square}",
        "white": "White",
        "black": "Black",
    },
    ru={
        "moved": "{seat} {path}",
        "captured": "{seat} {path}, берёт {n}",
        "crowned": "; новая дамка на {square}",
        "white": "белые",
        "black": "чёрные",
    },
)


def describe(cmd: DraughtsMove, lang: Lang = DEFAULT_LANG) -> str:
    """A command in the notation of §9.2 (``c3:e5:g3``), the same in every language."""
    return cmd.move


def line(event: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """A log line (a public game: every viewer sees every event)."""
    if not isinstance(event, PiecesMoved):
        return None
    sep = ":" if event.captured else "-"
    path = sep.join(event.path)
    out = (
        WORDS.say(lang, "captured", seat=event.seat, path=path, n=len(event.captured))
        if event.captured
        else WORDS.say(lang, "moved", seat=event.seat, path=path)
    )
    return out + (WORDS.say(lang, "crowned", square=event.path[-1]) if event.promoted else "")


def event_text(_state: Any, event: Any, _viewer: str | None, lang: Lang = DEFAULT_LANG) -> str | None:
    return line(event, lang)
