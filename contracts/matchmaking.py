"""Matchmaking requests and replies (NATS request/reply on ``contracts.subjects.MATCHMAKING_*``).

A player joins one queue at a time; a player in a queue, at a table being created or in a running
match is refused with ``already_queued`` / ``in_match``.  Formed tables are announced as
``contracts.integration.TableFormed`` on the integration stream.

The queue itself is stored in the JetStream key-value bucket ``contracts.subjects.TICKETS_BUCKET``:
one entry per player (``QueueEntry``: waiting, at a forming table, playing), changed only by
revision-checked writes, so any number of matchmakers and gateways share it and a restart of any
of them loses no waiting player.
"""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.integration import TableFormed


def computer_player(game: str, n: int) -> str:
    """The player id of the ``n``-th computer player matchmaking seats at a table of ``game``
    (``bot:ugolki:1``): an identifier, never shown to people (the match layer words it by its
    strength, ``domain.core.match.words.player_in_words``)."""
    return f"bot:{game}:{n}"


def is_computer_player(player: str) -> bool:
    """Whether ``player`` is an id :func:`computer_player` makes."""
    parts = player.split(":")
    return len(parts) == 3 and parts[0] == "bot" and bool(parts[1]) and parts[2].isdigit()


class Ticket(msgspec.Struct, frozen=True, kw_only=True):
    """A player waiting in a queue (``domain.matchmaking.pairing`` pairs them)."""

    ticket_id: str
    player: str
    game: str
    preset: str
    seats: int
    rating: float
    joined_at: int  # unix ms
    ranked: bool = True
    bots_ok: bool = False
    invite: str = ""
    vs_computer: bool = False
    public: bool = False  # with ``invite``: the table is listed (ListTables) while its opener waits


class JoinQueue(msgspec.Struct, frozen=True, kw_only=True, tag="join_queue.v1"):
    player: str
    game: str
    preset: str
    seats: int = 2
    ranked: bool = True
    rating: float | None = None  # None: the service looks up the player's rating (or the default)
    bots_ok: bool = False  # fill the table with computer players after the configured wait
    invite: str = ""  # private table: everyone with the same code sits together, no rating gap
    vs_computer: bool = False  # "play the computer": a table with bots at once
    # With ``invite``: list the table (ListTables, GET /api/tables) so anyone may join it.  The
    # first player of a table (its host) decides; later players' flag is ignored.
    public: bool = False


class LeaveQueue(msgspec.Struct, frozen=True, kw_only=True, tag="leave_queue.v1"):
    player: str


class QueueStatus(msgspec.Struct, frozen=True, kw_only=True, tag="queue_status.v1"):
    player: str


class ListSeeks(msgspec.Struct, frozen=True, kw_only=True, tag="list_seeks.v1"):
    """The open public queues (seeks) anyone may join: never private (invite) or computer tables."""

    game: str = ""  # "": every game


class ListTables(msgspec.Struct, frozen=True, kw_only=True, tag="list_tables.v1"):
    """The open tables anyone may join: private (invite) tables whose host marked them public."""

    game: str = ""  # "": every game


MatchmakingRequest = JoinQueue | LeaveQueue | QueueStatus | ListSeeks | ListTables


class Queued(msgspec.Struct, frozen=True, kw_only=True, tag="queued.v1"):
    ticket_id: str
    player: str
    game: str
    preset: str
    rating: float
    joined_at: int  # unix ms
    position: int = 0  # 1-based among the tickets of the same queue, oldest first
    waiting: int = 0  # tickets in the same queue
    gap: float = 0.0  # rating gap currently accepted
    waited_ms: int = 0


class Left(msgspec.Struct, frozen=True, kw_only=True, tag="left_queue.v1"):
    player: str
    ticket_id: str


class Seated(msgspec.Struct, frozen=True, kw_only=True, tag="seated.v1"):
    """The player's table formed; the gateway creates the match (then ``match_id`` is known)."""

    player: str
    table_id: str
    game: str
    preset: str
    players: tuple[str, ...]
    bots: tuple[int, ...] = ()
    match_id: str = ""


class Idle(msgspec.Struct, frozen=True, kw_only=True, tag="idle.v1"):
    player: str


class Seek(msgspec.Struct, frozen=True, kw_only=True):
    """One public queue with players waiting: joining it (``JoinQueue`` with the same game, preset,
    seats and ranked) seats you with them.  No ticket ids: they are secrets of their owners."""

    game: str
    preset: str
    seats: int
    ranked: bool
    players: tuple[str, ...]  # waiting, oldest first
    waiting: int
    since: int  # unix ms: when the oldest of them joined
    bots_ok: bool = False  # at least one of them accepts computer players after the wait


class Seeks(msgspec.Struct, frozen=True, kw_only=True, tag="seeks.v1"):
    seeks: tuple[Seek, ...] = ()


class OpenTable(msgspec.Struct, frozen=True, kw_only=True):
    """A public table waiting for players: joining it (``JoinQueue`` with the same game, preset,
    seats, ranked and ``invite``) sits you at it.  The code is public by its host's choice; no
    ticket id or seat token is ever listed."""

    game: str
    preset: str
    seats: int
    taken: int  # seats taken (players waiting at it)
    host: str  # the player who opened it (the oldest still waiting)
    players: tuple[str, ...]  # waiting, oldest first
    ranked: bool
    invite: str
    since: int  # unix ms: when the host opened it


class OpenTables(msgspec.Struct, frozen=True, kw_only=True, tag="open_tables.v1"):
    tables: tuple[OpenTable, ...] = ()


MatchmakingReply = Queued | Left | Seated | Idle | Seeks | OpenTables | Rejected

MATCHMAKING_REJECTION_CODES: tuple[str, ...] = (
    "malformed",
    "already_queued",
    "in_match",
    "not_queued",
    "invalid_seats",  # not a seat count matchmaking seats at all (1-8; 2 or more with the computer)
    "unplayable_seats",  # a seat count the preset cannot be played with (a four-seat King preset for 3)
    "unknown_game",
    "not_offered",  # a table helper (Kings Cup) is not in quick match
)

# ------------------------------------------------------------------ stored queue entries
# The value of a player's key in the tickets bucket; the key is ``subjects.ticket_key(player)``.


class Waiting(msgspec.Struct, frozen=True, kw_only=True, tag="mm_waiting.v1"):
    ticket: Ticket


class Forming(msgspec.Struct, frozen=True, kw_only=True, tag="mm_forming.v1"):
    """Claimed for ``table`` (the ticket is kept so an unfinished claim can be undone)."""

    ticket: Ticket
    table: TableFormed


class Playing(msgspec.Struct, frozen=True, kw_only=True, tag="mm_playing.v1"):
    """The table's match was created; the entry is removed when the match finishes."""

    ticket: Ticket
    table: TableFormed
    match_id: str
    seat: str


QueueEntry = Waiting | Forming | Playing


class FormingLease(msgspec.Struct, frozen=True, kw_only=True, tag="mm_lease.v1"):
    """Which matchmaker forms tables until ``until`` (unix ms); the others stand by."""

    owner: str
    until: int


request_decoder: msgspec.json.Decoder[MatchmakingRequest] = msgspec.json.Decoder(MatchmakingRequest)
reply_decoder: msgspec.json.Decoder[MatchmakingReply] = msgspec.json.Decoder(MatchmakingReply)
entry_decoder: msgspec.json.Decoder[QueueEntry] = msgspec.json.Decoder(QueueEntry)
lease_decoder: msgspec.json.Decoder[FormingLease] = msgspec.json.Decoder(FormingLease)
