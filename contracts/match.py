"""Match-level commands and events shared by every game (seating, resignation, draws, the end).

The first envelope of every match holds ``MatchCreated``: the full ruleset (not only its
name), its canonical hash, the seats, the hashes of the seat tokens and, for games with
chance, the commitment to the server seed (rng_v1, ARCHITECTURE §4).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """Result of a finished match, one entry per seat in seat order.

    ``ranks``: 1 is best; equal ranks mean a shared place (all equal = draw).
    ``scores``: game points when the game has them (tempo, penalty points...).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...] = ()
    reason: str = ""
    draw: bool = False


class TimeControl(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A match's clock, composed around every game by the match layer (docs/audit.md "Clocks").

    Fischer: ``base_s`` for the whole match plus ``increment_s`` after each of the seat's moves;
    or per move: ``move_s`` for every turn.  Exactly one of ``base_s`` and ``move_s`` is set.

    ``grace_s`` (0: none): a seat that is to move for that long in all without sending any command
    of its own has abandoned the match (docs/architecture.md "Abandonment").  ``on_timeout``: what
    a timed-out or abandoned seat becomes: ``"forfeit"`` (the game's rule) or, in a casual match
    only, ``"bot"`` (the seat is handed to a computer player and the match goes on); ``""`` in
    matches stored before the option existed means ``"forfeit"``."""

    base_s: float = 0
    increment_s: float = 0
    move_s: float = 0
    grace_s: float = 0
    on_timeout: str = ""


class SignedTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table as its signer signed it (docs/audit.md "Where a ranked match came from"): the
    fields that say who sits where in which game, and an Ed25519 signature over their canonical
    bytes (``domain.matchmaking.provenance.signing_bytes``) by the key ``key_id``.  ``signer`` says
    who formed it: ``matchmaking`` (a ranked queue's table) or ``tournaments`` (a rated
    tournament's game, ``tournament_id`` set); each signer has its own key, and a referee checks a
    table only against the keys it trusts for that signer.  A ranked ``CreateMatch`` carries it;
    the referee creates the match only when the signature verifies under a key it trusts and the
    creation is exactly this table, and records it in ``MatchCreated``."""

    table_id: str
    game: str
    preset: str
    ranked: bool
    players: tuple[str, ...]  # one per seat, in seat order
    bots: tuple[int, ...] = ()  # seat indexes played by computer players
    formed_at: int = 0  # unix ms
    key_id: str = ""
    signature: str = ""  # hex
    # Who formed and signed it (a table stored before tournaments signed tables is matchmaking's).
    signer: Literal["matchmaking", "tournaments"] = "matchmaking"
    tournament_id: str = ""  # a tournament table's tournament ("" for matchmaking's)


# ---------------------------------------------------------------- commands
class CreateMatch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="create_match.v1"):
    preset: str
    ruleset: dict[str, Any]
    seats: tuple[str, ...]
    players: tuple[str, ...]  # display names or player ids, one per seat
    token_hashes: tuple[str, ...]  # sha256 hex of each seat's token
    seed_commitment: str = ""  # sha256(server_seed), games with chance only; set by the referee
    ranked: bool = False
    # Seats whose player presented no credential (guests: named, never rated); issue 9.
    guests: tuple[str, ...] = ()
    time_control: TimeControl | None = None  # None: no clock
    # The matchmaking table this match is created for; required for a ranked match (only
    # matchmaking makes ranked tables), checked and recorded by the referee.
    table: SignedTable | None = None


class Resign(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="resign.v1"):
    pass


class OfferDraw(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="offer_draw.v1"):
    pass


class AcceptDraw(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="accept_draw.v1"):
    pass


class DeclineDraw(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="decline_draw.v1"):
    pass


class ExpireIdle(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="expire_idle.v1"):
    """Platform command (no seat), issued only by the referee: the match has had no decision
    for ``limit_ms`` (the abandonment rule, docs/audit.md).  The audit checks ``at`` and
    ``last_decision_at`` against the envelopes' ``recorded_at``."""

    last_decision_at: int  # recorded_at of the match's last stored decision (unix ms)
    at: int  # when the referee decided it (unix ms): the envelope's recorded_at
    limit_ms: int


class ClaimTimeout(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="claim_timeout.v1"):
    """Platform command (no seat), issued only by the referee: ``seat``'s clock ran out at
    ``deadline`` (unix ms, derived from the log's ``recorded_at`` stamps); ``at`` is when the
    referee decided it, its own envelope's ``recorded_at``.  The match layer refuses it
    (``not_due``) unless ``deadline`` is the seat's deadline and ``at`` is not before it."""

    seat: str
    deadline: int
    at: int
    # With ``on_timeout = "bot"``: the hash of the token the referee gives the computer player
    # that takes the seat over (the token itself goes to the bots service, never into the log).
    bot_token_hash: str = ""


class ClaimAbandon(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="claim_abandon.v1"
):
    """Platform command (no seat), issued only by the referee: ``seat`` has been to move for
    ``grace_s`` in all since its last own command, as of ``deadline`` (unix ms, from the log's
    stamps).  Refused (``not_due``) unless ``deadline`` is the seat's abandonment deadline and
    ``at`` (its own envelope's ``recorded_at``) is not before it."""

    seat: str
    deadline: int
    at: int
    bot_token_hash: str = ""  # as in ClaimTimeout


MatchCommand = (
    CreateMatch | Resign | OfferDraw | AcceptDraw | DeclineDraw | ExpireIdle | ClaimTimeout | ClaimAbandon
)


# ---------------------------------------------------------------- events
class MatchCreated(msgspec.Struct, frozen=True, kw_only=True, tag="match_created.v1"):
    game: str
    rules_version: str
    preset: str
    ruleset: dict[str, Any]
    ruleset_hash: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    token_hashes: tuple[str, ...]
    seed_commitment: str = ""
    ranked: bool = False
    guests: tuple[str, ...] = ()  # seats played by guests (no credential): never rated
    time_control: TimeControl | None = None
    # The signed matchmaking table the match was created for (None: created directly, unranked,
    # or before tables were signed): an auditor checks a ranked match's provenance with it.
    table: SignedTable | None = None


class Resigned(msgspec.Struct, frozen=True, kw_only=True, tag="resigned.v1"):
    seat: str


class DrawOffered(msgspec.Struct, frozen=True, kw_only=True, tag="draw_offered.v1"):
    seat: str


class DrawDeclined(msgspec.Struct, frozen=True, kw_only=True, tag="draw_declined.v1"):
    seat: str


class DrawAccepted(msgspec.Struct, frozen=True, kw_only=True, tag="draw_accepted.v1"):
    seat: str


class MatchEnded(msgspec.Struct, frozen=True, kw_only=True, tag="match_ended.v1"):
    outcome: Outcome


class MatchAbandoned(msgspec.Struct, frozen=True, kw_only=True, tag="match_abandoned.v1"):
    """Nobody decided for ``idle_ms``: the seats that were to move (``idle_seats``) abandoned it."""

    idle_seats: tuple[str, ...]
    idle_ms: int


class TimedOut(msgspec.Struct, frozen=True, kw_only=True, tag="timed_out.v1"):
    """``seat``'s clock ran out at ``deadline``; the game's timeout rule follows (its events, or
    the match's end)."""

    seat: str
    deadline: int
    at: int


class SeatAbandoned(msgspec.Struct, frozen=True, kw_only=True, tag="seat_abandoned.v1"):
    """``seat`` sent nothing while to move for the match's ``grace_s`` (deadline ``deadline``);
    the game's abandonment rule follows, or the seat is handed to a computer player."""

    seat: str
    deadline: int
    at: int


class SeatHandedToBot(msgspec.Struct, frozen=True, kw_only=True, tag="seat_handed_to_bot.v1"):
    """A casual match's timed-out or abandoned ``seat`` is played from now on by the computer
    player ``strength`` holding a new seat token (``token_hash``); the old token no longer acts.
    The seat's clock starts afresh (``base_s``, or ``move_s``)."""

    seat: str
    strength: str
    token_hash: str


class ServerSeedRevealed(msgspec.Struct, frozen=True, kw_only=True, tag="server_seed_revealed.v1"):
    server_seed: str  # hex; sha256 of its bytes equals MatchCreated.seed_commitment


MatchEvent = (
    MatchCreated
    | Resigned
    | DrawOffered
    | DrawAccepted
    | DrawDeclined
    | MatchEnded
    | ServerSeedRevealed
    | MatchAbandoned
    | TimedOut
    | SeatAbandoned
    | SeatHandedToBot
)

# Stable rejection codes of the match layer (each game adds its own).
MATCH_REJECTION_CODES: tuple[str, ...] = (
    "malformed",
    "unknown_game",
    "unknown_preset",
    "invalid_ruleset",
    "match_exists",
    "match_not_found",
    "match_over",
    "bad_token",
    "not_a_seat",
    "not_your_turn",
    "no_draw_offer",
    "draw_already_offered",
    "no_draws_at_helper",  # a draw offer, acceptance or refusal at a table helper (Kings Cup)
    "invalid_seats",
    "invalid_seed",
    "not_idle",
    "not_due",
    "invalid_time_control",
    "out_of_time",
    "unknown_rules_version",  # a stored match's rules version this build does not have
    "ranked_needs_matchmaking",  # a ranked creation without a matching table signed by matchmaking
)


class LegalMove(msgspec.Struct, frozen=True, kw_only=True):
    """One legal move of the viewing seat: its label in the game's notation and the command exactly
    as ``POST /api/matches/{id}/commands`` takes it (with its ``type`` tag)."""

    label: str
    command: Any


class ClockView(msgspec.Struct, frozen=True, kw_only=True):
    """The match's clocks as of its last decision (``since``, unix ms, that decision's
    ``recorded_at``): per seat the time left then, and for the seats whose clock runs the unix ms
    at which it runs out (0 for the others).  A client counts down from these.  With
    ``grace_s``, ``abandon_at`` is per seat the unix ms at which a running seat that sends nothing
    is abandoned (0 for the others); ``bots`` lists the seats handed to computer players."""

    time_control: TimeControl
    since: int
    running: tuple[str, ...]
    remaining_ms: tuple[int, ...]
    deadlines: tuple[int, ...]
    abandon_at: tuple[int, ...] = ()
    bots: tuple[str, ...] = ()


class RulesHelp(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset in words for players (``GET /api/matches/{id}/rules``, and per preset in
    ``GET /api/games``): the aim, how a match is won, how it is lost or drawn, and the ruleset's
    special rules.  Generated by the game from the ruleset, so no client needs to know rules."""

    game: str
    title: str
    goal: str
    win: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()  # ways to lose (or to draw) that a newcomer may not expect
    special: tuple[str, ...] = ()  # the ruleset's own rules, as sentences


class MatchView(msgspec.Struct, frozen=True, kw_only=True):
    """What a client sees of a match: the match layer plus the game's own view for that viewer."""

    match_id: str
    game: str
    preset: str
    rules_version: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    viewer: str | None
    seq: int  # number of stored decisions so far (1 = just created)
    ruleset: dict[str, Any]
    to_move: tuple[str, ...]
    status: str  # "running" | "finished"
    outcome: Outcome | None = None
    draw_offer: str | None = None
    game_view: Any = None
    # The viewer's legal game commands when it is to move, in the game's canonical order; a client
    # offers these and needs to know no rules.
    legal_moves: tuple[LegalMove, ...] = ()
    clock: ClockView | None = None  # None: the match has no time control
    # How the finished match ended, as a sentence for people ("white (ann) wins: Black still had a
    # piece in its own corner after Black's move 40."); None while it runs.  ``outcome.reason``
    # stays the stored code.
    outcome_text: str | None = None
    # How people are told each seat's player, one per seat, in the language asked: the name, or
    # for a computer player matchmaking seated (``players`` holds its id, ``bot:ugolki:1``) its
    # strength as the lobby says it, "computer (casual)".  ``players`` stays the ids.
    names: tuple[str, ...] = ()
