"""Sending commands to referees over NATS (used by the gateway, the demo, bots and benchmarks)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import uuid
from typing import Any

import msgspec
from nats.aio.client import Client
from nats.errors import NoRespondersError, TimeoutError

from contracts import subjects
from contracts.codecs import decode_reply, encode
from contracts.envelope import Accepted, CommandEnvelope, Rejected
from contracts.match import CreateMatch, SignedTable, TimeControl
from domain.core import match as match_layer
from domain.games import registry


def new_match_id() -> str:
    return secrets.token_hex(8)


def new_token(seat: str) -> str:
    """A seat token names its seat; the referee keeps only its sha256."""
    return f"{seat}.{secrets.token_urlsafe(24)}"


def derived_token(key: bytes, seat: str) -> str:
    """A seat token derived from a secret key (an idempotent creation re-derives the same ones)."""
    mac = hmac.new(key, seat.encode(), hashlib.sha256).digest()[:24]
    return f"{seat}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def token_hash(token: str) -> str:
    """What a match records of a seat token (``MatchCreated.token_hashes``)."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of_token(token: str) -> str | None:
    seat, dot, _ = token.partition(".")
    return seat if dot else None


async def send(
    nc: Client,
    game: str,
    match_id: str,
    command: Any,
    seat: str | None = None,
    token: str = "",
    command_id: str | None = None,
    correlation_id: str = "",
    partitions: int = subjects.DEFAULT_PARTITIONS,
    timeout: float = 10.0,
    await_referee_s: float = 0.0,
) -> Accepted | Rejected:
    env = CommandEnvelope(
        command_id=command_id or uuid.uuid4().hex,
        match_id=match_id,
        game=game,
        correlation_id=correlation_id,
        seat=seat,
        token=token,
        command=command,
    )
    return await send_raw(nc, game, match_id, encode(env), partitions, timeout, await_referee_s)


# A request lost on its way (sent to a referee in the moment it died, before the server saw its
# connection close) would otherwise hold the client for the whole timeout: resend the same bytes
# after this long.  The command id makes the resend harmless: a referee that already decided it
# answers with the first reply (``duplicate: true``).
RESEND_AFTER_S = 2.0
NO_REFEREE_POLL_S = 0.05  # how often a command that found no referee asks again (await_referee_s)


async def send_raw(
    nc: Client,
    game: str,
    match_id: str,
    data: bytes,
    partitions: int = subjects.DEFAULT_PARTITIONS,
    timeout: float = 10.0,
    await_referee_s: float = 0.0,
) -> Accepted | Rejected:
    """Send a command's bytes and wait for the referee's reply, resending the same bytes when no
    reply comes (``RESEND_AFTER_S``).  ``await_referee_s``: while no referee serves the subject (one
    restarting after a crash), ask again for up to that long (within ``timeout``) before
    answering ``unavailable``; 0 answers at once."""
    subject = subjects.command_subject(game, match_id, partitions)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    give_up = min(deadline, loop.time() + await_referee_s)
    while True:
        left = deadline - loop.time()
        try:
            msg = await nc.request(subject, data, timeout=min(RESEND_AFTER_S, left))
        except NoRespondersError:
            if loop.time() + NO_REFEREE_POLL_S < give_up:
                await asyncio.sleep(NO_REFEREE_POLL_S)
                continue
            return Rejected(code="unavailable", detail=f"no referee serves {game!r} right now")
        except TimeoutError:
            if deadline - loop.time() > 0.05:
                continue
            return Rejected(
                code="timeout", detail="the referee did not answer in time; retry with the same command_id"
            )
        return decode_reply(msg.data)


class CreatedMatch(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    game: str
    preset: str
    seats: tuple[str, ...]
    tokens: dict[str, str]  # seat -> token (shown once, to the creator)
    seq: int


async def create_match(
    nc: Client,
    game: str,
    preset: str | None = None,
    overrides: dict[str, Any] | None = None,
    players: tuple[str, ...] | None = None,
    seats: int | None = None,
    ranked: bool = False,
    match_id: str | None = None,
    partitions: int = subjects.DEFAULT_PARTITIONS,
    guests: tuple[str, ...] | None = None,
    token_key: bytes | None = None,
    time_control: dict[str, Any] | TimeControl | None = None,
    await_referee_s: float = 5.0,
    table: SignedTable | None = None,
) -> CreatedMatch | Rejected:
    """Create a match (waiting up to ``await_referee_s`` for a referee to serve its partition, as
    during a referee's restart, before answering ``unavailable``).  ``guests``: the seats whose players presented no credential (all seats
    when None and ``ranked`` is false: a named guest is never rated).  ``token_key`` derives the
    seat tokens from a key instead of at random (an idempotent creation).  ``table``: the signed
    matchmaking table the match is created for; a ranked match needs one (the referee refuses a
    ranked creation without it: ``ranked_needs_matchmaking``)."""
    decider = registry.GAMES.get(game)
    if decider is None:
        return Rejected(
            code="unknown_game", detail=f"unknown game {game!r}; known: {', '.join(sorted(registry.GAMES))}"
        )
    meta = decider
    preset = meta.canonical_preset(preset or meta.default_preset)
    n = seats or (len(players) if players else match_layer.default_seats_of(decider, preset))
    ruleset = match_layer.resolve_ruleset(decider, preset, overrides or {}, n)
    if isinstance(ruleset, Rejected):
        return ruleset
    live = match_layer.live_problem(decider, ruleset)
    if live is not None:
        return live
    seat_names = meta.seat_names(n)
    names = tuple(players) if players else tuple(f"guest-{s}" for s in seat_names)
    if len(names) != n:
        return Rejected(code="invalid_seats", detail=f"{n} seats but {len(names)} players")
    clock = None
    if isinstance(time_control, TimeControl):
        clock = time_control
    elif time_control is not None:
        try:
            clock = msgspec.convert(time_control, TimeControl)
        except msgspec.ValidationError as exc:
            return Rejected(code="invalid_time_control", detail=str(exc))
    problem = match_layer.time_control_problem(clock)
    if problem:
        return Rejected(code="invalid_time_control", detail=problem)
    if clock is not None and not clock.on_timeout:
        # The default is recorded in the match: a casual seat that times out or is abandoned goes
        # to a computer player, a ranked one forfeits.
        clock = msgspec.structs.replace(clock, on_timeout="forfeit" if ranked else "bot")
    tokens = {s: derived_token(token_key, s) if token_key else new_token(s) for s in seat_names}
    command = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=seat_names,
        players=names,
        token_hashes=tuple(token_hash(tokens[s]) for s in seat_names),
        ranked=ranked,
        guests=(() if ranked else seat_names) if guests is None else guests,
        time_control=clock,
        table=table,
    )
    mid = match_id or new_match_id()
    reply = await send(nc, game, mid, command, partitions=partitions, await_referee_s=await_referee_s)
    if isinstance(reply, Rejected):
        return reply
    return CreatedMatch(
        match_id=mid, game=game, preset=preset, seats=seat_names, tokens=tokens, seq=reply.seq
    )
