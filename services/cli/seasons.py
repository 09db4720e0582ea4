"""``gamehall seasons open | close | list | show``: seasons and leagues with divisions as
operations (docs/ranked.md "Seasons and divisions").  Every decision goes to the seasons stream
(``GH_SEASONS``) of the running stack (or ``NATS_URL``) as the ``cli`` identity, the stream's only
writer; scoring rates each ranked match in the season in force at its end.

``close`` schedules the season's end (at least ``--lead`` seconds ahead, so every scoring knows
it before a match past it finishes), waits for it and for scoring and the leaderboard to apply
every match finished before it, then freezes the standings of every division and appends the
promotions and relegations.  Interrupted after the end was scheduled, ``close`` run again goes on
from there.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from services.cli import context

seasons_app = typer.Typer(
    help="Seasons and leagues with divisions: open, close (freeze standings, promote, relegate), list, show.",
    no_args_is_help=True,
)

SeasonId = Annotated[str, typer.Argument(metavar="SEASON_ID", help="The season's id (a-z, 0-9, '-', '_').")]
AsJson = Annotated[bool, typer.Option("--json", help="JSON instead of text.")]
By = Annotated[str, typer.Option("--by", metavar="NAME", help="Who does it (recorded with the event).")]
Lead = Annotated[
    float,
    typer.Option(
        "--lead",
        metavar="SECONDS",
        min=1.0,
        help="How far ahead a start or end must be (at least the clock difference between machines "
        "plus the time to append; default 10).",
    ),
]

_DURATION = re.compile(r"^\+(\d+(?:\.\d+)?)(ms|s|m|h|d)$")
_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


class BadInput(ValueError):
    pass


def parse_time(text: str, now_ms: int) -> int:
    """A time as unix ms: ``+30s`` / ``+5m`` / ``+2h`` / ``+1d`` from now, a number of unix ms, or
    an ISO 8601 date-time (UTC when it names no zone)."""
    text = text.strip()
    found = _DURATION.match(text)
    if found:
        return now_ms + int(float(found.group(1)) * _UNITS[found.group(2)])
    if text.isdigit():
        return int(text)
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"bad time {text!r}: use +30s, +5m, +2h, +1d, unix ms or ISO 8601 (2027-01-01T00:00)") from None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return int(at.timestamp() * 1000)


def parse_division(text: str) -> Any:
    """``NAME[:SIZE][@MIN_RATING]`` -> Division."""
    from contracts.seasons import Division

    found = re.match(r"^([A-Za-z0-9_-]+)(?::(\d+))?(?:@(-?\d+(?:\.\d+)?))?$", text.strip())
    if not found:
        raise BadInput(f"bad division {text!r}: NAME[:SIZE][@MIN_RATING], e.g. gold:8@1700")
    return Division(
        name=found.group(1),
        size=int(found.group(2) or 0),
        min_rating=float(found.group(3)) if found.group(3) is not None else None,
    )


def parse_boundary(text: str) -> Any:
    """``UP/DOWN`` -> Boundary (the top UP of the lower division go up, the bottom DOWN of the
    upper one go down)."""
    from contracts.seasons import Boundary

    found = re.match(r"^(\d+)/(\d+)$", text.strip())
    if not found:
        raise BadInput(f"bad boundary {text!r}: UP/DOWN, e.g. 2/2")
    return Boundary(promote=int(found.group(1)), relegate=int(found.group(2)))


def when(ms: int) -> str:
    if not ms:
        return "-"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _fail(code: str, detail: str) -> None:
    typer.echo(f"{code}: {detail}", err=True)
    raise typer.Exit(1)


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _on_stream(work: Callable[[Any, Any], Awaitable[Any]]) -> Any:
    """``work(js, engine)`` on the running stack's NATS (or ``NATS_URL``) and the read models."""
    from services.cli.stackrun import on_stack_nats
    from services.common import db

    async def with_engine(nc: Any) -> Any:
        engine = db.open_database(context.settings().database_url)
        try:
            return await work(nc.jetstream(), engine)
        finally:
            engine.dispose()

    return on_stack_nats(with_engine, "gamehall-seasons")


