"""The public API's own messages, as a client reads and sends them (docs/api.md): the error body,
the reply to a match creation, a decision as a viewer sees it, a command's reply, and the
WebSocket frames.  The typed client (``gamehall.client``) decodes with these; the match view is
``contracts.match.MatchView`` and each game's commands and views are in ``contracts.games``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from contracts.envelope import Accepted
from contracts.match import MatchView


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """Every HTTP error answer (4xx and 5xx) and, with ``type: error``, every WebSocket error frame."""

    code: str
    detail: str = ""
    retry_after: float | None = None  # 429 and 503


class SeatToken(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    token: str  # acts for this seat only; shown once
    websocket: str = ""  # ws(s)://host/ws/matches/ID?token=...: this seat's live socket, ready to open


class BotSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat handed to the computer: ``status`` is ``seated``, ``refused`` or ``unavailable``
    (the bots service did not answer; ``detail`` says why), or ``unknown`` on a replayed reply."""

    seat: str
    strength: str
    status: str
    detail: str = ""


class Invite(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    url: str  # a path on the gateway's web page: whoever opens it plays that seat


class MatchCreatedReply(msgspec.Struct, frozen=True, kw_only=True):
    """``201`` of ``POST /api/matches``: the people's seats with their tokens, the computer's seats,
    a share link per person's seat, and where to read and watch the match."""

    match_id: str
    game: str
    preset: str
    seats: tuple[SeatToken, ...]
    bots: tuple[BotSeat, ...] = ()
    invites: tuple[Invite, ...] = ()
    view: str = ""
    websocket: str = ""

    def token(self, seat: str) -> str:
        return next(s.token for s in self.seats if s.seat == seat)


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One stored decision as a viewer sees it: its events redacted for that viewer (each event a
    JSON object with its ``type`` tag, as the game's contract defines it)."""

    seq: int
    seat: str | None = None
    recorded_at: int | None = None
    events: tuple[dict[str, Any], ...] = ()
    # Beside each event, its line of the match log as this viewer may see it, in the language asked
    # for ("" for an event without one); computed when viewed, never stored.
    texts: tuple[str, ...] = ()


class CommandRejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected.v1"):
    """A refused command as a WebSocket ``reply`` carries it (the HTTP route answers the same as an
    error body with ``status``)."""

    code: str
    detail: str = ""
    status: int = 409

    @property
    def type(self) -> str:
        """The reply's type as it is on the wire: ``rejected.v1``."""
        return "rejected.v1"


CommandReply = Accepted | CommandRejected


class EventsFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="events"):
    events: tuple[Decision, ...]


class ViewFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="view"):
    view: MatchView


class ReplyFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="reply"):
    reply: CommandReply
    command_id: str | None = None


class ErrorFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="error"):
    """Sent before the server closes the socket with a 44xx (or 1003/1009/1013) close code."""

    code: str
    detail: str = ""


ServerFrame = EventsFrame | ViewFrame | ReplyFrame | ErrorFrame


class CommandFrame(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="command"):
    """The one message a client sends on the match socket."""

    command: Any
    command_id: str | None = None


# WebSocket close codes after an error frame (docs/api.md "Live updates").
CLOSE_CODES: dict[int, str] = {
    4400: "a frame the server cannot take (malformed, too_deep, too_long, unknown_type)",
    4401: "a token that belongs to no seat of this match (bad_token)",
    4403: "the token names a seat the match does not have (not_a_seat)",
    4404: "no such match (match_not_found)",
    4408: "the socket fell too far behind (slow_consumer)",
    4429: "rate limited or too many sockets from the address (too_many_sockets)",
}

frame_decoder = msgspec.json.Decoder(ServerFrame)


# --------------------------------------------------------------------------------------------
# The HTTP API's bodies and replies as the gateway declares them: pydantic models, because
# FastAPI validates request bodies and documents ``response_model``s with pydantic (the routes
# answer through them, so the OpenAPI description is the shape of every reply).  The structs
# above stay msgspec: they are what the client library decodes.  Field order is the order of
# every reply's keys; ``Number`` keeps an integer an integer (a float field would write 1 as 1.0).

