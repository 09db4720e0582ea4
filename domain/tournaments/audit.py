"""The audit of a tournament from its events alone.

Every event is re-decided from the state before it: the command it records is rebuilt and
``decide`` must give back exactly the recorded events (a round's start together with its byes
and forfeits), so the seeding, every round's tables and the final standings are derived again
from the revealed seed and the results.  ``audit`` names the first thing that differs.
"""

from __future__ import annotations

from collections.abc import Sequence

from contracts.envelope import Rejected
from contracts.tournaments import (
    AmendResult,
    Bye,
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    Forfeit,
    JoinTournament,
    PairArena,
    PlayerJoined,
    PlayerWithdrew,
    RecordForfeit,
    RecordResult,
    RegistrationClosed,
    ResultAmended,
    ResultRecorded,
    ResultVoided,
    RoundStarted,
    StartRound,
    TournamentCommand,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments.decide import decide, evolve
from domain.tournaments.state import TournamentState, initial_state


def _command(event: TournamentEvent, state: TournamentState) -> TournamentCommand | None:
    if isinstance(event, TournamentCreated):
        return CreateTournament(tournament_id=event.tournament_id, settings=event.settings)
    if isinstance(event, PlayerJoined):
        return JoinTournament(player=event.player, rating=event.rating)
    if isinstance(event, PlayerWithdrew):
        return WithdrawFromTournament(player=event.player)
    if isinstance(event, RegistrationClosed):
        return CloseRegistration(server_seed=event.server_seed)
    if isinstance(event, RoundStarted):
        arena = state.settings is not None and state.settings.format == "arena"
        return PairArena() if arena else StartRound()
    if isinstance(event, ResultRecorded):
        return RecordResult(round=event.round, table=event.table, ranks=event.ranks, scores=event.scores)
    if isinstance(event, Forfeit):
        return RecordForfeit(round=event.round, table=event.table, player=event.player)
    if isinstance(event, ResultVoided):
        return VoidResult(round=event.round, table=event.table, reason=event.reason, final=event.final)
    if isinstance(event, ResultAmended):
        return AmendResult(
            round=event.round, table=event.table, ranks=event.ranks, scores=event.scores, reason=event.reason
        )
    if isinstance(event, TournamentFinished):
        return FinishTournament()
    return None  # a Bye is only ever part of a round's start


def _where(event: TournamentEvent) -> str:
    if isinstance(event, RegistrationClosed):
        return "the seeding"
    if isinstance(event, RoundStarted):
        return f"round {event.round} pairings"  # an arena's pairing number
    if isinstance(event, TournamentFinished):
        return "the final standings"
    rnd = getattr(event, "round", None)
    table = getattr(event, "table", None)
    if rnd is not None and table is not None:
        return f"round {rnd} table {table} result"
    return type(event).__name__


def _first_difference(expected: Sequence[TournamentEvent], recorded: Sequence[TournamentEvent]) -> str:
    for want, got in zip(expected, recorded, strict=False):
        if isinstance(want, RoundStarted) and isinstance(got, RoundStarted):
            for a, b in zip(want.tables, got.tables, strict=False):
                if a != b:
                    return f"table {a.table}: derived {' v '.join(a.seats)}, recorded {' v '.join(b.seats)}"
            if len(want.tables) != len(got.tables):
                return f"derived {len(want.tables)} tables, recorded {len(got.tables)}"
        if isinstance(want, TournamentFinished) and isinstance(got, TournamentFinished):
            for row, other in zip(want.standings, got.standings, strict=False):
                if row != other:
                    return (
                        f"rank {row.rank}: derived {row.player} {row.points} {row.tie_breaks}, "
                        f"recorded {other.player} {other.points} {other.tie_breaks}"
                    )
        if want != got:
            return f"derived {type(want).__name__}, recorded {type(got).__name__}"
    return f"derived {len(expected)} events, recorded {len(recorded)}"


def audit(events: Sequence[TournamentEvent]) -> str | None:
    """None when every event is what the rules derive; else the first round or standing that
    differs, in words."""
    state = initial_state()
    i = 0
    while i < len(events):
        event = events[i]
        command = _command(event, state)
        if command is None:
            return f"event {i + 1}: a {type(event).__name__} outside a round's start"
        expected = decide(state, command)
        if isinstance(expected, Rejected):
            return f"event {i + 1}, {_where(event)}: refused ({expected.code}: {expected.detail})"
        recorded = tuple(events[i : i + len(expected)])
        if recorded != expected:
            return f"event {i + 1}, {_where(event)} differ: {_first_difference(expected, recorded)}"
        for e in expected:
            state = evolve(state, e)
        i += len(expected)
        # a round's start holds all its byes: a Bye recorded after them is not derived
        if i < len(events) and isinstance(events[i], Bye):
            return f"event {i + 1}: a Bye the round's start does not derive"
    return None
