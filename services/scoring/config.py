"""Rating policy and season calendar from the scoring settings (the same for live scoring and
rebuild): ``GAMEHALL_SEASONS``, ``GAMEHALL_RATING_PERIOD_MS``, ``GAMEHALL_GLICKO_TAU``
(``services.common.settings.ScoringSettings``, docs/operations.md)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.rating.ranked import RatingPolicy
from domain.rating.seasons import SeasonCalendar
from services.common.seasons import season_calendar
from services.common.settings import ScoringSettings


@dataclass(frozen=True)
class ScoringConfig:
    policy: RatingPolicy
    calendar: SeasonCalendar


def load(settings: ScoringSettings) -> ScoringConfig:
    calendar = season_calendar(settings)
    policy = RatingPolicy(period_ms=settings.rating_period_ms, tau=settings.glicko_tau)
    return ScoringConfig(policy=policy, calendar=calendar)