@seasons_app.command("open")
def open_cmd(
    season_id: SeasonId,
    starts: Annotated[
        str | None,
        typer.Option("--starts", metavar="TIME", help="Start: +30s, +1d, unix ms or ISO 8601 (default: now + lead)."),
    ] = None,
    ends: Annotated[
        str | None,
        typer.Option("--ends", metavar="TIME", help="End, if known now (default: until `seasons close`)."),
    ] = None,
    games: Annotated[
        list[str] | None, typer.Option("--game", "-g", metavar="GAME", help="A game of the season (repeat; default: every game).")
    ] = None,
    divisions: Annotated[
        list[str] | None,
        typer.Option(
            "--division",
            "-d",
            metavar="NAME[:SIZE][@MIN]",
            help="A division, top first (repeat): at most SIZE players, a rating of at least MIN (default: one division, main).",
        ),
    ] = None,
    boundaries: Annotated[
        list[str] | None,
        typer.Option(
            "--move",
            metavar="UP/DOWN",
            help="Promotions/relegations at each boundary, top first (repeat; one value: every boundary).",
        ),
    ] = None,
    newcomers: Annotated[
        str, typer.Option("--newcomers", metavar="NAME", help="The division of players not placed (default: the last).")
    ] = "",
    settings_file: Annotated[
        Path | None, typer.Option("--settings", metavar="FILE", help="The season's settings as JSON (contracts.seasons.SeasonSettings).")
    ] = None,
    by: By = "operator",
    lead: Lead = 10.0,
    as_json: AsJson = False,
) -> None:
    """Open a season: its window, games and divisions; players are placed in divisions by the
    previous season's result (promoted up, relegated down) or else by rating."""
    import msgspec

    from contracts.envelope import Rejected
    from contracts.seasons import OpenSeason, SeasonSettings
    from services.common import seasons

    now = seasons.now_ms()
    try:
        if settings_file is not None:
            settings = msgspec.json.decode(settings_file.read_bytes(), type=SeasonSettings)
        else:
            divs = tuple(parse_division(d) for d in (divisions or ["main"]))
            moves = [parse_boundary(b) for b in (boundaries or [])]
            if len(moves) == 1 and len(divs) > 2:
                moves = moves * (len(divs) - 1)
            settings = SeasonSettings(divisions=divs, boundaries=tuple(moves), newcomers=newcomers)
        starts_at = parse_time(starts, now) if starts else now + int(lead * 1000)
        ends_at = parse_time(ends, now) if ends else 0
    except (BadInput, OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        _fail("bad_input", str(exc))
        return

    async def work(js: Any, engine: Any) -> Any:
        command = OpenSeason(
            season_id=season_id,
            starts_at=starts_at,
            ends_at=ends_at,
            games=tuple(games or ()),
            settings=settings,
            by=by,
            now=now,
            ratings=tuple(seasons.current_ratings(engine)),
        )
        return await seasons.execute(js, command, lead_ms=int(lead * 1000))

    decided, _state = _on_stream(work)
    if isinstance(decided, Rejected):
        _fail(decided.code, decided.detail)
    if as_json:
        typer.echo(json.dumps([msgspec.to_builtins(e) for e in decided], indent=2))
        return
    opened = decided[0]
    typer.echo(f"season {season_id} opened: starts {when(opened.starts_at)}, ends {when(opened.ends_at)}")
    typer.echo(f"  games: {', '.join(opened.games) or 'every game'}")
    typer.echo(f"  divisions: {', '.join(d.name for d in opened.settings.divisions)}")
    for event in decided[1:]:
        typer.echo(f"  {event.game} {event.division}: {len(event.players)} placed by {event.reason.replace('_', ' ')}")


@seasons_app.command("close")
def close_cmd(
    season_id: SeasonId,
    at: Annotated[
        str | None,
        typer.Option("--at", metavar="TIME", help="When the season ends (default: now + lead; kept if already set)."),
    ] = None,
    wait: Annotated[
        float,
        typer.Option("--wait", metavar="SECONDS", help="How long to wait for scoring and the leaderboard to catch up."),
    ] = 60.0,
    by: By = "operator",
    lead: Lead = 10.0,
    as_json: AsJson = False,
) -> None:
    """Close a season: end it, wait for every match before the end to be rated, freeze each
    division's standings and promote and relegate by the season's settings."""
    import msgspec

    from contracts import subjects
    from contracts.envelope import Rejected
    from contracts.seasons import CloseSeason, ScheduleSeasonEnd
    from services.cli import rebuild
    from services.common import seasons

    now = seasons.now_ms()
    try:
        ends_at = parse_time(at, now) if at else now + int(lead * 1000)
    except BadInput as exc:
        _fail("bad_input", str(exc))
        return

    async def work(js: Any, engine: Any) -> Any:
        book = seasons.SeasonBook()
        state = await book.refresh(js)
        season = state.seasons.get(season_id)
        if season is not None and season.closed is None and not season.ends_at:
            decided, state = await seasons.execute(
                js, ScheduleSeasonEnd(season_id=season_id, ends_at=ends_at, by=by, now=now), lead_ms=int(lead * 1000)
            )
            if isinstance(decided, Rejected):
                return decided
            season = state.seasons[season_id]
            _progress(f"season {season_id} ends at {when(season.ends_at)}")
        if season is not None and season.closed is None and season.ends_at:
            left = season.ends_at - seasons.now_ms()
            if left > 0:
                _progress(f"waiting {left / 1000:.1f} s for the end")
                await asyncio.sleep(left / 1000 + 0.05)
            finished_seq = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
            disputes_seq = await rebuild.last_seq(js, subjects.DISPUTE_SUBJECTS, stream=subjects.DISPUTE_STREAM)
            _progress(f"waiting for scoring and the leaderboard to reach match {finished_seq}")
            started = time.monotonic()
            if not await rebuild.wait_caught_up(js, engine, finished_seq, disputes_seq, wait):
                return Rejected(
                    code="not_caught_up",
                    detail=f"scoring and the leaderboard did not apply every finished match within {wait:g} s; "
                    "the end is scheduled, run close again",
                )
            _progress(f"caught up in {time.monotonic() - started:.1f} s; freezing the standings")
        command = CloseSeason(
            season_id=season_id, by=by, now=seasons.now_ms(), standings=tuple(seasons.season_standings(engine, season_id))
        )
        decided, _ = await seasons.execute(js, command)
        return decided

    decided = _on_stream(work)
    if isinstance(decided, Rejected):
        _fail(decided.code, decided.detail)
    if as_json:
        typer.echo(json.dumps([msgspec.to_builtins(e) for e in decided], indent=2))
        return
    closed = decided[0]
    up = [e for e in decided[1:] if type(e).__name__ == "PlayerPromoted"]
    down = [e for e in decided[1:] if type(e).__name__ == "PlayerRelegated"]
    typer.echo(
        f"season {season_id} closed: {len(closed.standings)} division tables frozen, "
        f"{len(up)} promoted, {len(down)} relegated"
    )
    for e in up:
        typer.echo(f"  up    {e.game} {e.player}: {e.from_division} -> {e.to_division} (place {e.place})")
    for e in down:
        typer.echo(f"  down  {e.game} {e.player}: {e.from_division} -> {e.to_division} (place {e.place})")


def _load() -> Any:
    from services.common import seasons

    async def work(js: Any, engine: Any) -> Any:
        book = seasons.SeasonBook()
        await book.refresh(js)
        return book

    return _on_stream(work)


@seasons_app.command("list")
def list_cmd(as_json: AsJson = False) -> None:
    """List the seasons opened on the seasons stream, oldest first."""
    from services.common import seasons

    book = _load()
    rows = [seasons.season_summary(book.state.seasons[i]) for i in book.state.order]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        typer.echo("no seasons opened (matches count in GAMEHALL_SEASONS or the calendar quarter)")
        return
    typer.echo(f"{'season':<20} {'status':<8} {'starts':<24} {'ends':<24} games / divisions")
    for r in rows:
        typer.echo(
            f"{r['season_id']:<20} {r['status']:<8} {when(r['starts_at']):<24} {when(r['ends_at']):<24} "
            f"{', '.join(r['games']) or 'every game'} / {', '.join(d['name'] for d in r['divisions'])}"
        )


@seasons_app.command("show")
def show_cmd(
    season_id: SeasonId,
    game: Annotated[str | None, typer.Option("--game", "-g", metavar="GAME", help="Only this game.")] = None,
    as_json: AsJson = False,
) -> None:
    """Show a season: window, divisions and their boundaries, every division's standings (frozen
    once closed; as they stand otherwise, with the zones marked), promotions and relegations."""
    from services.common import db, seasons

    book = _load()
    season = book.state.seasons.get(season_id)
    if season is None:
        _fail("season_not_opened", f"no season {season_id}")
        return
    engine = db.open_database(context.settings().database_url)
    try:
        detail = seasons.season_detail(season, seasons.season_standings(engine, season_id), game)
    finally:
        engine.dispose()
    if as_json:
        typer.echo(json.dumps(detail, indent=2))
        return
    typer.echo(f"season {season_id} ({detail['status']}): {when(detail['starts_at'])} to {when(detail['ends_at'])}")
    typer.echo(f"  games: {', '.join(detail['games']) or 'every game'}")
    divs = detail["divisions"]
    for i, d in enumerate(divs):
        rule = ", ".join(x for x in (f"size {d['size']}" if d["size"] else "", f"rating >= {d['min_rating']:g}" if d["min_rating"] is not None else "") if x)
        typer.echo(f"  division {i + 1}: {d['name']}" + (f" ({rule})" if rule else ""))
        if i < len(detail["boundaries"]):
            b = detail["boundaries"][i]
            typer.echo(f"      {b['relegate']} down / {b['promote']} up")
    frozen = "final standings (frozen)" if detail["status"] == "closed" else "standings as they stand"
    for t in detail["standings"]:
        typer.echo(f"\n  {t['game']} / {t['division']}: {frozen}")
        if not t["rows"]:
            typer.echo("    (nobody)")
            continue
        typer.echo(f"    {'#':>3}  {'player':<24} {'pts':>5} {'games':>5}  W-D-L   {'rating':>8}  zone")
        for r in t["rows"]:
            mark = {"promotion": "up", "relegation": "down"}.get(r["zone"], "")
            typer.echo(
                f"    {r['place']:>3}  {r['player']:<24} {r['points']:>5g} {r['games']:>5}  "
                f"{r['wins']}-{r['draws']}-{r['losses']:<3} {r['rating']:>8.1f}  {mark}"
            )
    if detail["promoted"] or detail["relegated"]:
        typer.echo("")
    for e in detail["promoted"]:
        typer.echo(f"  promoted  {e['game']} {e['player']}: {e['from_division']} -> {e['to_division']}")
    for e in detail["relegated"]:
        typer.echo(f"  relegated {e['game']} {e['player']}: {e['from_division']} -> {e['to_division']}")