MAX_PLAYER_NAME = 64  # characters of a player name (the gateway's edge checks the same)
MAX_COMMAND_ID = 128  # characters of a command id

Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_PLAYER_NAME)]
Word = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Number = int | float


class TimeControlBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_s: float = Field(default=0, description="Fischer: seconds for the whole match.")
    increment_s: float = Field(
        default=0, description="Fischer: seconds added after each of the seat's moves."
    )
    move_s: float = Field(default=0, description="Per move: seconds for every turn (instead of base_s).")
    grace_s: float = Field(
        default=0,
        description="A seat that is to move this long in all without sending any command is abandoned "
        "(docs/architecture.md, Abandonment). 0: never.",
    )
    on_timeout: Literal["forfeit", "bot"] | None = Field(
        default=None,
        description='What a timed-out or abandoned seat becomes: "bot" (a computer player takes the seat over '
        'and the match goes on; the default of a casual match) or "forfeit" (the game\'s rule).',
    )


class CreateMatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Word = Field(description="Game name, e.g. 'ugolki'. See GET /api/games.")
    preset: Word | None = Field(default=None, description="Preset name; the game's default when omitted.")
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Ruleset parameters overriding the preset."
    )
    players: list[Name] | None = Field(
        default=None,
        max_length=16,
        description="Display names (1-64 characters), one per seat. They are guests (no credential): "
        "the match is never rated; rated play goes through POST /api/queue with a player credential.",
    )
    seats: int | None = Field(
        default=None, ge=1, le=16, description="Number of seats (games with 2-N seats)."
    )
    ranked: bool = Field(
        default=False, description="Must be false here: rated matches are formed by POST /api/queue."
    )
    bots: dict[Word, Word] = Field(
        default_factory=dict,
        description="Seats played by the computer: seat -> strength (see 'bots' in GET /api/games). "
        "Their tokens go to the bots service; the reply holds only the other seats' tokens.",
    )
    bot_think_ms: int | None = Field(
        default=None, ge=0, le=10_000, description="Computer players' pause before each move (ms)."
    )
    time_control: TimeControlBody | None = Field(
        default=None,
        description='The clock: {"base_s": B, "increment_s": I} (Fischer) or {"move_s": M} (per move), '
        'optionally "grace_s" and "on_timeout". A seat whose time runs out times out by the game\'s rule, '
        "or goes to a computer player (docs/audit.md, Clocks).",
    )


class CommandBody(BaseModel):
    """The body of ``POST /api/matches/{id}/commands`` (each game's exact commands are in the
    OpenAPI description as ``<game>.CommandRequest``)."""

    model_config = ConfigDict(extra="forbid")

    command: dict[str, Any] = Field(
        description='The command as JSON with its tag, e.g. {"type": "move_piece.v1", "path": ["h3", "h5"]}.'
        " Fields the command does not have are refused."
    )
    command_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_COMMAND_ID,
        description="Idempotency key (1-128 characters): a retry with the same id returns the first reply.",
    )


class SignUpBody(BaseModel):
    name: str = Field(min_length=1, max_length=64, description="Your player name (unique).")


class JoinBody(BaseModel):
    player: str | None = Field(
        default=None,
        max_length=64,
        description="Optional: your player name; it must be the one your credential names.",
    )
    game: str
    preset: str | None = None
    seats: int = 2
    ranked: bool = True
    bots_ok: bool = Field(default=False, description="Fill the table with computer players after a wait.")
    invite: str = Field(
        default="", max_length=64, description="Private table code: everyone with it sits together."
    )
    public: bool = Field(
        default=False,
        description="With invite, when you open the table (the first to join with the code): list it in "
        "GET /api/tables so anyone may join it. Without invite: 400 public_needs_invite.",
    )


