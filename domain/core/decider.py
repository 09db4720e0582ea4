"""A game is a Decider: one frozen record that declares everything about the game (ARCHITECTURE §3).

The record is the only place a game is declared: its contract (message types, rejection codes,
upcaster; ``contracts/games/<game>.py``), its presets with their descriptions, how a ruleset is
validated, its seats, its pure functions, what it hides, how a command is written in the game's
notation, its computer players and, for portable game records, its record adapter.  The match
layer, the services and the conformance suite read nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from contracts.envelope import Rejected
from contracts.games import GameContract
from contracts.match import Outcome, RulesHelp, TimeControl
from domain.core.words import Lang

S = TypeVar("S")  # state
C = TypeVar("C")  # command
E = TypeVar("E")  # event
V = TypeVar("V")  # view
R = TypeVar("R")  # ruleset

Seat = str

# A computer player: (state, seat, rng) -> a legal command.  The rng is owned by the caller.
Bot = Callable[[S, Seat, random.Random], C]


@dataclass(frozen=True)
class Preset(Generic[R]):
    """A named ruleset of the game's rules file, with its one-line description in English and in
    Russian (the rules files' and seeds' terms; rule names and notation as the rules files give them)."""

    ruleset: R
    description: str
    description_ru: str = ""
    # How the lobby lists it (``GET /api/games``): the rules tradition or source it comes from and a
    # short title, in English and in Russian (``domain.games.catalogue`` reads these).
    family: str = ""
    family_ru: str = ""
    title: str = ""
    title_ru: str = ""

    def described(self, lang: Lang) -> str:
        """The description in ``lang`` (English when it has none in ``lang``)."""
        return self.description_ru or self.description if lang == "ru" else self.description

    def titled(self, lang: Lang) -> str:
        """The short title in ``lang`` (English when it has none in ``lang``; "" without one)."""
        return self.title_ru or self.title if lang == "ru" else self.title


@dataclass(frozen=True)
class RecordAdapter(Generic[S, C, E]):
    """How a game reads and writes portable game records (``rules/records.md``).

    ``parse_action(state, seat, action)``: one record action (``[name, seat index, args...]``) as the
    game's command, or ``Rejected`` (``bad_action``) when the action cannot be read at all.
    ``format_action(state, seat, command)``: a command as a record action (the inverse).
    ``wants_deal(state)``: whether the game now waits for chance (the next ``deals`` entry).
    ``deal(state, entry)``: the events that put a record's deal entry into play, in place of the
    rng_v1 draw live play makes, or ``Rejected`` when the entry does not fit.
    ``deal_entry(event)``: the record's deal entry of a recorded chance event (``None`` otherwise).
    ``scores(state)``: per seat the running totals after each deal so far (``()`` for games
    without deals).
    ``ignored(command)``: a command a record may list that changes nothing in a replay (kings-corner's
    ``ready``: a replay deals from the record's next entry by itself).

    The replaying framework (``domain.records``) deals the next entry whenever ``wants_deal`` is
    true, and adds the record's ``first_dealer`` to the first entry; ``deal_entry`` may return a
    ``first_dealer`` key for the first deal, which an export moves to the top of the record.
    ``parse_action`` may return the match layer's ``Resign`` for ``["resign", s]``.
    """

    parse_action: Callable[[S, Seat, Sequence[Any]], C | Rejected]
    format_action: Callable[[S, Seat, C], list[Any]]
    wants_deal: Callable[[S], bool] = lambda _state: False
    deal: Callable[[S, Mapping[str, Any]], tuple[E, ...] | Rejected] | None = None
    deal_entry: Callable[[E], dict[str, Any] | None] = lambda _event: None
    scores: Callable[[S], tuple[tuple[int, ...], ...]] = lambda _state: ()
    ignored: Callable[[Any], bool] = lambda _command: False


@dataclass(frozen=True, kw_only=True)
class Notation:
    """A game's own text format for whole games (PGN move text for Ugolki), beside the portable record.

    A notation converts between its text and a game record (rules/records.md), so the record's
    referee (``domain.records.replay``) stays the one way a finished game is checked:
    ``gamehall export MATCH_ID --<name>`` writes ``write(record)``, and ``gamehall rules replay
    FILE`` reads a file whose name ends in ``suffix`` through ``read`` first.

    ``write(record)``: the text of a record of this game.
    ``read(text)``: the record a text holds; raises ``ValueError`` naming what is malformed (the
    replay then exits 2, as for a malformed record).
    """

    name: str  # the export flag, e.g. "pgn" for --pgn
    suffix: str  # the file name ending it is read from, e.g. ".pgn"
    title: str  # e.g. "PGN move text"
    write: Callable[[Mapping[str, Any]], str]
    read: Callable[[str], dict[str, Any]]


@dataclass(frozen=True)
class RulesetForm:
    """See ``Decider.ruleset_form``."""

    read: Callable[[Mapping[str, Any]], dict[str, Any]]
    write: Callable[[Mapping[str, Any]], dict[str, Any]]


def no_hidden(_state: Any, _seat: Seat) -> frozenset[str]:
    """``hidden`` of a game with no hidden information."""
    return frozenset()


@dataclass(frozen=True, kw_only=True)
class Decider(Generic[S, C, E, V, R]):
    # Identity: the contract names the game and lists its message types.
    contract: GameContract
    title: str  # shown to people, e.g. "Kings in the Corner"
    rules_version: str  # pinned per match; old versions stay registered so old matches audit
    # Seats: seat_names(n) are the seats of an n-seat match, in turn order.
    min_seats: int
    max_seats: int
    seat_names: Callable[[int], tuple[Seat, ...]]
    # Rules as data.
    presets: Mapping[str, Preset[R]]
    default_preset: str
    # A problem with a ruleset for n seats (a readable sentence), or None when it can be played.
    validate: Callable[[R, int], str | None]
    chance: bool  # the game draws from rng_v1 (then ``verify_chance`` is required)
    hidden_info: bool  # some seat may not see everything (then ``hidden`` says what)
    # A bound on decisions in one match: random playouts of every preset end within it.
    max_decisions: int
    # The pure functions.  A card game gives ``phases`` (``domain.core.cardgame.phases.Phases``)
    # instead of ``decide``, ``legal_commands`` and ``to_move``, which then follow from it.
    initial_state: Callable[[R, tuple[Seat, ...], bytes | None], S]
    evolve: Callable[[S, E], S]
    phases: Any = None
    decide: Callable[[S, Seat, C], tuple[E, ...] | Rejected] = None  # type: ignore[assignment]
    legal_commands: Callable[[S, Seat], tuple[C, ...]] = None  # type: ignore[assignment]  # canonical order; () when not to move
    to_move: Callable[[S], frozenset[Seat]] = None  # type: ignore[assignment]
    outcome: Callable[[S], Outcome | None]
    view: Callable[[S, Seat | None], V]
    redact: Callable[[E, Seat | None], E | None]
    # Every string value (card id...) that ``seat`` may not see in this state.
    hidden: Callable[[S, Seat], frozenset[str]]
    # A command in the game's notation and words, in ``lang`` (the label of a legal move in every
    # view): ``describe(command, lang)``; ``lang`` defaults to English.
    describe: Callable[..., str]
    # Computer players by strength name, weakest first; ``default_bot`` is the one seated when
    # nobody names a strength.
    bots: Mapping[str, Bot[S, C]]
    default_bot: str
    # Games with chance: given the state before a recorded chance event (folded with the revealed
    # server seed), re-derive the event and return a precise problem, or None when it matches.
    verify_chance: Callable[[S, E], str | None] | None = None
    # RESIGN inside the game, for games where a resignation does not end the match for everyone
    # (Kings in the Corner, Decision D3): the game's events for ``seat`` resigning, or Rejected.
    # The match ends when the game's ``outcome`` is then set.  None: a resignation ends the match,
    # the resigning seat last and the others sharing first place.
    resign: Callable[[S, Seat], tuple[E, ...] | Rejected] | None = None
    # The game's timeout rule (docs/audit.md "Clocks"): the game's events when ``seat``'s clock has
    # run out (an auto-act, or whatever its rules say), or Rejected.  The match ends when the game's
    # ``outcome`` is then set.  None: the seat loses on time (last; the others share first place).
    timeout: Callable[[S, Seat], tuple[E, ...] | Rejected] | None = None
    # The game's abandonment rule (docs/architecture.md "Abandonment"): for ``seat`` gone past the
    # match's ``grace_s``, the game's events (the match ends when ``outcome`` is then set) or the
    # Outcome the match ends with (King's K16 ABANDON), or Rejected.  None: the seat loses (last;
    # the others share first place; reason ``abandoned``).
    abandon: Callable[[S, Seat], tuple[E, ...] | Outcome | Rejected] | None = None
    # A table helper (Kings Cup): the server facilitates a game it does not judge.  Its matches are
    # never rated (created unranked whatever is asked), it is not offered in quick match, and the
    # lobby marks it as a helper table.
    helper: bool = False
    # Portable game records (``gamehall rules replay``); None until the game supports them.
    record: RecordAdapter[S, C, E] | None = None
    # Players' help: a ruleset in words (the aim, how one wins and loses, the special rules).
    # In English or Russian (domain/core/words.py): ``rules_help(ruleset, lang)``.
    rules_help: Callable[[R, Lang], RulesHelp] | None = None
    # Why a finished match ended, as a sentence naming seats by ``names`` (seat -> "seat (player)"),
    # from the game state and its outcome; None: the outcome's reason code is shown as it is.
    end_text: Callable[[S, Outcome, Mapping[Seat, str], Lang], str] | None = None
    # The view with its sentences in ``lang`` (Ugolki's warnings); None: ``view`` has no words.
    view_in: Callable[[S, Seat | None, Lang], V] | None = None
    # The game's title in Russian (English: ``title``).
    title_ru: str = ""
    # The order the lobby lists the preset families in (English names); empty: the order of first
    # appearance in ``presets``.
    families: tuple[str, ...] = ()
    # A line of the match log for one event, as ``viewer`` may see it (None: a spectator), in
    # ``lang``, given the state before the event; None (the function or its result): no line.
    event_text: Callable[[S, E, Seat | None, Lang], str | None] | None = None
    # A computer player's answer to another seat's draw offer: True accepts.  None: it declines.
    draw_answer: Callable[[S, Seat], bool] | None = None
    # Move-path enumeration for rules testing (``gamehall rules perft``): the number of move
    # sequences of ``depth`` plies from ``state``.  None: the game has no perft.
    perft: Callable[[S, int], int] | None = None
    # The same counting every path of a move that several paths make (captures with the
    # same effect, ``rules perft --paths``); None: paths and moves are the same for the game.
    perft_paths: Callable[[S, int], int] | None = None
    # A position written as text (e.g. a PDN FEN) as a state to play
    # on: ``position(ruleset, seats, text)``, or ``Rejected`` naming what does not parse
    # (``gamehall rules perft GAME --fen TEXT``).  None: the game reads no positions.
    position: Callable[[R, tuple[Seat, ...], str], S | Rejected] | None = None
    # The game's own text formats for whole games (``Notation``); () when it has none.
    notations: tuple[Notation, ...] = ()
    # Other names the rules file gives a preset (1000's T16: ``CLASSIC`` for ``classic``),
    # accepted wherever a preset is named; matches and exports record the preset's own name.
    preset_aliases: Mapping[str, str] = field(default_factory=dict)
    # A ruleset a replay may use but a live match may not (say, one that switches off the only
    # rule that ends every game), as a sentence; None: every valid ruleset may be played live.
    live_problem: Callable[[R], str | None] | None = None
    # The match layer's end reasons under the names the game's rules give them in records
    # (``resignation`` -> ``resign``...): what ``rules replay`` answers and an export writes.
    record_reasons: Mapping[str, str] = field(default_factory=dict)
    # How people and other programs write some parameters when the ruleset struct splits them
    # (Kings in the Corner's D10: ``match_end = "fixed_rounds:5"`` for ``match_end`` and
    # ``match_end_value``): ``read`` turns written parameters (a partial dict) into the struct's,
    # raising ``ValueError`` naming a bad value; ``write`` the struct's into the written form.
    # None: the struct's fields are the written form.
    ruleset_form: RulesetForm | None = None
    # The clock of the game's ranked matches (docs/ranked.md "Time controls"): matchmaking creates
    # every ranked table with it.  None: ranked matches of the game have no clock (a table helper).
    ranked_clock: TimeControl | None = None
    # Whether the match layer takes draw offers and their answers for the game.  False: they are
    # refused with ``no_draws_at_helper`` (a table helper judges no result: Kings Cup from
    # kings-cup-2 on).
    draw_offers: bool = True
    # How an abandonment the game has no rule for (``abandon`` None) places the seats.  True: every
    # seat that has gone places last, together (the claimed seat, every seat the platform acted
    # for since its own last command, every seat past its own abandonment deadline), the others
    # share first, and when every seat has gone it is a draw (docs/architecture.md
    # "Abandonment").  False: the claimed seat alone is last, as the rules versions before
    # thousand-2, farkle-flip-2 and kings-cup-3 decided it.
    absent_share_last: bool = True

    def __post_init__(self) -> None:
        if self.phases is not None:
            for name in ("decide", "legal_commands", "to_move"):
                if getattr(self, name) is None:
                    object.__setattr__(self, name, getattr(self.phases, name))
        missing = [n for n in ("decide", "legal_commands", "to_move") if getattr(self, n) is None]
        if missing:
            raise TypeError(f"{self.contract.name}: give phases or {', '.join(missing)}")

    @property
    def name(self) -> str:
        return self.contract.name

    @property
    def ruleset_type(self) -> Any:
        return self.contract.ruleset_type

    @property
    def command_type(self) -> Any:
        return self.contract.command_type

    @property
    def event_type(self) -> Any:
        return self.contract.event_type

    @property
    def view_type(self) -> Any:
        return self.contract.view_type

    @property
    def rejection_codes(self) -> tuple[str, ...]:
        return self.contract.rejection_codes

    def canonical_preset(self, name: str) -> str:
        """The preset ``name`` stands for: itself, or the preset it is an alias of."""
        return name if name in self.presets else self.preset_aliases.get(name, name)

    def preset_ruleset(self, preset: str) -> R:
        return self.presets[preset].ruleset

    def title_in(self, lang: Lang) -> str:
        """The game's title in ``lang`` (English when it has none in ``lang``)."""
        return self.title_ru or self.title if lang == "ru" else self.title

    def preset_title(self, preset: str, lang: Lang) -> str:
        """How a player is told a preset: its title in ``lang``, its name when it has no title."""
        found = self.presets.get(preset)
        return (found.titled(lang) if found is not None else "") or preset


def auto_act(
    decide: Callable[[S, Seat, Any], tuple[E, ...] | Rejected], choose: Callable[[S, Seat], Any]
) -> Callable[[S, Seat], tuple[E, ...] | Rejected]:
    """A ``Decider.timeout`` that plays the command its rules name for a seat out of time
    (``choose``: King's §12.3 TIMEOUT, 1000's §2.21.2 timeouts), decided like the seat's own."""

    def timeout(state: S, seat: Seat) -> tuple[E, ...] | Rejected:
        command = choose(state, seat)
        if command is None:
            return Rejected(code="not_your_turn", detail=f"{seat} has nothing to do")
        return decide(state, seat, command)

    return timeout


def fold(game: Decider[S, C, E, V, R], state: S, events: tuple[E, ...] | list[E]) -> S:
    for event in events:
        state = game.evolve(state, event)
    return state
