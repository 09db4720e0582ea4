"""The tournaments service's core: commands decided with ``domain.tournaments`` and stored as
hash-chained ``TournamentRecord`` messages on ``tournament.<id>`` (docs/architecture.md
"Tournaments").

- A command (``TournamentRequest``, request/reply on ``tournaments.cmd``) is decided from the
  tournament's state in memory and appended with the expected last subject sequence and
  ``Nats-Msg-Id = <id>:<command_id>``; a conflict (another instance stored first) reloads the
  log and decides again, and a command id already in the log gets its first reply again
  (``duplicate``).
- The server seed is drawn here at creation; only its sha256 goes into ``TournamentCreated``. The
  seed is kept in the key-value bucket ``GH_TOURNAMENT_SEEDS`` (key ``<id>.<commitment>``), which
  only the ``tournaments`` NATS identity may read, until ``CloseRegistration`` reveals it.
- A round's start announces each table as ``TableFormed`` (with ``tournament_id``) on the
  integration stream, and the gateway creates its match as it does for matchmaking's tables (the
  match id derived from the table id ``<id>:<round>:<table>``); computer entrants go to the bots
  service through the gateway.  A rated tournament's tables are ranked and signed with the
  service's own key (``GAMEHALL_TOURNAMENTS_KEY``, ``services.common.tablekeys``), which referees
  trust for tournament tables only (docs/audit.md "Where a ranked match came from").  A
  finished match (``MatchFinished``) is recorded as ``RecordResult`` by the actor ``system``.
- ``tick`` (every half second) is the schedule: registration closes and round 1 starts at the
  settings' ``start_at``; a game unfinished at the round's deadline is forfeited by the player who
  never moved (else the one whose last move is oldest); the next round starts when a round is
  complete, and the tournament finishes when no round remains.  The system's command ids are
  derived from what they do (``system:start:<round>``, ...), so several instances ticking at
  once store each decision once.  An arena's schedule (its window, pairing the waiting players on
  the tick and after each result, its end) is ``services.tournaments.arena_schedule``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable

import msgspec
from nats.js import JetStreamContext
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from contracts import subjects
from contracts.envelope import Rejected
from contracts.integration import MatchFinished, TableFormed
from contracts.matchmaking import computer_player, is_computer_player
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    JoinTournament,
    RecordForfeit,
    RecordResult,
    RoundStarted,
    StartRound,
    Table,
    TournamentAccepted,
    TournamentCommand,
    TournamentCreated,
    TournamentEvent,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
    WithdrawFromTournament,
)
from domain.core import match as match_layer
from domain.games import registry
from domain.matchmaking.clocks import ranked_time_control
from domain.tournaments import decide
from domain.tournaments.pairing import total_rounds
from services.common import logs, natsio
from services.common.tablekeys import TableSigner
from services.common.tickets import table_match_id
from services.common.tournaments import table_id
from services.tournaments import arena_schedule
from services.tournaments.held import Held

log = logs.get("tournaments")

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
SYSTEM = "system"
OPERATOR = "operator"
MAX_CONFLICTS = 20
REANNOUNCE_MS = 15_000  # a table whose match is missing this long after its announcement: again
MAX_ANNOUNCEMENTS = 20

record_decoder = msgspec.json.Decoder(TournamentRecord)
request_decoder = msgspec.json.Decoder(TournamentRequest)
_encoder = msgspec.json.Encoder()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def first_hash(tournament_id: str) -> str:
    """``prev_hash`` of a tournament's first record (as a match's envelope chain)."""
    return hashlib.sha256(tournament_id.encode()).hexdigest()


def seed_key(tournament_id: str, commitment: str) -> str:
    return f"{tournament_id}.{commitment}"


def reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def dense_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """A match outcome's ranks (1 best, equal ranks shared) as a tournament result's (0 first)."""
    levels = sorted(set(ranks))
    return tuple(levels.index(r) for r in ranks)


def strength_of(settings: TournamentSettings, player: str) -> str:
    """The strength of a computer entrant (``bot:<game>:<i>`` plays at ``settings.bots[i-1]``)."""
    i = int(player.rsplit(":", 1)[1])
    return settings.bots[i - 1]


def settings_problem(s: TournamentSettings) -> str | None:
    """What the service cannot run (the rules check the rest): an unknown game, preset, seat
    count, computer strength or clock; a rated tournament of a game that is never rated (a table
    helper) or with a clock that hands a seat to a computer player (a ranked match forfeits)."""
    game = registry.GAMES.get(s.game)
    if game is None:
        return f"unknown game {s.game!r}; known: {', '.join(sorted(registry.GAMES))}"
    if s.rated and game.helper:
        return f"{s.game} is a table helper and is never rated: create it with rated false"
    if s.rated and s.time_control is not None and s.time_control.on_timeout == "bot":
        return 'a rated tournament\'s games are ranked and always forfeit: on_timeout "bot" is for unrated ones'
    for n in sorted({s.table_size, s.min_table_size or s.table_size}):
        ruleset = match_layer.resolve_ruleset(game, s.preset, {}, n)
        if isinstance(ruleset, Rejected):
            return f"{s.game} {s.preset} at {n} seats: {ruleset.detail or ruleset.code}"
    strengths = list(game.bots or {})
    bad = [b for b in s.bots if b not in strengths]
    if bad:
        return f"{s.game} computer players: {', '.join(strengths)}; got {bad[0]!r}"
    problem = match_layer.time_control_problem(s.time_control)
    if problem:
        return f"time_control: {problem}"
    return None


class Tournaments:
    """The tournaments in memory, deciding and storing their commands."""

    def __init__(
        self,
        js: JetStreamContext,
        seeds: KeyValue,
        clock: Callable[[], int] = now_ms,
        signer: TableSigner | None = None,
    ) -> None:
        self.js = js
        # Signs a rated tournament's tables (only a signed table becomes a ranked match); None:
        # this instance refuses to create a rated tournament.
        self.signer = signer
        self.store = natsio.EventStore(js)
        self.seeds = seeds
        self.clock = clock
        self.held: dict[str, Held] = {}
        self.discovered_seq = -1  # the stream's last sequence at the last full discover
        self.games: dict[str, tuple[str, int, int]] = {}  # match id -> (tournament, round, table)
        self.announced: dict[str, tuple[int, int]] = {}  # table id -> (announcements, last at ms)

    # ------------------------------------------------------------------ the log
    async def load_all(self) -> None:
        info = await self.js.stream_info(
            subjects.TOURNAMENT_STREAM, subjects_filter=subjects.TOURNAMENT_SUBJECTS
        )
        for subject in sorted((info.state.subjects or {}).keys()):
            tid = subject.split(".", 1)[1]
            await self.reload(tid)

    async def discover(self) -> None:
        """Load the tournaments another instance created since (none held here yet).  Called for
        every finished match this instance does not know: the stream's subjects are listed only
        when the stream has grown since the last look."""
        last = (await self.js.stream_info(subjects.TOURNAMENT_STREAM)).state.last_seq
        if last == self.discovered_seq:
            return
        info = await self.js.stream_info(
            subjects.TOURNAMENT_STREAM, subjects_filter=subjects.TOURNAMENT_SUBJECTS
        )
        self.discovered_seq = info.state.last_seq
        for subject in sorted((info.state.subjects or {}).keys()):
            tid = subject.split(".", 1)[1]
            held = self.held.get(tid)
            if held is None or held.state.phase == "new":
                await self.reload(tid)

    async def reload(self, tournament_id: str) -> Held:
        """Fold the tournament's records from the log (all of them, or those after what is held)."""
        held = self.held.get(tournament_id)
        if held is None:
            held = Held(tournament_id=tournament_id)
            self.held[tournament_id] = held
        if held.broken:
            return held
        stored = await self.store.load(
            subjects.tournament_subject(tournament_id), stream=subjects.TOURNAMENT_STREAM, after=held.last_seq
        )
        for s in stored:
            problem = ""
            try:
                record = record_decoder.decode(s.data)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                problem = f"record at stream sequence {s.stream_seq} is not a tournament record: {exc}"
            else:
                if record.tournament_id != tournament_id or record.seq != held.records + 1:
                    problem = (
                        f"record {held.records + 1} is numbered {record.seq} of {record.tournament_id!r}"
                    )
                elif record.prev_hash != (held.last_hash or first_hash(tournament_id)):
                    problem = f"record {record.seq}: the hash chain breaks"
            if problem:
                # never decided on, never half folded: every command is refused until the log is mended
                held.broken = problem
                log.error("tournament_log_unreadable", tournament_id=tournament_id, problem=problem)
                return held
            held.apply(record, s.data, s.stream_seq)
            self._index(record)
        return held

    def _index(self, record: TournamentRecord) -> None:
        for event in record.events:
            if isinstance(event, RoundStarted):
                for t in event.tables:
                    mid = table_match_id(table_id(record.tournament_id, event.round, t.table))
                    self.games[mid] = (record.tournament_id, event.round, t.table)

    async def get(self, tournament_id: str) -> Held:
        held = self.held.get(tournament_id)
        if held is None:
            held = await self.reload(tournament_id)
        return held

    # ------------------------------------------------------------------ commands
    async def handle_bytes(self, data: bytes) -> bytes:
        try:
            request = request_decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return _encoder.encode(reject("malformed", str(exc)))
        return _encoder.encode(await self.handle(request))

    async def handle(self, request: TournamentRequest) -> TournamentAccepted | Rejected:
        problem = request_problem(request)
        if problem is not None:
            return problem
        held = await self.get(request.tournament_id)
        if held.broken:
            return reject("unreadable_tournament", held.broken)
        async with held.lock:
            reply = await self._decide_and_store(held, request)
        if isinstance(reply, TournamentAccepted) and not reply.duplicate:
            await self._after(held, reply)
        return reply

    async def _decide_and_store(
        self, held: Held, request: TournamentRequest
    ) -> TournamentAccepted | Rejected:
        fresh = False
        for _ in range(MAX_CONFLICTS):
            if held.broken:
                return reject("unreadable_tournament", held.broken)
            known = held.replies.get(request.command_id)
            if known is not None:
                return msgspec.structs.replace(known, duplicate=True)
            command = await self._complete(held, request.command)
            if isinstance(command, Rejected):
                return command
            decided = decide(held.state, command)
            if isinstance(decided, Rejected):
                if not fresh and await self._behind(held):
                    await self.reload(held.tournament_id)
                    fresh = True
                    continue
                return decided
            record = TournamentRecord(
                tournament_id=held.tournament_id,
                seq=held.records + 1,
                command_id=request.command_id,
                recorded_at=self.clock(),
                prev_hash=held.last_hash or first_hash(held.tournament_id),
                actor=request.actor,
                command=command,
                events=decided,
            )
            data = _encoder.encode(record)
            try:
                appended = await self.store.append(
                    subjects.tournament_subject(held.tournament_id),
                    data,
                    held.last_seq,
                    f"{held.tournament_id}:{request.command_id}",
                )
            except natsio.AppendConflict:
                await self.reload(held.tournament_id)
                fresh = True
                continue
            if appended.duplicate:  # stored before (a retry, or another instance): read it back
                await self.reload(held.tournament_id)
                fresh = True
                continue
            held.apply(record, data, appended.stream_seq)
            self._index(record)
            log.info(
                "tournament_decided",
                tournament_id=held.tournament_id,
                seq=record.seq,
                command=type(command).__name__,
                actor=request.actor,
            )
            return held.replies[request.command_id]
        return reject(
            "unavailable", "the tournament changed too often while deciding; retry with the same command id"
        )

    async def _behind(self, held: Held) -> bool:
        last = await self.store.last_seq(
            subjects.TOURNAMENT_STREAM, subjects.tournament_subject(held.tournament_id)
        )
        return last != held.last_seq

    async def _complete(self, held: Held, command: TournamentCommand) -> TournamentCommand | Rejected:
        """The command as the service decides it: a creation gets a fresh seed's commitment (the
        seed stored privately), a closing of registration the stored seed."""
        if isinstance(command, CreateTournament):
            if held.state.phase != "new":
                return command  # the rules answer already_created
            problem = settings_problem(command.settings)
            if problem:
                return reject("bad_settings", problem)
            if command.settings.rated and self.signer is None:
                return reject("bad_settings", "this tournaments service has no table key: it runs no rated tournament")
            seed = secrets.token_bytes(32)
            commitment = hashlib.sha256(seed).hexdigest()
            await self.seeds.put(seed_key(held.tournament_id, commitment), seed.hex().encode())
            settings = msgspec.structs.replace(command.settings, seed_commitment=commitment)
            if settings.rated and settings.time_control is None:
                # a rated game has a ranked match's clock (docs/ranked.md "Time controls"), recorded
                settings = msgspec.structs.replace(
                    settings, time_control=ranked_time_control(settings.game, settings.preset)
                )
            return CreateTournament(tournament_id=held.tournament_id, settings=settings)
        if (
            isinstance(command, CloseRegistration)
            and held.state.settings is not None
            and held.state.phase == "registration"
        ):
            key = seed_key(held.tournament_id, held.state.settings.seed_commitment)
            try:
                entry = await self.seeds.get(key)
            except KeyNotFoundError:
                return reject("seed_mismatch", "the server seed of this tournament is not stored")
            assert entry.value is not None
            return CloseRegistration(server_seed=entry.value.decode())
        return command

    async def _after(self, held: Held, reply: TournamentAccepted) -> None:
        """What follows a decision: computer entrants join a new tournament; a round's tables
        are announced."""
        for event in reply.events:
            if isinstance(event, TournamentCreated):
                for i in range(len(event.settings.bots)):
                    player = computer_player(event.settings.game, i + 1)
                    joined = await self.handle(
                        TournamentRequest(
                            tournament_id=held.tournament_id,
                            command_id=f"system:join:{i + 1}",
                            actor=SYSTEM,
                            command=JoinTournament(player=player),
                        )
                    )
                    if isinstance(joined, Rejected):
                        log.warning("computer_entrant_refused", player=player, code=joined.code)
            elif isinstance(event, RoundStarted):
                await self.announce(held, event)

    # ------------------------------------------------------------------ games
    async def announce(self, held: Held, started: RoundStarted) -> None:
        s = held.state.settings
        assert s is not None
        clock = s.time_control
        if clock is not None and not clock.on_timeout:
            clock = msgspec.structs.replace(
                clock, on_timeout="forfeit"
            )  # a tournament seat is never handed over
        for t in started.tables:
            bots = tuple(i for i, p in enumerate(t.seats) if is_computer_player(p))
            tid = table_id(held.tournament_id, started.round, t.table)
            table = TableFormed(
                table_id=tid,
                game=s.game,
                preset=s.preset,
                ranked=s.rated,
                players=t.seats,
                bots=bots,
                strengths=tuple(strength_of(s, t.seats[i]) for i in bots),
                formed_at=self.clock(),
                tournament_id=held.tournament_id,
                time_control=clock,
            )
            if s.rated:
                if self.signer is None:
                    log.error("tournament_table_unsigned", tournament_id=held.tournament_id, table_id=tid)
                    continue  # an unsigned ranked table would only be refused
                table = self.signer.sign(table)
            tries = self.announced.get(tid, (0, 0))[0]
            # the first announcement is deduplicated (a restart announces it again harmlessly); a
            # later one is for a match still missing (every gateway was away) and goes through
            msg_id = f"tournament-table:{tid}" + (f":{tries}" if tries else "")
            await self.js.publish(
                subjects.TABLE_FORMED, _encoder.encode(table), headers={subjects.MSG_ID: msg_id}
            )
            self.announced[tid] = (tries + 1, self.clock())
            log.info(
                "tournament_table_announced",
                tournament_id=held.tournament_id,
                table_id=tid,
                match_id=table_match_id(tid),
                attempt=tries + 1,
            )

    async def announce_missing(self, held: Held, number: int = 0) -> None:
        """The current round's games (or round ``number``'s: an arena's pairings run at once)
        whose match does not exist ``REANNOUNCE_MS`` after their table was announced (the gateway
        skips a table older than 30 s: every gateway was down, say) are announced again, fresh, up
        to ``MAX_ANNOUNCEMENTS`` times."""
        s = held.state.settings
        rnd = held.state.rounds[number - 1 if number else -1]
        assert s is not None
        now = self.clock()
        missing: list[Table] = []
        for g in rnd.games:
            tid = table_id(held.tournament_id, rnd.round, g.table)
            tries, at = self.announced.get(tid, (0, 0))
            if g.ranks is not None or not tries or tries >= MAX_ANNOUNCEMENTS or now - at < REANNOUNCE_MS:
                continue
            subject = subjects.match_subject(s.game, table_match_id(tid))
            if await self.store.last_seq(subjects.MATCH_STREAM, subject) == 0:
                missing.append(Table(table=g.table, seats=g.seats))
            else:
                self.announced[tid] = (MAX_ANNOUNCEMENTS, at)  # made: never look again
        if missing:
            await self.announce(held, RoundStarted(round=rnd.round, tables=tuple(missing)))

    async def reannounce(self) -> None:
        """At start: the unfinished games of every running round again (deduplicated within the
        stream's window; after it the gateway finds the match already made)."""
        for held in list(self.held.values()):
            st = held.state
            if arena_schedule.is_arena(held):
                await arena_schedule.reannounce(self, held)
                continue
            if st.phase != "running" or not st.rounds or st.rounds[-1].complete():
                continue
            rnd = st.rounds[-1]
            tables = tuple(
                t for t in self._round_tables(held, rnd.round) if rnd.games[t.table - 1].ranks is None
            )
            await self.announce(held, RoundStarted(round=rnd.round, tables=tables))

    def _round_tables(self, held: Held, rnd: int) -> tuple[Table, ...]:
        return tuple(Table(table=g.table, seats=g.seats) for g in held.state.rounds[rnd - 1].games)

    async def on_finished(self, event: MatchFinished) -> None:
        found = self.games.get(event.match_id)
        if found is None:
            return
        tid, rnd, table = found
        held = await self.get(tid)
        game = held.state.rounds[rnd - 1].games[table - 1]
        if tuple(event.players) != tuple(game.seats) or game.ranks is not None:
            return
        ranks = dense_ranks(tuple(event.outcome.ranks))
        scores: tuple[int, ...] = ()
        if len(event.outcome.scores) == len(ranks):
            scores = tuple(int(round(x)) for x in event.outcome.scores)
        reply = await self.handle(
            TournamentRequest(
                tournament_id=tid,
                command_id=f"system:result:{rnd}:{table}",
                actor=SYSTEM,
                command=RecordResult(round=rnd, table=table, ranks=ranks, scores=scores),
            )
        )
        if isinstance(reply, Rejected):
            log.info("tournament_result_refused", tournament_id=tid, round=rnd, table=table, code=reply.code)
        elif arena_schedule.is_arena(held):
            await arena_schedule.pair(self, held)  # the players who finished meet new opponents now

    async def no_show(self, held: Held, rnd: int, table: int) -> str:
        """Who forfeits a game unfinished at its deadline: the first seat that never moved, else
        the one whose last move is oldest."""
        s = held.state.settings
        assert s is not None
        seats = held.state.rounds[rnd - 1].games[table - 1].seats
        names = registry.get(s.game).seat_names(len(seats))
        mid = table_match_id(table_id(held.tournament_id, rnd, table))
        last_move: dict[str, int] = {}
        for stored in await self.store.load(subjects.match_subject(s.game, mid)):
            seen = _seen_decoder.decode(stored.data)
            if seen.seat is not None:
                last_move[seen.seat] = seen.recorded_at
        for seat, player in zip(names, seats, strict=True):
            if seat not in last_move:
                return player
        oldest = min(names, key=lambda n: last_move[n])
        return seats[names.index(oldest)]

    # ------------------------------------------------------------------ the schedule
    async def tick(self) -> None:
        for held in list(self.held.values()):
            try:
                await self._schedule(held)
            except Exception:  # noqa: BLE001 - one tournament's trouble never stops the others
                log.exception("tournament_schedule_failed", tournament_id=held.tournament_id)

    async def _system(
        self, held: Held, command_id: str, command: TournamentCommand
    ) -> TournamentAccepted | Rejected:
        reply = await self.handle(
            TournamentRequest(
                tournament_id=held.tournament_id, command_id=command_id, actor=SYSTEM, command=command
            )
        )
        if isinstance(reply, Rejected) and command_id not in held.said:
            held.said.add(command_id)
            log.warning(
                "tournament_schedule_refused",
                tournament_id=held.tournament_id,
                command_id=command_id,
                code=reply.code,
                detail=reply.detail,
            )
        return reply

    async def _schedule(self, held: Held) -> None:
        st = held.state
        s = st.settings
        if s is None or st.phase == "finished" or held.broken:
            return
        now = self.clock()
        if st.phase == "registration":
            for i in range(len(s.bots)):  # computer entrants a crash kept from joining at creation
                if f"system:join:{i + 1}" not in held.replies:
                    await self._system(
                        held, f"system:join:{i + 1}", JoinTournament(player=computer_player(s.game, i + 1))
                    )
        if s.format == "arena":
            await arena_schedule.schedule(self, held)
            return
        if st.phase == "registration":
            if s.start_at and now >= s.start_at:
                closed = await self._system(held, "system:close", CloseRegistration(server_seed=""))
                if isinstance(closed, TournamentAccepted):
                    await self._system(held, "system:start:1", StartRound())
            return
        if not st.rounds:
            return  # registration closed by hand: the operator starts round 1
        current = st.rounds[-1]
        if current.complete():
            if len(st.rounds) < total_rounds(st):
                await self._system(held, f"system:start:{len(st.rounds) + 1}", StartRound())
            else:
                await self._system(held, "system:finish", FinishTournament())
            return
        await self.announce_missing(held)
        started = held.round_started_at.get(current.round)
        if s.round_deadline_s and started is not None and now >= started + s.round_deadline_s * 1000:
            for game in current.games:
                if game.ranks is None:
                    player = await self.no_show(held, current.round, game.table)
                    await self._system(
                        held,
                        f"system:forfeit:{current.round}:{game.table}",
                        RecordForfeit(round=current.round, table=game.table, player=player),
                    )