class LeaveBody(BaseModel):
    player: str | None = Field(default=None, description="Optional: your player name.")


class DisputeBody(BaseModel):
    reason: str = Field(
        min_length=1, max_length=2000, description="What is wrong with the result, for the operator."
    )


class NoteBody(BaseModel):
    text: str = Field(min_length=1, max_length=4000, description="An operator's note on the dispute.")


class RulingBody(BaseModel):
    ruling: str = Field(
        description="'upheld' (the result stands), 'amended' (new ranks, and scores, per seat) or "
        "'void' (the match does not count)."
    )
    ranks: list[int] = Field(
        default_factory=list,
        max_length=16,
        description="Amended only: one rank per seat in seat order, 1 best.",
    )
    scores: list[float] = Field(
        default_factory=list, max_length=16, description="Amended only, optional: one score per seat."
    )
    reason: str = Field(min_length=1, max_length=2000, description="Why, for the players and the record.")


# ---- operations


class Health(BaseModel):
    ok: bool = Field(description="Always true: the process answers.")


class Readiness(BaseModel):
    ready: bool
    checks: dict[str, str] = Field(description='Each check: "ok" or what is wrong.')
    instance: str | None = Field(
        default=None, description="Which start of the stack this gateway belongs to (only when it has one)."
    )


# ---- games


class SeatRange(BaseModel):
    min: int
    max: int


class RulesInWords(BaseModel):
    """``contracts.match.RulesHelp``: a ruleset in words for players."""

    game: str
    title: str
    goal: str
    win: list[str]
    lose: list[str]
    special: list[str]


class PresetInfo(BaseModel):
    name: str
    family: str = Field(description="The preset's family (the lobby's grouping), in lang.")
    title: str = Field(description="The preset's title, in lang.")
    description: str
    rules: dict[str, Any] = Field(description="Every rules parameter of the preset.")
    help: RulesInWords | None = Field(description="The rules in words; null for a game without.")


class GameInfo(BaseModel):
    game: str
    title: str = Field(description="The game's title, in lang.")
    rules_version: str
    seats: SeatRange
    seat_names: dict[str, list[str]] = Field(description="Seat count -> the seats' names.")
    default_preset: str
    chance: bool
    hidden_info: bool
    helper: bool = Field(description="A table helper: never rated, not in quick match.")
    bots: list[str] = Field(description="Computer-player strengths.")
    default_bot: str
    families: list[str] = Field(description="The preset families, in the order the lobby shows them (lang).")
    presets: list[PresetInfo]
    rejections: dict[str, str] = Field(
        default_factory=dict, description="Each rejection code of the game -> its sentence, in lang."
    )


# ---- matches


class SeatTokenOut(BaseModel):
    seat: str
    token: str = Field(description="Acts for this seat only; shown once.")
    websocket: str = Field(
        description="This seat's live socket, ready to open: ws(s)://host/ws/matches/ID?token=TOKEN."
    )


class BotSeatOut(BaseModel):
    seat: str
    strength: str
    status: str = Field(
        description="seated, refused, unavailable (detail says why) or unknown (a replayed reply)."
    )
    detail: str | None = Field(default=None, description="Why, when not seated.")

    model_config = ConfigDict(json_schema_extra={"description": "A seat handed to the computer."})


class InviteOut(BaseModel):
    seat: str
    url: str = Field(description="A path on the gateway's web page: whoever opens it plays that seat.")


class MatchCreated(BaseModel):
    """``201`` of ``POST /api/matches`` (``MatchCreatedReply`` to the client library)."""

    match_id: str
    game: str
    preset: str
    seats: list[SeatTokenOut] = Field(description="The people's seats with their tokens.")
    bots: list[BotSeatOut]
    invites: list[InviteOut] = Field(description="A share link per person's seat.")
    view: str = Field(description="Where to read the match.")
    websocket: str = Field(
        description="A spectator's live socket, ready to open: ws(s)://host/ws/matches/ID (each seat's is in seats)."
    )


