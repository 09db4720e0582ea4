"""``gamehall tournaments create | join | withdraw | close | start-round | result | forfeit | void |
show | list | audit | export``: running tournaments as an operator (docs/operations.md "Tournaments").

Commands go to the tournaments service of the running stack (or ``NATS_URL``) as the actor
``operator``; ``show``, ``list``, ``export`` and ``audit`` read the tournament stream (with no
stack, from the data folder), and ``audit --bundle FILE`` needs nothing but the file."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

tournaments_app = typer.Typer(
    help="Tournaments: create, join, withdraw, close registration, start rounds, show, audit and export (operators).",
    no_args_is_help=True,
)

TournamentId = Annotated[
    str, typer.Argument(metavar="TOURNAMENT_ID", help="The tournament's id (letters, digits, '-', '_').")
]
CommandId = Annotated[
    str,
    typer.Option(
        "--command-id",
        metavar="ID",
        help="Send with this command id (a retry with the same id gets the first reply again); default: a new one.",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="JSON instead of text.")]


def _on_nats(work: Callable[[Any], Awaitable[Any]]) -> Any:
    """``work(nc)`` on the running stack's NATS (``stackrun.on_stack_nats``)."""
    from services.cli.stackrun import on_stack_nats

    return on_stack_nats(work)


def _send(tournament_id: str, command: Any, command_id: str, as_json: bool) -> Any:
    import msgspec

    from contracts.envelope import Rejected
    from contracts.tournaments import TournamentRequest
    from services.common import tournaments

    request = TournamentRequest(
        tournament_id=tournament_id,
        command_id=command_id or uuid.uuid4().hex,
        actor="operator",
        command=command,
    )
    reply = _on_nats(lambda nc: tournaments.send(nc, request))
    if isinstance(reply, Rejected):
        typer.echo(f"{reply.code}: {reply.detail}" if reply.detail else reply.code, err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(msgspec.json.encode(reply).decode())
    else:
        again = " (a retry: the first reply)" if reply.duplicate else ""
        typer.echo(f"tournament {reply.tournament_id}: decision {reply.seq}{again}")
        for event in reply.events:
            typer.echo(f"  {_event_line(event)}")
    return reply


def _event_line(event: Any) -> str:
    from contracts import tournaments as t

    if isinstance(event, t.TournamentCreated):
        s = event.settings
        return f"created: {s.format} of {s.game} ({s.preset}), seed commitment {s.seed_commitment}"
    if isinstance(event, t.PlayerJoined):
        return f"{event.player} joined"
    if isinstance(event, t.PlayerWithdrew):
        return f"{event.player} withdrew"
    if isinstance(event, t.RegistrationClosed):
        return f"registration closed, seed {event.server_seed} revealed; seeding {', '.join(event.order)}"
    if isinstance(event, t.RoundStarted):
        tables = "; ".join(f"{tb.table}: {' v '.join(tb.seats)}" for tb in event.tables)
        return f"round {event.round} started: {tables}"
    if isinstance(event, t.Bye):
        return f"round {event.round}: bye for {event.player}"
    if isinstance(event, t.ResultRecorded):
        return f"round {event.round} table {event.table}: ranks {list(event.ranks)}"
    if isinstance(event, t.Forfeit):
        return f"round {event.round} table {event.table}: {event.player} forfeits"
    if isinstance(event, t.ResultVoided):
        return f"round {event.round} table {event.table}: result voided"
    if isinstance(event, t.ResultAmended):
        return f"round {event.round} table {event.table}: result amended, ranks {list(event.ranks)}"
    if isinstance(event, t.TournamentFinished):
        return "finished: " + ", ".join(f"{s.rank}. {s.player} {s.points:g}" for s in event.standings)
    return type(event).__name__


def _numbers(text: str, option: str) -> float:
    try:
        return float(text)
    except ValueError:
        typer.echo(f"{option}: {text!r} is not a number", err=True)
        raise typer.Exit(2) from None


def _clock(text: str | None, grace: float) -> Any:
    """``BASE+INC`` (seconds, Fischer) or ``move:SECONDS`` (per move)."""
    from contracts.match import TimeControl

    if not text:
        return None
    if text.startswith("move:"):
        return TimeControl(move_s=_numbers(text[5:], "--clock"), grace_s=grace)
    base, _, inc = text.partition("+")
    return TimeControl(
        base_s=_numbers(base, "--clock"), increment_s=_numbers(inc or "0", "--clock"), grace_s=grace
    )


def _start_at(text: str | None, option: str = "--start-at") -> int:
    """``+SECONDS`` from now, or an ISO 8601 time (UTC when it names no zone)."""
    if not text:
        return 0
    if text.startswith("+"):
        return int(time.time() * 1000 + _numbers(text[1:], option) * 1000)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        typer.echo(f"{option}: {text!r} is neither +SECONDS nor an ISO time (2026-12-05T18:00Z)", err=True)
        raise typer.Exit(2) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)


