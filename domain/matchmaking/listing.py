"""Pure listing of the lobby's open tables: a queue snapshot -> the public private tables.

A private table is a queue with an invite code (``pairing.queue_key``).  Its first player (the
host: the oldest ticket still waiting) may mark it public when opening it; such a table is listed
with its game, preset, seats taken of seats, host and since when it waits, and its code, so
anyone may join it.  Private tables not marked public, public quick-match queues (they are
seeks), computer tables and ticket ids are never listed."""

from __future__ import annotations

from collections.abc import Iterable

from contracts.matchmaking import OpenTable, OpenTables, Ticket

from .pairing import queue_key


def open_tables(waiting: Iterable[Ticket], game: str = "") -> OpenTables:
    """The public tables with seats free, oldest first (``game``: one game's only)."""
    queues: dict[tuple[object, ...], list[Ticket]] = {}
    for ticket in waiting:
        if not ticket.invite or ticket.vs_computer or (game and ticket.game != game):
            continue
        queues.setdefault(queue_key(ticket), []).append(ticket)
    out = []
    for members in queues.values():
        members.sort(key=lambda t: (t.joined_at, t.ticket_id))
        host = members[0]
        if not host.public or len(members) >= host.seats:
            continue
        out.append(
            OpenTable(
                game=host.game,
                preset=host.preset,
                seats=host.seats,
                taken=len(members),
                host=host.player,
                players=tuple(t.player for t in members),
                ranked=host.ranked,
                invite=host.invite,
                since=host.joined_at,
            )
        )
    out.sort(key=lambda t: (t.since, t.game, t.preset, t.invite))
    return OpenTables(tables=tuple(out))
