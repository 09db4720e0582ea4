"""``gamehall leaderboard``, ``gamehall ratings rebuild [--check]`` and
``gamehall matches rebuild [--check]`` (the match list).

Mounted in ``services/cli/main.py``::

    from services.cli.ranked import leaderboard_cmd, matches_app, ratings_app
    app.command("leaderboard")(leaderboard_cmd)
    app.add_typer(ratings_app, name="ratings")
    app.add_typer(matches_app, name="matches")
"""

from __future__ import annotations

import json
from typing import Any

import typer

from services.cli import context

ratings_app = typer.Typer(help="Ratings: rebuild from the log, check the live tables.", no_args_is_help=True)
matches_app = typer.Typer(
    help="The list of stored matches: rebuild it from the match stream, check the live table.", no_args_is_help=True
)


def _format_board(board: dict[str, Any]) -> str:
    lines = [f"{board['game']}  season {board['season'] or '-'}"]
    group = None
    for e in board["entries"]:
        if (e["family"], e["model"]) != group:
            group = (e["family"], e["model"])
            lines.append(f"\n  {e['family']} ({e['model']})")
            lines.append(f"  {'#':>3}  {'player':<24} {'rating':>8} {'rd':>7} {'games':>5}  W-D-L")
        lines.append(
            f"  {e['rank']:>3}  {e['player']:<24} {e['score']:>8.1f} {e['rd']:>7.1f} {e['games']:>5}"
            f"  {e['wins']}-{e['draws']}-{e['losses']}"
        )
    if not board["entries"]:
        lines.append("  (no rated matches yet)")
    return "\n".join(lines)


def leaderboard_cmd(
    game: str = typer.Option(..., "--game", "-g", metavar="GAME", help="Game name, e.g. ugolki."),
    season: str | None = typer.Option(None, "--season", "-s", metavar="SEASON", help="Season (default: the latest)."),
    family: str | None = typer.Option(None, "--family", metavar="FAMILY", help="Preset family (default: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    limit: int = typer.Option(1000, "--limit", metavar="N", help="At most this many players."),
) -> None:
    """Print the standings of a game for a season."""
    from services.cli.rules import check_game
    from services.common import db, queries

    check_game(game)
    settings = context.settings()
    engine = db.open_database(settings.database_url)
    try:
        board = queries.leaderboard(engine, game, season=season, preset_family=family, limit=limit)
    finally:
        engine.dispose()
    typer.echo(json.dumps(board, indent=2) if as_json else _format_board(board))


@ratings_app.command("rebuild")
def rebuild_cmd(
    check: bool = typer.Option(
        False, "--check", help="Compare with the live tables; exit 1 on any difference."
    ),
    wait: float = typer.Option(
        15.0, "--wait", metavar="SECONDS", help="Seconds to wait for live projections to catch up (--check)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Recompute ratings, standings and match history from the integration stream."""
    import asyncio

    from services.cli import rebuild
    from services.scoring import config as scoring_config

    settings = context.settings()

    async def work(js: Any, engine: Any) -> dict[str, Any]:
        config = scoring_config.load(settings.scoring)
        await config.seasons.refresh(js)  # the seasons opened and closed on the seasons stream
        return await rebuild.rebuild(js, engine, config, check=check, wait_s=wait)

    report = asyncio.run(_with_log("gamehall-ratings", work))
    counts = f"matches {report['matches']}, rated {report['rated']}"
    _report_rebuild(report, counts, check, as_json, "live tables equal", "live tables replaced")


def _report_rebuild(report: dict[str, Any], counts: str, check: bool, as_json: bool, equal: str, replaced: str) -> None:
    """A rebuild's report as JSON or as lines (its counts, each difference, the outcome); exit 1
    when the check found a difference."""
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        typer.echo(f"{counts}, rebuilt in {report['rebuild_seconds']} s")
        for line in report.get("differences", []):
            typer.echo(f"  differs: {line}")
        per_table = {table: n for table, n in report.get("differing", {}).items() if n}
        if per_table:
            typer.echo("differing rows: " + ", ".join(f"{table} {n}" for table, n in per_table.items()))
        if check:
            typer.echo(f"check: OK, {equal} the rebuild" if report["ok"] else "check: FAILED")
        else:
            typer.echo(f"{replaced} by the rebuild")
    if not report["ok"]:
        raise typer.Exit(code=1)


async def _with_log(name: str, work: Any) -> dict[str, Any]:
    """``work(js, engine)`` on the stored log (NATS_URL, the running stack's, or the data folder's)
    and the read-model database."""
    import asyncio

    from services.cli.stackrun import data_dir_nats_url
    from services.common import db, natsio

    settings = context.settings()
    url, embedded, credential = await asyncio.to_thread(data_dir_nats_url, settings)
    engine = db.open_database(settings.database_url)
    try:
        nc = await natsio.connect(url, name, credential)
        try:
            js = nc.jetstream()
            await natsio.ensure_streams(js, replicas=settings.stream_replicas, streams=natsio.APP_STREAMS)
            return await work(js, engine)  # type: ignore[no-any-return]
        finally:
            await nc.drain()
    finally:
        engine.dispose()
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)


@matches_app.command("rebuild")
def matches_rebuild_cmd(
    check: bool = typer.Option(False, "--check", help="Compare with the live table; exit 1 on any difference."),
    wait: float = typer.Option(
        15.0, "--wait", metavar="SECONDS", help="Seconds to wait for the live projection to catch up (--check)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Recompute the list of stored matches (GET /api/matches, /api/match-summaries) from the match
    stream."""
    import asyncio

    from services.cli import rebuild

    report = asyncio.run(
        _with_log("gamehall-matches", lambda js, engine: rebuild.rebuild_match_list(js, engine, check=check, wait_s=wait))
    )
    counts = f"messages {report['messages']}, matches {report['matches']}"
    _report_rebuild(report, counts, check, as_json, "the live table equals", "live table replaced")
