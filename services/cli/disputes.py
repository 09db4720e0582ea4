"""``gamehall disputes list | show | open | note | rule``: disputes of finished matches, for
operators (docs/ranked.md "Disputes", docs/api.md "Disputes").  The events go to the disputes
stream of the running stack (or ``NATS_URL``) as the operator named by ``--by``, who must hold
the operator role (``gamehall accounts grant-operator NAME``)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from services.cli import context

disputes_app = typer.Typer(
    help="Disputes of finished matches: list, show, open, add notes and rule (operators).",
    no_args_is_help=True,
)

By = Annotated[
    str, typer.Option("--by", metavar="NAME", help="Your operator account's name (recorded with the event).")
]
DisputeId = Annotated[str, typer.Argument(metavar="DISPUTE_ID", help="The dispute's id (<match id>-<n>).")]
AsJson = Annotated[bool, typer.Option("--json", help="JSON instead of text.")]


def _operator(name: str) -> Any:
    from domain.disputes import Actor
    from services.common import accounts, db

    engine = db.open_database(context.settings().database_url)
    try:
        # The account's own name, however the operator typed its case.
        exact = accounts.account_name(engine, name)
        operator = exact is not None and accounts.is_operator(engine, exact)
    finally:
        engine.dispose()
    if not operator or exact is None:
        typer.echo(
            f"not_an_operator: {name!r} has no operator role (gamehall accounts grant-operator NAME)",
            err=True,
        )
        raise typer.Exit(1)
    return Actor(name=exact, operator=True)


def _on_stream(work: Callable[[Any], Awaitable[Any]]) -> Any:
    """``work(js)`` on the running stack's NATS (``stackrun.on_stack_nats``)."""
    from services.cli.stackrun import on_stack_nats

    return on_stack_nats(lambda nc: work(nc.jetstream()))


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _print(dispute: dict[str, Any]) -> None:
    typer.echo(
        f"dispute {dispute['dispute_id']}  {dispute['status']}  match {dispute['match_id']} ({dispute['game']})"
    )
    who = "operator " if dispute["by_operator"] else ""
    typer.echo(f"opened by {who}{dispute['opened_by']} at {_when(dispute['opened_at'])}: {dispute['reason']}")
    recorded = ", ".join(
        f"{seat} {player} rank {rank}"
        for seat, player, rank in zip(
            dispute["seats"], dispute["players"], dispute["recorded"]["ranks"], strict=False
        )
    )
    typer.echo(f"recorded result: {recorded}")
    for note in dispute["notes"]:
        typer.echo(f"note by {note['author']} at {_when(note['at'])}: {note['text']}")
    ruling = dispute["ruling"]
    if ruling is not None:
        extra = f" ranks {ruling['ranks']}" if ruling["ranks"] else ""
        extra += f" scores {ruling['scores']}" if ruling["scores"] else ""
        typer.echo(
            f"ruled {ruling['ruling']}{extra} by {ruling['ruled_by']} at {_when(ruling['ruled_at'])}: {ruling['reason']}"
        )


def _answer(made: Any, as_json: bool) -> None:
    from contracts.envelope import Rejected
    from services.common import disputes

    if isinstance(made, Rejected):
        typer.echo(f"{made.code}: {made.detail}", err=True)
        raise typer.Exit(1)
    out = disputes.as_dict(made)
    if as_json:
        typer.echo(json.dumps(out))
    else:
        _print(out)


def _numbers(text: str | None, kind: type, option: str) -> list[Any]:
    if not text:
        return []
    try:
        return [kind(part) for part in text.split(",")]
    except ValueError:
        typer.echo(f"{option} is a comma-separated list of numbers, one per seat (e.g. 2,1)", err=True)
        raise typer.Exit(2) from None


@disputes_app.command("list")
def list_cmd(
    status: Annotated[
        str | None, typer.Option("--status", metavar="STATUS", help="Only 'open' or only 'ruled' ones.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Every dispute, newest first."""
    from services.common import disputes

    if status not in (None, "open", "ruled"):
        typer.echo("--status is 'open' or 'ruled'", err=True)
        raise typer.Exit(2)
    found = _on_stream(lambda js: disputes.list_all(js, status))
    for state in found:
        row = disputes.as_dict(state)
        if as_json:
            typer.echo(json.dumps(row))
        else:
            ruling = row["ruling"]["ruling"] if row["ruling"] else ""
            typer.echo(
                f"{row['dispute_id']}  {row['status']:<5} {ruling:<7}  {row['game']:<12} by {row['opened_by']}: {row['reason'][:60]}"
            )
    if not found and not as_json:
        typer.echo("(no disputes)")


@disputes_app.command("show")
def show(dispute_id: DisputeId, as_json: AsJson = False) -> None:
    """A dispute with the recorded result, its notes and its ruling."""
    from services.common import disputes

    state = _on_stream(lambda js: disputes.get(js, dispute_id))
    if state is None:
        typer.echo(f"dispute_not_found: no dispute {dispute_id!r}", err=True)
        raise typer.Exit(1)
    _answer(state, as_json)


@disputes_app.command("open")
def open_cmd(
    match_id: Annotated[str, typer.Argument(metavar="MATCH_ID", help="A finished match.")],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="What is wrong with the result.")],
    by: By,
    as_json: AsJson = False,
) -> None:
    """Open a dispute on a finished match as an operator."""
    from services.common import disputes

    actor = _operator(by)
    _answer(_on_stream(lambda js: disputes.open_dispute(js, match_id, actor, reason)), as_json)


@disputes_app.command("note")
def note(
    dispute_id: DisputeId,
    text: Annotated[str, typer.Option("--text", metavar="TEXT", help="The note.")],
    by: By,
    as_json: AsJson = False,
) -> None:
    """Add an operator's note to an open dispute."""
    from services.common import disputes

    actor = _operator(by)
    _answer(_on_stream(lambda js: disputes.add_note(js, dispute_id, actor, text)), as_json)


@disputes_app.command("rule")
def rule(
    dispute_id: DisputeId,
    ruling: Annotated[
        str, typer.Argument(metavar="RULING", help="One of upheld (the result stands), amended or void.")
    ],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why (shown to the players).")],
    by: By,
    ranks: Annotated[
        str | None,
        typer.Option(
            "--ranks", metavar="R1,R2,...", help="Amended: one rank per seat in seat order, 1 best."
        ),
    ] = None,
    scores: Annotated[
        str | None,
        typer.Option("--scores", metavar="S1,S2,...", help="Amended, optional: one score per seat."),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Rule on a dispute and close it; an amended or void ruling on a rated match recomputes the ratings."""
    from services.common import disputes

    actor = _operator(by)
    ints, floats = _numbers(ranks, int, "--ranks"), _numbers(scores, float, "--scores")
    _answer(
        _on_stream(lambda js: disputes.rule(js, dispute_id, actor, ruling, ints, floats, reason)), as_json
    )
