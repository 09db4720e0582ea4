"""Computer players: seats handed to the bots service (NATS request/reply on ``subjects.BOTS_ASSIGN``).

Whoever seats a computer player (the gateway for a table against the computer, matchmaking for a
table filled with bots) sends one ``BotSeatAssigned`` per bot seat.  The message carries the seat
token, so it travels by core NATS request/reply and is never stored on a stream.  The bots service
answers ``BotSeatTaken`` once a player for the seat is running, or ``Rejected``.
"""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected


class BotSeatAssigned(msgspec.Struct, frozen=True, kw_only=True, tag="bot_seat_assigned.v1"):
    match_id: str
    game: str
    seat: str
    token: str  # the seat token; the bot plays through the public API with it
    strength: str  # a name of the game's Decider.bots (e.g. "random", "greedy", "search")
    think_ms: int | None = None  # pause before each move; None: the service's default
    gateway_url: str = ""  # where the public API answers; "" or unreachable: the service's own setting


class BotSeatTaken(msgspec.Struct, frozen=True, kw_only=True, tag="bot_seat_taken.v1"):
    match_id: str
    seat: str
    strength: str


BotsReply = BotSeatTaken | Rejected

BOTS_REJECTION_CODES: tuple[str, ...] = ("malformed", "unknown_game", "unknown_strength")

assign_decoder: msgspec.json.Decoder[BotSeatAssigned] = msgspec.json.Decoder(BotSeatAssigned)
reply_decoder: msgspec.json.Decoder[BotsReply] = msgspec.json.Decoder(BotsReply)
