"""The public API's own messages, as a client reads and sends them (docs/api.md): the error body,
the reply to a match creation, a decision as a viewer sees it, a command's reply, and the
WebSocket frames.  The typed client (``gamehall.client``) decodes with these; the match view is
``contracts.match.MatchView`` and each game's commands and views are in ``contracts.games``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Accepted
from contracts.match import MatchView


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """Every HTTP error answer (4xx and 5xx) and, with ``type: error``, every WebSocket error frame."""

    code: str
    detail: str = ""
    retry_after: float | None = None  # 429 and 503


class SeatToken(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    token: str  # acts for this seat only; shown once


class BotSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat handed to the computer: ``status`` is ``seated``, ``refused`` or ``unavailable``
    (the bots service did not answer; ``detail`` says why), or ``unknown`` on a replayed reply."""

    seat: str
    strength: str
    status: str
    detail: str = ""


class Invite(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    url: str  # a path on the gateway's web page: whoever opens it plays that seat


class MatchCreatedReply(msgspec.Struct, frozen=True, kw_only=True):
    """``201`` of ``POST /api/matches``: the people's seats with their tokens, the computer's seats,
    a share link per person's seat, and where to read and watch the match."""

    match_id: str
    game: str
    preset: str
    seats: tuple[SeatToken, ...]
    bots: tuple[BotSeat, ...] = ()
    invites: tuple[Invite, ...] = ()
    view: str = ""
    websocket: str = ""

    def token(self, seat: str) -> str:
        return next(s.token for s in self.seats if s.seat == seat)


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One stored decision as a viewer sees it: its events redacted for that viewer (each event a
    JSON object with its ``type`` tag, as the game's contract defines it)."""

    seq: int
    seat: str | None = None
    recorded_at: int | None = None
    events: tuple[dict[str, Any], ...] = ()


class CommandRejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected.v1"):
    """A refused command as a WebSocket ``reply`` carries it (the HTTP route answers the same as an
    error body with ``status``)."""

    code: str
    detail: str = ""
    status: int = 409


CommandReply = Accepted | CommandRejected


class EventsFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="events"):
    events: tuple[Decision, ...]


class ViewFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="view"):
    view: MatchView


class ReplyFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="reply"):
    reply: CommandReply
    command_id: str | None = None


class ErrorFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="error"):
    """Sent before the server closes the socket with a 44xx (or 1003/1009/1013) close code."""

    code: str
    detail: str = ""


ServerFrame = EventsFrame | ViewFrame | ReplyFrame | ErrorFrame


class CommandFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="command"):
    """The one message a client sends on the match socket."""

    command: Any
    command_id: str | None = None


# WebSocket close codes after an error frame (docs/api.md "Live updates").
CLOSE_CODES: dict[int, str] = {
    4400: "a frame the server cannot take (malformed, too_deep, too_long, unknown_type)",
    4401: "a token that belongs to no seat of this match (bad_token)",
    4403: "the token names a seat the match does not have (not_a_seat)",
    4404: "no such match (match_not_found)",
    4408: "the socket fell too far behind (slow_consumer)",
    4429: "rate limited or too many sockets from the address (too_many_sockets)",
}

frame_decoder = msgspec.json.Decoder(ServerFrame)
