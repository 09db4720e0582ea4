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

from contracts.match import TimeControl

Format = Literal["round_robin", "double_round_robin", "swiss", "knockout", "fair_tables", "arena"]
FORMATS: tuple[str, ...] = ("round_robin", "double_round_robin", "swiss", "knockout", "fair_tables", "arena")
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
    "not_computer_player",
    "wrong_format",  # a command another format takes (PairArena outside an arena, StartRound in one)
)
# What the tournaments service itself answers, besides the rules' codes above.
SERVICE_REJECTION_CODES: tuple[str, ...] = ("malformed", "unavailable", "not_allowed", "unreadable_tournament")


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
    # Scheduling (the tournaments service; the rules never read the clock):
    start_at: int = 0  # unix ms: the service closes registration and starts round 1 then (0: the operator does)
    round_deadline_s: int = 0  # a game not finished this long after its round started is forfeited (0: none)
    time_control: TimeControl | None = None  # every game's clock (None: the preset's own, if any)
    # Computer entrants by strength (a name of the game's Decider.bots): entrant
    # ``bot:<game>:<i>`` (contracts.matchmaking.computer_player) plays at ``bots[i - 1]``.
    bots: tuple[str, ...] = ()
    # An arena's time window (unix ms; domain.tournaments.arena): the service closes registration
    # at ``window_start``, pairs the waiting players (PairArena) while it lasts and finishes the
    # arena at ``window_end``; games still running then do not count.
    window_start: int = 0
    window_end: int = 0


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
    # True (a dispute's ruling): the game is not played again; it counts for nobody and its round
    # may close without it.  False: a game of the current round waits for a result again.
    final: bool = False


class AmendResult(msgspec.Struct, frozen=True, kw_only=True, tag="amend_result.v1"):
    """A recorded (or voided) game's result replaced, e.g. by a dispute's ruling: in any round of
    any format, in a knockout only in the current round; also after the tournament finished (the
    final standings are then stated again)."""

    round: int
    table: int
    ranks: tuple[int, ...]  # per seat, 0 = first, as RecordResult
    scores: tuple[int, ...] = ()
    reason: str = ""


class FinishTournament(msgspec.Struct, frozen=True, kw_only=True, tag="finish_tournament.v1"):
    pass


class PairArena(msgspec.Struct, frozen=True, kw_only=True, tag="pair_arena.v1"):
    """An arena: pair the players waiting now (the service sends it on a timer and when a game
    ends); the pairing is a ``RoundStarted`` whose round is the pairing's number."""


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
    | PairArena
    | AmendResult
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
    final: bool = False  # as VoidResult's: the game is done, for nobody


