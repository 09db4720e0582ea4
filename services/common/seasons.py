"""The season calendar of the scoring settings (``GAMEHALL_SEASONS``: JSON or a path to it), read
the same way by scoring, which rates each match in its season, and by the gateway, which says
which season is in force now."""

from __future__ import annotations

from pathlib import Path

from domain.rating.seasons import SeasonCalendar, decode_calendar
from services.common.settings import ScoringSettings


def season_calendar(settings: ScoringSettings) -> SeasonCalendar:
    raw = (settings.seasons or "").strip()
    if not raw:
        return SeasonCalendar()
    return decode_calendar(raw if raw.startswith("{") else Path(raw).read_text())
