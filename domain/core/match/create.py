"""Creating a match: the ruleset's validation and hash, seat counts, ``CreateMatch`` -> ``MatchCreated``."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.match import CreateMatch, MatchCreated
from domain.core.decider import Decider
from domain.core.match.clocks import time_control_problem


def ruleset_hash(ruleset: dict[str, Any]) -> str:
    return hashlib.sha256(msgspec.json.encode(ruleset, order="sorted")).hexdigest()


def check_ruleset(game: Decider[Any, Any, Any, Any, Any], data: Any, seats: int) -> Any:
    """Ruleset parameters (builtins) for ``seats`` seats -> the validated ruleset struct, or Rejected.

    The one validation of a ruleset: the gateway calls it (through ``resolve_ruleset``) to answer a
    bad request at once, and ``decide_create`` calls it again on the command it decides."""
    if not game.min_seats <= seats <= game.max_seats:
        return Rejected(
            code="invalid_seats",
            detail=f"{game.name} takes {game.min_seats}-{game.max_seats} seats, got {seats}",
        )
    try:
        ruleset = msgspec.convert(data, game.ruleset_type)
    except (msgspec.ValidationError, ValueError) as exc:
        return Rejected(code="invalid_ruleset", detail=str(exc))
    problem = game.validate(ruleset, seats)
    if problem:
        # A ruleset that some other seat count can play is refused for its seats.
        playable = any(
            game.validate(ruleset, n) is None for n in range(game.min_seats, game.max_seats + 1) if n != seats
        )
        return Rejected(code="invalid_seats" if playable else "invalid_ruleset", detail=problem)
    return ruleset


def live_problem(game: Decider[Any, Any, Any, Any, Any], ruleset: Any) -> Rejected | None:
    """``invalid_ruleset`` for a ruleset a replay may use but a live match may not
    (``Decider.live_problem``), else None."""
    problem = game.live_problem(ruleset) if game.live_problem is not None else None
    return None if problem is None else Rejected(code="invalid_ruleset", detail=problem)


def written_ruleset(game: Decider[Any, Any, Any, Any, Any], ruleset: Any) -> dict[str, Any]:
    """A ruleset (struct or its builtins) in the form people and other programs write it
    (``Decider.ruleset_form``): what ``rules show`` prints and a record's ``overrides`` hold."""
    data = ruleset if isinstance(ruleset, dict) else msgspec.to_builtins(ruleset)
    return dict(game.ruleset_form.write(data)) if game.ruleset_form is not None else dict(data)


def live_creation_problem(game: Decider[Any, Any, Any, Any, Any], cmd: CreateMatch) -> Rejected | None:
    """``live_problem`` for a live match's ``CreateMatch`` (the referee asks before deciding it;
    a record's replay decides its creation without asking)."""
    ruleset = check_ruleset(game, cmd.ruleset, len(cmd.seats))
    return None if isinstance(ruleset, Rejected) else live_problem(game, ruleset)


def default_seats(game: Decider[Any, Any, Any, Any, Any], ruleset: Any | None = None) -> int:
    """The fewest seats ``ruleset`` (the default preset's when None) can be played with: the seat
    count used when a caller names none (a 4-player King preset needs 4 of King's 3-4 seats)."""
    if ruleset is None:
        ruleset = game.presets[game.default_preset].ruleset
    for n in range(game.min_seats, game.max_seats + 1):
        if game.validate(ruleset, n) is None:
            return n
    return game.min_seats


def playable_seats(game: Decider[Any, Any, Any, Any, Any], preset: str) -> tuple[int, ...] | None:
    """The seat counts the preset ``preset`` (a name or an alias) can be played with, fewest
    first, as the game declares them (``Decider.validate`` of the preset's ruleset for each of the
    game's seat counts); None when the game has no such preset.  A four-seat King preset gives
    ``(4,)``: matchmaking refuses a queue for any other count at join (``unplayable_seats``)."""
    base = game.presets.get(game.canonical_preset(preset))
    if base is None:
        return None
    return tuple(n for n in range(game.min_seats, game.max_seats + 1) if game.validate(base.ruleset, n) is None)


