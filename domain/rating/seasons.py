"""Seasons and preset families: which standings table a finished match counts in."""

from __future__ import annotations

import msgspec


class Season(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    start_ms: int  # inclusive, unix ms
    end_ms: int  # exclusive, unix ms


class SeasonCalendar(msgspec.Struct, frozen=True, kw_only=True):
    """Explicit seasons per game; a time outside them falls in the calendar quarter ``YYYY-Qn``."""

    seasons: dict[str, tuple[Season, ...]] = {}


def civil_date(at_ms: int) -> tuple[int, int, int]:
    """(year, month, day) in UTC of a unix-ms instant: integer arithmetic only (the proleptic
    Gregorian "civil from days" algorithm), so the rules never touch a clock or time zone."""
    days = at_ms // 86_400_000 + 719_468
    era = days // 146_097
    doe = days - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def quarter_of(at_ms: int) -> str:
    year, month, _ = civil_date(at_ms)
    return f"{year}-Q{(month - 1) // 3 + 1}"


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