class DecisionOut(BaseModel):
    """One stored decision as a viewer sees it (``Decision`` to the client library)."""

    seq: int
    seat: str | None
    recorded_at: int | None = Field(description="Unix ms.")
    events: list[dict[str, Any]] = Field(
        description="Its events redacted for the viewer, each with its type tag."
    )
    texts: list[str] = Field(
        default_factory=list,
        description="Beside each event, its line of the match log as the viewer may see it, in the "
        "language asked for (empty for an event without one).",
    )


class ReplayFrameOut(BaseModel):
    seq: int
    seat: str | None
    recorded_at: int | None
    events: list[dict[str, Any]]
    texts: list[str] = Field(
        default_factory=list, description="Each event's line of the log, in the language asked for."
    )
    view: dict[str, Any] = Field(description="The spectator's view after the decision (the match view).")


class Replay(BaseModel):
    match_id: str
    game: str
    frames: list[ReplayFrameOut]


class MatchRules(BaseModel):
    """A match's ruleset in words."""

    preset: str
    preset_title: str = Field(description="The preset's title in the language asked (its name without one).")
    game: str
    title: str
    goal: str
    win: list[str]
    lose: list[str]
    special: list[str]


class OutcomeOut(BaseModel):
    ranks: list[int] = Field(description="One per seat, 1 is best; equal ranks share a place.")
    scores: list[float] = []
    reason: str = ""
    draw: bool = False


class MatchSummary(BaseModel):
    match_id: str
    game: str
    title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    preset_title: str = Field(default="", description="The preset's title (GET /api/games), in lang.")
    seats: list[str]
    players: list[str] = Field(description="One per seat, in seat order.")
    status: str = Field(description='"running" or "finished".')
    to_move: list[str]
    outcome: OutcomeOut | None = None
    outcome_text: str | None = Field(
        default=None, description="A finished match's result and why it ended, in words (lang)."
    )
    decisions: int
    created_at: int = Field(description="Unix ms: when the match was created.")
    updated_at: int = Field(description="Unix ms: its latest stored decision.")
    finished_at: int | None = Field(default=None, description="Unix ms: when it ended; null while it runs.")


class MatchSummaries(BaseModel):
    matches: list[MatchSummary] = Field(description="Newest first (by creation).")
    next_cursor: str | None = None


class StoredMatchOut(BaseModel):
    match_id: str
    game: str
    decisions: int = Field(description="Decisions stored (the seq of the latest).")


class StoredMatches(BaseModel):
    matches: list[StoredMatchOut] = Field(description="Newest first (by creation).")
    next_cursor: str | None = None


# ---- accounts


class SignedUp(BaseModel):
    player: str
    token: str = Field(description="The API token: shown this once (only its HMAC is stored).")
    authorization: str = Field(description="How to send it: 'Bearer <token>'.")


class Me(BaseModel):
    player: str
    app_id: str | None = Field(
        description="The client app whose JWT named the player; null for an API token."
    )


# ---- the queue (quick match)


class QueuedOut(BaseModel):
    state: Literal["queued"]
    ticket_id: str
    player: str
    game: str
    preset: str
    rating: float
    joined_at: int = Field(description="Unix ms.")
    position: int = Field(description="1-based among the tickets of the same queue, oldest first.")
    waiting: int = Field(description="Tickets in the same queue.")
    gap: float = Field(description="The rating gap currently accepted.")
    waited_ms: int


class FormingOut(BaseModel):
    state: Literal["forming", "seated"] = Field(description="A table formed; its match is being created.")
    player: str
    table_id: str
    game: str
    preset: str
    players: list[str]
    bots: list[int] = Field(description="The computer's seats (indexes).")
    match_id: str


class IdleOut(BaseModel):
    state: Literal["idle"]
    player: str


class QueueSeatOut(BaseModel):
    state: Literal["seated"]
    match_id: str
    seat: str
    token: str = Field(description="The seat token of your seat at the match.")


