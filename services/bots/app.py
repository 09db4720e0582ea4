"""Bots service: computer players that play through the public API like any client.

A seat reaches the service as a ``contracts.bots.BotSeatAssigned`` request (from the gateway for a
table against the computer, or from matchmaking).  Each seat gets its own player task: it opens the
match WebSocket with the seat token through the client library (``gamehall.client.MatchStream``,
typed frames), folds the events it is shown, waits a short think time when it is its turn and
sends its command on the socket.  A dropped connection is resumed from the last
seen decision.  Running seats are kept in ``<data_dir>/bots/seats.json`` (seat tokens, like the
database, stay on the server's disk) so a restarted service picks its games up again.

A bot's fold holds the events as they were redacted for its seat: in a card game that is the
seat's information state (other hands and the stock as unknown cards), from which the game's own
computer player chooses; it never sees another seat's cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import uuid
from pathlib import Path
from typing import Any

import msgspec
from prometheus_client import Counter, Gauge
from websockets.exceptions import ConnectionClosed, InvalidStatus

from contracts import subjects
from contracts.api import CommandRejected, EventsFrame, ReplyFrame, ViewFrame
from contracts.bots import BotSeatAssigned, BotSeatTaken, assign_decoder
from contracts.codecs import encode
from contracts.envelope import Rejected
from contracts.match import MatchView
from domain.games import registry
from gamehall.client import MatchStream, StreamClosed
from services.common import logs
from services.common.players import PublicFold, choose_command, draw_answer
from services.common.settings import Settings
from services.common.shell import service_shell

SERVICE = "bots"
MAX_REJECTIONS = 5

ACTIVE = Gauge("gamehall_bots_active", "Computer players seated in running matches")
BOT_COMMANDS = Counter("gamehall_bot_commands_total", "Commands sent by computer players", ["game", "result"])

log = logs.get(SERVICE)


def gateway_url(settings: Settings, assignment: BotSeatAssigned) -> str:
    configured = settings.bots.gateway_url
    if configured:
        return configured.rstrip("/")
    if assignment.gateway_url:
        return assignment.gateway_url.rstrip("/")
    host = "127.0.0.1" if settings.http_host in ("0.0.0.0", "::") else settings.http_host
    return f"http://{host}:{settings.http_port}"


class BotPlayer:
    """One computer player in one seat of one match."""

    def __init__(self, assignment: BotSeatAssigned, base_url: str, think_ms: int, seed: int | None = None):
        self.a = assignment
        self.base_url = base_url
        self.think = max(0, think_ms) / 1000
        self.rng = random.Random(seed if seed is not None else f"{assignment.match_id}:{assignment.seat}")
        self.fold = PublicFold(assignment.game)
        self.view: MatchView | None = None
        self.acted_seq = -1
        self.rejections = 0
        self.finished = False
        self.offer_answered = False  # the standing draw offer has been answered

    def stream(self) -> MatchStream:
        """The seat's match socket, resumed after the last decision this player has folded."""
        return MatchStream(self.base_url, self.a.match_id, self.a.token, self.fold.seq)

    async def play(self, stop: asyncio.Event) -> None:
        backoff = 0.2
        while not stop.is_set() and not self.finished:
            try:
                async with self.stream() as ws:
                    backoff = 0.2
                    await self._session(ws, stop)
            except InvalidStatus as exc:
                log.warning("bot_connect_refused", match_id=self.a.match_id, status=exc.response.status_code)
            except StreamClosed as exc:
                if exc.error is not None:
                    log.warning("bot_match_error", match_id=self.a.match_id, detail=exc.error.detail)
                    if exc.error.code in ("bad_token", "match_not_found"):
                        self.finished = True
                else:
                    log.info("bot_reconnect", match_id=self.a.match_id, seat=self.a.seat, error=str(exc))
            except (OSError, ConnectionClosed, TimeoutError) as exc:
                log.info("bot_reconnect", match_id=self.a.match_id, seat=self.a.seat, error=str(exc))
            if self.finished or stop.is_set():
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), backoff)
            backoff = min(backoff * 2, 5.0)

    async def _session(self, ws: MatchStream, stop: asyncio.Event) -> None:
        stopper = asyncio.create_task(stop.wait())
        receiver: asyncio.Task[Any] | None = None
        try:
            while not self.finished:
                receiver = asyncio.create_task(ws.receive())
                # However this session ends (stop, or this task cancelled at shutdown while the
                # gateway closes the socket), the receive's end is retrieved: a normal Ctrl-C
                # leaves no "Task exception was never retrieved" traceback in bots.log.
                receiver.add_done_callback(_retrieve)
                done, _ = await asyncio.wait({receiver, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if stopper in done:
                    receiver.cancel()
                    return
                frame = receiver.result()  # an error frame raises StreamClosed (handled in play)
                if isinstance(frame, EventsFrame):
                    self.fold.apply(msgspec.to_builtins(frame.events))
                elif isinstance(frame, ViewFrame):
                    self.view = frame.view
                    await self._maybe_act(ws)
                elif isinstance(frame, ReplyFrame):
                    reply = frame.reply
                    if isinstance(reply, CommandRejected):
                        BOT_COMMANDS.labels(self.a.game, "rejected").inc()
                        self.rejections += 1
                        log.warning(
                            "bot_command_rejected",
                            match_id=self.a.match_id,
                            seat=self.a.seat,
                            code=reply.code,
                            detail=reply.detail,
                        )
                        self.acted_seq = -1  # decide again on the same view
                        await self._maybe_act(ws)
                    else:
                        BOT_COMMANDS.labels(self.a.game, "accepted").inc()
                        self.rejections = 0
        finally:
            stopper.cancel()
            if receiver is not None:
                receiver.cancel()

    async def _maybe_act(self, ws: MatchStream) -> None:
        view = self.view
        if view is None:
            return
        if view.status == "finished":
            self.finished = True
            return
        offer = view.draw_offer
        if offer is None:
            self.offer_answered = False
        elif offer != self.a.seat and not self.offer_answered and self.fold.seq >= view.seq:
            self.offer_answered = True
            answer = draw_answer(self.fold, self.a.seat)
            await ws.send(answer, command_id=f"bot-{uuid.uuid4().hex}")
            return  # the answer's view comes next
        if self.a.seat not in view.to_move or view.seq == self.acted_seq:
            return
        if self.fold.seq < view.seq:
            return  # the events of this view have not arrived yet
        self.acted_seq = view.seq
        if self.think:
            await asyncio.sleep(self.think)
        if self.rejections >= MAX_REJECTIONS:
            command: dict[str, Any] = {"type": "resign.v1"}
        else:
            # A search may take a while: off the event loop, so the other bots keep playing.
            command = await asyncio.to_thread(
                choose_command, self.a.game, self.fold, self.a.seat, self.a.strength, self.rng
            )
        await ws.send(command, command_id=f"bot-{uuid.uuid4().hex}")


class SeatBook:
    """The seats being played, on disk so a restarted service resumes them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seats: dict[str, BotSeatAssigned] = {}

    @staticmethod
    def key(a: BotSeatAssigned) -> str:
        return f"{a.match_id}/{a.seat}"

    def load(self) -> list[BotSeatAssigned]:
        if not self.path.exists():
            return []
        try:
            items = msgspec.json.decode(self.path.read_bytes(), type=list[BotSeatAssigned])
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("bot_seats_unreadable", path=str(self.path))
            return []
        self.seats = {self.key(a): a for a in items}
        return items

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_bytes(msgspec.json.encode(list(self.seats.values())))
        os.chmod(tmp, 0o600)
        tmp.replace(self.path)

    def add(self, a: BotSeatAssigned) -> None:
        self.seats[self.key(a)] = a
        self._save()

    def remove(self, a: BotSeatAssigned) -> None:
        if self.seats.pop(self.key(a), None) is not None:
            self._save()


def check_assignment(a: BotSeatAssigned) -> Rejected | None:
    game = registry.GAMES.get(a.game)
    if game is None:
        return Rejected(code="unknown_game", detail=f"unknown game {a.game!r}")
    strengths = list(game.bots or {})  # the game's declared order, weakest first
    if a.strength not in strengths:
        return Rejected(
            code="unknown_strength", detail=f"{a.game} bots: {', '.join(strengths)}; got {a.strength!r}"
        )
    return None


class BotsService:
    def __init__(self, settings: Settings, stop: asyncio.Event) -> None:
        self.settings = settings
        self.stop = stop
        self.book = SeatBook(settings.data_dir / "bots" / "seats.json")
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def start_player(self, a: BotSeatAssigned) -> None:
        key = SeatBook.key(a)
        if key in self.tasks and not self.tasks[key].done():
            return
        think = a.think_ms if a.think_ms is not None else self.settings.bots.think_ms
        player = BotPlayer(a, gateway_url(self.settings, a), think)
        self.book.add(a)
        ACTIVE.inc()
        log.info("bot_seated", match_id=a.match_id, seat=a.seat, strength=a.strength)

        async def run_player() -> None:
            try:
                await player.play(self.stop)
            except Exception as exc:
                if self.stop.is_set():
                    # Shutting down (Ctrl-C on 'gamehall up' stops the gateway too): the seat
                    # stays in the book and resumes on the next start; no traceback for that.
                    log.info("bot_stopped", match_id=a.match_id, seat=a.seat, reason=type(exc).__name__)
                else:
                    log.exception("bot_failed", match_id=a.match_id, seat=a.seat)
            finally:
                ACTIVE.dec()
                self.tasks.pop(key, None)
                if player.finished:
                    self.book.remove(a)
                    log.info("bot_done", match_id=a.match_id, seat=a.seat)

        self.tasks[key] = asyncio.create_task(run_player())

    async def on_assign(self, msg: Any) -> None:
        try:
            a = assign_decoder.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            await msg.respond(encode(Rejected(code="malformed", detail=str(exc))))
            return
        problem = check_assignment(a)
        if problem is not None:
            await msg.respond(encode(problem))
            return
        self.start_player(a)
        await msg.respond(encode(BotSeatTaken(match_id=a.match_id, seat=a.seat, strength=a.strength)))


def _retrieve(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = 0) -> None:
    async with service_shell(SERVICE, settings, metrics_port) as shell:
        await run_bots(settings, stop, shell.nc)


async def run_bots(settings: Settings, stop: asyncio.Event, nc: Any) -> None:
    service = BotsService(settings, stop)
    try:
        await nc.subscribe(subjects.BOTS_ASSIGN, queue=subjects.BOTS_QUEUE, cb=service.on_assign)
        for a in service.book.load():
            if check_assignment(a) is None:
                service.start_player(a)
        log.info("bots_ready", resumed=len(service.tasks))
        await stop.wait()
    finally:
        tasks = list(service.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
