"""Pure pairing: a queue snapshot and the time -> tables.

Rules:
- Tickets wait in queues keyed by (game, preset, seats, ranked, invite).
- In a public queue the oldest unseated ticket anchors a table and takes the closest ratings
  first; a table may form only if its rating spread is within the *current* allowed gap of every
  human at it.  The gap widens with waiting time along ``Policy.steps``; the last step should be
  unbounded so that waiting never starves.
- A ticket that accepts computer players and has waited ``bot_fill_after_ms`` gets a table filled
  with bots when no full human table can form.
- A private queue (invite code) forms a table as soon as it has enough players, with no gap.
- "Play the computer" tickets get a table of bots at once.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence

import msgspec

from contracts.matchmaking import Ticket, computer_player

__all__ = ["Ticket", "Policy", "GapStep", "Table", "allowed_gap", "form_tables", "queue_key"]

UNBOUNDED = math.inf


class GapStep(msgspec.Struct, frozen=True):
    after_ms: int
    gap: float


DEFAULT_STEPS: tuple[GapStep, ...] = (
    GapStep(0, 50.0),
    GapStep(5_000, 100.0),
    GapStep(10_000, 200.0),
    GapStep(20_000, 400.0),
    GapStep(30_000, UNBOUNDED),
)


class Policy(msgspec.Struct, frozen=True, kw_only=True):
    steps: tuple[GapStep, ...] = DEFAULT_STEPS
    bot_fill_after_ms: int = 20_000


class Table(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    game: str
    preset: str
    ranked: bool
    players: tuple[str, ...]  # one per seat
    bots: tuple[int, ...]  # seat indexes held by computer players
    tickets: tuple[str, ...]  # human tickets, in seat order
    invite: str
    waited_ms: tuple[int, ...]  # per human, in seat order
    gap: float  # rating spread of the humans


QueueKey = tuple[str, str, int, bool, str]


def allowed_gap(policy: Policy, waited_ms: int) -> float:
    """The gap of the last step reached (steps sorted by ``after_ms``); 0 before the first step."""
    gap = 0.0
    for step in sorted(policy.steps, key=lambda s: s.after_ms):
        if waited_ms >= step.after_ms:
            gap = step.gap
    return gap


def queue_key(ticket: Ticket) -> QueueKey:
    return (ticket.game, ticket.preset, ticket.seats, ticket.ranked, ticket.invite)


def _table_id(tickets: Sequence[Ticket], bots: int) -> str:
    raw = "|".join(sorted(t.ticket_id for t in tickets)) + f"|bots={bots}"
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def _spread(members: Iterable[Ticket]) -> float:
    ratings = [m.rating for m in members]
    return max(ratings) - min(ratings) if ratings else 0.0


def _make_table(humans: Sequence[Ticket], now: int) -> Table:
    first = humans[0]
    bot_count = first.seats - len(humans)
    table_id = _table_id(humans, bot_count)
    ordered = sorted(humans, key=lambda t: (t.joined_at, t.ticket_id))
    slots: list[Ticket | None] = [*ordered, *([None] * bot_count)]
    # seat order is rotated by the table id: deterministic, and nobody always moves first
    shift = int(table_id[:8], 16) % first.seats
    slots = slots[shift:] + slots[:shift]
    players: list[str] = []
    bots: list[int] = []
    bot_number = 0
    for seat, slot in enumerate(slots):
        if slot is None:
            bot_number += 1
            players.append(computer_player(first.game, bot_number))
            bots.append(seat)
        else:
            players.append(slot.player)
    seated = [s for s in slots if s is not None]
    return Table(
        table_id=table_id,
        game=first.game,
        preset=first.preset,
        ranked=first.ranked,
        players=tuple(players),
        bots=tuple(bots),
        tickets=tuple(s.ticket_id for s in seated),
        invite=first.invite,
        waited_ms=tuple(max(0, now - s.joined_at) for s in seated),
        gap=_spread(seated),
    )


def _public_tables(queue: list[Ticket], now: int, policy: Policy) -> list[Table]:
    size = queue[0].seats
    by_age = sorted(queue, key=lambda t: (t.joined_at, t.ticket_id))
    by_rating = sorted(queue, key=lambda t: (t.rating, t.joined_at, t.ticket_id))
    position = {t.ticket_id: i for i, t in enumerate(by_rating)}
    gaps = {t.ticket_id: allowed_gap(policy, now - t.joined_at) for t in queue}
    seated: set[str] = set()
    tables: list[Table] = []
    for anchor in by_age:
        if anchor.ticket_id in seated:
            continue
        members = [anchor]
        limit = gaps[anchor.ticket_id]
        lo = hi = position[anchor.ticket_id]
        # walk outwards in rating order, closest first (older first on a tie)
        while len(members) < size:
            left = next((i for i in range(lo - 1, -1, -1) if by_rating[i].ticket_id not in seated), None)
            right = next(
                (i for i in range(hi + 1, len(by_rating)) if by_rating[i].ticket_id not in seated), None
            )
            options = [i for i in (left, right) if i is not None]
            if not options:
                break
            pick = min(
                options,
                key=lambda i: (
                    abs(by_rating[i].rating - anchor.rating),
                    by_rating[i].joined_at,
                    by_rating[i].ticket_id,
                ),
            )
            candidate = by_rating[pick]
            if abs(candidate.rating - anchor.rating) > limit:
                break  # everyone further away is beyond the anchor's gap too
            if pick == left:
                lo = pick
            else:
                hi = pick
            trial = [*members, candidate]
            if _spread(trial) <= min(gaps[m.ticket_id] for m in trial):
                members.append(candidate)
        if len(members) < size:
            waited = now - anchor.joined_at
            if not (anchor.bots_ok and waited >= policy.bot_fill_after_ms):
                continue
            members = [m for m in members if m.bots_ok]
        tables.append(_make_table(members, now))
        seated.update(m.ticket_id for m in members)
    return tables


def _private_tables(queue: list[Ticket], now: int) -> list[Table]:
    size = queue[0].seats
    by_age = sorted(queue, key=lambda t: (t.joined_at, t.ticket_id))
    return [_make_table(by_age[i : i + size], now) for i in range(0, len(by_age) - size + 1, size)]


def form_tables(queue: Sequence[Ticket], now: int, policy: Policy = Policy()) -> tuple[Table, ...]:  # noqa: B008
    """Tables that may form now.  A player (not just a ticket) is seated at most once."""
    seen_players: set[str] = set()
    unique: list[Ticket] = []
    for ticket in sorted(queue, key=lambda t: (t.joined_at, t.ticket_id)):
        if ticket.player in seen_players or ticket.seats < 1:
            continue  # the service refuses a second ticket; be safe if a snapshot has one
        seen_players.add(ticket.player)
        unique.append(ticket)
    queues: dict[QueueKey, list[Ticket]] = {}
    tables: list[Table] = []
    for ticket in unique:
        if ticket.vs_computer:
            tables.append(_make_table([ticket], now))
        else:
            queues.setdefault(queue_key(ticket), []).append(ticket)
    for key in sorted(queues):
        members = queues[key]
        if key[4]:
            tables.extend(_private_tables(members, now))
        else:
            tables.extend(_public_tables(members, now, policy))
    return tuple(tables)
