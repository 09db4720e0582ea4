"""Tournaments, the write side: create (operators), join and withdraw (a player for themself, an
operator for anyone), close registration and start a round (operators), and a player's seat in
the round being played.  Every command goes to the tournaments service (``tournaments.cmd``,
``services.common.tournaments.send``) and its answer is ``contracts.tournaments.TournamentAccepted``
or the service's refusal, typed by ``errors.TOURNAMENT_REFUSALS``.  The seat token of a tournament
game is derived from the gateways' shared secret and the table id, as a matchmaking table's
(``Lobby``), so it is stored nowhere."""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
from fastapi import APIRouter, Depends
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from contracts.api import TournamentCommandBody, TournamentCreateBody, TournamentEntryBody
from contracts.codecs import encode
from contracts.envelope import Rejected
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    JoinTournament,
    StartRound,
    TournamentCommand,
    TournamentRequest,
    TournamentSeat,
    TournamentSettings,
    WithdrawFromTournament,
)
from domain.games import registry
from services.common import commands, logs
from services.common import tournaments as tournaments_io
from services.common.tickets import table_match_id
from services.gateway.api.deps import Caller, caller
from services.gateway.errors import (
    TOURNAMENT_REFUSALS,
    Conflict,
    Forbidden,
    Malformed,
    NotFound,
    errors,
    refusal,
)
from services.gateway.lobby import table_token_key
from services.gateway.tournament_book import TournamentBook

router = APIRouter(tags=["tournaments"])
log = logs.get("gateway")
OPERATOR = "operator"
WRITE_ERRORS = (400, 401, 403, 404, 409, 503, 504)


def book(connection: HTTPConnection) -> TournamentBook:
    found: TournamentBook = connection.app.state.tournaments
    return found


async def send(
    who: Caller, tournament_id: str, actor: str, command: TournamentCommand, command_id: str
) -> Response:
    """The command to the tournaments service as ``actor``; its acceptance, or its refusal raised."""
    gw = who.lobby.gw
    gw.check_bus()
    assert gw.nc is not None
    request = TournamentRequest(
        tournament_id=tournament_id, command_id=command_id or uuid.uuid4().hex, actor=actor, command=command
    )
    reply = await tournaments_io.send(gw.nc, request)
    if isinstance(reply, Rejected):
        raise refusal(reply, TOURNAMENT_REFUSALS)
    log.info("tournament_command", tournament_id=tournament_id, command=type(command).__name__, actor=actor)
    return Response(encode(reply), media_type="application/json", status_code=201 if reply.seq == 1 else 200)


async def operator(who: Caller) -> None:
    player = await who.player()
    if not player.operator:
        raise Forbidden(
            "not_an_operator", f"{player.name} has no operator role (gamehall accounts grant-operator)"
        )


async def entrant(who: Caller, named: str) -> tuple[str, str]:
    """(actor, player): the caller for themself, or an operator for the player named."""
    player = await who.player()
    if not named or named == player.name:
        return player.name, player.name
    if not player.operator:
        raise Forbidden("not_an_operator", "only operators enter or withdraw another player")
    return OPERATOR, named


@router.post(
    "/api/tournaments",
    status_code=201,
    summary="Create a tournament (operators)",
    description="The tournaments service draws the seed and records only its sha256 "
    "(`seed_commitment`); computer entrants named by `settings.bots` join at once. A retry with "
    "the same `command_id` gets the first reply (`duplicate: true`).",
    responses=errors(*WRITE_ERRORS),
)
async def create_tournament(body: TournamentCreateBody, who: Caller = Depends(caller)) -> Response:
    await operator(who)
    try:
        settings = msgspec.convert({**body.settings, "seed_commitment": ""}, TournamentSettings)
    except msgspec.ValidationError as exc:
        raise Malformed("bad_settings", str(exc)) from None
    command = CreateTournament(tournament_id=body.tournament_id, settings=settings)
    return await send(who, body.tournament_id, OPERATOR, command, body.command_id)


