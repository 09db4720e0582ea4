"""A small driver for tournament tests: commands in, events kept, every decision checked."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from contracts.envelope import Rejected
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    JoinTournament,
    RecordResult,
    RoundStarted,
    StartRound,
    Table,
    TournamentCommand,
    TournamentEvent,
    TournamentSettings,
)
from domain.tournaments import decide, evolve, initial_state
from domain.tournaments.state import TournamentState

SEED = bytes(range(32))
SEED_HEX = SEED.hex()
COMMITMENT = hashlib.sha256(SEED).hexdigest()


def settings(fmt: str, **kw: object) -> TournamentSettings:
    return TournamentSettings(format=fmt, game="ugolki", preset="classic", seed_commitment=COMMITMENT, **kw)  # type: ignore[arg-type]


class Run:
    def __init__(self) -> None:
        self.state: TournamentState = initial_state()
        self.events: list[TournamentEvent] = []

    def do(self, command: TournamentCommand) -> tuple[TournamentEvent, ...]:
        decided = decide(self.state, command)
        assert not isinstance(decided, Rejected), decided
        for event in decided:
            self.state = evolve(self.state, event)
        self.events.extend(decided)
        return decided

    def refuse(self, command: TournamentCommand) -> str:
        decided = decide(self.state, command)
        assert isinstance(decided, Rejected), decided
        return decided.code

    def start(self) -> RoundStarted:
        started = self.do(StartRound())[0]
        assert isinstance(started, RoundStarted)
        return started


def opened(fmt: str, players: Sequence[str], ratings: Sequence[float] | None = None, **kw: object) -> Run:
    run = Run()
    run.do(CreateTournament(tournament_id="t1", settings=settings(fmt, **kw)))
    for i, p in enumerate(players):
        run.do(JoinTournament(player=p, rating=0.0 if ratings is None else ratings[i]))
    run.do(CloseRegistration(server_seed=SEED_HEX))
    return run


Result = Callable[[RoundStarted, int], tuple[int, ...]]


def higher_seed_wins(run: Run) -> Result:
    seed = {p: i for i, p in enumerate(run.state.order)}

    def result(started: RoundStarted, table: int) -> tuple[int, ...]:
        seats = started.tables[table - 1].seats
        best = min(seats, key=lambda p: seed[p])
        return tuple(0 if p == best else 1 for p in seats)

    return result


def play_all(run: Run, result: Result | None = None, finish: bool = True) -> None:
    outcome = result or higher_seed_wins(run)
    while True:
        if run.state.rounds:
            last = run.state.rounds[-1]
            started = RoundStarted(
                round=last.round, tables=tuple(Table(table=g.table, seats=g.seats) for g in last.games)
            )
            for g in last.games:
                if g.ranks is None:
                    run.do(RecordResult(round=last.round, table=g.table, ranks=outcome(started, g.table)))
        decided = decide(run.state, StartRound())
        if isinstance(decided, Rejected):
            assert decided.code == "no_more_rounds", decided
            break
        run.start()
    if finish:
        run.do(FinishTournament())
