"""The gateway's state and reads: the connection to NATS, matches folded from their logs (kept,
least recently used first out), views and redacted decisions for a viewer, sending a command
to the referee, audit bundles and replays.  Routes, the command fast path, the lobby and the
WebSocket all work through a ``Gateway``."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from fastapi import Header, Query
from nats.aio.client import Client
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.audit import AuditBundle, StoredEnvelope
from contracts.certificate import SignedCertificate
from contracts.codecs import codec, encode
from contracts.envelope import Accepted, EventEnvelope, Rejected
from domain.core import logwords, seal
from domain.core import match as match_layer
from domain.core.audit import envelope_hash
from domain.core.words import DEFAULT_LANG, LANGS, Lang, as_lang
from domain.games import registry
from services.common import commands
from services.common.certificates import load_certificate
from services.common.natsio import APP_STREAMS, EventStore, Stored, connect, ensure_streams
from services.common.reader import FoldedMatch, SealKeyMissing, UnreadableLog, find_game, load_match
from services.common.settings import Settings
from services.gateway import edge, fanout
from services.gateway.errors import (
    RETRY_AFTER_S,
    Conflict,
    Invalid,
    Malformed,
    NotFound,
    Unauthenticated,
    Unavailable,
    nats_down,
    rejection_error,
)

MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FOLDED_CACHE_SIZE = 2048  # matches kept folded in a gateway's memory
SEAL_KEYS_KEPT = 8192  # seal keys of matches kept in memory (each one read once from GH_SEALS)
# A command that finds no referee (the only one restarting after a crash) waits this long for
# one to subscribe before it is a 503: a restart costs the client a wait, not an error.
AWAIT_REFEREE_S = 5.0


CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=edge.MAX_COMMAND_ID)]


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of POST /api/matches/{id}/commands (documented by ``CommandBody``)."""

    command: dict[str, Any]
    command_id: CommandId | None = None


command_request_decoder = msgspec.json.Decoder(CommandRequest)


def accepted_language(header: str | None) -> Lang:
    """The language of an ``Accept-Language`` header: ``ru`` when the range the client prefers most
    (highest q, the first of equals; ``q=0`` is "not wanted") is Russian (``ru``, ``ru-RU``...),
    else ``en``.  A header that cannot be read is English."""
    best, best_q = DEFAULT_LANG, 0.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > best_q:
            best_q = q
            best = "ru" if tag.strip().lower().split("-")[0] == "ru" else DEFAULT_LANG
    return best


def language(value: str | None, accept: str | None = None) -> Lang:
    """The language of a route that answers in words: its ``lang`` query parameter, ``en`` or
    ``ru`` (anything else is the typed error 422 ``unsupported_language``); without one, the
    request's ``Accept-Language`` (``accepted_language``)."""
    if value is None or value == "":
        return accepted_language(accept)
    found = as_lang(value)
    if found is None:
        raise Invalid("unsupported_language", f"lang must be one of: {', '.join(LANGS)}")
    return found


# The language of a route's sentences and titles (rules help, end reasons, warnings, the catalogue's
# titles): ?lang, else Accept-Language.
LANG_QUERY = Query(
    default=None,
    description="The language of the sentences and titles for people: en or ru; anything else is 422 "
    "unsupported_language. Without it, the Accept-Language header decides (ru... is ru, else en).",
)


def asked_language(
    lang: str | None = LANG_QUERY,
    accept_language: str | None = Header(
        default=None,
        description="Used when ?lang is not given: a Russian first choice (ru, ru-RU) is ru, else en.",
    ),
) -> Lang:
    """The FastAPI dependency of a route that answers in words (``language``)."""
    return language(lang, accept_language)


