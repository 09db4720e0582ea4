"""Computer players at a table: checking the seats and strengths asked for, and handing a seat
to the bots service (``contracts.bots``, NATS ``bots.assign``; its token never leaves the backend)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contracts import subjects
from contracts.bots import BotSeatAssigned
from contracts.bots import reply_decoder as bots_reply_decoder
from contracts.codecs import encode
from contracts.envelope import Rejected
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands, logs
from services.gateway.core import Gateway

log = logs.get("gateway")


def bot_seats_problem(
    game_name: str, preset: str | None, seats: int | None, players: list[str] | None, bots: Mapping[str, str]
) -> str | None:
    """Why the requested computer seats (seat -> strength) cannot be honoured, or None."""
    if not bots:
        return None
    game = registry.GAMES.get(game_name)
    if game is None:
        return None  # create_match names the unknown game
    meta = game
    n = seats or (len(players) if players else match_layer.default_seats_of(game, preset))
    if not meta.min_seats <= n <= meta.max_seats:
        return None  # create_match names the seat count problem
    seats = meta.seat_names(n)
    strengths = list(game.bots or {})  # the game's declared order, weakest first
    for seat, strength in bots.items():
        if seat not in seats:
            return f"no seat {seat!r}; seats are {', '.join(seats)}"
        if strength not in strengths:
            return f"{game_name} computer players: {', '.join(strengths)}; got {strength!r}"
    return None


async def assign_bot(
    gw: Gateway, created: commands.CreatedMatch, seat: str, strength: str, think_ms: int | None, url: str
) -> dict[str, Any]:
    """Hand a seat to the bots service (its token never leaves the backend)."""
    assert gw.nc is not None
    assignment = BotSeatAssigned(
        match_id=created.match_id,
        game=created.game,
        seat=seat,
        token=created.tokens[seat],
        strength=strength,
        think_ms=think_ms,
        gateway_url=url,
    )
    try:
        msg = await gw.nc.request(subjects.BOTS_ASSIGN, encode(assignment), timeout=5.0)
        reply = bots_reply_decoder.decode(msg.data)
    except Exception as exc:  # no bots service, a timeout or a garbled reply: say so, keep the match
        log.warning("bot_assign_failed", match_id=created.match_id, seat=seat, error=repr(exc))
        return {"seat": seat, "strength": strength, "status": "unavailable", "detail": str(exc) or repr(exc)}
    if isinstance(reply, Rejected):
        return {"seat": seat, "strength": strength, "status": "refused", "detail": reply.detail}
    return {"seat": seat, "strength": strength, "status": "seated"}
