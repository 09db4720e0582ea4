"""``gamehall keys``: the Ed25519 keys that sign match certificates, and the table keys referees
trust (matchmaking's and the tournaments service's)."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from services.cli import context

keys_app = typer.Typer(help="The keys that sign match certificates: list them, rotate the signing key.")


def _ring():  # type: ignore[no-untyped-def]
    from services.common.certificates import KeyRing

    return KeyRing(context.settings().signing_keys_dir)


@keys_app.callback(invoke_without_command=True)
def keys_list(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="The key set as JSON (what 'audit --keys' reads).")] = False,
) -> None:
    """List every public key with its validity (retired keys still verify what they signed)."""
    if ctx.invoked_subcommand is not None:
        return
    import msgspec

    keyset = _ring().public()
    if as_json:
        typer.echo(msgspec.json.encode(keyset).decode())
        return
    if not keyset.keys:
        typer.echo("no signing keys yet (the referee makes one when it certifies its first match)")
        return
    for key in keyset.keys:
        state = "signing" if key.retired_at is None else f"retired at {key.retired_at}"
        typer.echo(f"{key.key_id}  {key.algorithm}  {key.public_key}  valid from {key.valid_from}  {state}")


@keys_app.command("rotate")
def keys_rotate() -> None:
    """Retire the signing key and make a new one (referees sign with it from their next certificate)."""
    fresh = _ring().rotate(time.time_ns() // 1_000_000)
    typer.echo(f"new signing key {fresh.key_id} ({fresh.public_key})")
    typer.echo("a running referee publishes it, and the old key's retirement, within a second (GET /api/keys)")


@keys_app.command("matchmaking")
def keys_matchmaking() -> None:
    """The matchmaking public keys referees trust to sign ranked tables (docs/audit.md "Where a
    ranked match came from"): key id and hex Ed25519 public key, one a line."""
    from services.common.tablekeys import TrustedTableKeys

    settings = context.settings()
    trusted = TrustedTableKeys.from_entries(settings.trusted_matchmaking_keys)
    if not trusted.key_ids:
        typer.echo(
            "no matchmaking key yet (matchmaking makes one when it first starts: "
            f"{settings.matchmaking_key_file})"
        )
        return
    for kid, public in trusted.public_keys().items():
        typer.echo(f"{kid}  ed25519  {public}")


@keys_app.command("tournaments")
def keys_tournaments() -> None:
    """The tournaments service's public keys referees trust to sign rated tournaments' tables
    (docs/audit.md "Where a ranked match came from"): key id and hex Ed25519 public key, one a line."""
    from services.common.tablekeys import TrustedTableKeys

    settings = context.settings()
    trusted = TrustedTableKeys.from_entries(settings.trusted_tournament_keys, "tournaments")
    if not trusted.key_ids:
        typer.echo(
            "no tournaments key yet (the tournaments service makes one when it first starts: "
            f"{settings.tournaments_key_file})"
        )
        return
    for kid, public in trusted.public_keys().items():
        typer.echo(f"{kid}  ed25519  {public}")
