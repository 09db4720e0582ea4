"""``gamehall apps add NAME | list | revoke APP_ID``: client apps that present their own players
as short-lived JWTs (docs/api.md "Players and credentials").  They write the database the
gateway reads (``GAMEHALL_DB_URL``, SQLite in the data folder by default)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated

import typer

apps_app = typer.Typer(
    help="Client app keys: an app signs its players' JWTs (HS256) with its secret.", no_args_is_help=True
)


def _engine():  # noqa: ANN202 - sqlalchemy Engine
    from services.cli.main import _settings
    from services.common import db

    return db.open_database(_settings().database_url)


def _when(ms: int | None) -> str:
    return "-" if ms is None else datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%SZ")


@apps_app.command("add")
def add(name: Annotated[str, typer.Argument(metavar="NAME", help="The app's name (a-z, 0-9, '-'; at most 32).")]) -> None:
    """Register an app: prints its key id (the JWTs' iss) and secret (shown once)."""
    from contracts.envelope import Rejected
    from services.common import accounts

    engine = _engine()
    try:
        made = accounts.add_app(engine, name)
    finally:
        engine.dispose()
    if isinstance(made, Rejected):
        typer.echo(f"{made.code}: {made.detail}", err=True)
        raise typer.Exit(1)
    app_id, secret = made
    typer.echo(f"app:    {name}\nkey id: {app_id}\nsecret: {secret}")
    typer.echo("Keep the secret on the app's server: it signs player JWTs (HS256, iss = key id).", err=True)


@apps_app.command("list")
def list_cmd(as_json: Annotated[bool, typer.Option("--json", help="JSON lines.")] = False) -> None:
    """Registered apps (never their secrets)."""
    from services.common import accounts

    engine = _engine()
    try:
        rows = accounts.list_apps(engine)
    finally:
        engine.dispose()
    for row in rows:
        if as_json:
            typer.echo(json.dumps(row))
        else:
            state = "revoked " + _when(row["revoked_at"]) if row["revoked_at"] else "active"  # type: ignore[arg-type]
            typer.echo(f"{row['app_id']}  {row['name']:<32}  added {_when(row['created_at'])}  {state}")  # type: ignore[arg-type]
    if not rows and not as_json:
        typer.echo("(no apps)")


@apps_app.command("revoke")
def revoke(app_id: Annotated[str, typer.Argument(metavar="APP_ID", help="The key id (app_...).")]) -> None:
    """Refuse the app's JWTs from now on (its players' accounts and ratings stay)."""
    from services.common import accounts

    engine = _engine()
    try:
        found = accounts.revoke_app(engine, app_id)
    finally:
        engine.dispose()
    if not found:
        typer.echo(f"no app {app_id!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"revoked {app_id}")
