"""The referee: validates commands with the pure rules, appends decisions, replies.

Hot path (ARCHITECTURE §6 "The hot path"): commands arrive by NATS request/reply on the
referee's partition subjects; the subscription callback hands each message to a task (never
awaiting the append inside the callback), a per-match lock keeps one match's commands in
order, and live match state stays in memory.  The log is reloaded only on a cache miss or
an append conflict.  This path uses the nats-py connection directly: measured as a
subscriber, faststream cost ~10x the CPU per message (see docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import APIError, NotFoundError

from contracts import subjects
from contracts.bots import BotSeatAssigned
from contracts.certificate import MatchCertificate
from contracts.codecs import codec, encode
from contracts.envelope import Accepted, CommandEnvelope, EventEnvelope, Rejected
from contracts.integration import MatchFinished, MatchStarted
from contracts.match import ClaimAbandon, ClaimTimeout, CreateMatch, ExpireIdle, MatchCreated, MatchEnded
from domain.core import match as match_layer
from domain.core import seal
from domain.core.audit import envelope_hash, genesis_hash
from domain.core.matchlog import Folded, fold_envelope
from domain.core.rng import commitment
from domain.games import registry
from domain.matchmaking import provenance
from services.common import certificates, metrics
from services.common.certificates import KeyRing
from services.common.commands import new_token, token_hash
from services.common.natsio import WRONG_LAST_SEQUENCE, AppendConflict, EventStore

log = structlog.get_logger("referee")

MAX_CONFLICT_RETRIES = 5
# Rejections that no newer decision in the log could turn into an acceptance: no need to look.
STATELESS_REJECTIONS = frozenset({"bad_token", "not_a_seat", "malformed", "match_exists"})
# Commands only the referee issues, stamped with its own clock (``at``).
PLATFORM_COMMANDS = (ExpireIdle, ClaimTimeout, ClaimAbandon)
BOT_ASSIGN_TIMEOUT_S = 5.0


@dataclass
class Live:
    """A match held in memory."""

    game: str
    # The rules version the match was recorded under (None: a new match, the game's current rules).
    rules_version: str | None = None
    state: match_layer.MatchState | None = None
    seq: int = 0  # decisions stored (envelope seq of the last one)
    last_stream_seq: int = 0
    last_hash: str = ""
    last_recorded_at: int = 0  # recorded_at of the last stored decision (unix ms): idle expiry
    server_seed: bytes | None = None
    # Derived from the server seed for a game with hidden information: seals what the public may
    # not see of each decision (domain/core/seal.py); None for a public game.
    seal_key: bytes | None = None
    seal_key_stored: bool = False  # known to be on GH_SEALS (stored by this referee, or looked up)
    # (seat, command_id) -> (envelope seq, events) so that a seat's retry gets the first reply.
    # Command ids are scoped to (match, seat): another seat's id is a new command for this seat.
    decided: dict[tuple[str | None, str], tuple[int, tuple[Any, ...]]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def dedupe_id(match_id: str, seat: str | None, command_id: str) -> str:
    """The JetStream ``Nats-Msg-Id`` of a decision: command ids are scoped to (match, seat)."""
    return f"{match_id}:{seat or ''}:{command_id}"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _no_trusted_key(table: Any) -> str:
    return "this referee trusts no table key (GAMEHALL_MATCHMAKING_KEYS, GAMEHALL_TOURNAMENT_KEYS)"


class Referee:
    def __init__(
        self,
        nc: Client,
        js: JetStreamContext,
        partitions: int = subjects.DEFAULT_PARTITIONS,
        owned: tuple[int, ...] | None = None,
        games: tuple[str, ...] | None = None,
        name: str = "referee",
        secrets_js: JetStreamContext | None = None,
        keys: KeyRing | None = None,
        table_check: provenance.TableCheck | None = None,
    ) -> None:
        self.nc = nc
        # Verifies the signature of a ranked creation's table, matchmaking's or a rated
        # tournament's (services.common.tablekeys.TableTrust.check); None trusts no key.
        self.table_check = table_check or _no_trusted_key
        # Signs a certificate of every match that ends (None: no certificates, e.g. in tests).
        self.keys = keys
        self._published_keys: set[str] = set()
        self._keys_stamp: tuple[int, int] | None = None  # the key ring's public file when last published
        self.js = js
        # GH_SECRETS (server seeds) lives in its own NATS account when the server has users
        # (services.common.natsauth): the referee reaches it on a second connection.
        self.secrets_js = secrets_js or js
        self.store = EventStore(js)
        self.partitions = partitions
        self.owned = owned  # None: every partition
        self.games = games or tuple(registry.GAMES)
        self.name = name
        self.matches: dict[str, Live] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._subs: list[Any] = []
        self._counters: dict[tuple[str, str, str], Any] = {}
        self._latency: dict[str, Any] = {}
        # Handed-over seats whose assignment no bots service answered yet: (game, match_id, seat).
        self._unassigned: set[tuple[str, str, str]] = set()

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        parts: tuple[int | str, ...] = self.owned if self.owned is not None else ("*",)
        for game in self.games:
            for part in parts:
                sub = await self.nc.subscribe(
                    subjects.command_subscription(game, part), queue=subjects.REFEREE_QUEUE, cb=self._on_msg
                )
                self._subs.append(sub)
        await self.nc.flush()

    @property
    def subscribed(self) -> bool:
        return bool(self._subs) and self.nc.is_connected

    async def stop(self) -> None:
        for sub in self._subs:
            await sub.unsubscribe()
        self._subs.clear()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _on_msg(self, msg: Msg) -> None:
        task = asyncio.create_task(self._handle(msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ handling
    async def _handle(self, msg: Msg) -> None:
        started = time.perf_counter()
        game = subjects.game_from_subject(msg.subject)
        reply = await self.handle_bytes(game, subjects.match_id_from_subject(msg.subject), msg.data)
        if msg.reply:
            await self.nc.publish(msg.reply, encode(reply))
        histogram = self._latency.get(game)
        if histogram is None:
            histogram = self._latency[game] = metrics.COMMAND_LATENCY.labels(game)
        histogram.observe(time.perf_counter() - started)

    async def handle_bytes(self, game: str, match_id: str, data: bytes) -> Accepted | Rejected:
        if game not in registry.GAMES:
            return self._count(game, Rejected(code="unknown_game", detail=f"unknown game {game!r}"))
        env = codec(game).decode_command(data)
        if isinstance(env, Rejected):
            return self._count(game, env)
        if env.match_id != match_id:
            return self._count(game, Rejected(code="malformed", detail="match_id does not match the subject"))
        if isinstance(env.command, PLATFORM_COMMANDS):
            # Abandonment and timeouts are the referee's own, on its own clock: never a client's command.
            tag = env.command.__struct_config__.tag
            return self._count(
                game, Rejected(code="not_a_seat", detail=f"{tag} is issued by the referee only")
            )
        try:
            reply = await self.handle(env)
        except Exception:
            log.exception(
                "command_failed",
                match_id=match_id,
                command_id=env.command_id,
                correlation_id=env.correlation_id,
            )
            raise
        return self._count(game, reply)

    def _count(self, game: str, reply: Accepted | Rejected) -> Accepted | Rejected:
        # Label children are cached: labels() costs more than the increment on this path.
        key = (
            (game, "rejected", reply.code)
            if isinstance(reply, Rejected)
            else (game, "duplicate" if reply.duplicate else "accepted", "")
        )
        counter = self._counters.get(key)
        if counter is None:
            counter = self._counters[key] = metrics.COMMANDS.labels(*key)
        counter.inc()
        return reply

    async def handle(self, env: CommandEnvelope[Any]) -> Accepted | Rejected:
        try:
            return await self._handle_command(env)
        except registry.UnknownRulesVersion as exc:
            # never decided (nor folded) with other rules than the match was recorded under
            return Rejected(code="unknown_rules_version", detail=exc.detail)
        except seal.SealError as exc:
            # a stored sealed decision that does not open (its seed lost, or changed bytes)
            log.error("sealed_decision_unreadable", match_id=env.match_id, error=str(exc))
            return Rejected(code=exc.code, detail=str(exc))

    async def _handle_command(self, env: CommandEnvelope[Any]) -> Accepted | Rejected:
        from_log = env.match_id not in self.matches  # True once this call has read the log
        live = await self._live(env.game, env.match_id)
        async with live.lock:
            for _attempt in range(MAX_CONFLICT_RETRIES):
                if live.state is None and not isinstance(env.command, CreateMatch):
                    live = await self._reload(env.game, env.match_id)
                    from_log = True
                    if live.state is None:
                        return Rejected(code="match_not_found", detail=f"no match {env.match_id!r}")
                try:
                    reply = await self._decide_and_append(live, env)
                except AppendConflict:
                    metrics.APPEND_CONFLICTS.labels(env.game).inc()
                    log.info("append_conflict", match_id=env.match_id, command_id=env.command_id)
                    await self._refresh(live, env)
                    from_log = True
                    continue
                if isinstance(reply, Rejected) and not from_log and await self._behind(live, env, reply):
                    # Another referee stored decisions this one has not seen; a rejection never
                    # appends, so no conflict would have said so: decide again on the log.
                    metrics.STALE_REJECTIONS_AVOIDED.labels(env.game).inc()
                    await self._refresh(live, env)
                    from_log = True
                    continue
                return reply
            return Rejected(code="busy", detail="too many concurrent decisions on this match; retry")

    async def _behind(self, live: Live, env: CommandEnvelope[Any], reply: Rejected) -> bool:
        """Whether the log holds decisions newer than this referee's memory of the match."""
        if reply.code in STATELESS_REJECTIONS:
            return False
        last = await self.store.last_seq(subjects.MATCH_STREAM, subjects.match_subject(env.game, env.match_id))
        return last != live.last_stream_seq

    async def _refresh(self, live: Live, env: CommandEnvelope[Any]) -> None:
        fresh = await self._reload(env.game, env.match_id)
        # carry on under the old lock object: it is the one this task holds
        live.state, live.seq, live.last_stream_seq = fresh.state, fresh.seq, fresh.last_stream_seq
        live.rules_version = fresh.rules_version
        live.last_hash, live.server_seed, live.decided = fresh.last_hash, fresh.server_seed, fresh.decided
        live.seal_key, live.seal_key_stored = fresh.seal_key, fresh.seal_key_stored
        live.last_recorded_at = fresh.last_recorded_at
        self.matches[env.match_id] = live

    async def _decide_and_append(self, live: Live, env: CommandEnvelope[Any]) -> Accepted | Rejected:
        game = registry.get(env.game, live.rules_version)
        command = env.command
        seat = env.seat
        if isinstance(command, (CreateMatch, *PLATFORM_COMMANDS)):
            seat = None  # the platform's own decisions (ExpireIdle, ClaimTimeout, ClaimAbandon: only from this referee)
        else:
            # The token first: a known command id never stands in for it (issue 9, finding 2).
            assert live.state is not None
            problem = self._authorize(live.state, env)
            if problem is not None:
                return problem
        seen = live.decided.get((seat, env.command_id))
        if seen is not None:
            # Answered only to the seat that sent it, redacted for that seat.
            seq, events = seen
            return self._accepted(live, env, seat, seq, events, duplicate=True)
        if isinstance(command, CreateMatch):
            if live.state is not None:
                return Rejected(code="match_exists", detail=f"match {env.match_id!r} exists")
            # Only signed tables make ranked matches: before anything is drawn or stored.
            refused = match_layer.live_creation_problem(game, command) or provenance.creation_problem(
                game, env.match_id, command, self.table_check, now_ms()
            )
            if refused is not None:
                log.warning("creation_refused", match_id=env.match_id, code=refused.code, detail=refused.detail)
                return refused
            if game.chance:
                # A creation retried after its seed was stored (and never appended) keeps that seed,
                # so the seed and the seal key stored once are the match's.
                live.server_seed = await self._stored_seed(env.game, env.match_id) or secrets.token_bytes(32)
                command = msgspec.structs.replace(command, seed_commitment=commitment(live.server_seed))
        at = command.at if isinstance(command, PLATFORM_COMMANDS) else now_ms()
        outcome = match_layer.decide_and_evolve(game, live.state, seat, command, live.server_seed, at)
        if isinstance(outcome, Rejected):
            return outcome
        decided, state = outcome
        if isinstance(command, CreateMatch) and live.server_seed is not None:
            await self._store_seed(env.game, env.match_id, live.server_seed)
            if game.hidden_info:
                # stored before the match exists: a gateway that finds the match finds its key
                live.seal_key = seal.seal_key(live.server_seed)
                await self._store_seal_key(env.game, env.match_id, live.seal_key)
                live.seal_key_stored = True
        envelope = EventEnvelope(
            match_id=env.match_id,
            game=env.game,
            rules_version=game.rules_version,
            seq=live.seq + 1,
            command_id=env.command_id,
            correlation_id=env.correlation_id or env.command_id,
            recorded_at=at,
            prev_hash=live.last_hash or genesis_hash(env.match_id),
            seat=seat,
            command=msgspec.to_builtins(command),
            events=decided,
        )
        if live.seal_key is not None:
            envelope = seal.seal_envelope(game, envelope, live.seal_key)
        elif seal.hides_something(game, envelope.events):
            # never in the clear: without the seed (lost) there is no key to seal with
            log.error("seal_key_unavailable", match_id=env.match_id, command_id=env.command_id)
            return Rejected(code="unavailable", detail=f"the seal key of match {env.match_id!r} is not available")
        data = encode(envelope)
        appended = await self.store.append(
            subjects.match_subject(env.game, env.match_id),
            data,
            live.last_stream_seq,
            dedupe_id(env.match_id, seat, env.command_id),
        )
        if appended.duplicate:
            # Stored earlier by another referee under the same command id: answer from the log.
            raise AppendConflict("duplicate command id stored by another referee")
        live.state = state
        live.seq = envelope.seq
        live.last_stream_seq = appended.stream_seq
        live.last_hash = envelope_hash(data)
        live.last_recorded_at = envelope.recorded_at
        live.decided[(seat, env.command_id)] = (envelope.seq, decided)
        if isinstance(command, CreateMatch):
            metrics.ACTIVE_MATCHES.labels(env.game).set(len(self.matches))
            log.info(
                "match_created",
                match_id=env.match_id,
                command_id=env.command_id,
                game=env.game,
                correlation_id=envelope.correlation_id,
            )
            await self._publish_started(env.match_id, live)
        if state is not None and state.outcome is not None:
            metrics.MATCHES_FINISHED.labels(env.game).inc()
            # A finished match leaves memory; a late retry reloads it and is answered from the log.
            self.matches.pop(env.match_id, None)
            metrics.ACTIVE_MATCHES.labels(env.game).set(len(self.matches))
            log.info(
                "match_finished",
                match_id=env.match_id,
                command_id=env.command_id,
                game=env.game,
                reason=state.outcome.reason,
                decisions=envelope.seq,
            )
            await self._publish_finished(env.match_id, live)
        return self._accepted(live, env, seat, envelope.seq, decided, duplicate=False)

    def _authorize(self, state: match_layer.MatchState, env: CommandEnvelope[Any]) -> Rejected | None:
        seats = state.created.seats
        if env.seat is None or env.seat not in seats:
            return Rejected(code="not_a_seat", detail=f"seat must be one of {list(seats)}")
        expected = match_layer.seat_token_hash(state, env.seat)
        if not env.token or not secrets.compare_digest(token_hash(env.token), expected):
            return Rejected(code="bad_token", detail=f"the token does not belong to seat {env.seat!r}")
        return None

    def _accepted(
        self,
        live: Live,
        env: CommandEnvelope[Any],
        seat: str | None,
        seq: int,
        events: tuple[Any, ...],
        duplicate: bool,
    ) -> Accepted:
        game = registry.get(env.game, live.rules_version)
        visible = []
        for event in events:
            shown = match_layer.redact(game, event, seat)
            if shown is not None:
                visible.append(msgspec.to_builtins(shown))
        finished = live.state is not None and live.state.outcome is not None
        return Accepted(
            match_id=env.match_id,
            seq=seq,
            command_id=env.command_id,
            duplicate=duplicate,
            events=tuple(visible),
            finished=finished,
        )

    # ------------------------------------------------------------ loading
    async def _live(self, game: str, match_id: str) -> Live:
        live = self.matches.get(match_id)
        if live is None:
            live = await self._reload(game, match_id)
        return live

    async def _reload(self, game_name: str, match_id: str) -> Live:
        metrics.MATCH_RELOADS.labels(game_name).inc()
        stored = await self.store.load(subjects.match_subject(game_name, match_id))
        live = self.matches.get(match_id) or Live(game=game_name)
        fresh = Live(game=game_name, lock=live.lock, seal_key_stored=live.seal_key_stored)
        if stored:
            cdc = codec(game_name)
            first = cdc.decode_envelope(stored[0].data)
            # Folded and decided on with the rules version it was recorded under.
            fresh.rules_version = first.rules_version
            created = first.events[0]
            if isinstance(created, MatchCreated) and created.seed_commitment:
                fresh.server_seed = await self._load_seed(game_name, match_id)
            game = registry.get(game_name, fresh.rules_version)
            if game.hidden_info and fresh.server_seed is not None:
                fresh.seal_key = seal.seal_key(fresh.server_seed)
            folded = Folded()
            for item in stored:
                envelope = seal.open_envelope(cdc.decode_envelope(item.data), fresh.seal_key)
                folded = fold_envelope(game, folded, envelope, fresh.server_seed)
                fresh.decided[(envelope.seat, envelope.command_id)] = (envelope.seq, envelope.events)
                fresh.last_stream_seq = item.stream_seq
                fresh.last_hash = envelope_hash(item.data)
                fresh.last_recorded_at = envelope.recorded_at
            fresh.state, fresh.seq = folded.state, folded.seq
            if fresh.state is not None and fresh.state.outcome is not None:
                # The finish notice may have been lost in a crash after the append: republish (deduped).
                await self._publish_finished(match_id, fresh)
            elif fresh.seal_key is not None and not fresh.seal_key_stored:
                if not await self._seal_key_stored(game_name, match_id):
                    # a match created before its key was kept (or whose key was lost): the gateway
                    # needs it before the next sealed decision is stored
                    await self._store_seal_key(game_name, match_id, fresh.seal_key)
                fresh.seal_key_stored = True
        self.matches[match_id] = fresh
        return fresh

    # ------------------------------------------------------------ idle matches
    async def expire_idle(self, game: str, match_id: str, limit_ms: int) -> Accepted | Rejected | None:
        """End the match as abandoned when it has had no decision for ``limit_ms`` (docs/audit.md
        "Abandoned matches"): a platform command ``ExpireIdle`` stamped with this referee's clock
        and the last decision's ``recorded_at``, decided by the match layer and stored like any
        decision.  None when the match is over, unknown or not idle long enough."""
        live = await self._live(game, match_id)
        async with live.lock:
            state = live.state
            at = now_ms()
            if state is None or state.outcome is not None or at - live.last_recorded_at < limit_ms:
                return None
            env = CommandEnvelope(
                command_id=f"expire-idle:{live.seq}",
                match_id=match_id,
                game=game,
                command=ExpireIdle(last_decision_at=live.last_recorded_at, at=at, limit_ms=limit_ms),
            )
            try:
                reply = await self._decide_and_append(live, env)
            except AppendConflict:  # a decision arrived meanwhile: the match is not idle
                await self._refresh(live, env)
                return None
        if isinstance(reply, Accepted):
            metrics.MATCHES_EXPIRED.labels(game).inc()
            log.info("match_expired", match_id=match_id, game=game, idle_ms=at - env.command.last_decision_at)
        return reply

    # ------------------------------------------------------------ clocks
    async def claim_timeout(self, game: str, match_id: str, seat: str) -> Accepted | Rejected | None:
        """Issue ``seat``'s timeout when its deadline (from the log's stamps) has passed: the
        platform command ``ClaimTimeout``, decided by the match layer.  Its command id is derived
        from match, seat and deadline, so however often it is tried (a restart, two referees),
        one deadline times out once.  None when nothing is due."""
        return await self._claim(game, match_id, seat, abandon=False)

    async def claim_abandon(self, game: str, match_id: str, seat: str) -> Accepted | Rejected | None:
        """Issue ``seat``'s abandonment when it has been to move for the match's ``grace_s``
        without a command of its own (docs/architecture.md "Abandonment"): ``ClaimAbandon``,
        idempotent by deadline like a timeout (command id ``abandon:<seat>:<deadline>``)."""
        return await self._claim(game, match_id, seat, abandon=True)

    async def _claim(self, game: str, match_id: str, seat: str, abandon: bool) -> Accepted | Rejected | None:
        live = await self._live(game, match_id)
        async with live.lock:
            state = live.state
            if state is None:
                return None
            due = match_layer.abandon_deadline(state, seat) if abandon else match_layer.deadline(state, seat)
            at = now_ms()
            if due is None or at < due:
                return None
            token = (
                await self._bot_token(game, match_id, seat) if match_layer.hands_to_bot(state, seat) else ""
            )
            hashed = token_hash(token) if token else ""
            command: ClaimTimeout | ClaimAbandon
            if abandon:
                command = ClaimAbandon(seat=seat, deadline=due, at=at, bot_token_hash=hashed)
            else:
                command = ClaimTimeout(seat=seat, deadline=due, at=at, bot_token_hash=hashed)
            env = CommandEnvelope(
                command_id=f"{'abandon' if abandon else 'timeout'}:{seat}:{due}",
                match_id=match_id,
                game=game,
                command=command,
            )
            try:
                reply = await self._decide_and_append(live, env)
            except AppendConflict:  # a decision (or the same claim) was stored meanwhile
                await self._refresh(live, env)
                return None
        if isinstance(reply, Accepted) and not reply.duplicate:
            if abandon:
                metrics.ABANDONED_SEATS.labels(game).inc()
            else:
                metrics.TIMEOUTS.labels(game).inc()
            log.info(
                "seat_abandoned" if abandon else "timeout",
                match_id=match_id,
                game=game,
                seat=seat,
                deadline=due,
                late_ms=at - due,
                to_bot=bool(token),
            )
            if token:
                await self._assign_bot(game, match_id, seat, token)
        return reply

    # ------------------------------------------------------------ seats handed to computer players
    def _bot_subject(self, game: str, match_id: str, seat: str) -> str:
        return f"{subjects.secret_subject(game, match_id)}.bot.{seat}"

    async def _stored_bot_token(self, game: str, match_id: str, seat: str) -> str | None:
        try:
            msg = await self.secrets_js.get_last_msg(
                subjects.SECRET_STREAM, self._bot_subject(game, match_id, seat)
            )
        except Exception:  # noqa: BLE001 - none stored (or NATS away): the caller decides
            return None
        return (msg.data or b"").decode() or None

    async def _bot_token(self, game: str, match_id: str, seat: str) -> str:
        """The token of the computer player that takes ``seat`` over, kept with the server seeds
        (referee only) before the handover is decided: a seat is handed over once, so a claim
        retried after a crash finds and reuses the token stored the first time."""
        stored = await self._stored_bot_token(game, match_id, seat)
        if stored:
            return stored
        token = new_token(seat)
        await self.secrets_js.publish(self._bot_subject(game, match_id, seat), token.encode())
        return token

    async def _assign_bot(self, game: str, match_id: str, seat: str, token: str) -> bool:
        """Ask the bots service to play ``seat`` with ``token`` (it answers once a player runs; it
        keeps its seats on disk, and a repeated assignment of a running seat changes nothing)."""
        assignment = BotSeatAssigned(
            match_id=match_id, game=game, seat=seat, token=token, strength=registry.get(game).default_bot
        )
        try:
            await self.nc.request(subjects.BOTS_ASSIGN, encode(assignment), timeout=BOT_ASSIGN_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - no bots service now: tried again by the timer
            log.warning("bot_handover_unassigned", match_id=match_id, seat=seat, error=repr(exc))
            self._unassigned.add((game, match_id, seat))
            return False
        self._unassigned.discard((game, match_id, seat))
        log.info("bot_handover", match_id=match_id, seat=seat)
        return True

    async def retry_bot_assignments(self) -> int:
        """Assign again the handed-over seats the bots service did not take (it was away)."""
        assigned = 0
        for game, match_id, seat in sorted(self._unassigned):
            live = self.matches.get(match_id)
            if live is None or live.state is None or live.state.outcome is not None:
                self._unassigned.discard((game, match_id, seat))
                continue
            token = await self._stored_bot_token(game, match_id, seat)
            if token and token_hash(token) == match_layer.seat_token_hash(live.state, seat):
                assigned += await self._assign_bot(game, match_id, seat, token)
            else:
                self._unassigned.discard((game, match_id, seat))
        return assigned

    async def resume_bots(self, game: str, match_id: str) -> int:
        """Assign again every seat of an unfinished match handed to a computer player (at start-up:
        an assignment lost in a crash, or a bots service that was away)."""
        live = self.matches.get(match_id)
        if live is None or live.state is None or live.state.outcome is not None:
            return 0
        assigned = 0
        for seat in match_layer.bot_seats(live.state):
            token = await self._stored_bot_token(game, match_id, seat)
            if token and token_hash(token) == match_layer.seat_token_hash(live.state, seat):
                assigned += await self._assign_bot(game, match_id, seat, token)
        return assigned

    async def claim_due_timeouts(self) -> int | None:
        """Time out every seat of the matches in memory whose deadline has passed; returns the
        next deadline still to come (unix ms), or None when no clock runs."""
        now = now_ms()
        upcoming: int | None = None
        for match_id, live in list(self.matches.items()):
            if live.state is None or live.state.outcome is not None:
                continue
            due_by: list[tuple[int, str, bool]] = [
                *((due, seat, False) for seat, due in match_layer.deadlines(live.state).items()),
                *((due, seat, True) for seat, due in match_layer.abandon_deadlines(live.state).items()),
            ]
            for due, seat, abandon in sorted(due_by):
                if due <= now:
                    # The earliest first; a claim that ends the match (or moves the turn on)
                    # leaves the later ones not due.
                    await self._claim(live.game, match_id, seat, abandon)
                elif upcoming is None or due < upcoming:
                    upcoming = due
        return upcoming

    async def load_clocked_matches(self) -> int:
        """Load every unfinished stored match of this referee's partitions that has a clock (at
        start-up: the deadlines are recomputed from the log, so a timeout due while no referee ran
        is issued now).  Returns how many it holds."""
        held = 0
        for subject in await self.store.list_match_subjects():
            game, match_id = subjects.game_from_subject(subject), subjects.match_id_from_subject(subject)
            if match_id in self.matches or not self._owns(game, match_id):
                continue
            try:
                # A match without a clock is left until its next command (no log is replayed
                # for it at start-up): its first decision says whether it has one.
                if not await self._has_clock(game, subject):
                    continue
                last = await self.js.get_last_msg(subjects.MATCH_STREAM, subject)
                envelope = codec(game).decode_envelope(last.data or b"")
                if any(isinstance(e, MatchEnded) for e in envelope.events):
                    continue
                live = await self._live(game, match_id)
            except Exception:  # noqa: BLE001 - a match that cannot be read now is loaded on its next command
                log.exception("clock_load_failed", match_id=match_id)
                continue
            if live.state is None or live.state.clock is None:
                self.matches.pop(match_id, None)
            else:
                held += 1
                if match_layer.bot_seats(live.state):
                    await self.resume_bots(game, match_id)
        return held

    async def _has_clock(self, game: str, subject: str) -> bool:
        """Whether the match stored on ``subject`` was created with a time control (its first
        decision, one direct get)."""
        first = await self.js.get_msg(subjects.MATCH_STREAM, seq=1, subject=subject, next=True, direct=True)
        created = codec(game).decode_envelope(first.data or b"").events
        return bool(created) and isinstance(created[0], MatchCreated) and created[0].time_control is not None

    def _owns(self, game: str, match_id: str) -> bool:
        if game not in self.games:
            return False
        return self.owned is None or subjects.partition_of(match_id, self.partitions) in self.owned

    async def sweep_idle(self, limit_ms: int, stored: bool = False) -> int:
        """Expire the idle matches this referee serves: those in memory, and with ``stored`` every
        stored match of its partitions (at start-up: matches nobody touched since a restart).
        Returns how many it ended."""
        candidates: dict[str, str] = {}
        cutoff = now_ms() - limit_ms
        for match_id, live in list(self.matches.items()):
            if live.state is not None and live.state.outcome is None and live.last_recorded_at <= cutoff:
                candidates[match_id] = live.game
        if stored:
            for subject in await self.store.list_match_subjects():
                game, match_id = subjects.game_from_subject(subject), subjects.match_id_from_subject(subject)
                if match_id in candidates or match_id in self.matches or not self._owns(game, match_id):
                    continue
                try:
                    last = await self.js.get_last_msg(subjects.MATCH_STREAM, subject)
                    envelope = codec(game).decode_envelope(last.data or b"")
                except Exception:  # noqa: BLE001 - a match that cannot be read now is swept next time
                    continue
                ended = any(isinstance(e, MatchEnded) for e in envelope.events)
                if not ended and envelope.recorded_at <= cutoff:
                    candidates[match_id] = game
        expired = 0
        for match_id, game in candidates.items():
            if isinstance(await self.expire_idle(game, match_id, limit_ms), Accepted):
                expired += 1
        return expired

    async def _store_seed(self, game: str, match_id: str, seed: bytes) -> None:
        subject = subjects.secret_subject(game, match_id)
        await self.secrets_js.publish(
            subject, seed.hex().encode(), headers={subjects.MSG_ID: f"seed:{match_id}"}
        )

    async def _stored_seed(self, game: str, match_id: str) -> bytes | None:
        """The seed stored for a match id, or None (the usual case at creation: nothing stored)."""
        try:
            msg = await self.secrets_js.get_last_msg(
                subjects.SECRET_STREAM, subjects.secret_subject(game, match_id)
            )
        except NotFoundError:
            return None
        return bytes.fromhex((msg.data or b"").decode())

    async def _store_seal_key(self, game: str, match_id: str, key: bytes) -> None:
        """The match's seal key on ``seal.<game>.<match_id>`` (GH_SEALS: the referee writes, the
        gateway reads), deduplicated by message id, so a retried creation stores it once."""
        await self.js.publish(
            subjects.seal_subject(game, match_id), key.hex().encode(), headers={subjects.MSG_ID: f"seal:{match_id}"}
        )

    async def _seal_key_stored(self, game: str, match_id: str) -> bool:
        try:
            await self.js.get_last_msg(subjects.SEAL_STREAM, subjects.seal_subject(game, match_id))
        except NotFoundError:
            return False
        return True

    async def _load_seed(self, game: str, match_id: str) -> bytes | None:
        try:
            seed = await self._stored_seed(game, match_id)
        except Exception:  # noqa: BLE001 - a missing seed only limits future chance events
            seed = None
        if seed is None:
            log.error("server_seed_missing", match_id=match_id)
        return seed

    # ------------------------------------------------------------ integration events
    async def _publish_started(self, match_id: str, live: Live) -> None:
        assert live.state is not None
        created = live.state.created
        notice = MatchStarted(
            match_id=match_id,
            game=created.game,
            preset=created.preset,
            rules_version=created.rules_version,
            ruleset_hash=created.ruleset_hash,
            seats=created.seats,
            players=created.players,
            created_at=now_ms(),
            ranked=created.ranked,
            table_id=created.table.table_id if created.table is not None else "",
            guests=created.guests,
        )
        await self.js.publish(
            subjects.MATCH_CREATED, encode(notice), headers={subjects.MSG_ID: f"created:{match_id}"}
        )

    async def _publish_finished(self, match_id: str, live: Live) -> None:
        state = live.state
        assert state is not None and state.outcome is not None
        created = state.created
        notice = MatchFinished(
            match_id=match_id,
            game=created.game,
            preset=created.preset,
            rules_version=created.rules_version,
            seats=created.seats,
            players=created.players,
            outcome=state.outcome,
            moves=live.seq - 1,
            finished_at=now_ms(),
            last_seq=live.last_stream_seq,
            ranked=created.ranked,
            guests=created.guests,
        )
        await self.js.publish(
            subjects.MATCH_FINISHED, encode(notice), headers={subjects.MSG_ID: f"finished:{match_id}"}
        )
        await self._certify(match_id, live)

    async def _certify(self, match_id: str, live: Live) -> None:
        """Sign the finished match's certificate and store it once: the first certificate of a
        match is the one that stands (a referee that reloads the match later only retries)."""
        state = live.state
        if self.keys is None or state is None or state.outcome is None:
            return
        created = state.created
        certificate = MatchCertificate(
            match_id=match_id,
            game=created.game,
            rules_version=created.rules_version,
            ruleset_hash=created.ruleset_hash,
            envelopes=live.seq,
            head_hash=live.last_hash,
            outcome=state.outcome,
            signed_at=now_ms(),
        )
        signed = await asyncio.to_thread(certificates.sign, self.keys, certificate)
        await self._publish_key(signed.key_id)
        try:
            await self.js.publish(
                subjects.certificate_subject(created.game, match_id),
                encode(signed),
                headers={subjects.EXPECTED_LAST_SUBJECT_SEQ: "0", subjects.MSG_ID: f"certificate:{match_id}"},
            )
        except APIError as exc:
            if exc.err_code != WRONG_LAST_SEQUENCE:
                raise
            # certified already (by this referee before a crash, or by another one)

    async def _publish_key(self, key_id: str) -> None:
        if key_id in self._published_keys or self.keys is None:
            return
        await self._publish_keys()
        self._published_keys.add(key_id)

    async def _publish_keys(self) -> None:
        """Every public key of the ring, as it stands (a key's record is replaced when it retires)."""
        assert self.keys is not None
        for key in self.keys.public().keys:
            await self.js.publish(
                subjects.public_key_subject(key.key_id),
                encode(key),
                headers={subjects.MSG_ID: f"key:{key.key_id}:{key.retired_at or 0}"},
            )

    async def publish_key_changes(self) -> None:
        """Publish the ring's keys when its public file changed since the last look (at start, and
        after ``gamehall keys rotate``): the new key and the old one's retirement are in
        ``GET /api/keys`` within a clock round, not only once the next certificate is signed."""
        if self.keys is None:
            return
        stamp = self.keys.stamp()
        if stamp is None or stamp == self._keys_stamp:
            return
        await self._publish_keys()
        self._keys_stamp = stamp
