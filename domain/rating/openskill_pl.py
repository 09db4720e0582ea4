"""OpenSkill Plackett-Luce (PyPI ``openskill``) for three- and four-seat games.

A thin, pure adapter: plain floats in, plain floats out, every parameter explicit so that a
``RatingApplied`` event can record it and a rebuild can reproduce the update.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec
from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


class PLParameters(msgspec.Struct, frozen=True, kw_only=True):
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0  # additive dynamics factor applied by openskill on every update
    # sigma growth per idle rating period (the shell counts the periods)
    idle_sigma_per_period: float = 25.0 / 300.0


def _model(params: PLParameters) -> PlackettLuce:
    return PlackettLuce(
        mu=params.mu, sigma=params.sigma, beta=params.beta, kappa=params.kappa, tau=params.tau
    )


def rate(
    ratings: list[tuple[float, float]],
    ranks: list[int],
    params: PLParameters = PLParameters(),  # noqa: B008 - frozen struct
) -> list[tuple[float, float]]:
    """(mu, sigma) per player after one free-for-all game; ``ranks`` 1 is best, ties share a rank."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError("one rank per player, at least two players")
    model = _model(params)
    teams: list[list[Any]] = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated: list[list[Any]] = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def inflate_sigma(sigma: float, periods: int, params: PLParameters = PLParameters()) -> float:  # noqa: B008
    """sigma after ``periods`` idle periods: sqrt(sigma^2 + n g^2), capped at the initial sigma."""
    if periods <= 0:
        return sigma
    grown = math.sqrt(sigma * sigma + periods * params.idle_sigma_per_period**2)
    return min(grown, params.sigma)


def raise_sigma(sigma: float, boost: float, params: PLParameters = PLParameters()) -> float:  # noqa: B008
    return min(math.sqrt(sigma * sigma + boost * boost), params.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative display value mu - 3 sigma."""
    return mu - 3.0 * sigma
