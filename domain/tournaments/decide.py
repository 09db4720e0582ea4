"""decide and evolve: a tournament as a Decider (ARCHITECTURE §3), pure.

``decide(state, command)`` returns the events of one decision or a ``Rejected`` with a code from
``contracts.tournaments.REJECTION_CODES``; ``evolve(state, event)`` folds one event.  A round's
start computes its tables from the state alone (``pairing.next_round``), so the same events
always give the same pairings.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

import msgspec

from contracts.envelope import Rejected
from contracts.matchmaking import computer_player, is_computer_player
from contracts.tournaments import (
    FORMATS,
    TIE_BREAKS,
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
    Standing,
    StartRound,
    TournamentCommand,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentSettings,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments import arena
from domain.tournaments.pairing import counted, forfeit_ranks, next_round, seed_key, seeding, total_rounds
from domain.tournaments.standings import CountedGame, standings
from domain.tournaments.state import GameState, RoundState, TournamentState, initial_state

Decision = tuple[TournamentEvent, ...] | Rejected
_HEX64 = re.compile(r"[0-9a-f]{64}")


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def settings_problem(s: TournamentSettings) -> str | None:
    if s.format not in FORMATS:
        return f"unknown format {s.format}"
    if not _HEX64.fullmatch(s.seed_commitment):
        return "seed_commitment must be a sha256 hex digest"
    if s.format == "fair_tables":
        if s.table_size not in (3, 4):
            return "fair_tables seats 3 or 4 at a table"
        if s.min_table_size and not 2 <= s.min_table_size <= s.table_size:
            return "min_table_size must be between 2 and table_size"
    elif s.table_size != 2:
        return f"{s.format} is for two-seat games"
    if s.format == "arena":
        if not 0 <= s.window_start < s.window_end:
            return "an arena needs a time window: 0 <= window_start < window_end"
        if s.tie_breaks:
            return "an arena ranks by points alone (no tie-breaks)"
    elif s.window_start or s.window_end:
        return f"{s.format} has rounds, not a time window"
    if s.format in ("swiss", "fair_tables") and s.rounds < 1:
        return f"{s.format} needs rounds >= 1"
    if s.format not in ("swiss", "fair_tables") and s.rounds:
        return f"{s.format} derives its rounds (leave rounds 0)"
    bad = [t for t in s.tie_breaks if t not in TIE_BREAKS]
    if bad:
        return f"unknown tie-break {bad[0]}"
    if len(set(s.tie_breaks)) != len(s.tie_breaks):
        return "a tie-break named twice"
    if s.bye_points < 0:
        return "bye_points must not be negative"
    if s.start_at < 0 or s.round_deadline_s < 0:
        return "start_at and round_deadline_s must not be negative"
    if any(not b for b in s.bots):
        return "a computer entrant needs a strength"
    return None


def computer_entrants(s: TournamentSettings) -> tuple[str, ...]:
    """The computer players the settings allow, in order (``bot:<game>:<i>`` plays at
    ``s.bots[i - 1]``)."""
    return tuple(computer_player(s.game, i + 1) for i in range(len(s.bots)))


def current_standings(state: TournamentState) -> tuple[Standing, ...]:
    s = state.settings
    assert s is not None
    if s.format == "arena":
        return arena.standings(state.order, arena.current_points(state))
    games: list[CountedGame] = []
    byes: dict[str, int] = {}
    for rnd in state.rounds:
        for g in rnd.games:
            c = counted(g)
            if c is not None:
                games.append(c)
        for p, pts in rnd.byes:
            byes[p] = byes.get(p, 0) + pts
    return standings(state.order, games, byes, s.tie_breaks)


def _game(state: TournamentState, rnd: int, table: int) -> GameState | Rejected:
    if not 1 <= rnd <= len(state.rounds):
        return _reject("unknown_game", f"no round {rnd}")
    games = state.rounds[rnd - 1].games
    if not 1 <= table <= len(games):
        return _reject("unknown_game", f"round {rnd} has no table {table}")
    return games[table - 1]


def _open_game(state: TournamentState, rnd: int, table: int) -> GameState | Rejected:
    game = _game(state, rnd, table)
    if isinstance(game, Rejected):
        return game
    arena_game = state.settings is not None and state.settings.format == "arena"
    if rnd != len(state.rounds) and not arena_game:  # an arena's games of every pairing run at once
        return _reject("round_closed", f"round {rnd} is over; results go to round {len(state.rounds)}")
    if game.ranks is not None:
        return _reject("result_exists", f"round {rnd} table {table} has a result")
    if game.final_void:
        return _reject("result_exists", f"round {rnd} table {table} was voided for good (amend_result gives it one)")
    return game


def _bad_result(
    s: TournamentSettings, game: GameState, ranks: tuple[int, ...], scores: tuple[int, ...]
) -> Rejected | None:
    n = len(game.seats)
    if len(ranks) != n or min(ranks, default=-1) != 0 or max(ranks) >= n:
        return _reject("bad_result", f"{n} ranks from 0 expected")
    if scores and len(scores) != n:
        return _reject("bad_result", f"{n} scores expected")
    if s.format == "knockout" and ranks.count(0) > 1:
        return _reject("draw_not_allowed", "a knockout game needs a winner")
    return None


def _ruling(state: TournamentState, command: VoidResult | AmendResult) -> tuple[TournamentEvent, ...] | Rejected:
    """A void or an amendment of a game with a result (an amendment also of a voided game), in
    any round; in a knockout only in the current round, whose winners the next round is drawn
    from."""
    s = state.settings
    assert s is not None
    game = _game(state, command.round, command.table)
    if isinstance(game, Rejected):
        return game
    where = f"round {command.round} table {command.table}"
    if isinstance(command, VoidResult):
        # a game voided to be played again may still be voided for good
        if game.ranks is None and not (command.final and game.voided and not game.final_void):
            return _reject("not_recorded", f"{where} has no result")
    elif game.ranks is None and not game.voided:
        return _reject("not_recorded", f"{where} has no result to amend")
    if s.format == "knockout" and command.round != len(state.rounds):
        return _reject("round_closed", "a knockout result stands once the next round is drawn")
    if isinstance(command, VoidResult):
        if s.format == "knockout" and command.final:
            return _reject("draw_not_allowed", "a knockout game needs a winner: amend it, or void it to be played again")
        voided = ResultVoided(round=command.round, table=command.table, reason=command.reason, final=command.final)
        return (voided,)
    bad = _bad_result(s, game, command.ranks, command.scores)
    if bad:
        return bad
    return (
        ResultAmended(
            round=command.round,
            table=command.table,
            ranks=command.ranks,
            scores=command.scores,
            reason=command.reason,
        ),
    )


def _running(state: TournamentState) -> Rejected | None:
    if state.phase == "new":
        return _reject("not_created")
    if state.phase == "finished":
        return _reject("finished")
    if state.phase == "registration":
        return _reject("registration_open")
    return None


def decide(state: TournamentState, command: TournamentCommand) -> Decision:
    if isinstance(command, CreateTournament):
        if state.phase != "new":
            return _reject("already_created")
        problem = settings_problem(command.settings)
        if problem:
            return _reject("bad_settings", problem)
        return (TournamentCreated(tournament_id=command.tournament_id, settings=command.settings),)
    if state.phase == "new":
        return _reject("not_created")
    if state.phase == "finished" and isinstance(command, (VoidResult, AmendResult)):
        ruled = _ruling(state, command)
        if isinstance(ruled, Rejected):
            return ruled
        # the final standings follow the changed game
        return (*ruled, TournamentFinished(standings=current_standings(fold(ruled, state))))
    if state.phase == "finished":
        return _reject("finished")
    s = state.settings
    assert s is not None
    if isinstance(command, JoinTournament):
        if state.phase != "registration" and s.format != "arena":  # an arena takes late entries
            return _reject("registration_closed")
        if command.player in state.entrants:
            return _reject("already_joined", command.player)
        if is_computer_player(command.player) and command.player not in computer_entrants(s):
            return _reject(
                "not_computer_player",
                f"{command.player} is not one of the {len(s.bots)} computer entrants the settings allow",
            )
        return (PlayerJoined(player=command.player, rating=command.rating),)
    if isinstance(command, WithdrawFromTournament):
        if command.player not in state.entrants or command.player in state.withdrawn_players():
            return _reject("unknown_player", command.player)
        return (PlayerWithdrew(player=command.player),)
    if isinstance(command, CloseRegistration):
        if state.phase != "registration":
            return _reject("registration_closed")
        least = 2 if s.format != "fair_tables" else (s.min_table_size or s.table_size)
        if len(state.entrants) < least:
            return _reject("too_few_players", f"{len(state.entrants)} of at least {least}")
        try:
            seed = bytes.fromhex(command.server_seed)
        except ValueError:
            return _reject("seed_mismatch", "the seed is not hex")
        if hashlib.sha256(seed).hexdigest() != s.seed_commitment:
            return _reject("seed_mismatch", "the seed does not match the commitment")
        order = seeding(state.entrants, state.ratings, seed_key(command.server_seed))
        return (RegistrationClosed(server_seed=command.server_seed, order=order),)
    refused = _running(state)
    if refused:
        return refused
    if isinstance(command, PairArena):
        if s.format != "arena":
            return _reject("wrong_format", f"{s.format} starts rounds (start_round), it does not pair continuously")
        tables = arena.next_pairing(state)
        if not tables:
            return _reject("no_pairing", "fewer than two players waiting who may meet")
        return (RoundStarted(round=len(state.rounds) + 1, tables=tables),)
    if s.format == "arena" and isinstance(command, StartRound):
        return _reject("wrong_format", "an arena pairs its waiting players (pair_arena), it has no rounds")
    if isinstance(command, StartRound):
        if state.rounds and not state.rounds[-1].complete():
            return _reject("round_in_progress", f"round {len(state.rounds)} has games without a result")
        if len(state.rounds) >= total_rounds(state):
            return _reject("no_more_rounds")
        planned = next_round(state)
        if isinstance(planned, Rejected):
            return planned
        number = len(state.rounds) + 1
        events: list[TournamentEvent] = [RoundStarted(round=number, tables=planned.tables)]
        events += [Bye(round=number, player=p, points=pts) for p, pts in planned.byes]
        events += [Forfeit(round=number, table=t, player=p) for t, p in planned.forfeits]
        return tuple(events)
    if isinstance(command, RecordResult):
        game = _open_game(state, command.round, command.table)
        if isinstance(game, Rejected):
            return game
        bad = _bad_result(s, game, command.ranks, command.scores)
        if bad:
            return bad
        return (
            ResultRecorded(
                round=command.round, table=command.table, ranks=command.ranks, scores=command.scores
            ),
        )
    if isinstance(command, RecordForfeit):
        game = _open_game(state, command.round, command.table)
        if isinstance(game, Rejected):
            return game
        if command.player not in game.seats:
            return _reject("not_at_table", command.player)
        return (Forfeit(round=command.round, table=command.table, player=command.player),)
    if isinstance(command, (VoidResult, AmendResult)):
        return _ruling(state, command)
    if isinstance(command, FinishTournament):
        if s.format == "arena":  # at the window's end: games without a result do not count
            return (TournamentFinished(standings=current_standings(state)),)
        if len(state.rounds) < total_rounds(state) or not state.rounds[-1].complete():
            return _reject("rounds_remaining", f"{len(state.rounds)} of {total_rounds(state)} rounds started")
        return (TournamentFinished(standings=current_standings(state)),)
    raise TypeError(f"not a tournament command: {command!r}")


def _set_game(state: TournamentState, rnd: int, table: int, **changes: object) -> TournamentState:
    rounds = list(state.rounds)
    r = rounds[rnd - 1]
    games = list(r.games)
    games[table - 1] = msgspec.structs.replace(games[table - 1], **changes)
    rounds[rnd - 1] = msgspec.structs.replace(r, games=tuple(games))
    return msgspec.structs.replace(state, rounds=tuple(rounds))


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    replace = msgspec.structs.replace
    if isinstance(event, TournamentCreated):
        return replace(
            state, phase="registration", tournament_id=event.tournament_id, settings=event.settings
        )
    if isinstance(event, PlayerJoined):
        joined = replace(
            state, entrants=(*state.entrants, event.player), ratings=(*state.ratings, event.rating)
        )
        # a late entrant of a running arena is seeded last
        return replace(joined, order=(*state.order, event.player)) if state.phase == "running" else joined
    if isinstance(event, PlayerWithdrew):
        if state.phase == "registration":
            i = state.entrants.index(event.player)
            return replace(
                state,
                entrants=state.entrants[:i] + state.entrants[i + 1 :],
                ratings=state.ratings[:i] + state.ratings[i + 1 :],
            )
        return replace(state, withdrawn=(*state.withdrawn, (event.player, len(state.rounds))))
    if isinstance(event, RegistrationClosed):
        return replace(state, phase="running", server_seed=event.server_seed, order=event.order)
    if isinstance(event, RoundStarted):
        games = tuple(GameState(table=t.table, seats=t.seats) for t in event.tables)
        return replace(state, rounds=(*state.rounds, RoundState(round=event.round, games=games)))
    if isinstance(event, Bye):
        last = state.rounds[-1]
        rounds = (*state.rounds[:-1], replace(last, byes=(*last.byes, (event.player, event.points))))
        return replace(state, rounds=rounds)
    if isinstance(event, ResultRecorded):
        n = state.results + 1
        state = replace(state, results=n)
        return _set_game(
            state, event.round, event.table, ranks=event.ranks, scores=event.scores, voided=False, finished_seq=n
        )
    if isinstance(event, Forfeit):
        n = state.results + 1
        state = replace(state, results=n)
        seats = state.rounds[event.round - 1].games[event.table - 1].seats
        return _set_game(
            state,
            event.round,
            event.table,
            ranks=forfeit_ranks(seats, event.player),
            forfeit=event.player,
            finished_seq=n,
        )
    if isinstance(event, ResultVoided):
        return _set_game(
            state,
            event.round,
            event.table,
            ranks=None,
            scores=(),
            forfeit="",
            voided=True,
            final_void=event.final,
            finished_seq=0,
        )
    if isinstance(event, ResultAmended):
        game = state.rounds[event.round - 1].games[event.table - 1]
        seq = game.finished_seq  # an arena's streaks keep the order the game finished in
        if not seq:  # a voided game given a result counts from now
            seq = state.results + 1
            state = replace(state, results=seq)
        return _set_game(
            state,
            event.round,
            event.table,
            ranks=event.ranks,
            scores=event.scores,
            forfeit="",
            voided=False,
            final_void=False,
            finished_seq=seq,
        )
    if isinstance(event, TournamentFinished):
        return replace(state, phase="finished", standings=event.standings)
    raise TypeError(f"not a tournament event: {event!r}")


def fold(events: Iterable[TournamentEvent], state: TournamentState | None = None) -> TournamentState:
    current = initial_state() if state is None else state
    for event in events:
        current = evolve(current, event)
    return current
