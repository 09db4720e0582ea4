"""Ugolki's words for the table: a move's label (the notation of §5 in every language) and a line
of the match log for each event."""

from __future__ import annotations

from typing import Any

from contracts.games.ugolki import MovePiece, PieceMoved, TurnPassed
from domain.core.words import DEFAULT_LANG, Lang, Words

WORDS = Words(
    en={"moved": "{seat} {path}", "passed": "{seat} passes"},
    ru={"moved": "{seat} {path}", "passed": "{seat} пропускает ход"},
)


def describe(cmd: MovePiece, lang: Lang = DEFAULT_LANG) -> str:
    """A command in the notation of §5 (``h3-f3-f5``), the same in every language."""
    return "-".join(cmd.path)


def event_text(_state: Any, event: Any, _viewer: str | None, lang: Lang = DEFAULT_LANG) -> str | None:
    """A log line (a public game: every viewer sees every event)."""
    if isinstance(event, PieceMoved):
        return WORDS.say(lang, "moved", seat=event.seat, path="–".join(event.path))
    if isinstance(event, TurnPassed):
        return WORDS.say(lang, "passed", seat=event.seat)
    return None
