"""The ``gamehall`` command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer import _click

from services.cli import context
from services.cli.context import find_data_dir

if TYPE_CHECKING:
    from services.common import settings as settings_mod

# Only typer and the standard library at import time: `gamehall --help` and the light commands
# (rules, audit) must start fast, so every service module is imported inside the command that
# needs it (tests/unit/test_cli_startup.py keeps it so).

# The sub-commands that live in modules of their own: (module, attribute, the line `gamehall
# --help` shows).  A module is imported only when its command runs or its own help is asked
# (_LazyRoot), so `gamehall --help` imports none of them; tests/unit/test_cli_startup.py checks
# that each line is the command's own first help line.
LAZY: dict[str, tuple[str, str, str]] = {
    "rules": (
        "services.cli.rules",
        "rules_app",
        "Rules of the games: presets, move-generation checks and refereeing game records.",
    ),
    "leaderboard": ("services.cli.ranked", "leaderboard_cmd", "Print the standings of a game for a season."),
    "ratings": ("services.cli.ranked", "ratings_app", "Ratings: rebuild from the log, check the live tables."),
    "matches": (
        "services.cli.ranked",
        "matches_app",
        "The list of stored matches: rebuild it from the match stream, check the live table.",
    ),
    "doctor": (
        "services.cli.doctor",
        "doctor_cmd",
        "Compare each read model with a rebuild from the log and name every row that differs.",
    ),
    "keys": ("services.cli.keys", "keys_app", "The keys that sign match certificates: list them, rotate the signing key."),
    "apps": (
        "services.cli.apps",
        "apps_app",
        "Client app keys: an app signs its players' JWTs with its secret (HS256) or its private key "
        "(EdDSA, ES256: the server holds only the public keys).",
    ),
    "accounts": ("services.cli.accounts", "accounts_app", "Player accounts and the operator role."),
    "disputes": (
        "services.cli.disputes",
        "disputes_app",
        "Disputes of finished matches: list, show, open, add notes and rule (operators).",
    ),
    "seasons": (
        "services.cli.seasons",
        "seasons_app",
        "Seasons and leagues with divisions: open, close (freeze standings, promote, relegate), list, show.",
    ),
    "tournaments": (
        "services.cli.tournaments",
        "tournaments_app",
        "Tournaments: create, join, withdraw, close registration, start rounds, show, audit and export (operators).",
    ),
    "deploy": (
        "services.cli.deploy",
        "deploy_app",
        "Run the deployment in deploy/ (a NATS cluster, PostgreSQL, every service) from its own files.",
    ),
}


def load_lazy(name: str) -> Any:
    """The click command of the lazily imported sub-command ``name``, built as typer builds the
    ones registered on ``app`` (plain help, no completion options)."""
    import importlib

    module, attribute, _ = LAZY[name]
    target = getattr(importlib.import_module(module), attribute)
    holder = typer.Typer(add_completion=False, rich_markup_mode=None)
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name)
    else:
        holder.command(name)(target)
    return typer.main.get_group(holder).commands[name]


class _LazyCommands(dict[str, Any]):
    """The root's commands: a LAZY one is loaded when it is looked up by name."""

    def __missing__(self, name: str) -> Any:
        if name not in LAZY:
            raise KeyError(name)
        self[name] = command = load_lazy(name)
        return command

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in LAZY