class _Seen(msgspec.Struct, kw_only=True):
    """What the deadline reads of a match envelope: who sent the decision, and when."""

    seat: str | None = None
    recorded_at: int = 0


_seen_decoder = msgspec.json.Decoder(_Seen)

# Who may send what: a player only joins or withdraws themself; the rest is the operator's (or
# the system's, for results, forfeits and the schedule).
_PLAYER_COMMANDS = (JoinTournament, WithdrawFromTournament)


def request_problem(request: TournamentRequest) -> Rejected | None:
    if not TOURNAMENT_ID.fullmatch(request.tournament_id):
        return reject("malformed", "a tournament id is 1 to 64 letters, digits, '-' or '_'")
    if not request.command_id or len(request.command_id) > 128:
        return reject("malformed", "a command id is 1 to 128 characters")
    if not request.actor:
        return reject("malformed", "the actor is missing")
    command = request.command
    if isinstance(command, CreateTournament) and command.tournament_id != request.tournament_id:
        return reject("malformed", "the creation names another tournament id")
    if request.actor not in (OPERATOR, SYSTEM):
        if not isinstance(command, _PLAYER_COMMANDS) or command.player != request.actor:
            return reject("not_allowed", f"{request.actor} may only join or withdraw themself")
    return None


def events_of(records: list[TournamentRecord]) -> list[TournamentEvent]:
    return [e for r in records for e in r.events]