class QueueUnknownOut(BaseModel):
    state: Literal["unknown"]
    code: str
    detail: str


QueueState = Annotated[QueuedOut | FormingOut | IdleOut, Field(discriminator="state")]
TicketState = Annotated[
    QueuedOut | FormingOut | IdleOut | QueueUnknownOut | QueueSeatOut,
    Field(union_mode="left_to_right"),
]


class LeftOut(BaseModel):
    player: str
    ticket_id: str


class SeekOut(BaseModel):
    game: str
    game_title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    title: str = Field(default="", description="The preset's title (GET /api/games), in lang.")
    seats: int = Field(description="Seats at the table the seek forms.")
    ranked: bool
    players: list[str] = Field(description="The players waiting, oldest first.")
    waiting: int
    since: int = Field(description="Unix ms: when the oldest of them joined.")
    bots_ok: bool = Field(description="Someone waiting accepts computer players after the wait.")


class SeeksOut(BaseModel):
    seeks: list[SeekOut]


class TableOut(BaseModel):
    game: str
    game_title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    title: str = Field(description="The preset's title (GET /api/games), in lang.")
    seats: int = Field(description="Seats at the table.")
    taken: int = Field(description="Seats taken: the players waiting at it.")
    host: str = Field(description="The player who opened it.")
    players: list[str] = Field(description="The players waiting, oldest (the host) first.")
    ranked: bool
    invite: str = Field(description="The table's code: join with POST /api/queue and this invite.")
    since: int = Field(description="Unix ms: when the host opened it.")
    age_s: int = Field(description="Seconds since the host opened it.")


class TablesOut(BaseModel):
    tables: list[TableOut]


# ---- ratings, standings, finished matches


class StandingOut(BaseModel):
    rank: int = Field(description="1-based within its family and rating model.")
    player: str
    family: str
    model: str
    rating: Number
    rd: Number
    volatility: Number
    score: Number
    games: int
    wins: int
    draws: int
    losses: int
    last_match_id: str | None
    title: str = Field(description="The family's title (GET /api/games), in lang.")


class Leaderboard(BaseModel):
    game: str
    season: str
    preset_family: str | None
    entries: list[StandingOut]
    game_title: str = Field(description="The game's title (GET /api/games), in lang.")
    division: str | None = Field(
        None, description="With ?division: only that division's players (ranks within it)."
    )
    divisions: list[str] = Field(
        default_factory=list, description="The season's divisions, top first (none: a season of the calendar)."
    )


# ---- seasons and divisions (contracts/seasons.py, docs/ranked.md "Seasons and divisions")


class SeasonDivisionOut(BaseModel):
    name: str
    size: int = Field(description="At most this many placed at the opening (0: no limit).")
    min_rating: Number | None = Field(description="The rating a player needs to be placed here.")


class SeasonBoundaryOut(BaseModel):
    promote: int = Field(description="The top this many of the lower division go up.")
    relegate: int = Field(description="The bottom this many of the upper division go down.")


class SeasonSummaryOut(BaseModel):
    season_id: str
    status: Literal["open", "ending", "closed"]
    starts_at: int
    ends_at: int = Field(description="Unix ms; 0 while no end is set.")
    games: list[str] = Field(description="The season's games (empty: every game).")
    divisions: list[SeasonDivisionOut] = Field(description="Top first.")
    boundaries: list[SeasonBoundaryOut] = Field(description="Between division i and i + 1, top first.")
    newcomers: str = Field(description="The division of a player not placed.")
    opened_by: str
    opened_at: int
    closed_at: int = Field(description="Unix ms; 0 until closed.")


class SeasonList(BaseModel):
    seasons: list[SeasonSummaryOut]


