"""``gamehall accounts list | grant-operator | revoke-operator``: player accounts and the
operator role (operators rule on disputes: docs/ranked.md "Disputes").  They write the database
the gateway reads (``GAMEHALL_DB_URL``, SQLite in the data folder by default)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from services.cli import context

accounts_app = typer.Typer(help="Player accounts and the operator role.", no_args_is_help=True)

Name = Annotated[str, typer.Argument(metavar="NAME", help="The account's player name.")]


def _engine():  # noqa: ANN202 - sqlalchemy Engine
    from services.common import db

    return db.open_database(context.settings().database_url)


def _set(name: str, role: str) -> None:
    from services.common import accounts

    engine = _engine()
    try:
        found = accounts.set_role(engine, name, role)
    finally:
        engine.dispose()
    if not found:
        typer.echo(f"unknown_player: no account named {name!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{name}: {role}")


@accounts_app.command("grant-operator")
def grant(name: Name) -> None:
    """Give an account the operator role (it may then rule on disputes)."""
    from services.common.accounts import OPERATOR

    _set(name, OPERATOR)


@accounts_app.command("revoke-operator")
def revoke(name: Name) -> None:
    """Take the operator role away (the account stays a player)."""
    from services.common.accounts import PLAYER

    _set(name, PLAYER)


@accounts_app.command("list")
def list_cmd(
    operators: Annotated[bool, typer.Option("--operators", help="Only operators.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines.")] = False,
) -> None:
    """Accounts with their role (never their tokens)."""
    from services.common import accounts

    engine = _engine()
    try:
        rows = accounts.list_accounts(engine, operators_only=operators)
    finally:
        engine.dispose()
    for row in rows:
        typer.echo(json.dumps(row) if as_json else f"{row['name']:<40} {row['role']}")
    if not rows and not as_json:
        typer.echo("(no accounts)")
