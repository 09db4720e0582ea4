"""A finished ranked match -> rating updates, as a pure function.

The scoring service and ``gamehall ratings rebuild`` both call :func:`rate_match`, so the live
tables and a rebuild from the log agree exactly.  Every input that shaped the update (model,
parameters, idle periods, season carry-over, the ratings before) goes into ``RatingApplied``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.integration import MatchFinished, RatingApplied
from domain.rating import glicko2, openskill_pl

GLICKO2 = "glicko2"
OPENSKILL_PL = "openskill-pl"


class RatingState(msgspec.Struct, frozen=True, kw_only=True):
    """A player's current rating in one (game, preset family, model)."""

    model: str
    rating: float  # Glicko rating, or OpenSkill mu
    rd: float  # Glicko RD, or OpenSkill sigma
    volatility: float  # Glicko-2 volatility; 0 for OpenSkill
    season: str  # the season of the last update
    last_at: int  # unix ms of the last rated match
    games: int = 0


class RatingPolicy(msgspec.Struct, frozen=True, kw_only=True):
    tau: float = glicko2.DEFAULT_TAU
    initial_rating: float = glicko2.DEFAULT_RATING
    initial_rd: float = glicko2.DEFAULT_RD
    initial_volatility: float = glicko2.DEFAULT_VOLATILITY
    period_ms: int = 86_400_000  # one rating period = one day; idle periods grow the RD
    season_rd_boost: float = 100.0
    season_sigma_boost: float = 25.0 / 9.0
    openskill: openskill_pl.PLParameters = openskill_pl.PLParameters()


def model_for(seats: int) -> str:
    if seats == 2:
        return GLICKO2
    if 3 <= seats <= 4:
        return OPENSKILL_PL
    raise ValueError(f"no rating model for {seats} seats")


def initial_state(model: str, policy: RatingPolicy, season: str, at_ms: int) -> RatingState:
    if model == GLICKO2:
        return RatingState(
            model=model,
            rating=policy.initial_rating,
            rd=policy.initial_rd,
            volatility=policy.initial_volatility,
            season=season,
            last_at=at_ms,
        )
    return RatingState(
        model=model,
        rating=policy.openskill.mu,
        rd=policy.openskill.sigma,
        volatility=0.0,
        season=season,
        last_at=at_ms,
    )


def pair_scores(ranks: tuple[int, ...]) -> tuple[float, float]:
    a, b = ranks
    if a == b:
        return 0.5, 0.5
    return (1.0, 0.0) if a < b else (0.0, 1.0)


def rateable(finished: MatchFinished) -> bool:
    players = finished.players
    return (
        finished.ranked
        and not finished.guests  # a guest (no credential) is never rated, nor are their opponents
        and 2 <= len(players) <= 4
        and len(set(players)) == len(players)
        and len(finished.outcome.ranks) == len(players)
    )


def _idle_periods(state: RatingState, at_ms: int, policy: RatingPolicy) -> int:
    if state.games == 0 or at_ms <= state.last_at:
        return 0
    return (at_ms - state.last_at) // policy.period_ms


def rate_match(
    finished: MatchFinished,
    season: str,
    family: str,
    prior: dict[str, RatingState | None],
    policy: RatingPolicy = RatingPolicy(),  # noqa: B008 - frozen struct
) -> tuple[RatingApplied, dict[str, RatingState]]:
    """Ratings of every player after ``finished`` (which must be :func:`rateable`)."""
    if not rateable(finished):
        raise ValueError(f"match {finished.match_id} is not rateable")
    players = finished.players
    model = model_for(len(players))
    at = finished.finished_at
    before: list[RatingState] = []
    effective: list[RatingState] = []
    idle: list[int] = []
    carried: list[bool] = []
    for player in players:
        state = prior.get(player) or initial_state(model, policy, season, at)
        before.append(state)
        periods = _idle_periods(state, at, policy)
        new_season = state.games > 0 and state.season != season
        rd = state.rd
        if model == GLICKO2:
            rd = glicko2.inflate_rd(rd, state.volatility, periods, policy.initial_rd)
            if new_season:
                rd = glicko2.raise_rd(rd, policy.season_rd_boost, policy.initial_rd)
        else:
            rd = openskill_pl.inflate_sigma(rd, periods, policy.openskill)
            if new_season:
                rd = openskill_pl.raise_sigma(rd, policy.season_sigma_boost, policy.openskill)
        idle.append(periods)
        carried.append(new_season)
        effective.append(msgspec.structs.replace(state, rd=rd))

    ranks = finished.outcome.ranks
    after: list[tuple[float, float, float]]
    parameters: dict[str, Any] = {
        "idle_periods": idle,
        "season_carry": carried,
        "period_ms": policy.period_ms,
    }
    if model == GLICKO2:
        s0, s1 = pair_scores(ranks)
        scores: tuple[float, ...] = (s0, s1)
        a, b = effective
        after = [
            glicko2.rate(a.rating, a.rd, a.volatility, [(b.rating, b.rd, s0)], policy.tau),
            glicko2.rate(b.rating, b.rd, b.volatility, [(a.rating, a.rd, s1)], policy.tau),
        ]
        parameters.update(tau=policy.tau, max_rd=policy.initial_rd, season_rd_boost=policy.season_rd_boost)
    else:
        scores = tuple(float(r) for r in ranks)
        rated = openskill_pl.rate([(s.rating, s.rd) for s in effective], list(ranks), policy.openskill)
        after = [(mu, sigma, 0.0) for mu, sigma in rated]
        parameters.update(
            msgspec.structs.asdict(policy.openskill), season_sigma_boost=policy.season_sigma_boost
        )

    new_states = {
        player: RatingState(
            model=model,
            rating=r,
            rd=d,
            volatility=v,
            season=season,
            last_at=max(at, before[i].last_at),
            games=before[i].games + 1,
        )
        for i, (player, (r, d, v)) in enumerate(zip(players, after, strict=True))
    }
    event = RatingApplied(
        match_id=finished.match_id,
        game=finished.game,
        preset=finished.preset,
        season=season,
        model=model,
        parameters=parameters,
        players=players,
        before=tuple((s.rating, s.rd, s.volatility, float(s.games)) for s in before),
        after=tuple(after),
        scores=scores,
        applied_at=at,
        family=family,
        ranks=ranks,
        effective_before=tuple((s.rating, s.rd, s.volatility) for s in effective),
    )
    return event, new_states


def rate_sequence(
    matches: list[tuple[MatchFinished, str, str]],
    policy: RatingPolicy = RatingPolicy(),  # noqa: B008 - frozen struct
) -> tuple[list[RatingApplied], dict[str, RatingState], dict[str, str]]:
    """Rate ``(finished, season, family)`` in order from no ratings at all: the rating updates,
    every player's final state and the last match each was rated in.  The matches are one
    (game, family, model) group, each :func:`rateable`; scoring recomputes a group with it when a
    ruling changes one of its results, so that the ratings are those of the amended history."""
    states: dict[str, RatingState] = {}
    last: dict[str, str] = {}
    produced: list[RatingApplied] = []
    for finished, season, family in matches:
        applied, new = rate_match(finished, season, family, {p: states.get(p) for p in finished.players}, policy)
        states.update(new)
        last.update((p, finished.match_id) for p in finished.players)
        produced.append(applied)
    return produced, states, last
