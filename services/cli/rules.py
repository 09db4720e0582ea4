"""``gamehall rules ...``: look at a game's rules from the command line (presets, perft)."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from contracts.envelope import Rejected
from domain.core.match import resolve_ruleset
from domain.games.registry import GAMES

rules_app = typer.Typer(help="Rules of the games: presets and move-generation checks.", no_args_is_help=True)


def _game(name: str) -> Any:
    game = GAMES.get(name)
    if game is None:
        typer.echo(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}", err=True)
        raise typer.Exit(2)
    return game


def _parse_value(text: str) -> Any:
    """JSON when it parses (numbers, true/false, null), otherwise the plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected key=value, got {item!r}")
        out[key.strip()] = _parse_value(value.strip())
    return out


@rules_app.command()
def presets(game: Annotated[str, typer.Argument(help="Game name, e.g. ugolki.")]) -> None:
    """List a game's presets with one-line descriptions (the default is marked *)."""
    g = _game(game)
    meta = g
    width = max(len(name) for name in meta.presets)
    for name in meta.presets:
        mark = "*" if name == meta.default_preset else " "
        typer.echo(f"{mark} {name:<{width}}  {meta.presets[name].description}")


@rules_app.command()
def perft(
    game: Annotated[str, typer.Argument(help="Game name (ugolki).")],
    depth: Annotated[int, typer.Option("--depth", "-d", min=1, help="Plies to count.")] = 3,
    preset: Annotated[str | None, typer.Option("--preset", "-p", help="Preset name.")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Override a ruleset parameter: key=value (repeatable).")
    ] = None,
    timing: Annotated[bool, typer.Option("--time", help="Also print seconds and nodes/s per depth.")] = False,
) -> None:
    """Count move sequences from the preset's start (White to move): `depth 1: N` ... `depth D: N`."""
    g = _game(game)
    if game != "ugolki":
        typer.echo(f"perft is available for ugolki only, not {game!r}", err=True)
        raise typer.Exit(2)
    from domain.games.ugolki.perft import perft as count

    if preset == "halma-16x16":
        typer.echo("halma-16x16 is not specified well enough to referee (rules/ugolki.md §10, Q22)", err=True)
        raise typer.Exit(2)
    ruleset = resolve_ruleset(g, preset or g.default_preset, parse_overrides(set_ or []))
    if isinstance(ruleset, Rejected):
        typer.echo(f"{ruleset.code}: {ruleset.detail}", err=True)
        raise typer.Exit(2)
    state = g.initial_state(ruleset, g.seat_names(2), None)
    for d in range(1, depth + 1):
        started = time.perf_counter()
        nodes = count(state, d)
        elapsed = time.perf_counter() - started
        line = f"depth {d}: {nodes}"
        if timing:
            line += f"  ({elapsed:.3f} s, {nodes / elapsed if elapsed else 0:,.0f} nodes/s)"
        typer.echo(line)