def default_seats_of(game: Decider[Any, Any, Any, Any, Any], preset: str | None) -> int:
    """``default_seats`` of a preset by name (the fewest seats when the preset is unknown)."""
    base = game.presets.get(game.canonical_preset(preset or game.default_preset))
    return game.min_seats if base is None else default_seats(game, base.ruleset)


def resolve_ruleset(
    game: Decider[Any, Any, Any, Any, Any], preset: str, overrides: dict[str, Any], seats: int | None = None
) -> Any:
    """Preset + overrides for ``seats`` seats (by default the fewest the preset plays with) -> a
    validated ruleset struct, or Rejected."""
    base = game.presets.get(game.canonical_preset(preset))
    if base is None:
        return Rejected(
            code="unknown_preset",
            detail=f"{game.name} has no preset {preset!r}; known: {', '.join(sorted(game.presets))}",
        )
    data = msgspec.to_builtins(base.ruleset)
    if game.ruleset_form is not None:
        try:
            overrides = game.ruleset_form.read(overrides)
        except ValueError as exc:
            return Rejected(code="invalid_ruleset", detail=str(exc))
    unknown = sorted(set(overrides) - set(data))
    if unknown:
        return Rejected(code="invalid_ruleset", detail=f"unknown ruleset parameter(s): {', '.join(unknown)}")
    data.update(overrides)
    return check_ruleset(game, data, default_seats(game, base.ruleset) if seats is None else seats)


def decide_create(game: Decider[Any, Any, Any, Any, Any], cmd: CreateMatch) -> tuple[MatchCreated] | Rejected:
    meta = game
    preset = meta.canonical_preset(cmd.preset)
    if preset not in meta.presets:
        return Rejected(code="unknown_preset", detail=f"{meta.name} has no preset {cmd.preset!r}")
    n = len(cmd.seats)
    ruleset = check_ruleset(game, cmd.ruleset, n)
    if isinstance(ruleset, Rejected):
        return ruleset
    if len(set(cmd.seats)) != n or len(cmd.players) != n or len(cmd.token_hashes) != n:
        return Rejected(
            code="invalid_seats", detail="seats must be distinct, with one player and one token each"
        )
    if tuple(cmd.seats) != meta.seat_names(n):
        return Rejected(code="invalid_seats", detail=f"seats must be {list(meta.seat_names(n))}")
    if not set(cmd.guests) <= set(cmd.seats) or len(set(cmd.guests)) != len(cmd.guests):
        return Rejected(code="invalid_seats", detail="guests must be distinct seats of the match")
    if meta.chance and not cmd.seed_commitment:
        return Rejected(code="invalid_seed", detail="a game with chance needs a seed commitment")
    problem = time_control_problem(cmd.time_control)
    if problem:
        return Rejected(code="invalid_time_control", detail=problem)
    if cmd.ranked and cmd.time_control is not None and cmd.time_control.on_timeout == "bot":
        return Rejected(
            code="invalid_time_control",
            detail='a ranked match always forfeits: on_timeout "bot" is for casual matches',
        )
    canonical = msgspec.json.decode(msgspec.json.encode(ruleset))  # JSON-shaped: lists, not tuples
    return (
        MatchCreated(
            game=meta.name,
            rules_version=meta.rules_version,
            preset=preset,
            ruleset=canonical,
            ruleset_hash=ruleset_hash(canonical),
            seats=tuple(cmd.seats),
            players=tuple(cmd.players),
            token_hashes=tuple(cmd.token_hashes),
            seed_commitment=cmd.seed_commitment,
            ranked=cmd.ranked and not game.helper,  # a table helper is never rated
            guests=tuple(cmd.guests),
            time_control=cmd.time_control,
            table=cmd.table,  # checked by the referee before (domain.matchmaking.provenance)
        ),
    )