@tournaments_app.command("create")
def create(
    tournament_id: TournamentId,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="round_robin, double_round_robin, swiss, knockout, fair_tables or arena (with --window-start/--window-end).",
        ),
    ],
    game: Annotated[str, typer.Option("--game", metavar="GAME", help="The game (gamehall rules list).")],
    preset: Annotated[
        str, typer.Option("--preset", metavar="PRESET", help="The game's preset every game is played with.")
    ],
    rounds: Annotated[int, typer.Option("--rounds", help="Swiss and fair tables: how many rounds.")] = 0,
    table_size: Annotated[
        int, typer.Option("--table-size", help="Seats per game: 2, or 3 or 4 for fair tables.")
    ] = 2,
    min_table_size: Annotated[
        int,
        typer.Option(
            "--min-table-size", help="Fair tables: the smallest table when the count does not divide."
        ),
    ] = 0,
    tie_break: Annotated[
        list[str] | None,
        typer.Option(
            "--tie-break",
            metavar="NAME",
            help="In order (repeat): buchholz, median_buchholz, sonneborn_berger, direct_encounter, wins, game_totals.",
        ),
    ] = None,
    bye_points: Annotated[int, typer.Option("--bye-points", help="Half points for a bye (2: a win).")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="S1,S2,...",
            help="Computer entrants by strength (bot:<game>:1 plays at S1, ...); they join at once.",
        ),
    ] = "",
    start_at: Annotated[
        str | None,
        typer.Option(
            "--start-at",
            metavar="WHEN",
            help="Close registration and start round 1 then: +SECONDS or an ISO time; default: by hand (close, start-round).",
        ),
    ] = None,
    window_start: Annotated[
        str | None,
        typer.Option(
            "--window-start",
            metavar="WHEN",
            help="Arena: the window opens (registration closes, pairing begins) then: +SECONDS or an ISO time; default: now.",
        ),
    ] = None,
    window_end: Annotated[
        str | None,
        typer.Option(
            "--window-end",
            metavar="WHEN",
            help="Arena: pairing stops and the arena finishes then (games still running do not count): +SECONDS or an ISO time.",
        ),
    ] = None,
    round_deadline: Annotated[
        int,
        typer.Option(
            "--round-deadline",
            metavar="SECONDS",
            help="Forfeit a game not finished this long after its round started (0: none).",
        ),
    ] = 0,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock", metavar="BASE+INC|move:S", help="Every game's clock in seconds (Fischer, or per move)."
        ),
    ] = None,
    grace: Annotated[
        float,
        typer.Option(
            "--grace", metavar="SECONDS", help="With --clock: a seat silent this long has abandoned."
        ),
    ] = 0,
    rated: Annotated[
        bool,
        typer.Option(
            "--rated",
            help="Rate its games as ranked matches (the service signs their tables; docs/ranked.md).",
        ),
    ] = False,
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Create a tournament (the service draws and commits its seed); computer entrants join at once.

    An arena (--format arena) needs --window-end (and takes --window-start): players are paired
    again as soon as they finish, until the window ends."""
    import msgspec

    from contracts.tournaments import CreateTournament, TournamentSettings

    try:
        settings = msgspec.convert(
            {
                "format": fmt,
                "game": game,
                "preset": preset,
                "seed_commitment": "",
                "rounds": rounds,
                "table_size": table_size,
                "min_table_size": min_table_size,
                "tie_breaks": list(tie_break or []),
                "bye_points": bye_points,
                "bots": [b.strip() for b in bots.split(",") if b.strip()],
                "start_at": _start_at(start_at),
                "round_deadline_s": round_deadline,
                "rated": rated,
                "time_control": msgspec.to_builtins(_clock(clock, grace)),
                "window_start": _start_at(window_start, "--window-start"),
                "window_end": _start_at(window_end, "--window-end"),
            },
            TournamentSettings,
        )
    except msgspec.ValidationError as exc:
        typer.echo(f"bad_settings: {exc}", err=True)
        raise typer.Exit(2) from None
    _send(
        tournament_id, CreateTournament(tournament_id=tournament_id, settings=settings), command_id, as_json
    )


@tournaments_app.command("join")
def join(
    tournament_id: TournamentId,
    player: Annotated[
        str,
        typer.Argument(metavar="PLAYER", help="The player's name (bot:<game>:<i> for a computer entrant)."),
    ],
    rating: Annotated[float, typer.Option("--rating", help="Orders the seeding (high first).")] = 0.0,
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Enter a player while registration is open."""
    from contracts.tournaments import JoinTournament

    _send(tournament_id, JoinTournament(player=player, rating=rating), command_id, as_json)


