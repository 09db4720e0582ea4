"""Tablut's words for the table: a move's label (the notation of §9.2, the same in every
language) and a line of the match log for each move, in English and Russian."""

from __future__ import annotations

from typing import Any

from contracts.games.tablut import PieceMoved, TablutMove
from domain.core.words import DEFAULT_LANG, Lang, Words

WORDS = Words(
    en={"moved": "{seat} {move}", "takes": ", takes {squares}", "check": "; check ({n})"},
    ru={"moved": "{seat} {move}", "takes": ", берёт {squares}", "check": "; шах ({n})"},
)


def describe(cmd: TablutMove, lang: Lang = DEFAULT_LANG) -> str:
    """A command in the notation of §9.2 (``e1-e4xd4xf4``), the same in every language."""
    return cmd.move


def line(event: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    if not isinstance(event, PieceMoved):
        return None
    out = WORDS.say(lang, "moved", seat=event.seat, move=f"{event.origin}-{event.to}")
    if event.captured:
        out += WORDS.say(lang, "takes", squares=", ".join(event.captured))
    if event.check:
        out += WORDS.say(lang, "check", n=event.routes)
    return out


def event_text(_state: Any, event: Any, _viewer: str | None, lang: Lang = DEFAULT_LANG) -> str | None:
    return line(event, lang)
