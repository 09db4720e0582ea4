"""Leagues with divisions as pure rules: placing players in divisions, the division tables and
who goes up and who goes down at a season's end (docs/ranked.md "Seasons and divisions").

- **Placement by rating** (:func:`place_by_rating`): players best rating first (ties: player id);
  each goes into the first division whose ``min_rating`` (none: any) they reach and that has room
  (``size`` 0: no limit); the last division takes whoever is left.
- **Placement from the previous season** (:func:`carry_divisions`): a player stays in the
  division of the same place in the list (by index, the bottom one if the new season has fewer),
  one up if promoted, one down if relegated.
- **Division table** (:func:`division_table`): by points (a win 1, a draw 1/2), then the season
  rating, then fewer games, then the player id; places 1, 2, ... (no shared places: the order is
  total).
- **Promotion and relegation** (:func:`moves`), per boundary between division ``i`` and ``i+1``:
  the top ``promote`` of ``i+1`` who played at least one game go up; the bottom ``relegate`` of
  ``i`` go down, not counting anyone promoted out of ``i`` at the boundary above (a middle
  division smaller than its promotions plus relegations loses its top to promotion first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from contracts.seasons import (
    Division,
    DivisionStandings,
    PlayerPromoted,
    PlayerRelegated,
    SeasonSettings,
    SeasonStanding,
    StandingRow,
)


def points(s: SeasonStanding) -> float:
    return s.wins + 0.5 * s.draws


def _order_key(s: SeasonStanding) -> tuple[float, float, int, str]:
    return (-points(s), -s.rating, s.games, s.player)


def place_by_rating(divisions: Sequence[Division], ratings: Mapping[str, float]) -> dict[str, str]:
    """player -> division name."""
    if not divisions:
        return {}
    out: dict[str, str] = {}
    room = [d.size for d in divisions]
    last = len(divisions) - 1
    for player, rating in sorted(ratings.items(), key=lambda kv: (-kv[1], kv[0])):
        for i, d in enumerate(divisions):
            if i == last:
                out[player] = d.name
                break
            if d.min_rating is not None and rating < d.min_rating:
                continue
            if d.size and room[i] <= 0:
                continue
            room[i] -= 1
            out[player] = d.name
            break
    return out


def carry_divisions(
    divisions: Sequence[Division],
    previous: Sequence[str],
    members: Mapping[str, str],
    promoted: Iterable[str] = (),
    relegated: Iterable[str] = (),
) -> dict[str, str]:
    """player -> division of the new season, from ``members`` (player -> division) of the previous
    season whose divisions, top first, were ``previous``."""
    up, down = set(promoted), set(relegated)
    last = len(divisions) - 1
    out: dict[str, str] = {}
    for player, division in members.items():
        index = previous.index(division) if division in previous else len(previous) - 1
        index += (-1 if player in up else 0) + (1 if player in down else 0)
        out[player] = divisions[max(0, min(last, index))].name
    return out


def division_table(game: str, division: str, standings: Iterable[SeasonStanding]) -> DivisionStandings:
    """The table of one division (its members' standings, a member without games with zeros)."""
    ordered = sorted(standings, key=_order_key)
    rows = tuple(
        StandingRow(
            place=i + 1,
            player=s.player,
            points=points(s),
            games=s.games,
            wins=s.wins,
            draws=s.draws,
            losses=s.losses,
            rating=s.rating,
        )
        for i, s in enumerate(ordered)
    )
    return DivisionStandings(game=game, division=division, rows=rows)


def moves(
    season_id: str, settings: SeasonSettings, tables: Sequence[DivisionStandings]
) -> tuple[list[PlayerPromoted], list[PlayerRelegated]]:
    """Who goes up and who goes down, from the final tables of one game's divisions (``tables``
    in the order of ``settings.divisions``)."""
    names = [d.name for d in settings.divisions]
    by_name = {t.division: t for t in tables}
    up: list[PlayerPromoted] = []
    down: list[PlayerRelegated] = []
    promoted: set[str] = set()
    for i, boundary in enumerate(settings.boundaries[: max(0, len(names) - 1)]):
        upper, lower = by_name.get(names[i]), by_name.get(names[i + 1])
        if lower is not None and boundary.promote > 0:
            for row in [r for r in lower.rows if r.games > 0][: boundary.promote]:
                promoted.add(row.player)
                up.append(
                    PlayerPromoted(
                        season_id=season_id,
                        game=lower.game,
                        player=row.player,
                        from_division=names[i + 1],
                        to_division=names[i],
                        place=row.place,
                    )
                )
        if upper is not None and boundary.relegate > 0:
            staying = [r for r in upper.rows if r.player not in promoted]
            for row in staying[len(staying) - min(boundary.relegate, len(staying)) :]:
                down.append(
                    PlayerRelegated(
                        season_id=season_id,
                        game=upper.game,
                        player=row.player,
                        from_division=names[i],
                        to_division=names[i + 1],
                        place=row.place,
                    )
                )
    return up, down


def mark_zones(
    tables: Sequence[DivisionStandings], up: Iterable[PlayerPromoted], down: Iterable[PlayerRelegated]
) -> tuple[DivisionStandings, ...]:
    """The tables with each promoted row marked ``promotion`` and each relegated one ``relegation``."""
    zones = {(p.game, p.from_division, p.player): "promotion" for p in up}
    zones.update({(r.game, r.from_division, r.player): "relegation" for r in down})
    return tuple(
        msgspec.structs.replace(
            t,
            rows=tuple(
                msgspec.structs.replace(r, zone=zones.get((t.game, t.division, r.player), ""))
                for r in t.rows
            ),
        )
        for t in tables
    )


def boundary_errors(settings: SeasonSettings) -> list[str]:
    """What is wrong with a season's divisions and boundaries (empty: nothing)."""
    errors: list[str] = []
    names = [d.name for d in settings.divisions]
    if not names:
        errors.append("a season needs at least one division")
    if len(set(names)) != len(names):
        errors.append("division names must differ")
    for name in names:
        if not name or len(name) > 40 or not name.replace("-", "").replace("_", "").isalnum():
            errors.append(f"division name {name!r}: 1-40 letters, digits, '-' or '_'")
    for d in settings.divisions:
        if d.size < 0:
            errors.append(f"division {d.name}: size must be 0 (no limit) or more")
    if len(settings.boundaries) not in (0, max(0, len(names) - 1)):
        errors.append(f"{len(names)} divisions need {len(names) - 1} boundaries, not {len(settings.boundaries)}")
    for i, b in enumerate(settings.boundaries):
        if b.promote < 0 or b.relegate < 0:
            errors.append(f"boundary {i + 1}: promotion and relegation counts must be 0 or more")
    if settings.newcomers and settings.newcomers not in names:
        errors.append(f"newcomers: no division named {settings.newcomers!r}")
    return errors
