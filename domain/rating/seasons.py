"""Seasons and preset families: which standings table a finished match counts in."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec


class Season(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    start_ms: int  # inclusive, unix ms
    end_ms: int  # exclusive, unix ms


class SeasonCalendar(msgspec.Struct, frozen=True, kw_only=True):
    """Explicit seasons per game; a time outside them falls in the calendar quarter ``YYYY-Qn``."""

    seasons: dict[str, tuple[Season, ...]] = {}


def quarter_of(at_ms: int) -> str:
    moment = datetime.fromtimestamp(at_ms / 1000.0, tz=UTC)
    return f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"


def season_for(calendar: SeasonCalendar, game: str, at_ms: int) -> str:
    for season in calendar.seasons.get(game, ()):
        if season.start_ms <= at_ms < season.end_ms:
            return season.name
    return quarter_of(at_ms)


def preset_family(preset: str) -> str:
    """Presets that differ only in a variant suffix (``classic@blitz``) share a family and standings."""
    return preset.split("@", 1)[0]


def decode_calendar(data: bytes | str) -> SeasonCalendar:
    """``{"ugolki": [{"name": "s1", "start_ms": 0, "end_ms": 1}]}`` -> calendar (raises on bad input)."""
    raw = msgspec.json.decode(data, type=dict[str, tuple[Season, ...]])
    return SeasonCalendar(seasons=raw)
