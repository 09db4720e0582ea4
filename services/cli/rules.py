"""``gamehall rules ...``: look at a game's rules from the command line (presets, perft)."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

rules_app = typer.Typer(
    help="Rules of the games: presets, move-generation checks and refereeing game records.", no_args_is_help=True
)


def _game(name: str) -> Any:
    return check_game(name)


def check_game(name: str, preset: str | None = None) -> Any:
    """The registered game ``name`` (and its ``preset``, when given), or a clear message and exit
    status 2 before the command starts anything."""
    from domain.games.registry import GAMES

    game = GAMES.get(name)
    if game is None:
        typer.echo(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}", err=True)
        raise typer.Exit(2)
    if preset is not None and game.canonical_preset(preset) not in game.presets:
        typer.echo(f"unknown preset {preset!r} for {name}; known: {', '.join(game.presets)}", err=True)
        raise typer.Exit(2)
    return game


def _parse_value(text: str) -> Any:
    """``@path``: the JSON in that file; JSON when it parses (numbers, true/false, null, lists,
    objects); otherwise the plain string."""
    if text.startswith("@"):
        return _read_json(text[1:])
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError:
        raise typer.BadParameter("a value nests too deep") from None


def _read_json(path: str) -> Any:
    from services.cli.files import Unreadable, read_json

    try:
        return read_json(path)
    except Unreadable as exc:
        raise typer.BadParameter(str(exc)) from None


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``key=value`` items; a bare ``@path`` merges every key of the JSON object in that file."""
    out: dict[str, Any] = {}
    for item in items:
        if item.startswith("@"):
            data = _read_json(item[1:])
            if not isinstance(data, dict):
                raise typer.BadParameter(f"{item[1:]} must hold a JSON object of ruleset parameters")
            out.update(data)
            continue
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected key=value, got {item!r}")
        out[key.strip()] = _parse_value(value.strip())
    return out


@rules_app.command("list")
def list_games() -> None:
    """List every registered game: its title, seats, default preset, and what `rules perft`,
    `perft --fen` and `export --NOTATION` / `rules replay FILE` can do with it."""
    from domain.games.registry import GAMES

    width = max(len(name) for name in GAMES)
    for name, g in GAMES.items():
        seats = f"{g.min_seats}" if g.min_seats == g.max_seats else f"{g.min_seats}-{g.max_seats}"
        extras = [x for x, has in (("perft", g.perft is not None), ("positions (--fen)", g.position is not None)) if has]
        extras += [f"--{n.name}: {n.title} ({n.suffix})" for n in g.notations]
        tail = f"; {', '.join(extras)}" if extras else ""
        typer.echo(f"{name:<{width}}  {g.title}, {seats} seats, default preset {g.default_preset}{tail}")


@rules_app.command()
def presets(game: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. ugolki.")]) -> None:
    """List a game's presets with one-line descriptions (the default is marked *)."""
    g = _game(game)
    width = max(len(name) for name in g.presets)
    for name in g.presets:
        mark = "*" if name == g.default_preset else " "
        typer.echo(f"{mark} {name:<{width}}  {g.presets[name].description}")


@rules_app.command()
def show(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. farkle-flip.")],
    preset: Annotated[str | None, typer.Option("--preset", "-p", metavar="PRESET", help="Preset name.")] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="KEY=VALUE",
            help="Override a ruleset parameter: key=value, key=@file.json, or @file.json for a whole "
            "object of parameters (repeatable).",
        ),
    ] = None,
) -> None:
    """Print the ruleset a match would be created with (preset + overrides), checked as the
    referee checks it; exit 2 with the reason when it is refused.  The JSON printed is what
    ``POST /api/matches`` takes as ``rules``."""

    from contracts.envelope import Rejected
    from domain.core.match import resolve_ruleset, written_ruleset

    g = _game(game)
    ruleset = resolve_ruleset(g, preset or g.default_preset, parse_overrides(set_ or []))
    if isinstance(ruleset, Rejected):
        typer.echo(f"{ruleset.code}: {ruleset.detail}", err=True)
        raise typer.Exit(2)
    typer.echo(json.dumps(written_ruleset(g, ruleset), indent=2, sort_keys=True))


