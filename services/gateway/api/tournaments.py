"""Tournaments, the read side: the list, one tournament's view in words (``?lang``), its records
for auditors and a WebSocket that pushes the view after every record.  All of it is read from the
gateway's in-memory fold of ``GH_TOURNAMENTS`` (``services.gateway.tournament_book``); the
answers are msgspec contracts of ``contracts.tournaments`` encoded as they are, their schemas in
the OpenAPI description from the same contracts (``services.gateway.openapi``)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Literal

from fastapi import APIRouter, Depends, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from contracts.codecs import encode
from contracts.tournaments import TournamentList, TournamentSummary
from domain.core.words import Lang
from domain.tournaments import TournamentState
from domain.tournaments import view as tournament_view
from services.common import metrics
from services.common.tournaments import bundle_of
from services.gateway import edge
from services.gateway.catalogue import titles
from services.gateway.core import asked_language, language
from services.gateway.errors import Conflict, Malformed, NotFound, errors
from services.gateway.sockets import ws_close_code
from services.gateway.tournament_book import Folded, TournamentBook

router = APIRouter(tags=["tournaments"])

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
VIEWS_KEPT = 512  # rendered views kept per (tournament, records, language), at most
VIEW_BYTES_KEPT = 64 * 1024 * 1024  # and at most this many bytes of them (a big view is 2 MB)
Status = Literal["registration", "running", "finished"]

COALESCE_S = 0.05  # a socket woken by a record waits this long for the records stored with it
BIG_VIEW = 256 * 1024  # a socket that was sent a view this big gets at most one a BIG_VIEW_S
BIG_VIEW_S = 2.0

_views: dict[tuple[str, int, str], bytes] = {}  # oldest first
_kept = [0]  # bytes in _views
_rendering: dict[tuple[str, int, str], asyncio.Future[bytes]] = {}


def book(connection: HTTPConnection) -> TournamentBook:
    """The app's tournament book (``create_app`` puts it on ``app.state``)."""
    found: TournamentBook = connection.app.state.tournaments
    return found


def _checked_id(tournament_id: str) -> str:
    if TOURNAMENT_ID.fullmatch(tournament_id) is None:
        raise Malformed("malformed", "a tournament id is 1-64 letters, digits, '-' and '_'")
    return tournament_id


def _readable(folded: Folded | None, tournament_id: str) -> Folded:
    if folded is None or (not folded.broken and folded.state.phase == "new"):
        raise NotFound("tournament_not_found", f"no tournament {tournament_id!r}")
    if folded.broken:
        raise Conflict("unreadable_tournament", folded.broken)
    return folded


def _titles(state: TournamentState, words: Lang) -> dict[str, str]:
    settings = state.settings
    assert settings is not None
    found = titles(settings.game, settings.preset, words)
    return {"game_title": found["game_title"], "preset_title": found["title"]}


def _render(state: TournamentState, seq: int, words: Lang) -> bytes:
    return encode(tournament_view.view(state, words, seq=seq, **_titles(state, words)))


async def view_bytes(folded: Folded, words: Lang) -> bytes:
    """The view's JSON, rendered once per tournament, record count and language.  A big
    tournament's view takes a while (a 1,000-player Swiss after 9 rounds: 60-70 ms of CPU,
    bench/tournament_view_bench.py), so it is
    rendered in a worker thread from the state as it is now (states are immutable), and the event
    loop goes on serving moves meanwhile."""
    state, seq = folded.state, folded.seq
    key = (folded.tournament_id, seq, words)
    found = _views.get(key)
    if found is not None:
        return found
    pending = _rendering.get(key)  # every socket on the tournament waits for one rendering
    if pending is None:
        pending = _rendering[key] = asyncio.ensure_future(asyncio.to_thread(_render, state, seq, words))
        pending.add_done_callback(lambda _: _rendering.pop(key, None))
    found = await asyncio.shield(pending)
    if key not in _views:
        _views[key] = found
        _kept[0] += len(found)
    while len(_views) > 1 and (len(_views) > VIEWS_KEPT or _kept[0] > VIEW_BYTES_KEPT):
        _kept[0] -= len(_views.pop(next(iter(_views))))
    return found


def summary_of(folded: Folded, words: Lang) -> TournamentSummary:
    return tournament_view.summary(folded.state, words, seq=folded.seq, **_titles(folded.state, words))