@router.post(
    "/api/tournaments/{tournament_id}/join",
    summary="Join a tournament while registration is open (yourself; operators: anyone)",
    responses=errors(*WRITE_ERRORS),
)
async def join_tournament(
    tournament_id: str, body: TournamentEntryBody, who: Caller = Depends(caller)
) -> Response:
    actor, player = await entrant(who, body.player)
    command = JoinTournament(player=player, rating=body.rating)
    return await send(who, tournament_id, actor, command, body.command_id)


@router.post(
    "/api/tournaments/{tournament_id}/withdraw",
    summary="Withdraw from a tournament (yourself; operators: anyone)",
    responses=errors(*WRITE_ERRORS),
)
async def withdraw_from_tournament(
    tournament_id: str, body: TournamentEntryBody, who: Caller = Depends(caller)
) -> Response:
    actor, player = await entrant(who, body.player)
    return await send(who, tournament_id, actor, WithdrawFromTournament(player=player), body.command_id)


@router.post(
    "/api/tournaments/{tournament_id}/close",
    summary="Close registration (operators): the seed is revealed and the seeding fixed",
    responses=errors(*WRITE_ERRORS),
)
async def close_registration(
    tournament_id: str, body: TournamentCommandBody, who: Caller = Depends(caller)
) -> Response:
    await operator(who)
    return await send(who, tournament_id, OPERATOR, CloseRegistration(server_seed=""), body.command_id)


@router.post(
    "/api/tournaments/{tournament_id}/rounds",
    summary="Start the next round (operators; later rounds also start by themselves)",
    responses=errors(*WRITE_ERRORS),
)
async def start_round(
    tournament_id: str, body: TournamentCommandBody, who: Caller = Depends(caller)
) -> Response:
    await operator(who)
    return await send(who, tournament_id, OPERATOR, StartRound(), body.command_id)


@router.get(
    "/api/tournaments/{tournament_id}/seat",
    summary="Your game in the round being played: its match and your seat token",
    description="The caller's game of the tournament's current round (an arena's pairings run at "
    "once: the caller's unfinished game of any pairing): the match id, the seat and "
    "the seat token to play it with (`/ws/matches/{match_id}?token=`), as `GET /api/queue/{ticket}` "
    "gives a queue player's. 404 `not_seated` when the caller has no game to play now.",
    responses=errors(400, 401, 404, 409),
)
async def my_seat(
    tournament_id: str, who: Caller = Depends(caller), at: TournamentBook = Depends(book)
) -> Response:
    player = await who.player()
    folded = await at.current(tournament_id) if len(tournament_id) <= 64 else None
    if folded is None or (not folded.broken and folded.state.phase == "new"):
        raise NotFound("tournament_not_found", f"no tournament {tournament_id!r}")
    if folded.broken:
        raise Conflict("unreadable_tournament", folded.broken)
    state = folded.state
    if state.phase != "running" or not state.rounds or state.settings is None:
        raise NotFound("not_seated", "no round is being played")
    # the current round's game; an arena's pairings run at once: the open game of any pairing.
    # A voided game has no game left to play (its match is over).
    rounds = reversed(state.rounds) if state.settings.format == "arena" else state.rounds[-1:]
    rnd, game = next(
        (
            (r, g)
            for r in rounds
            for g in r.games
            if player.name in g.seats and g.ranks is None and not g.voided
        ),
        (state.rounds[-1], None),
    )
    if game is None:
        raise NotFound("not_seated", f"{player.name} has no game to play in round {rnd.round}")
    table_id = tournaments_io.table_id(tournament_id, rnd.round, game.table)
    seat_names = registry.get(state.settings.game).seat_names(len(game.seats))
    seat = seat_names[game.seats.index(player.name)]
    token = commands.derived_token(table_token_key(who.lobby.secret, table_id), seat)
    answer: Any = TournamentSeat(
        tournament_id=tournament_id,
        round=rnd.round,
        table=game.table,
        match_id=table_match_id(table_id),
        game=state.settings.game,
        seat=seat,
        token=token,
        players=game.seats,
    )
    return Response(encode(answer), media_type="application/json")