@tournaments_app.command("withdraw")
def withdraw(
    tournament_id: TournamentId,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player who leaves.")],
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Withdraw a player (before the close the entry goes; after it the format decides: forfeits or no more pairings)."""
    from contracts.tournaments import WithdrawFromTournament

    _send(tournament_id, WithdrawFromTournament(player=player), command_id, as_json)


@tournaments_app.command("close")
def close(tournament_id: TournamentId, command_id: CommandId = "", as_json: AsJson = False) -> None:
    """Close registration: the service reveals the seed and fixes the seeding."""
    from contracts.tournaments import CloseRegistration

    _send(tournament_id, CloseRegistration(server_seed=""), command_id, as_json)


@tournaments_app.command("start-round")
def start_round(tournament_id: TournamentId, command_id: CommandId = "", as_json: AsJson = False) -> None:
    """Start the next round (later rounds also start by themselves when one is complete)."""
    from contracts.tournaments import StartRound

    _send(tournament_id, StartRound(), command_id, as_json)


Round = Annotated[int, typer.Argument(metavar="ROUND", help="The round (1-based).")]
TableNumber = Annotated[int, typer.Argument(metavar="TABLE", help="The table within the round (1-based).")]


def _ints(text: str, option: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        typer.echo(f"{option} is a comma-separated list of whole numbers, one per seat (e.g. 0,1)", err=True)
        raise typer.Exit(2) from None


@tournaments_app.command("result")
def result(
    tournament_id: TournamentId,
    rnd: Round,
    table: TableNumber,
    ranks: Annotated[
        str,
        typer.Option(
            "--ranks", metavar="R1,R2,...", help="Per seat in seat order, 0 first; equal ranks share a place."
        ),
    ],
    scores: Annotated[
        str, typer.Option("--scores", metavar="S1,S2,...", help="Optional: the game's own totals per seat.")
    ] = "",
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Record a game's result by hand (a game played elsewhere, a knockout draw settled by a tie-break game)."""
    from contracts.tournaments import RecordResult

    command = RecordResult(
        round=rnd, table=table, ranks=_ints(ranks, "--ranks"), scores=_ints(scores, "--scores")
    )
    _send(tournament_id, command, command_id, as_json)


@tournaments_app.command("forfeit")
def forfeit(
    tournament_id: TournamentId,
    rnd: Round,
    table: TableNumber,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player who forfeits (placed last).")],
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Forfeit a game of the current round for a player (the others placed level first)."""
    from contracts.tournaments import RecordForfeit

    _send(tournament_id, RecordForfeit(round=rnd, table=table, player=player), command_id, as_json)


@tournaments_app.command("void")
def void(
    tournament_id: TournamentId,
    rnd: Round,
    table: TableNumber,
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why (kept in the record).")] = "",
    command_id: CommandId = "",
    as_json: AsJson = False,
) -> None:
    """Void a game's result: the standings (and pairings not yet made) follow; one of the current round may be recorded again."""
    from contracts.tournaments import VoidResult

    _send(tournament_id, VoidResult(round=rnd, table=table, reason=reason), command_id, as_json)


def _records(tournament_id: str) -> list[bytes]:
    from services.common import tournaments

    return list(_on_nats(lambda nc: tournaments.stored(nc.jetstream(), tournament_id)))


def _summary(tournament_id: str, records: list[bytes]) -> dict[str, Any]:
    import msgspec

    from services.common import tournaments

    decoded, _ = tournaments.chain_problem(tournament_id, records)
    from domain.tournaments import fold
    from domain.tournaments.pairing import total_rounds

    state = fold(e for r in decoded for e in r.events)
    s = state.settings
    even: dict[str, Any] | None = None
    if s is not None and s.format == "fair_tables" and state.rounds:
        from domain.tournaments import evenness

        measured = evenness([tuple(g.seats for g in r.games) for r in state.rounds], state.order)
        even = msgspec.to_builtins(measured)
    return {
        "tournament_id": tournament_id,
        "records": len(records),
        "phase": state.phase,
        "format": s.format if s else "",
        "game": s.game if s else "",
        "preset": s.preset if s else "",
        "entrants": list(state.order or state.entrants),
        "rounds": len(state.rounds),
        "rounds_total": total_rounds(state) if s and state.phase in ("running", "finished") else 0,
        "games_open": sum(1 for r in state.rounds for g in r.games if g.ranks is None),
        "standings": [
            {"rank": x.rank, "player": x.player, "points": x.points, "tie_breaks": list(x.tie_breaks)}
            for x in state.standings
        ],
        "evenness": even,
        "arena": _arena_rows(state) if s is not None and s.format == "arena" else None,
        "window": [s.window_start, s.window_end] if s is not None and s.format == "arena" else None,
    }


def _arena_rows(state: Any) -> list[dict[str, Any]]:
    """An arena's standings now (the final ones once finished) with each player's games, wins,
    current run of wins, whether they are on fire (the next game scores double) and the points of
    each game in order."""
    from domain.tournaments import arena

    scores = arena.current_scores(state)
    table = state.standings or arena.standings(state.order, {p: sc.points for p, sc in scores.items()})
    out = []
    for row in table:
        sc = scores.get(row.player) or arena.ArenaScore(player=row.player)
        out.append(
            {
                "rank": row.rank,
                "player": row.player,
                "points": row.points,
                "games": sc.games,
                "wins": sc.wins,
                "streak": sc.streak,
                "on_fire": sc.on_fire,
                "sheet": list(sc.sheet),
            }
        )
    return out


def _sheet_marks(sheet: list[int]) -> str:
    """A player's arena games in order: each game's points, a doubled one (scored on fire) with
    a ``*``."""
    from domain.tournaments import arena

    marks: list[str] = []
    streak = 0
    for got in sheet:
        fire = streak >= arena.FIRE_AFTER
        marks.append(f"{got}*" if fire else str(got))
        won = got == (4 if fire else 2)
        streak = streak + 1 if won else 0
    return " ".join(marks)


@tournaments_app.command("show")
def show(tournament_id: TournamentId, as_json: AsJson = False) -> None:
    """A tournament's phase, rounds and (once finished) its standings, from its records."""
    records = _records(tournament_id)
    if not records:
        typer.echo(f"unknown_tournament: no tournament {tournament_id!r}", err=True)
        raise typer.Exit(1)
    out = _summary(tournament_id, records)
    if as_json:
        typer.echo(json.dumps(out))
        return
    typer.echo(
        f"tournament {tournament_id}: {out['format']} of {out['game']} ({out['preset']}), {out['phase']}"
    )
    typer.echo(f"entrants: {', '.join(out['entrants']) or '(none)'}")
    if out["rounds_total"]:
        typer.echo(
            f"rounds: {out['rounds']} of {out['rounds_total']} started, {out['games_open']} games open"
        )
    even = out["evenness"]
    if even:
        typer.echo(
            f"evenness (fair tables): pairs {even['pairs']:.2f}, positions {even['positions']:.2f}, total "
            f"{even['total']:.2f}; every pair met {even['min_meetings']} to {even['max_meetings']} times"
        )
    if out["arena"] is not None:
        start, end = (
            datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S") for ms in out["window"]
        )
        typer.echo(
            f"window: {start} to {end} UTC; pairings: {out['rounds']}, games open: {out['games_open']}"
        )
        typer.echo("  (points per game in order; * scored double, on fire after two wins in a row)")
        for row in out["arena"]:
            fire = "  on fire" if row["on_fire"] else ""
            typer.echo(
                f"{row['rank']:>3}. {row['player']:<24} {row['points']:g}  games {row['games']}, wins "
                f"{row['wins']}: {_sheet_marks(row['sheet']) or '-'}{fire}"
            )
        return
    for row in out["standings"]:
        typer.echo(f"{row['rank']:>3}. {row['player']:<24} {row['points']:g}  {row['tie_breaks']}")


@tournaments_app.command("list")
def list_cmd(as_json: AsJson = False) -> None:
    """Every stored tournament with its phase."""
    from services.common import tournaments

    async def work(nc: Any) -> list[dict[str, Any]]:
        js = nc.jetstream()
        return [_summary(t, await tournaments.stored(js, t)) for t in await tournaments.list_ids(js)]

    found = _on_nats(work)
    for row in found:
        if as_json:
            typer.echo(json.dumps(row))
        else:
            typer.echo(f"{row['tournament_id']:<24} {row['phase']:<12} {row['format']:<18} {row['game']}")
    if not found and not as_json:
        typer.echo("(no tournaments)")


@tournaments_app.command("export")
def export(
    tournament_id: TournamentId,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="Where to write the bundle.")
    ],
) -> None:
    """Write a tournament's records to FILE (a bundle `audit --bundle` checks with no stack)."""
    from services.common import tournaments

    records = _records(tournament_id)
    if not records:
        typer.echo(f"unknown_tournament: no tournament {tournament_id!r}", err=True)
        raise typer.Exit(1)
    output.write_bytes(tournaments.bundle_of(tournament_id, records))
    typer.echo(f"wrote {len(records)} records of tournament {tournament_id} to {output}")


