"""An arena's schedule in the tournaments service (``domain.tournaments.arena`` decides; this
module only says when).

- **Opening**: registration closes at the settings' ``window_start`` (the seed revealed, the
  seeding fixed); an arena takes late entries while its window lasts (a late entrant is seeded
  last and waits for the next pairing).  Fewer than two entrants then: the close is tried again
  every tick until the window ends; an arena that never opened stays in registration (nothing
  to finish) and the schedule leaves it alone.
- **Pairing**: while the window lasts the waiting players (entered, not withdrawn, not at a game
  without a result) are paired by ``PairArena`` on every tick (half a second) and at once after a
  result is recorded, so a player who finishes meets a new opponent as soon as another one is
  free (results that come while a pairing is being decided are paired once more after it).  A pairing is a ``RoundStarted`` numbered on from the last, so each game's table id
  ``<tournament>:<pairing>:<table>`` (and the match id derived from it) is unique, and its tables
  are announced as a round's are.  The command id is ``system:pair:<pairing>``: several instances
  ticking at once store each pairing once.
- **Deadlines**: a game still without a result ``round_deadline_s`` after its pairing is forfeited
  by its no-show, as in the other formats; a table whose match never came is announced again.
- **The end**: at ``window_end`` pairing stops and the arena finishes with the standings of the
  games with a result.  Games still running then are played out by their players but do not count
  (Lichess: "games in progress may be finished, but they don't count"); their results arrive after
  the finish and are refused (``finished``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from contracts.envelope import Rejected
from contracts.tournaments import (
    CloseRegistration,
    FinishTournament,
    PairArena,
    RecordForfeit,
    RoundStarted,
    Table,
    TournamentAccepted,
    TournamentCommand,
    TournamentRequest,
)
from services.common import logs
from services.tournaments.held import Held


class Tournaments(Protocol):
    """What the schedule asks of the service (``services.tournaments.core.Tournaments``)."""

    clock: Callable[[], int]

    async def handle(self, request: TournamentRequest) -> TournamentAccepted | Rejected: ...

    async def announce(self, held: Held, started: RoundStarted) -> None: ...

    async def announce_missing(self, held: Held, number: int = 0) -> None: ...

    async def no_show(self, held: Held, rnd: int, table: int) -> str: ...

    async def _system(
        self, held: Held, command_id: str, command: TournamentCommand
    ) -> TournamentAccepted | Rejected: ...

log = logs.get("tournaments")


def is_arena(held: Held) -> bool:
    s = held.state.settings
    return s is not None and s.format == "arena"


async def schedule(service: Tournaments, held: Held) -> None:
    """One tick of an arena: open it at the window's start, forfeit no-shows, announce missing
    tables, pair the waiting players, finish it at the window's end."""
    st = held.state
    s = st.settings
    assert s is not None
    now = service.clock()
    if st.phase == "registration":
        if s.window_start <= now < s.window_end:
            closed = await service._system(held, "system:close", CloseRegistration(server_seed=""))
            if isinstance(closed, TournamentAccepted):
                await pair(service, held)
        return
    if st.phase != "running":
        return
    if now >= s.window_end:
        await service._system(held, "system:finish", FinishTournament())
        return
    for rnd in held.state.rounds:
        if rnd.complete():
            continue
        await service.announce_missing(held, rnd.round)
        started = held.round_started_at.get(rnd.round)
        if not s.round_deadline_s or started is None or now < started + s.round_deadline_s * 1000:
            continue
        for game in rnd.games:
            if game.ranks is None and not game.final_void and not game.voided:
                player = await service.no_show(held, rnd.round, game.table)
                await service._system(
                    held,
                    f"system:forfeit:{rnd.round}:{game.table}",
                    RecordForfeit(round=rnd.round, table=game.table, player=player),
                )
    await pair(service, held)


# Arenas being paired now (by ``id`` of their ``Held``): True when another pairing was asked for
# meanwhile.  A burst of results is paired by the pairing in progress and one more after it, not
# once per result (a pairing of a large arena reads every game so far).
_pairing: dict[int, bool] = {}


async def pair(service: Tournaments, held: Held) -> None:
    """Pair the waiting players now, if the window is open and two of them may meet (a refusal
    ``no_pairing`` is the usual answer and is not logged).  While a pairing of this arena is
    being decided, another call only asks for one more after it."""
    key = id(held)
    if key in _pairing:
        _pairing[key] = True
        return
    _pairing[key] = False
    try:
        while True:
            await _pair_once(service, held)
            if not _pairing[key]:
                return
            _pairing[key] = False
    finally:
        del _pairing[key]


async def _pair_once(service: Tournaments, held: Held) -> None:
    st = held.state
    s = st.settings
    if s is None or st.phase != "running" or held.broken:
        return
    now = service.clock()
    if not s.window_start <= now < s.window_end:
        return
    reply = await service.handle(
        TournamentRequest(
            tournament_id=held.tournament_id,
            command_id=f"system:pair:{len(st.rounds) + 1}",
            actor="system",
            command=PairArena(),
        )
    )
    if isinstance(reply, Rejected) and reply.code != "no_pairing":
        log.info(
            "arena_pairing_refused", tournament_id=held.tournament_id, code=reply.code, detail=reply.detail
        )


async def reannounce(service: Tournaments, held: Held) -> None:
    """At start: every arena game without a result again, of every pairing (they run at once)."""
    if held.state.phase != "running":
        return
    for rnd in held.state.rounds:
        tables = tuple(
            Table(table=g.table, seats=g.seats) for g in rnd.games if g.ranks is None and not g.voided
        )
        if tables:
            await service.announce(held, RoundStarted(round=rnd.round, tables=tables))