class Gateway:
    def __init__(self, settings: Settings, nats_url: str) -> None:
        self.settings = settings
        self.nats_url = nats_url
        self.nc: Client | None = None
        self.store: EventStore | None = None
        self._games: dict[str, str] = {}  # match_id -> game
        self._folded: OrderedDict[str, FoldedMatch] = OrderedDict()
        self._refresh_locks: dict[str, asyncio.Lock] = {}
        self._seal_keys: OrderedDict[str, bytes] = OrderedDict()  # match_id -> seal key
        self.internal_url = ""  # set by run(): where the bots service reaches this gateway
        self.limiter = edge.Limiter(settings.gateway.limits())
        self.connections: edge.ConnectionGuard | None = None  # set by run()
        self.idempotency = edge.IdempotencyStore(
            edge.gateway_secret(settings.data_dir), settings.gateway.idempotency_window_s
        )
        # Every WebSocket on a match shares one fold and one consumer (services.gateway.fanout).
        self.hub = fanout.Hub(
            load=lambda match_id: self.load(match_id, private=True),
            follow=self.follow,
            frames=self.frames,
            queue_size=settings.gateway.ws_send_queue,
            per_address=settings.gateway.max_sockets_per_address,
        )

    async def start(self) -> None:
        self.nc = await connect(self.nats_url, "gamehall-gateway", self.settings.nats_credential("gateway"))
        js = self.nc.jetstream()
        await ensure_streams(js, replicas=self.settings.stream_replicas, streams=APP_STREAMS)
        self.store = EventStore(js)

    async def stop(self) -> None:
        await self.hub.stop()
        if self.nc is not None:
            await self.nc.drain()

    def remember(self, match_id: str, game: str) -> None:
        """The game of a match this gateway has just created (no look-up in the log later)."""
        self._games[match_id] = game

    # -------------------------------------------------------------- helpers
    def check_bus(self) -> None:
        """503 now, rather than a wait and a 5xx, while the connection to NATS is down."""
        if self.nc is None or not self.nc.is_connected:
            raise nats_down()

    async def game_of(self, match_id: str) -> str:
        if MATCH_ID.fullmatch(match_id) is None:
            raise Malformed("malformed", "a match id is 1-64 letters, digits, '-' and '_'")
        game = self._games.get(match_id)
        if game is None:
            self.check_bus()
            assert self.store is not None
            game = await find_game(self.store, match_id)
            if game is None:
                raise NotFound("match_not_found", f"no match {match_id!r}")
            self._games[match_id] = game
        return game

    async def load(self, match_id: str, private: bool = False) -> FoldedMatch:
        """The match folded from its log.  Clients poll, so folded matches are kept (LRU) and
        only the decisions stored since are fetched; ``private`` gives a fresh fold that the
        caller may go on applying to (a WebSocket follower).  A log that does not fold is a
        409: its rules version is one this build lacks, or a stored message is not an envelope
        of its game (nothing is cached for it)."""
        try:
            return await self._load(match_id, private)
        except registry.UnknownRulesVersion as exc:
            raise Conflict("unknown_rules_version", exc.detail) from exc
        except UnreadableLog as exc:
            raise Conflict("unreadable_match", str(exc)) from exc
        except SealKeyMissing as exc:
            raise Unavailable("unavailable", str(exc), RETRY_AFTER_S) from exc

    async def seal_key(self, game: str, match_id: str) -> bytes | None:
        """The match's seal key (domain/core/seal.py), read once from GH_SEALS, where the referee
        stores it before the match exists; None when none is stored (a public game, a match from
        before sealing)."""
        key = self._seal_keys.get(match_id)
        if key is not None:
            return key
        assert self.nc is not None
        try:
            msg = await self.nc.jetstream().get_last_msg(
                subjects.SEAL_STREAM, subjects.seal_subject(game, match_id)
            )
        except NotFoundError:
            return None
        try:
            key = bytes.fromhex((msg.data or b"").decode())
        except ValueError as exc:
            raise UnreadableLog(f"the seal key stored for match {match_id!r} is not hex") from exc
        self._seal_keys[match_id] = key
        while len(self._seal_keys) > SEAL_KEYS_KEPT:
            self._seal_keys.popitem(last=False)
        return key

    async def _load(self, match_id: str, private: bool) -> FoldedMatch:
        assert self.store is not None
        game = await self.game_of(match_id)
        self.check_bus()
        if private:
            # a follower folds every later decision too: its key now, whatever is stored yet
            key = await self.seal_key(game, match_id) if registry.get(game).hidden_info else None
            folded = await load_match(self.store, match_id, game, seal_key=key, public=False)
            if folded is None or folded.state is None:
                raise NotFound("match_not_found", f"no match {match_id!r}")
            return folded
        lock = self._refresh_locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            subject = subjects.match_subject(game, match_id)
            last = await self.store.last_seq(subjects.MATCH_STREAM, subject)
            folded = self._folded.get(match_id)
            if folded is None:
                folded = FoldedMatch(match_id=match_id, game=game)
            items = await self.store.load(subject, after=folded.last_stream_seq, last=last)
            envelopes = [folded.decode(item) for item in items]
            if folded.seal_key is None and any(e.sealed for e in envelopes):
                folded.seal_key = await self.seal_key(game, match_id) or seal.revealed_key(envelopes)
            for item, envelope in zip(items, envelopes, strict=True):
                folded.apply(item, envelope)
            if folded.state is None:
                raise NotFound("match_not_found", f"no match {match_id!r}")
            self._folded[match_id] = folded
            self._folded.move_to_end(match_id)
            while len(self._folded) > FOLDED_CACHE_SIZE:
                evicted, _ = self._folded.popitem(last=False)
                self._refresh_locks.pop(evicted, None)
        return folded

    @staticmethod
    def viewer(folded: FoldedMatch, token: str | None) -> str | None:
        """The seat a token acts for; None (spectator) without a token; 401 for a bad one."""
        if not token:
            return None
        state = folded.state
        assert state is not None
        seat = commands.seat_of_token(token)
        seats = state.created.seats
        if (
            seat is None
            or seat not in seats
            or match_layer.seat_token_hash(state, seat) != commands.token_hash(token)
        ):
            raise Unauthenticated("bad_token", "the token does not belong to any seat of this match")
        return seat

    @staticmethod
    def render(folded: FoldedMatch, seat: str | None, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
        game = folded.decider
        assert folded.state is not None
        view = match_layer.view(game, folded.state, seat, folded.match_id, folded.seq, lang)
        return msgspec.to_builtins(view)  # type: ignore[no-any-return]

    @classmethod
    def frames(
        cls, folded: FoldedMatch, seat: str | None, since: int, lang: Lang = DEFAULT_LANG
    ) -> list[str]:
        """The texts a socket of ``seat`` gets for the decisions after ``since``: events, then the
        view (its sentences, the events' lines and the moves' labels in ``lang``)."""
        return [
            encode({"type": "events", "events": cls.events_for(folded, seat, since, lang)}).decode(),
            encode({"type": "view", "view": cls.render(folded, seat, lang)}).decode(),
        ]

    @staticmethod
    def events_for(
        folded: FoldedMatch, seat: str | None, since: int = 0, lang: Lang = DEFAULT_LANG
    ) -> list[dict[str, Any]]:
        game = folded.decider
        return [
            decision_for(game, env, seat, before, lang)
            for env, before in zip(folded.envelopes, folded.befores, strict=True)
            if env.seq > since
        ]

    async def send(self, match_id: str, token: str | None, body: CommandRequest) -> Accepted:
        if not token:
            raise Unauthenticated("bad_token", "send the seat token as 'Authorization: Bearer <token>'")
        game = await self.game_of(match_id)
        found = edge.shape_problem(body.command)
        if found:
            raise Malformed(*found)
        command = codec(game).decode_inner_command(body.command)
        if isinstance(command, Rejected):
            raise Malformed("malformed", command.detail)
        seat = commands.seat_of_token(token)
        if seat is None:
            raise Unauthenticated("bad_token", "not a seat token")
        self.check_bus()
        assert self.nc is not None
        reply = await commands.send(
            self.nc,
            game,
            match_id,
            command,
            seat=seat,
            token=token,
            command_id=body.command_id,
            partitions=self.settings.partitions,
            await_referee_s=AWAIT_REFEREE_S,
        )
        if isinstance(reply, Rejected):
            raise rejection_error(reply)
        return reply

    async def bundle(self, match_id: str) -> AuditBundle:
        folded = await self.load(match_id)
        assert self.nc is not None
        certificate = (
            await load_certificate(self.nc.jetstream(), folded.game, match_id) if folded.finished else None
        )
        return make_bundle(folded, certificate)

    async def follow(self, folded: FoldedMatch) -> AsyncIterator[Stored]:
        """New envelopes of a match as they are stored (ordered consumer from the next sequence).
        Sockets do not call this themselves: the hub follows each watched match once."""
        assert self.nc is not None
        js = self.nc.jetstream()
        sub = await js.subscribe(
            subjects.match_subject(folded.game, folded.match_id),
            stream=subjects.MATCH_STREAM,
            ordered_consumer=True,
            config=ConsumerConfig(
                deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=folded.last_stream_seq + 1
            ),
        )
        try:
            async for msg in sub.messages:
                if folded.seal_key is None and folded.decider.hidden_info and seal.is_sealed_data(msg.data):
                    folded.seal_key = await self.seal_key(folded.game, folded.match_id)
                yield Stored(stream_seq=msg.metadata.sequence.stream, data=msg.data)
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()


def decision_for(
    game: Any,
    env: EventEnvelope[Any],
    seat: str | None,
    before: match_layer.MatchState | None = None,
    lang: Lang = DEFAULT_LANG,
) -> dict[str, Any]:
    """One stored decision as a client sees it: its events redacted for ``seat`` and, beside them,
    each event's line of the log in ``lang`` as ``seat`` may see it (``texts``, "" for an event
    without a line; ``before``: the match state before the decision)."""
    shown = (match_layer.redact(game, e, seat) for e in env.events)
    texts = logwords.decision_texts(game, before, env.events, seat, lang)
    return {
        "seq": env.seq,
        "seat": env.seat,
        "recorded_at": env.recorded_at,
        "events": [msgspec.to_builtins(e) for e in shown if e is not None],
        "texts": [t or "" for t in texts],
    }


def make_bundle(folded: FoldedMatch, certificate: SignedCertificate | None = None) -> AuditBundle:
    game = folded.decider
    if game.hidden_info and not folded.finished:
        raise Conflict("match_running", "a match with hidden cards can be exported once it is over")
    return AuditBundle(
        match_id=folded.match_id,
        game=folded.game,
        rules_version=folded.envelopes[0].rules_version,
        exported_at=time.time_ns() // 1_000_000,
        head_hash=envelope_hash(folded.stored[-1].data),
        envelopes=tuple(StoredEnvelope(stream_seq=s.stream_seq, data=s.data.decode()) for s in folded.stored),
        certificate=certificate,
    )


def replay_frames(folded: FoldedMatch, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The match decision by decision as a spectator would have seen it (for the replay viewer),
    each view with its sentences in ``lang``."""
    game = folded.decider
    state: match_layer.MatchState | None = None
    frames = []
    for env in folded.envelopes:
        before = state
        for event in env.events:
            state = match_layer.evolve(game, state, event, None)
        assert state is not None
        state = match_layer.clock_after(game, before, state, env.seat, env.events, env.recorded_at)
        frame = decision_for(game, env, None, before, lang)
        frame["view"] = msgspec.to_builtins(
            match_layer.view(game, state, None, folded.match_id, env.seq, lang)
        )
        frames.append(frame)
    return {"match_id": folded.match_id, "game": folded.game, "frames": frames}