class DivisionRowOut(BaseModel):
    place: int
    player: str
    points: Number = Field(description="A win 1, a draw 1/2.")
    games: int
    wins: int
    draws: int
    losses: int
    rating: Number = Field(description="The season rating of the family and model played most.")
    zone: Literal["promotion", "relegation", ""] = Field(
        description="Goes up or down at the close (frozen once closed; as it stands before)."
    )


class DivisionTableOut(BaseModel):
    game: str
    division: str
    rows: list[DivisionRowOut]


class SeasonMoveOut(BaseModel):
    season_id: str
    game: str
    player: str
    from_division: str
    to_division: str
    place: int


class SeasonDetail(SeasonSummaryOut):
    standings: list[DivisionTableOut] = Field(
        description="Every division table (of ?game, ?division): frozen once closed, live before."
    )
    promoted: list[SeasonMoveOut]
    relegated: list[SeasonMoveOut]


class RulingOut(BaseModel):
    dispute_id: str
    ruling: str
    ranks: list[int]
    scores: list[Number]
    reason: str
    ruled_by: str
    ruled_at: int


class FinishedMatch(BaseModel):
    """A finished match as recorded and as it counts after its latest ruling; a player's own
    rows add their seat, rank and rating change."""

    model_config = ConfigDict(extra="allow")

    match_id: str
    game: str
    preset: str
    season: str
    ranked: bool
    rated: bool
    model: str
    seats: list[str]
    players: list[str]
    ranks: list[int]
    scores: list[Number]
    draw: bool
    reason: str
    moves: int
    finished_at: int
    status: str = Field(description='"" without a ruling, else upheld, amended or void.')
    ruling: RulingOut | None
    effective_ranks: list[int] | None = Field(description="The ranks that count; null for a void match.")
    seat_index: int | None = Field(default=None, description="A player's rows only: their seat.")
    rank: int | None = Field(default=None, description="A player's rows only.")
    rating_before: Number | None = Field(default=None, description="A player's rows only.")
    rating_after: Number | None = Field(default=None, description="A player's rows only.")


class FinishedPage(BaseModel):
    player: str | None = Field(default=None, description="Only with ?player.")
    matches: list[FinishedMatch]
    next_cursor: str | None


class PlayerRow(BaseModel):
    player: str
    rated_games: int
    first_seen_at: int | None
    last_seen_at: int | None


class PlayersPage(BaseModel):
    players: list[PlayerRow]
    next_cursor: str | None


class RatingOut(BaseModel):
    game: str
    family: str
    model: str
    season: str
    rating: Number
    rd: Number
    volatility: Number
    games: int
    last_at: int | None


class SeasonStandingOut(BaseModel):
    game: str
    family: str
    season: str
    model: str
    rating: Number
    score: Number
    games: int
    wins: int
    draws: int
    losses: int


class PlayerProfile(BaseModel):
    player: str
    first_seen_at: int | None
    last_seen_at: int | None
    rated_games: int
    matches: int
    ratings: list[RatingOut]
    standings: list[SeasonStandingOut]
    recent_matches: list[FinishedMatch]


class RatingPoint(BaseModel):
    """A player's rating change in one rated match."""

    match_id: str
    finished_at: int
    season: str = Field(description="The season the match was rated in.")
    preset: str
    rank: int = Field(description="The player's rank in the match as recorded (1 best).")
    rating_before: Number = Field(description="What the model was given (after idle and new-season growth).")
    rating_after: Number
    status: str = Field(
        description='"" without a ruling, else upheld or amended (the ratings as recomputed).'
    )


class SeasonPlace(BaseModel):
    """The player's standing in one season of a series' leaderboard."""

    season: str
    rank: int = Field(description="Place on the leaderboard, as GET /api/leaderboard/{game} orders it.")
    players: int = Field(description="Players on that leaderboard.")
    score: Number
    games: int
    wins: int
    draws: int
    losses: int
    last_at: int


