"""Rating policy and season calendar from the scoring settings (the same for live scoring and
rebuild): ``GAMEHALL_SEASONS``, ``GAMEHALL_RATING_PERIOD_MS``, ``GAMEHALL_GLICKO_TAU``
(``services.common.settings.ScoringSettings``, docs/operations.md), and the seasons opened and
closed on the seasons stream (``seasons``: read before every batch by live scoring, whole by a
rebuild; ``services/common/seasons.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.rating.ranked import RatingPolicy
from domain.rating.seasons import SeasonCalendar
from services.common.seasons import SeasonBook, season_calendar, season_name
from services.common.settings import ScoringSettings


@dataclass(frozen=True)
class ScoringConfig:
    policy: RatingPolicy
    calendar: SeasonCalendar
    seasons: SeasonBook = field(default_factory=SeasonBook)

    def season_for(self, game: str, at_ms: int) -> str:
        """The season a match of ``game`` that finished at ``at_ms`` is rated in."""
        return season_name(self.calendar, self.seasons.state, game, at_ms)


def load(settings: ScoringSettings) -> ScoringConfig:
    calendar = season_calendar(settings)
    policy = RatingPolicy(period_ms=settings.rating_period_ms, tau=settings.glicko_tau)
    return ScoringConfig(policy=policy, calendar=calendar)
