"""``gamehall doctor``: every read model compared with a rebuild from the log
(``services/cli/derived.py``); exit 0 when all agree, 1 when a row differs, 2 when the check
could not run.

Mounted in ``services/cli/main.py``::

    from services.cli.doctor import doctor_cmd
    app.command("doctor")(doctor_cmd)
"""

from __future__ import annotations

import json
from typing import Any

import typer

from services.cli import context

MODELS_HELP = (
    "Only this read model (a table; repeat for several): players, ratings, standings, match_history, "
    "match_players, match_rulings, match_list."
)


def _value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def _row_line(row: dict[str, Any]) -> str:
    key = tuple(row["key"])
    if row["column"] is None:
        if row["rebuilt"] is None:
            return f"{row['table']} {key}: only in the live table (the rebuild has no such row)"
        return f"{row['table']} {key}: missing from the live table (rebuilt: {_value(row['rebuilt'])})"
    return f"{row['table']} {key}: {row['column']} live={_value(row['live'])} rebuilt={_value(row['rebuilt'])}"


def format_report(report: dict[str, Any], show: int) -> list[str]:
    """The report as lines: one per model, then each differing row (the first ``show``; 0: all)."""
    models = report["models"]
    lines = [f"{report['mode']} check of {len(models)} read model(s) in {report['seconds']} s"]
    width = max((len(t) for t in models), default=0)
    for table, counts in models.items():
        lines.append(f"  {table:<{width}}  {counts['checked']:>7} rows checked  {counts['differing']:>5} differing")
    for note in report["notes"]:
        lines.append(f"note: {note}")
    rows = report["rows"]
    if rows:
        lines.append(f"differences ({len(rows)}):")
        shown = rows if show <= 0 else rows[:show]
        lines += [f"  {_row_line(r)}" for r in shown]
        if len(rows) > len(shown):
            lines.append(f"  ... and {len(rows) - len(shown)} more (--show 0 prints them all, --json lists them all)")
        differing = sum(c["differing"] for c in models.values())
        lines.append(f"doctor: FAILED, {differing} row(s) differ from the rebuild")
    else:
        lines.append("doctor: OK, every row checked equals the rebuild from the log")
    return lines


def doctor_cmd(
    full: bool = typer.Option(
        False, "--full", help="Rebuild every read model from the whole log and compare every row (the default)."
    ),
    sample: int | None = typer.Option(
        None,
        "--sample",
        metavar="N",
        min=1,
        help="Check N matches only (the most recent, and some at random): the match list, match history and "
        "match players rows of those matches, rebuilt from their logs (cheap; what scoring runs periodically).",
    ),
    models: list[str] = typer.Option([], "--model", metavar="NAME", help=MODELS_HELP),
    seed: int | None = typer.Option(None, "--seed", metavar="SEED", help="Seed of the sample's random choice."),
    wait: float = typer.Option(
        15.0,
        "--wait",
        metavar="SECONDS",
        help="Seconds to wait for the live projections to reach the rebuild's read point (--full).",
    ),
    show: int = typer.Option(
        0, "--show", metavar="N", help="Print at most N differing rows, and how many more (0: all of them)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (every differing row)."),
) -> None:
    """Compare each read model with a rebuild from the log and name every row that differs.

    Exit status 0 when every row checked agrees, 1 when any differs, 2 when the check could not
    run (no NATS, no database). Progress goes to stderr."""
    import asyncio

    from services.cli import derived as doctor

    if full and sample is not None:
        typer.echo("doctor: --full and --sample exclude each other", err=True)
        raise typer.Exit(2)
    unknown = sorted(set(models) - set(doctor.MODELS))
    if unknown:
        typer.echo(f"doctor: no read model {', '.join(unknown)} (known: {', '.join(doctor.MODELS)})", err=True)
        raise typer.Exit(2)
    chosen = tuple(m for m in doctor.MODELS if not models or m in models)
    if sample is not None:
        chosen = tuple(m for m in chosen if m in doctor.SAMPLED)
        if not chosen:
            typer.echo(f"doctor: a sample checks {', '.join(doctor.SAMPLED)} only (use --full)", err=True)
            raise typer.Exit(2)
    try:
        report = asyncio.run(_check(chosen, sample, seed, wait))
    except CheckFailed as exc:
        typer.echo(f"doctor: cannot check: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(report, indent=2, default=str))
    else:
        for line in format_report(report, show):
            typer.echo(line)
    if not report["ok"]:
        raise typer.Exit(1)


CONNECT_S = 5.0


class CheckFailed(Exception):
    """The check could not run (what could not be reached, and why)."""


def _progress(line: str) -> None:
    typer.echo(f"doctor: {line}", err=True)


async def _check(models: tuple[str, ...], sample: int | None, seed: int | None, wait: float) -> dict[str, Any]:
    import asyncio

    from nats.errors import Error as NatsError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from services.cli import derived as doctor
    from services.cli.stackrun import data_dir_nats_url
    from services.common import db, natsio
    from services.scoring import config as scoring_config

    settings = context.settings()
    shown_db = make_url(db.normalise_url(settings.database_url)).render_as_string(hide_password=True)
    try:
        url, embedded, credential = await asyncio.to_thread(data_dir_nats_url, settings)
    except SystemExit as exc:
        raise CheckFailed(str(exc)) from None
    try:
        try:
            engine = await asyncio.to_thread(db.open_database, settings.database_url)
            with engine.connect():
                pass
        except SQLAlchemyError as exc:
            raise CheckFailed(f"the database {shown_db} is not reachable: {exc.__class__.__name__}: {exc}") from None
        try:
            try:
                # the client retries a server that does not answer for ever: give up after a while
                nc = await asyncio.wait_for(natsio.connect(url, "gamehall-doctor", credential), CONNECT_S)
            except TimeoutError:
                raise CheckFailed(f"NATS at {url} is not reachable (no connection within {CONNECT_S:g} s)") from None
            except (NatsError, OSError) as exc:
                raise CheckFailed(f"NATS at {url} is not reachable: {exc!r}") from None
            try:
                js = nc.jetstream()
                await natsio.ensure_streams(js, replicas=settings.stream_replicas, streams=natsio.APP_STREAMS)
                config = scoring_config.load(settings.scoring)
                await config.seasons.refresh(js)  # the seasons of the seasons stream, as scoring reads them
                _progress(f"checking {', '.join(models)} against the log at {url}")
                if sample is not None:
                    found = await doctor.sample_check(js, engine, config, sample, seed, models, _progress)
                else:
                    found = await doctor.full_check(js, engine, config, models, wait, _progress)
                return found.as_json()
            except SQLAlchemyError as exc:
                raise CheckFailed(f"reading the database {shown_db} failed: {exc.__class__.__name__}: {exc}") from None
            except (NatsError, OSError, TimeoutError) as exc:
                raise CheckFailed(f"reading the log from NATS at {url} failed: {exc!r}") from None
            finally:
                await nc.close()
        finally:
            engine.dispose()
    finally:
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)