class RatingSeries(BaseModel):
    """One rating (game, preset family, model) and its history, oldest point first."""

    game: str
    family: str
    model: str = Field(description="glicko2 (two seats) or openskill-pl (three or four).")
    season: str | None = Field(description="The season of the latest rated match; null without a rating.")
    rating: Number | None = Field(description="The current rating (Glicko-2 rating, OpenSkill mu).")
    rd: Number | None = Field(description="The current RD (Glicko-2) or sigma (OpenSkill).")
    games: int
    points: list[RatingPoint] = Field(
        description="One point a rated match (a void match has none): the Glicko-2 rating or OpenSkill mu "
        "before and after it, from the match history's rating columns."
    )
    standings: list[SeasonPlace] = Field(description="The player's standing per season, the latest first.")


class PlayerDivision(BaseModel):
    """The player's division in a game's season in force, when that season was opened with
    divisions (`gamehall seasons open`), and their line of its table."""

    game: str
    season: str
    status: Literal["open", "ending", "closed"]
    division: str = Field(description="Where the player is placed (a player not placed: the newcomers' division).")
    place: int = Field(description="The player's place in the division table; 0 until they are in it (a newcomer's first match).")
    players: int = Field(description="Players in the division table.")
    points: Number
    games: int
    zone: Literal["promotion", "relegation", ""] = Field(
        description="Goes up or down at the close as the table stands (frozen once closed)."
    )


class RatingHistory(BaseModel):
    player: str
    current_seasons: dict[str, str] = Field(
        description="Per game of the series: the season in force now (a season opened with `gamehall seasons "
        "open`, else GAMEHALL_SEASONS, else the calendar quarter)."
    )
    divisions: list[PlayerDivision] = Field(
        default_factory=list,
        description="Per game whose season in force has divisions: the player's division and place in it.",
    )
    series: list[RatingSeries]


# ---- disputes


class RecordedResult(BaseModel):
    ranks: list[int]
    scores: list[Number]


class NoteOut(BaseModel):
    author: str
    text: str
    at: int


class DisputeRuling(BaseModel):
    ruling: str
    ranks: list[int]
    scores: list[Number]
    reason: str
    ruled_by: str
    ruled_at: int


class Dispute(BaseModel):
    dispute_id: str
    match_id: str
    game: str
    status: str = Field(description="open or ruled.")
    opened_by: str
    by_operator: bool
    reason: str
    opened_at: int
    seats: list[str]
    players: list[str]
    recorded: RecordedResult = Field(description="The result as the match recorded it.")
    notes: list[NoteOut]
    ruling: DisputeRuling | None


# --- tournaments: the write routes (services/gateway/api/tournaments_write.py) ---------------


class TournamentCreateBody(BaseModel):
    """``POST /api/tournaments`` (operators): the tournament's id and settings
    (``contracts.tournaments.TournamentSettings`` without ``seed_commitment``: the service draws
    the seed and commits it)."""

    model_config = ConfigDict(extra="forbid")
    tournament_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="1-64 letters, digits, '-' and '_'.")
    settings: dict[str, Any] = Field(
        description="format, game, preset, and optionally rated, rounds, table_size, min_table_size, "
        "tie_breaks, bye_points, start_at (unix ms), round_deadline_s, time_control, bots (strengths "
        "of the computer entrants bot:<game>:1, 2, ...)."
    )
    command_id: str = Field("", max_length=128, description="Idempotency: the same id gets the first reply again.")


class TournamentEntryBody(BaseModel):
    """Joining or withdrawing: yourself, or (operators) the player named."""

    model_config = ConfigDict(extra="forbid")
    player: str = Field("", max_length=128, description="Operators only: the player to enter or withdraw ('' = you).")
    rating: float = Field(0.0, description="Joining: orders the seeding (high first).")
    command_id: str = Field("", max_length=128, description="Idempotency: the same id gets the first reply again.")


class TournamentCommandBody(BaseModel):
    """Closing registration, starting a round (operators)."""

    model_config = ConfigDict(extra="forbid")
    command_id: str = Field("", max_length=128, description="Idempotency: the same id gets the first reply again.")