@rules_app.command()
def perft(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game name, a game with perft (e.g. ugolki).")],
    depth: Annotated[int, typer.Option("--depth", "-d", min=1, metavar="D", help="Plies to count.")] = 3,
    preset: Annotated[str | None, typer.Option("--preset", "-p", metavar="PRESET", help="Preset name.")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a ruleset parameter: key=value (repeatable).")
    ] = None,
    timing: Annotated[bool, typer.Option("--time", help="Also print seconds and nodes/s per depth.")] = False,
    paths: Annotated[
        bool,
        typer.Option("--paths", help="Count every path of a move that several paths make (captures with the same effect)."),
    ] = False,
    fen: Annotated[
        str | None,
        typer.Option(
            "--fen",
            "--position",
            metavar="POSITION",
            help="Count from this position, written in the game's position string (e.g. a PDN FEN "
            "such as \"W:W21,22:B1,2\"), instead of the start.",
        ),
    ] = None,
) -> None:
    """Count move sequences from the preset's start (its first seat to move), or from --fen
    POSITION: `depth 1: N` ... `depth D: N`.  For the games whose rules give a perft (exit 2 naming
    them otherwise, or when the position does not parse)."""
    from contracts.envelope import Rejected
    from domain.core.match import default_seats_of, resolve_ruleset
    from domain.games.registry import GAMES

    g = _game(game)
    if g.perft is None:
        having = sorted(name for name, decider in GAMES.items() if decider.perft is not None)
        typer.echo(f"{game} has no perft; games with perft: {', '.join(having) or 'none'}", err=True)
        raise typer.Exit(2)
    ruleset = resolve_ruleset(g, preset or g.default_preset, parse_overrides(set_ or []))
    if isinstance(ruleset, Rejected):
        typer.echo(f"{ruleset.code}: {ruleset.detail}", err=True)
        raise typer.Exit(2)
    seats = g.seat_names(default_seats_of(g, preset))
    state = g.initial_state(ruleset, seats, None) if fen is None else _position(g, ruleset, seats, fen)
    count = g.perft
    if paths:
        if g.perft_paths is None:
            typer.echo(f"{game}: every move is one path; --paths counts the same as without it", err=True)
        count = g.perft_paths or g.perft
    for d in range(1, depth + 1):
        started = time.perf_counter()
        nodes = count(state, d)
        elapsed = time.perf_counter() - started
        line = f"depth {d}: {nodes}"
        if timing:
            line += f"  ({elapsed:.3f} s, {nodes / elapsed if elapsed else 0:,.0f} nodes/s)"
        typer.echo(line)


def _position(g: Any, ruleset: Any, seats: tuple[str, ...], text: str) -> Any:
    """The state a position string describes, or a message and exit status 2."""
    from contracts.envelope import Rejected
    from domain.games.registry import GAMES

    if g.position is None:
        having = sorted(name for name, decider in GAMES.items() if decider.position is not None)
        typer.echo(f"{g.name} reads no positions; games that do: {', '.join(having) or 'none'}", err=True)
        raise typer.Exit(2)
    state = g.position(ruleset, seats, text)
    if isinstance(state, Rejected):
        typer.echo(f"{state.code}: {state.detail}", err=True)
        raise typer.Exit(2)
    return state


def notation_of_file(name: str) -> Any:
    """The registered notation a file name's ending selects (``game.pgn``: Ugolki's PGN), or None."""
    from domain.games.registry import GAMES

    lowered = name.lower()
    for decider in GAMES.values():
        for notation in decider.notations:
            if lowered.endswith(notation.suffix):
                return notation
    return None


def _read_record(file: str) -> Any:
    """The game record in ``file``: JSON, or a game's own notation chosen by the file's ending."""
    from services.cli.files import Unreadable, read_input, read_json

    notation = notation_of_file(file)
    if notation is None:
        return read_json(file)
    data = read_input(file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return notation.read(text)
    except ValueError as exc:
        raise Unreadable(f"{file}: malformed {notation.title}: {exc}") from None


@rules_app.command()
def replay(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A game record (rules/records.md), or a game in a game's own notation chosen by its "
            "file name's ending (.pgn: Ugolki's PGN move text; `gamehall rules list` names them all); a regular file of at most 64 MiB; - "
            "for standard input (a JSON record).",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="The answer as one JSON object.")] = False,
) -> None:
    """Referee a game record with the rules code of live play.

    Exit 0: the record is legal (its result, per-deal points and totals); exit 1: an illegal action
    (its index, rejection code and detail); exit 2: a malformed record (the field named), or a file
    that is not a regular file of at most 64 MiB of UTF-8 JSON (refused before it is read)."""
    from domain.records import Illegal, MalformedRecord
    from domain.records import replay as referee
    from services.cli.files import Unreadable

    try:
        record = _read_record(file)
    except Unreadable as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    try:
        result = referee(record)
    except MalformedRecord as exc:
        typer.echo(f"malformed record: {exc}", err=True)
        raise typer.Exit(2) from None
    except RecursionError:
        typer.echo("malformed record: it nests too deep", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result.as_json(), ensure_ascii=False))
    elif isinstance(result, Illegal):
        typer.echo(f"illegal action {result.index}: {result.code}: {result.detail}")
    else:
        _print_replay(result)
    raise typer.Exit(1 if isinstance(result, Illegal) else 0)


def _print_replay(result: Any) -> None:
    players = list(result.players)
    width = max(len(p) for p in players + ["deal"])
    if result.deals:
        typer.echo("  ".join(["deal".ljust(6)] + [p.rjust(width) for p in players]))
        for i, row in enumerate(result.deals, start=1):
            cells = [f"{pt:+d} ({tot})".rjust(width) for pt, tot in zip(row["points"], row["totals"], strict=True)]
            typer.echo("  ".join([str(i).ljust(6)] + cells))
        typer.echo("  ".join(["total".ljust(6)] + [str(t).rjust(width) for t in result.totals]))
    if not result.finished:
        typer.echo("legal so far; the game is not finished")
        return
    ranking = sorted(zip(result.ranks, players, strict=True))
    typer.echo(f"finished ({result.reason}): " + ", ".join(f"{rank}. {p}" for rank, p in ranking))
