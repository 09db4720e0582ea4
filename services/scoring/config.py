"""Rating policy and season calendar from the environment (the same for live scoring and rebuild).

- ``GAMEHALL_SEASONS``: JSON ``{"ugolki": [{"name": "s1", "start_ms": ..., "end_ms": ...}]}`` or a
  path to such a file; without it, seasons are calendar quarters (``2026-Q4``).
- ``GAMEHALL_RATING_PERIOD_MS``: length of a Glicko-2 rating period for idle RD growth (1 day).
- ``GAMEHALL_GLICKO_TAU``: Glicko-2 system constant (0.5).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from domain.rating.ranked import RatingPolicy
from domain.rating.seasons import SeasonCalendar, decode_calendar


@dataclass(frozen=True)
class ScoringConfig:
    policy: RatingPolicy
    calendar: SeasonCalendar


def load() -> ScoringConfig:
    raw = os.environ.get("GAMEHALL_SEASONS", "").strip()
    calendar = SeasonCalendar()
    if raw:
        calendar = decode_calendar(raw if raw.startswith("{") else Path(raw).read_text())
    defaults = RatingPolicy()
    policy = RatingPolicy(
        period_ms=int(os.environ.get("GAMEHALL_RATING_PERIOD_MS", str(defaults.period_ms))),
        tau=float(os.environ.get("GAMEHALL_GLICKO_TAU", str(defaults.tau))),
    )
    return ScoringConfig(policy=policy, calendar=calendar)