@tournaments_app.command("audit")
def audit_cmd(
    tournament_id: Annotated[
        str | None, typer.Argument(metavar="[TOURNAMENT_ID]", help="A stored tournament (or give --bundle).")
    ] = None,
    bundle: Annotated[
        Path | None,
        typer.Option("--bundle", metavar="FILE", help="Audit an exported bundle; no stack needed."),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Check the hash chain and re-derive the seeding, every round's pairings and the final standings from the records alone; name the first that differs (exit 1)."""
    import msgspec

    from services.common import tournaments

    if (tournament_id is None) == (bundle is None):
        typer.echo("give a TOURNAMENT_ID or --bundle FILE (one of them)", err=True)
        raise typer.Exit(2)
    if bundle is not None:
        try:
            tid, records = tournaments.bundle_records(bundle.read_bytes())
        except OSError as exc:
            typer.echo(f"{bundle}: {exc.strerror}", err=True)
            raise typer.Exit(2) from None
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            typer.echo(f"{bundle}: not a tournament bundle: {exc}", err=True)
            raise typer.Exit(2) from None
    else:
        assert tournament_id is not None
        tid, records = tournament_id, _records(tournament_id)
        if not records:
            typer.echo(f"unknown_tournament: no tournament {tournament_id!r}", err=True)
            raise typer.Exit(1)
    if not as_json:
        typer.echo(f"tournament {tid}: {len(records)} records")
    problem = tournaments.audit_records(tid, records)
    out = _summary(tid, records)
    if as_json:
        typer.echo(json.dumps({"tournament_id": tid, "ok": problem is None, "problem": problem, **out}))
    elif problem is None:
        finished = "the final standings" if out["phase"] == "finished" else "(not finished yet)"
        typer.echo(
            f"ok: hash chain intact; the seeding, {out['rounds']} rounds' pairings and {finished} re-derived from the records"
        )
    else:
        typer.echo(f"differs: {problem}", err=True)
    if problem is not None:
        raise typer.Exit(1)