@router.get(
    "/api/tournaments",
    summary="Tournaments, newest first (all, or those in one phase)",
    description="Every tournament stored, newest first: its game and preset, format, phase in words "
    "(`?lang`), entrants and rounds. `status` keeps those in registration, running or finished. A "
    "tournament whose records do not fold is left out.",
    responses=errors(422),
)
async def list_tournaments(
    status: Status | None = Query(None, description="Only tournaments in this phase."),
    words: Lang = Depends(asked_language),
    at: TournamentBook = Depends(book),
) -> Response:
    found = [
        summary_of(f, words)
        for f in reversed(at.all())
        if not f.broken and (status is None or f.state.phase == status)
    ]
    return Response(encode(TournamentList(tournaments=tuple(found))), media_type="application/json")


@router.get(
    "/api/tournaments/{tournament_id}",
    summary="A tournament: settings, entrants, pairings per round, crosstable, standings (in words)",
    description="The tournament as its records fold now, with its words in the language asked "
    "(`?lang=ru`): settings and phase in words, the entrants (seeding order once registration "
    "closed), every round's tables, results (notation), forfeits, voided games and byes, the "
    "crosstable (two seats: opponent and result per round; fair tables: table, position and place "
    "per round), the standings with every tie-break the settings name (final once finished) and, "
    "for fair tables, how evenly the rounds so far seat players. `seq` counts the records folded.",
    responses=errors(400, 404, 409, 422),
)
async def get_tournament(
    tournament_id: str, words: Lang = Depends(asked_language), at: TournamentBook = Depends(book)
) -> Response:
    folded = _readable(await at.current(_checked_id(tournament_id)), tournament_id)
    return Response(await view_bytes(folded, words), media_type="application/json")


@router.get(
    "/api/tournaments/{tournament_id}/records",
    summary="Every record of a tournament, as stored (for `gamehall tournaments audit`)",
    description="The tournament's `TournamentRecord`s in order, each exactly as stored on "
    "`tournament.<id>` of `GH_TOURNAMENTS`, so the hash chain (`prev_hash`: sha256 of the previous "
    "record's bytes, the first's of the tournament id) can be checked from this answer alone.",
    responses=errors(400, 404, 409),
)
async def tournament_records(tournament_id: str, at: TournamentBook = Depends(book)) -> Response:
    folded = _readable(await at.current(_checked_id(tournament_id)), tournament_id)
    return Response(
        bundle_of(folded.tournament_id, folded.raw),  # the records' stored bytes, as the CLI exports them
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="tournament-{folded.tournament_id}.json"'},
    )


@router.websocket("/ws/tournaments/{tournament_id}")
async def ws_tournament(
    websocket: WebSocket, tournament_id: str, lang: str | None = None, at: TournamentBook = Depends(book)
) -> None:
    """Frames ``{"type": "view", "view": <TournamentView>}`` (``TournamentViewFrame``, written from
    the cached view's bytes): the view at once, then after every
    record stored for the tournament (a client that falls behind gets only the latest)."""
    await websocket.accept()
    metrics.WS_CONNECTIONS.inc()
    queue = at.watch(tournament_id)
    try:
        words = language(lang, websocket.headers.get("accept-language"))
        folded = _readable(await at.current(_checked_id(tournament_id)), tournament_id)
        sent = -1
        pause = COALESCE_S
        reader = asyncio.create_task(_drain(websocket))
        try:
            while not reader.done():
                folded = _readable(at.held(tournament_id), tournament_id)
                if folded.seq != sent:
                    sent = folded.seq
                    frame = b'{"type":"view","view":' + await view_bytes(folded, words) + b"}"
                    await websocket.send_text(frame.decode())
                    pause = BIG_VIEW_S if len(frame) > BIG_VIEW else COALESCE_S
                waiting = asyncio.create_task(queue.get())
                await asyncio.wait({waiting, reader}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                await asyncio.sleep(pause)  # a round's start and its byes: one view
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
    except WebSocketDisconnect:
        pass
    except edge.ApiError as exc:
        with contextlib.suppress(Exception):
            await websocket.send_text(
                encode({"type": "error", "code": exc.code, "detail": edge.safe_text(exc.detail)}).decode()
            )
            await websocket.close(code=ws_close_code(exc))
    finally:
        at.unwatch(tournament_id, queue)
        metrics.WS_CONNECTIONS.dec()


async def _drain(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends until it goes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
