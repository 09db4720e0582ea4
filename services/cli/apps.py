"""``gamehall apps add NAME | list | keys APP_ID | revoke APP_ID``: client apps that present their
own players as short-lived JWTs (docs/api.md "Players and credentials").  They write the database
the gateway reads (``GAMEHALL_DB_URL``, SQLite in the data folder by default), with the gateway's
server key (``GAMEHALL_SERVER_KEY``, ``keys/server.key`` in the data folder by default)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from services.cli import context

if TYPE_CHECKING:
    from services.common.serverkey import ServerKey

apps_app = typer.Typer(
    help="Client app keys: an app signs its players' JWTs with its secret (HS256) or its private key "
    "(EdDSA, ES256: the server holds only the public keys).",
    no_args_is_help=True,
)


def _engine():  # noqa: ANN202 - sqlalchemy Engine
    from services.common import db

    return db.open_database(context.settings().database_url)


def _server_key(engine: Any) -> ServerKey:
    """The server key the gateway uses; app secrets an older version stored in clear are sealed."""
    from services.common import accounts, serverkey

    try:
        keys = serverkey.load(context.settings().server_key_file)
        accounts.seal_stored_secrets(engine, keys)
    except serverkey.ServerKeyError as exc:
        typer.echo(f"gamehall: {exc}", err=True)
        raise typer.Exit(2) from None
    return keys


def _public_keys(jwks: Path | None, public_key: list[Path] | None) -> list[dict[str, object]] | None:
    """The public keys named on the command line (a JWKS file, PEM files), or None."""
    from services.common import appkeys

    if jwks is None and not public_key:
        return None
    found: list[dict[str, object]] = []
    try:
        if jwks is not None:
            found += appkeys.parse_jwks(_read(jwks))
        for path in public_key or ():
            found.append(appkeys.pem_to_jwk(_read(path)))
    except appkeys.KeyProblem as exc:
        typer.echo(f"invalid_keys: {exc}", err=True)
        raise typer.Exit(2) from None
    return found


def _read(path: Path) -> bytes:
    """A key file, read as every command reads a file (``services.cli.files``: a regular file,
    refused before it is read otherwise), of at most MAX_KEY_FILE bytes."""
    from services.cli.files import Unreadable, read_input

    try:
        return read_input(path, MAX_KEY_FILE)
    except Unreadable as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None


MAX_KEY_FILE = 64 * 1024
JWKS_HELP = 'A JWKS file of the app\'s public keys: {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": ..., "kid": ...}]} (EdDSA) or kty EC, crv P-256 (ES256).'
PEM_HELP = "A PEM public key (Ed25519 or P-256) of the app; repeatable."


def _when(ms: int | None) -> str:
    return "-" if ms is None else datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%SZ")


@apps_app.command("add")
def add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The app's name (a-z, 0-9, '-'; at most 32).")],
    jwks: Annotated[Path | None, typer.Option("--jwks", metavar="FILE", help=JWKS_HELP)] = None,
    public_key: Annotated[list[Path] | None, typer.Option("--public-key", metavar="FILE", help=PEM_HELP)] = None,
    algorithm: Annotated[
        str | None,
        typer.Option(metavar="ALG", help="HS256 (a secret, the default), or EdDSA or ES256 (public keys; the keys' own when omitted)."),
    ] = None,
    audience: Annotated[
        str | None, typer.Option(metavar="AUD", help="The aud every JWT of the app must carry (without: they carry none).")
    ] = None,
) -> None:
    """Register an app: prints its key id (the JWTs' iss) and, for HS256, its secret (shown once)."""
    from contracts.envelope import Rejected
    from services.common import accounts

    keys = _public_keys(jwks, public_key)
    engine = _engine()
    try:
        made = accounts.add_app(engine, name, _server_key(engine), keys, algorithm, audience)
        rows = [r for r in accounts.list_apps(engine) if not isinstance(made, Rejected) and r["app_id"] == made[0]]
    finally:
        engine.dispose()
    if isinstance(made, Rejected):
        typer.echo(f"{made.code}: {made.detail}", err=True)
        raise typer.Exit(1)
    app_id, secret = made
    typer.echo(f"app:    {name}\nkey id: {app_id}")
    if audience is not None:
        typer.echo(f"aud:    {audience}")
    if secret is not None:
        typer.echo(f"secret: {secret}")
        typer.echo("Keep the secret on the app's server: it signs player JWTs (HS256, iss = key id).", err=True)
    else:
        row = rows[0]
        typer.echo(f"alg:    {row['algorithm']}\nkids:   {' '.join(row['kids'])}")  # type: ignore[arg-type]
        typer.echo(
            f"The app signs player JWTs with its private key ({row['algorithm']}, iss = key id, kid = one of the kids); "
            "the server holds no secret for it.",
            err=True,
        )


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
            aud = f"  aud {row['audience']}" if row["audience"] else ""
            typer.echo(f"{row['app_id']}  {row['name']:<32}  {row['algorithm']:<6}  added {_when(row['created_at'])}  {state}{aud}")  # type: ignore[arg-type]
    if not rows and not as_json:
        typer.echo("(no apps)")


@apps_app.command("keys")
def keys_cmd(
    app_id: Annotated[str, typer.Argument(metavar="APP_ID", help="The key id (app_...) of an EdDSA or ES256 app.")],
    jwks: Annotated[Path | None, typer.Option("--jwks", metavar="FILE", help=JWKS_HELP)] = None,
    public_key: Annotated[list[Path] | None, typer.Option("--public-key", metavar="FILE", help=PEM_HELP)] = None,
) -> None:
    """Replace an app's public keys (rotate: register the new key beside the old one, then the new one alone)."""
    from contracts.envelope import Rejected
    from services.common import accounts

    keys = _public_keys(jwks, public_key)
    if keys is None:
        typer.echo("name the app's public keys: --jwks FILE or --public-key FILE", err=True)
        raise typer.Exit(2)
    engine = _engine()
    try:
        done = accounts.set_app_keys(engine, app_id, keys)
    finally:
        engine.dispose()
    if isinstance(done, Rejected):
        typer.echo(f"{done.code}: {done.detail}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{app_id} kids: {' '.join(done)}")


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