class ResultAmended(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_result_amended.v1"):
    """A game's result replaced (``AmendResult``): the game counts with these ranks and scores."""

    round: int
    table: int
    ranks: tuple[int, ...]
    scores: tuple[int, ...] = ()
    reason: str = ""


class TournamentFinished(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_finished.v1"):
    """The final standings; stated again after a void or amendment of a finished tournament."""

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
    | ResultAmended
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


# --- the read side: what a page or a client sees (domain.tournaments.view) ------------------
#
# Words (``*_name``, ``*_text``, ``title``) come in the language the view was asked in
# (``lang``); codes, names and notation (results "1-0", "½-½", places "2=") are the same in
# every language.  Points here are points (a win 1, a draw 0.5), not half points.

GameStatus = Literal["to_play", "played", "forfeit", "voided"]
CellKind = Literal["game", "to_play", "voided", "bye", "out"]


class EntrantView(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    rating: float = 0.0
    seed: int = 0  # 1-based seeding number once registration closed, else 0
    withdrawn: bool = False


class GameView(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round: ``seats[0]`` moves, deals or leads first."""

    table: int
    seats: tuple[str, ...]
    status: GameStatus
    ranks: tuple[int, ...] | None = None  # per seat, 0 = first; None until played (or voided)
    places: tuple[int, ...] = ()  # per seat, 1-based, shared places equal
    scores: tuple[int, ...] = ()  # the game's own totals, when recorded
    forfeit: str = ""  # who forfeited
    result: str = ""  # notation: "1-0", "0-1", "½-½" for two seats, else the places "1 2 2 4"
    text: str = ""  # the status in words ("to play", "forfeit: ann", "voided"), "" when played


class ByeView(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    points: float
    text: str


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    title: str  # "Round 2"
    complete: bool
    games: tuple[GameView, ...]
    byes: tuple[ByeView, ...] = ()


class CrossCell(msgspec.Struct, frozen=True, kw_only=True):
    """A player's round in the crosstable.  Two seats: the opponent and the result; fair tables:
    the table, the position at it and the place."""

    round: int
    kind: CellKind
    table: int = 0
    seat: int = 0  # the position at the table, 0-based (0 moves, deals or leads first)
    opponents: tuple[str, ...] = ()
    place: int = 0  # 1-based, 0 until played
    points: float | None = None  # points scored at the table (a bye's points), None until played
    mark: str = ""  # notation: "1", "½", "0", "+" / "-" (forfeit won / lost), "×" voided; places "1", "2="


class CrossRow(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    seed: int
    points: float
    cells: tuple[CrossCell, ...]  # one per round started


class TieBreakName(msgspec.Struct, frozen=True, kw_only=True):
    code: TieBreak
    name: str


class StandingView(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player: str
    points: float
    tie_breaks: tuple[float, ...] = ()  # in the order of the view's tie_breaks
    withdrawn: bool = False


class TableEvenness(msgspec.Struct, frozen=True, kw_only=True):
    """Fair tables: how evenly the rounds so far seat players (domain.tournaments.tables.evenness;
    docs/architecture.md "Fair tables: the measure")."""

    pairs: float
    positions: float
    total: float
    min_meetings: int
    max_meetings: int
    max_position_gap: float
    text: str


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    game: str
    game_title: str
    preset: str
    preset_title: str
    format: Format
    format_name: str
    rated: bool
    table_size: int
    phase: Literal["registration", "running", "finished"]
    phase_text: str
    entrants: int
    round: int  # rounds started
    rounds_total: int
    seq: int  # records folded


class TournamentList(msgspec.Struct, frozen=True, kw_only=True):
    tournaments: tuple[TournamentSummary, ...]


class TournamentView(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    lang: str
    seq: int  # records folded: a newer view has a higher seq
    game: str
    game_title: str
    preset: str
    preset_title: str
    format: Format
    format_name: str
    rated: bool
    table_size: int
    settings: TournamentSettings
    settings_text: tuple[str, ...]  # the settings in words, a line each
    phase: Literal["registration", "running", "finished"]
    phase_text: str
    can_join: bool  # registration is open
    round: int  # rounds started
    rounds_total: int
    entrants: tuple[EntrantView, ...]  # seeding order once registration closed, else join order
    rounds: tuple[RoundView, ...]
    crosstable: tuple[CrossRow, ...]  # standings order
    tie_breaks: tuple[TieBreakName, ...]
    standings: tuple[StandingView, ...]
    final: bool  # the standings are the recorded final ones
    evenness: TableEvenness | None = None  # fair tables, once a round started


class TournamentBundle(msgspec.Struct, frozen=True, kw_only=True):
    """Every record of a tournament in order, as stored (``gamehall tournaments audit``)."""

    tournament_id: str
    records: tuple[TournamentRecord, ...]


class TournamentSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A player's game of the round being played (``GET /api/tournaments/{id}/seat``): the match
    and the seat token to play it with (derived as a matchmaking table's, stored nowhere)."""

    tournament_id: str
    round: int
    table: int
    match_id: str
    game: str
    seat: str
    token: str
    players: tuple[str, ...]  # in seat order


class TournamentViewFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="view"):
    """What ``/ws/tournaments/{tournament_id}`` sends at once and after every record stored for the
    tournament (an error, the match socket's ``ErrorFrame``, before a 44xx close)."""

    view: TournamentView