class _LazyRoot(typer.core.TyperGroup):
    """``gamehall``: the commands defined here, then the LAZY ones, listed in --help by their
    LAZY line without importing their modules."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = _LazyCommands(self.commands)

    def list_commands(self, ctx: Any) -> list[str]:
        loaded = list(dict.keys(self.commands))
        return [*loaded, *(n for n in LAZY if n not in loaded)]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        names = self.list_commands(ctx)
        rows = []
        limit = formatter.width - 6 - max(len(n) for n in names)
        for name in names:
            cmd = dict.get(self.commands, name)
            if cmd is not None:
                if not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(limit)))
            else:
                rows.append((name, _click.utils.make_default_short_help(LAZY[name][2], limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


app = typer.Typer(
    cls=_LazyRoot,
    help="gamehall: an event-sourced backend for turn-based board and card games.",
    no_args_is_help=True,
    add_completion=False,
    # Plain help: typer's rich help prints a `<bool>` placeholder after every flag, and rich
    # costs start-up time.
    rich_markup_mode=None,
)


@app.callback()
def _root(
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Logs on standard error, down to debug, not in the data folder's logs/cli.log."),
    ] = False,
) -> None:
    context.verbose = verbose


@app.command()
def up(
    services: Annotated[
        list[str] | None, typer.Option("--service", "-s", metavar="SERVICE", help="Run only these services (repeatable).")
    ] = None,
    referees: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=8,
            metavar="N",
            help="Referee processes to run (GAMEHALL_REFEREES; 2 when the machine has at least 2 cores, else 1).",
        ),
    ] = None,
) -> None:
    """Start the whole stack (embedded nats-server unless NATS_URL is set) and print where to open it.

    One per data folder: a second 'up' refuses, naming the running one. Every process it starts
    stops when it stops, even when it is killed."""
    from services.cli.stackrun import up as run_up

    settings = context.settings(create=True)
    if referees is not None:
        settings = settings.replace(referees=referees)
    raise typer.Exit(run_up(settings, services or None, echo=lambda m: typer.echo(m, err=False)))


@app.command()
def serve(
    service: Annotated[
        str, typer.Argument(metavar="SERVICE", help="Referee | gateway | scoring | leaderboard | matchmaking | bots | tournaments.")
    ],
) -> None:
    """Run one service alone (needs NATS_URL, or a stack started with 'gamehall up')."""
    from services.cli.stackrun import SERVICE_MODULES
    from services.cli.stackrun import serve as run_serve

    if service not in SERVICE_MODULES:
        typer.echo(f"unknown service {service!r}; choose from {', '.join(SERVICE_MODULES)}", err=True)
        raise typer.Exit(2)
    run_serve(service, context.settings(create=True, log=False))


@app.command()
def demo(
    game: Annotated[str, typer.Option(metavar="GAME", help="Game to play.")] = "ugolki",
    matches: Annotated[int, typer.Option(min=1, metavar="N", help="How many complete matches.")] = 1,
    preset: Annotated[str | None, typer.Option(metavar="PRESET", help="Preset (the game's default when omitted).")] = None,
    strength: Annotated[
        list[str] | None,
        typer.Option(metavar="BOT", help="Computer player per seat, e.g. --strength search --strength greedy."),
    ] = None,
    seats: Annotated[int | None, typer.Option(metavar="N", help="Number of seats (card games).")] = None,
    ranked: Annotated[bool, typer.Option(help="Rated matches through matchmaking and scoring.")] = False,
    seed: Annotated[int, typer.Option(metavar="SEED", help="Seed of the computer players' choices.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per match.")] = False,
) -> None:
    """Play N complete matches between computer players through the public API.

    Uses the running stack (gamehall up) or starts an embedded one that keeps its data in the
    data folder, so 'gamehall export' and 'gamehall audit' find the matches later."""
    import asyncio
    import json
    import random

    from domain.core import match as match_layer
    from gamehall.client import GamehallClient
    from services.cli.demo import (
        PlayerCredentials,
        games_on_leaderboard,
        play_match,
        seat_strengths,
        strengths,
        wait_for_scoring,
    )
    from services.cli.rules import check_game
    from services.cli.stackrun import in_process_stack
    from services.common import stack

    decider = check_game(game, preset)
    bots = strengths(decider)
    n = seats or match_layer.default_seats_of(decider, preset)
    for s in strength or []:
        if s not in bots:
            typer.echo(f"unknown strength {s!r} for {game}; choose from {', '.join(bots)}", err=True)
            raise typer.Exit(2)
    chosen = seat_strengths(bots, tuple(strength or []), n)
    settings = context.settings(create=True)
    rng = random.Random(seed)

    # Rated play needs the same players again and again: a small pool of demo players.
    pool = [f"demo-{game}-{i + 1}" for i in range(max(2 * n, 4))] if ranked else []

    def players_for(i: int) -> list[str] | None:
        if not ranked:
            return None
        start = (i * n + i // len(pool)) % len(pool)
        return [pool[(start + k) % len(pool)] for k in range(n)]

    async def run_all(base_url: str) -> int:
        results = []
        credentials = PlayerCredentials(settings.data_dir / "credentials" / "demo-players.json")
        async with GamehallClient(base_url, timeout=60.0) as client:
            games_before = await games_on_leaderboard(client, game) if ranked else 0
            for i in range(matches):
                try:
                    result = await play_match(
                        client,
                        game,
                        preset,
                        chosen[:n],
                        rng,
                        ranked=ranked,
                        progress=None if as_json else typer.echo,
                        players=players_for(i),
                        credentials=credentials,
                    )
                except RuntimeError as exc:
                    typer.echo(f"match {i + 1}: {exc}", err=True)
                    return 1
                results.append(result)
                if as_json:
                    typer.echo(json.dumps(result))
                else:
                    typer.echo(
                        f"match {i + 1}/{matches} {result['match_id']}: {result['outcome']} "
                        f"({result['reason']}) after {result['moves']} moves, {result['events']} events"
                    )
            expected = games_before + n * len(results)
            if ranked and not await wait_for_scoring(client, game, [r["match_id"] for r in results], expected):
                typer.echo("scoring and the leaderboard did not record every match within 60 s", err=True)
                return 1
        return 0

    running = stack.running(settings.data_dir)
    if running is not None:
        if not as_json:
            typer.echo(f"using the running stack at {running.gateway_url}")
        raise typer.Exit(asyncio.run(run_all(running.gateway_url)))

    async def embedded() -> int:
        services: tuple[str, ...] = ("referee", "gateway")
        if ranked:
            services += ("matchmaking", "scoring", "leaderboard")
        async with in_process_stack(demo_settings(settings, ranked), services) as url:
            if not as_json:
                typer.echo(f"started an embedded stack (data in {settings.data_dir})", err=True)
            # The players' choices (a search may take a while) run on a loop of their own, off
            # the embedded stack's.
            return await asyncio.to_thread(asyncio.run, run_all(url))

    raise typer.Exit(asyncio.run(embedded()))


def demo_settings(settings: settings_mod.Settings, ranked: bool) -> settings_mod.Settings:
    """The demo's own matchmaking widens the rating gap in seconds, not tens of seconds, so demo
    players far apart in rating still meet quickly (GAMEHALL_MM_STEPS, when set, wins)."""
    if not ranked or "steps" in settings.matchmaking.model_fields_set:
        return settings
    fast = settings.matchmaking.replace(steps=((0, 50.0), (1000, 200.0), (2000, 400.0), (3000, float("inf"))))
    return settings.replace(matchmaking=fast)


async def _load_bundle(match_id: str) -> Any:
    import asyncio

    from services.cli.stackrun import data_dir_nats_url
    from services.common.certificates import load_certificate
    from services.common.natsio import EventStore, connect
    from services.common.reader import load_match
    from services.gateway.core import make_bundle

    url, nats, credential = await asyncio.to_thread(data_dir_nats_url, context.settings())
    try:
        nc = await connect(url, "gamehall-cli", credential)
        try:
            folded = await load_match(EventStore(nc.jetstream()), match_id)
            certificate = (
                await load_certificate(nc.jetstream(), folded.game, match_id)
                if folded is not None and folded.finished
                else None
            )
        finally:
            await nc.close()
    finally:
        if nats is not None:
            await asyncio.to_thread(nats.stop)
    if folded is None:
        return None
    return make_bundle(folded, certificate)


def _bundle_or_exit(match_id: str, verb: str) -> Any:
    """The audit bundle of a stored match, or a clear message and exit status 1."""
    import asyncio

    from services.gateway.edge import ApiError

    try:
        bundle = asyncio.run(_load_bundle(match_id))
    except ApiError as exc:
        typer.echo(f"cannot {verb} {match_id}: {exc.detail}", err=True)
        raise typer.Exit(1) from None
    if bundle is None:
        typer.echo(f"no match {match_id!r}", err=True)
        raise typer.Exit(1)
    return bundle


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def export(
    ctx: typer.Context,
    match_id: Annotated[str, typer.Argument(metavar="MATCH_ID", help="The match to export.")],
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Write the finished match as a portable game record (rules/records.md) instead of its "
            "audit bundle; `gamehall rules replay FILE` referees it.",
        ),
    ] = False,
) -> None:
    """Write the audit bundle of a match (its envelopes, byte for byte) to standard output, with
    --record the finished match as a game record, or with --NOTATION in the game's own notation
    (--pgn: an Ugolki game in PGN move text; `gamehall rules list` names each game's
    notations), which `gamehall rules replay FILE.pdn` referees."""
    from contracts.codecs import encode

    notation = _export_notation(ctx.args)
    bundle = _bundle_or_exit(match_id, "export")
    if record or notation is not None:
        import json

        from domain.records import record_of_bundle

        try:
            game_record = record_of_bundle(bundle)
            text = json.dumps(game_record, ensure_ascii=False) if notation is None else _written(notation, game_record)
        except ValueError as exc:
            typer.echo(f"cannot export {match_id} as {'a record' if notation is None else notation.title}: {exc}", err=True)
            raise typer.Exit(1) from None
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    sys.stdout.write(encode(bundle).decode() + "\n")


def _export_notation(args: list[str]) -> Any:
    """The notation an ``--NAME`` flag of ``export`` names (None: none given); exit 2 for anything else."""
    if not args:
        return None
    from domain.games.registry import GAMES

    known = {n.name: n for g in GAMES.values() for n in g.notations}
    name = args[0][2:] if args[0].startswith("--") else None
    if len(args) > 1 or name not in known:
        flags = ", ".join(f"--{n}" for n in sorted(known)) or "none"
        typer.echo(f"export: unknown option {' '.join(args)}; notations: {flags}", err=True)
        raise typer.Exit(2)
    return known[name]


def _written(notation: Any, game_record: dict[str, Any]) -> str:
    """A record in a notation of its own game (ValueError when the match is another game's)."""
    from domain.games.registry import GAMES

    game = GAMES[game_record["game"]]
    if notation not in game.notations:
        raise ValueError(f"{game.name} has no {notation.title}; it has {', '.join(n.name for n in game.notations) or 'no notation'}")
    return notation.write(game_record)


class AuditGroup(typer.core.TyperGroup):
    """``gamehall audit MATCH_ID`` audits a match; ``gamehall audit shuffle ...`` is a sub-command."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            return "match", self.commands["match"], args
        return super().resolve_command(ctx, args)


audit_app = typer.Typer(
    cls=AuditGroup,
    help="Re-check a stored match by MATCH_ID, an exported bundle (--file), or a shuffle.",
    invoke_without_command=True,
    subcommand_metavar="MATCH_ID | COMMAND [ARGS]...",
)


@audit_app.callback()
def audit_main(
    ctx: typer.Context,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file", "-f", metavar="BUNDLE", help="Audit an exported bundle file (a regular file of at most 64 MiB)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No move listing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The report as JSON.")] = False,
    keys: Annotated[
        Path | None,
        typer.Option(
            "--keys",
            metavar="KEYS.json",
            help="Public keys to check a certificate with (the JSON of GET /api/keys or "
            "'gamehall keys --json'); the data folder's keys when omitted.",
        ),
    ] = None,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="Exit 0 when what could be checked holds although not everything could be (a running or "
            "uncertified match, a server seed not yet revealed); without it that is exit 3.",
        ),
    ] = False,
) -> None:
    """gamehall audit MATCH_ID | gamehall audit --file match.json | gamehall audit shuffle ...

    Exit 0: the audit holds and checked everything; 1: it fails (what does not check is named); 2:
    no match to audit (a file that is not a regular file of at most 64 MiB, or not an audit bundle);
    3: what could be checked holds, but not everything could be (each is named after NOT CHECKED:
    a running or uncertified match, an unrevealed server seed); --allow-unfinished makes that 0."""
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"quiet": quiet, "json": as_json, "keys": keys, "allow_unfinished": allow_unfinished}
        return
    if file is None:
        typer.echo("give a MATCH_ID or --file BUNDLE (see --help)", err=True)
        raise typer.Exit(2)
    from services.cli.files import Unreadable, read_input

    try:
        data = read_input(file)
    except Unreadable as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(_audit_bytes(data, str(file), quiet, as_json, keys, allow_unfinished))


@audit_app.command("match", hidden=True)
def audit_match(
    ctx: typer.Context,
    match_id: Annotated[str, typer.Argument(metavar="MATCH_ID", help="The stored match to audit.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No move listing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The report as JSON.")] = False,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="Exit 0 when what could be checked holds although not everything could be (a running or "
            "uncertified match, a server seed not yet revealed); without it that is exit 3.",
        ),
    ] = False,
) -> None:
    """Audit a stored match by id."""
    from contracts.codecs import encode

    opts = dict(ctx.obj or {})
    opts["quiet"] = opts.get("quiet") or quiet
    opts["json"] = opts.get("json") or as_json
    opts["allow_unfinished"] = opts.get("allow_unfinished") or allow_unfinished
    bundle = _bundle_or_exit(match_id, "audit")
    raise typer.Exit(
        _audit_bytes(
            encode(bundle), match_id, opts["quiet"], opts["json"], opts.get("keys"), opts["allow_unfinished"]
        )
    )


def _verifier(keys_file: Path | None) -> Any:
    """The signature check of certificates: keys from ``--keys``, else the data folder's."""
    import msgspec

    from contracts.certificate import keyset_decoder
    from services.common.certificates import KeyRing, verifier

    if keys_file is not None:
        from services.cli.files import Unreadable, read_input

        try:
            keyset = keyset_decoder.decode(read_input(keys_file))
        except Unreadable as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
            typer.echo(f"cannot read public keys from {keys_file}: {exc}", err=True)
            raise typer.Exit(2) from None
    else:
        from services.common.settings import explicit_data_dir

        if find_data_dir(Path.cwd(), explicit_data_dir()) is None:
            return None
        keyset = KeyRing(context.settings().signing_keys_dir).public()
        if not keyset.keys:
            return None
    return verifier(keyset)


def _table_check() -> Any:
    """The signature check of ranked matches' tables: the data folder's trusted matchmaking keys
    (``GAMEHALL_MATCHMAKING_KEYS``) for matchmaking's tables and tournament keys
    (``GAMEHALL_TOURNAMENT_KEYS``) for rated tournaments', None without a data folder or a key."""
    from services.common.settings import explicit_data_dir
    from services.common.tablekeys import TableTrust

    if find_data_dir(Path.cwd(), explicit_data_dir()) is None:
        return None
    settings = context.settings()
    trusted = TableTrust.from_entries(settings.trusted_matchmaking_keys, settings.trusted_tournament_keys)
    return trusted.check if trusted.key_ids else None


def _audit_bytes(
    data: bytes, source: str, quiet: bool, as_json: bool, keys: Path | None = None, allow_unfinished: bool = False
) -> int:
    import msgspec

    from domain.audit import audit, decode_bundle

    # A file that is no audit bundle at all is exit 2 (nothing was audited), as a malformed
    # record is for `rules replay`; exit 1 is an audit that fails.
    try:
        bundle = decode_bundle(data)
    except msgspec.DecodeError as exc:
        typer.echo(f"{source}: not an audit bundle: not valid JSON: {exc}", err=True)
        return 2
    except msgspec.ValidationError as exc:
        typer.echo(f"{source}: not an audit bundle: {exc}", err=True)
        return 2
    except RecursionError:
        typer.echo(f"{source}: not an audit bundle: it nests too deep", err=True)
        return 2
    report = audit(bundle, _verifier(keys), _table_check())
    # Exit 3: what was checked holds, but not everything could be (an unfinished or uncertified
    # match, an unrevealed seed); --allow-unfinished accepts that as exit 0.
    partial = 0 if allow_unfinished or not report.unchecked else 3
    if as_json:
        typer.echo(msgspec.json.encode(report).decode())
        return partial if report.ok else 1
    typer.echo(
        f"match {report.match_id} ({report.game}, rules {report.rules_version}): {report.envelopes} envelopes"
    )
    if not quiet:
        for line in report.listing:
            typer.echo(line)
    for note in report.notes:
        typer.echo(f"note: {note}")
    if report.ok:
        typer.echo(
            f"OK: hash chain intact, {report.redecided}/{report.envelopes} decisions re-decided identically, "
            + (f"outcome {report.outcome} confirmed" if report.finished else "match still running")
        )
        if report.sealed:
            typer.echo(
                f"sealed decisions: {report.opened}/{report.sealed} opened with the revealed seed's key, "
                "their public events checked"
            )
        if report.table_signed_by:
            if report.table_tournament:
                typer.echo(
                    f"ranked: created for a table of rated tournament {report.table_tournament}, signed by "
                    f"the tournaments service's key {report.table_signed_by}"
                )
            else:
                typer.echo(f"ranked: created for a matchmaking table signed by key {report.table_signed_by}")
        if report.certified_by:
            typer.echo(f"finished and certified by key {report.certified_by}")
        elif report.finished and bundle.certificate is None:
            typer.echo("finished, but the bundle carries no certificate")
        elif not report.finished:
            typer.echo("the bundle is of an unfinished match (no certificate)")
        for line in report.unchecked:
            typer.echo(f"NOT CHECKED: {line}")
        if partial:
            typer.echo("exit 3: not everything could be checked (--allow-unfinished accepts that)", err=True)
        return partial
    for problem in report.problems:
        typer.echo(f"AUDIT FAILED: {problem}", err=True)
    return 1


@audit_app.command("shuffle")
def audit_shuffle(
    server_seed: Annotated[str, typer.Option(metavar="HEX", help="The revealed server seed, hex.")],
    label: Annotated[str, typer.Option(metavar="LABEL", help="Purpose label, e.g. deal:1.")],
    n: Annotated[int, typer.Option(min=1, metavar="N", help="Number of items.")],
    client_seed: Annotated[
        list[str] | None, typer.Option(metavar="SEED", help="Client seeds in seat order (repeatable).")
    ] = None,
) -> None:
    """Print the rng_v1 permutation of 0..N-1, so anyone can check a deal by hand."""
    from domain.core.rng import derive_key, permutation

    try:
        seed = bytes.fromhex(server_seed)
    except ValueError:
        typer.echo("--server-seed must be hex", err=True)
        raise typer.Exit(2) from None
    key = derive_key(seed, client_seed or [])
    typer.echo(" ".join(str(i) for i in permutation(key, label.encode(), n)))


app.add_typer(audit_app, name="audit")




def main() -> None:
    app()


if __name__ == "__main__":
    main()
