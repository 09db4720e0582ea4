"""Tournaments: settings, commands and events of one tournament (docs/architecture.md
"Tournaments (the pure core)").

A tournament is event-sourced like a match: its state is the fold of these events
(``domain.tournaments``).  Pairings are a pure function of the events before them and of the
server seed, committed in ``TournamentCreated`` (``seed_commitment`` = sha256 hex of the seed) and
revealed in ``RegistrationClosed`` once the entrants are fixed, so anyone holding the events
re-derives every round's tables and the final standings (``domain.tournaments.audit``).

Points are counted in half points (a win 2, a draw 1, a loss 0) so every total is an integer; at
a table of 3 or 4 a player scores 2 for each table mate placed below and 1 for each placed level.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Format = Literal["round_robin", "double_round_robin", "swiss", "knockout", "fair_tables"]
FORMATS: tuple[str, ...] = ("round_robin", "double_round_robin", "swiss", "knockout", "fair_tables")
TieBreak = Literal[
    "buchholz", "median_buchholz", "sonneborn_berger", "direct_encounter", "wins", "game_totals"
]
TIE_BREAKS: tuple[str, ...] = (
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "direct_encounter",
    "wins",
    "game_totals",
)

REJECTION_CODES: tuple[str, ...] = (
    "not_created",
    "already_created",
    "bad_settings",
    "registration_closed",
    "registration_open",
    "already_joined",
    "unknown_player",
    "too_few_players",
    "seed_mismatch",
    "round_in_progress",
    "no_more_rounds",
    "no_pairing",
    "unknown_game",
    "result_exists",
    "not_recorded",
    "bad_result",
    "draw_not_allowed",
    "not_at_table",
    "round_closed",
    "rounds_remaining",
    "finished",
)


class TournamentSettings(msgspec.Struct, frozen=True, kw_only=True):
    format: Format
    game: str
    preset: str
    seed_commitment: str  # sha256(server_seed).hexdigest()
    rated: bool = False
    rounds: int = 0  # swiss and fair_tables: how many rounds; the other formats derive it (0)
    table_size: int = 2  # seats per game: 2, or 3 or 4 for fair_tables
    min_table_size: int = 0  # fair_tables: the smallest table when the count does not divide (0: table_size)
    tie_breaks: tuple[TieBreak, ...] = ()
    bye_points: int = 2  # half points for a bye (2: a win)


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round: ``seats[0]`` moves first (White) or deals/leads first."""

    table: int  # 1-based within the round
    seats: tuple[str, ...]


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int  # 1-based; players equal on points and every tie-break share a rank
    player: str
    points: float
    tie_breaks: tuple[float, ...] = ()  # in the order of the settings' tie_breaks


# --- commands ---------------------------------------------------------------------------------


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True, tag="create_tournament.v1"):
    tournament_id: str
    settings: TournamentSettings


class JoinTournament(msgspec.Struct, frozen=True, kw_only=True, tag="join_tournament.v1"):
    player: str
    rating: float = 0.0  # orders the seeding (Swiss pairing numbers, knockout seeds)


class WithdrawFromTournament(msgspec.Struct, frozen=True, kw_only=True, tag="withdraw_from_tournament.v1"):
    player: str


class CloseRegistration(msgspec.Struct, frozen=True, kw_only=True, tag="close_registration.v1"):
    server_seed: str  # hex; must match the creation's commitment


class StartRound(msgspec.Struct, frozen=True, kw_only=True, tag="start_round.v1"):
    pass


class RecordResult(msgspec.Struct, frozen=True, kw_only=True, tag="record_result.v1"):
    round: int
    table: int
    ranks: tuple[int, ...]  # per seat, 0 = first; equal ranks are a draw between those seats
    scores: tuple[int, ...] = ()  # per seat, the game's own totals (card games), optional


class RecordForfeit(msgspec.Struct, frozen=True, kw_only=True, tag="record_forfeit.v1"):
    round: int
    table: int
    player: str  # the player who forfeits: placed last, the others level first


class VoidResult(msgspec.Struct, frozen=True, kw_only=True, tag="void_result.v1"):
    round: int
    table: int
    reason: str = ""


class FinishTournament(msgspec.Struct, frozen=True, kw_only=True, tag="finish_tournament.v1"):
    pass


TournamentCommand = (
    CreateTournament
    | JoinTournament
    | WithdrawFromTournament
    | CloseRegistration
    | StartRound
    | RecordResult
    | RecordForfeit
    | VoidResult
    | FinishTournament
)


# --- events -----------------------------------------------------------------------------------


class TournamentCreated(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_created.v1"):
    tournament_id: str
    settings: TournamentSettings


class PlayerJoined(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_player_joined.v1"):
    player: str
    rating: float = 0.0


class PlayerWithdrew(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_player_withdrew.v1"):
    player: str


class RegistrationClosed(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_registration_closed.v1"):
    server_seed: str  # revealed: sha256 of its bytes is the creation's commitment
    order: tuple[str, ...]  # the seeding: rating high to low, equal ratings in the seed's order


class RoundStarted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_round_started.v1"):
    round: int  # 1-based
    tables: tuple[Table, ...]


class Bye(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_bye.v1"):
    round: int
    player: str
    points: int  # half points


class ResultRecorded(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_result_recorded.v1"):
    round: int
    table: int
    ranks: tuple[int, ...]
    scores: tuple[int, ...] = ()


class Forfeit(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_forfeit.v1"):
    round: int
    table: int
    player: str


class ResultVoided(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_result_voided.v1"):
    round: int
    table: int
    reason: str = ""


class TournamentFinished(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_finished.v1"):
    standings: tuple[Standing, ...]


TournamentEvent = (
    TournamentCreated
    | PlayerJoined
    | PlayerWithdrew
    | RegistrationClosed
    | RoundStarted
    | Bye
    | ResultRecorded
    | Forfeit
    | ResultVoided
    | TournamentFinished
)


# --- storage and wire (the tournaments service, docs/architecture.md "Tournaments") -----------


class TournamentRecord(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_record.v1"):
    """One stored decision of a tournament: a message on ``tournament.<tournament_id>`` of the
    stream ``GH_TOURNAMENTS``, appended with the expected last subject sequence ``seq - 1``.

    ``prev_hash`` chains it to the previous record's stored bytes (sha256 hex; the first record's
    is ``sha256(tournament_id)``, as a match's envelope chain), so the log is tamper-evident and a
    bundle of the records is the whole of a tournament for ``gamehall tournaments audit``.
    """

    tournament_id: str
    seq: int  # 1-based decision number within the tournament
    command_id: str
    recorded_at: int  # unix milliseconds, stamped by the service, never read by the rules
    prev_hash: str
    actor: str  # who sent the command: "operator", a player's name, or "system" (deadlines, results)
    command: TournamentCommand
    events: tuple[TournamentEvent, ...]


class TournamentRequest(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_request.v1"):
    """A command to the tournaments service (request/reply on ``tournaments.cmd``)."""

    tournament_id: str
    command_id: str  # idempotency: a retried command id gets the first reply again
    actor: str
    command: TournamentCommand


class TournamentAccepted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_accepted.v1"):
    tournament_id: str
    seq: int
    command_id: str
    events: tuple[TournamentEvent, ...]
    duplicate: bool = False
