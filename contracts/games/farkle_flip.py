"""Farkle Flip: ruleset, commands, events, view and rejection codes.

Rules: ``rules/thousand-and-farkle-flip.md`` §3 and its Decisions FF1-FF9.  Cards are their values:
number cards ``"1"``..``"6"`` and Farkle cards ``"F"`` (as game records write them).  A card in an
area is named by its position in that area, oldest first (FF9).

The scoring table is data (``patterns``): the seed does not contain the official summary-card
values (§3.8), so the default table is a PLACEHOLDER and says so (``scoring_table``,
``scoring_official``).  An operator loads the official values by overriding ``patterns`` (see
docs/operations.md, "Farkle Flip scoring tables").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

FARKLE = "F"
FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
CARD_KINDS: tuple[str, ...] = (*FACES, FARKLE)

# FF8: the names a lock uses in commands, events and records.
PatternName = Literal[
    "three_of_a_kind",
    "four_of_a_kind",
    "five_of_a_kind",
    "six_of_a_kind",
    "straight",
    "three_pairs",
    "four_of_a_kind_and_a_pair",
    "two_triplets",
    "single_1",
    "single_5",
]
PATTERN_NAMES: tuple[str, ...] = PatternName.__args__  # type: ignore[attr-defined]

EntryStopPolicy = Literal["FORFEIT", "MUST_CONTINUE"]


class Pattern(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One row of the scoring table (§3.8 predicates as data).

    ``groups``: the sizes of the groups of equal values the multiset is made of, largest first
    (three of a kind ``[3]``, three pairs ``[2, 2, 2]``, a straight ``[1, 1, 1, 1, 1, 1]``); the
    values of different groups differ.  ``value`` is what the lock scores; for a one-group
    pattern ``face_values`` may give the value per face instead (three 1s 300, three 2s 200...),
    and then only the faces listed match.
    """

    name: PatternName
    groups: tuple[int, ...]
    value: int = 0
    face_values: dict[str, int] = {}


class FarkleFlipRuleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every parameter of §3.9 ``FFState.config`` (defaults = the placeholder preset)."""

    target: int = 10_000  # FF5: 10000, or 5000 / 7500 with six or more players
    entry: int = 1_000  # §3.2: the first bank must reach it
    farkle_value: int = 100  # §3.5: each held Farkle card at banking
    patterns: tuple[Pattern, ...] = ()
    deck_composition: dict[str, int] = {}  # "1".."6", "F" -> count (§3.1, provisional default)
    lock_requires_last_placed: bool = False  # FF4
    entry_stop_policy: EntryStopPolicy = "FORFEIT"  # §3.9 Bank, F5
    min_players: int = 2
    max_players: int = 8
    scoring_table: str = "placeholder"  # the name shown with every score
    scoring_official: bool = False  # True only for the summary-card values

    def validate(self) -> str | None:
        if self.entry < 0 or self.farkle_value < 0:
            return "entry and farkle_value must be >= 0"
        if self.target not in (5_000, 7_500, 10_000):
            return "target must be 10000, or 5000 / 7500 with six or more players (FF5)"
        if not 2 <= self.min_players <= self.max_players <= 8:
            return "players must be a range min..max within 2..8"
        if not self.scoring_table:
            return "scoring_table must name the table"
        problem = patterns_problem(self.patterns)
        if problem:
            return problem
        unknown = sorted(set(self.deck_composition) - set(CARD_KINDS))
        if unknown:
            return f"deck_composition: unknown card kind(s) {unknown}; kinds are 1..6 and F"
        if any(n < 0 for n in self.deck_composition.values()):
            return "deck_composition: counts must be >= 0"
        if sum(n for k, n in self.deck_composition.items() if k != FARKLE) < 1:
            return "deck_composition: the deck needs number cards"
        return None

    def check_seats(self, n: int) -> str | None:
        if not self.min_players <= n <= self.max_players:
            return f"this ruleset takes {self.min_players}-{self.max_players} players, got {n}"
        if self.target != 10_000 and n < 6:
            return f"target {self.target} needs six or more players (FF5), got {n}"
        if sum(self.deck_composition.values()) < n:
            return (
                f"a deck of {sum(self.deck_composition.values())} cards cannot deal one card to {n} players"
            )
        return None


def patterns_problem(patterns: tuple[Pattern, ...]) -> str | None:
    """Why a scoring table is unusable, or None.  Two rows that could match the same multiset
    are refused, so a lock's value is never ambiguous (§3.8)."""
    if not patterns:
        return "patterns: the scoring table is empty"
    names = [p.name for p in patterns]
    if len(set(names)) != len(names):
        return "patterns: each pattern name may appear once"
    seen: dict[tuple[int, ...], list[Pattern]] = {}
    for p in patterns:
        g = p.groups
        if not g or any(x < 1 for x in g) or list(g) != sorted(g, reverse=True):
            return f"patterns: {p.name} needs group sizes >= 1, largest first"
        if len(g) > len(FACES) or sum(g) > 6 * len(FACES):
            return f"patterns: {p.name} has more groups than there are faces"
        if p.face_values:
            if len(g) != 1:
                return f"patterns: {p.name}: face_values are for one-group patterns only"
            bad = sorted(set(p.face_values) - set(FACES))
            if bad:
                return f"patterns: {p.name}: unknown face(s) {bad}"
            # A lock takes its cards out of play until the turn ends: a row worth nothing would
            # take them for nothing (and a centre of such locks would bank nothing, FF6).
            if any(v < 1 for v in p.face_values.values()):
                return f"patterns: {p.name}: values must be >= 1"
        elif p.value < 1:
            return f"patterns: {p.name}: value must be >= 1"
        for other in seen.get(g, []):
            mine = set(p.face_values) or set(FACES)
            theirs = set(other.face_values) or set(FACES)
            if mine & theirs:
                return f"patterns: {p.name} and {other.name} match the same cards"
        seen.setdefault(g, []).append(p)
    return None


# ---------------------------------------------------------------- commands
class Ready(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="ff_ready.v1"):
    """Ready to start: carries the seat's client seed (rng_v1); the deal follows the last one."""

    client_seed: str = ""


class Draw(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="ff_draw.v1"):
    """DRAW: the top card of the draw pile (the scored pile is reshuffled first when it is empty)."""


class Place(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="ff_place.v1"):
    """PLACE(target): the pending number card goes to the end of ``target``'s area."""

    target: str


class Lock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="ff_lock.v1"):
    """LOCK(owner, cards, pattern): cards of one area (positions, 0 = oldest) to the centre."""

    owner: str
    cards: tuple[int, ...]
    pattern: str


class Stop(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="ff_stop.v1"):
    """STOP: bank the centre (with the held Farkle cards), or forfeit it below the entry."""


FarkleFlipCommand = Ready | Draw | Place | Lock | Stop


# ---------------------------------------------------------------- events
class SeatReady(msgspec.Struct, frozen=True, kw_only=True, tag="ff_seat_ready.v1"):
    seat: str
    client_seed: str = ""


class GameDealt(msgspec.Struct, frozen=True, kw_only=True, tag="ff_game_dealt.v1"):
    """The set-up (§3.3, FF2) from rng_v1: dealer (label ``dealer``), the deck (label ``deck``,
    top first; hidden, redacted to ``??``), one card face up to each seat from the dealer's left."""

    dealer: str
    first_seat: str
    seats: tuple[str, ...]
    deck: tuple[str, ...]  # the whole shuffled deck, top first (hidden)
    dealt: tuple[str, ...]  # per seat in seat order (public); an "F" is set aside
    draw_size: int


class PileReshuffled(msgspec.Struct, frozen=True, kw_only=True, tag="ff_pile_reshuffled.v1"):
    """The scored pile shuffled into a new draw pile (004:L1186; label ``reshuffle:<n>``)."""

    seat: str
    reshuffle_no: int
    order: tuple[str, ...]  # top first (hidden)
    size: int


class PileOrderGiven(msgspec.Struct, frozen=True, kw_only=True, tag="ff_pile_order_given.v1"):
    """Game records only (rules/records.md): the order of the next shuffle of the scored pile,
    given by the record; the next DRAW from an empty draw pile uses it instead of rng_v1."""

    order: tuple[str, ...]  # top first (hidden)


class CardDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="ff_card_drawn.v1"):
    seat: str
    card: str  # public once drawn


class CardPlaced(msgspec.Struct, frozen=True, kw_only=True, tag="ff_card_placed.v1"):
    seat: str
    target: str
    card: str
    position: int  # its position in the target's area


class CombinationLocked(msgspec.Struct, frozen=True, kw_only=True, tag="ff_locked.v1"):
    seat: str
    owner: str
    positions: tuple[int, ...]  # as given, in the owner's area before the lock
    cards: tuple[str, ...]  # the values, in area order
    pattern: str
    value: int


class Busted(msgspec.Struct, frozen=True, kw_only=True, tag="ff_busted.v1"):
    """A Farkle card drawn: the centre comes back to the drawer's area, one lost group per
    combination (FF1, FF9); the Farkle card is held."""

    seat: str
    lost: tuple[tuple[str, ...], ...]
    groups: tuple[int, ...]  # the lost-group id of each returned combination


class Stopped(msgspec.Struct, frozen=True, kw_only=True, tag="ff_stopped.v1"):
    """STOP resolved (§3.9 Bank): ``banked`` (points added), ``forfeit`` (below the entry: the
    centre becomes lost groups) or ``nothing`` (empty centre, FF6)."""

    seat: str
    result: Literal["banked", "forfeit", "nothing"]
    turn_total: int
    farkle_cards: int  # held Farkle cards scored (banked) or kept
    points: int  # added to the seat's score
    banked: int  # the seat's score after
    groups: tuple[int, ...] = ()  # forfeit: the lost-group id of each returned combination


class FinalRoundStarted(msgspec.Struct, frozen=True, kw_only=True, tag="ff_final_round.v1"):
    trigger: str
    remaining: tuple[str, ...]  # every other seat once, in turn order


class TurnEnded(msgspec.Struct, frozen=True, kw_only=True, tag="ff_turn_ended.v1"):
    seat: str
    next_seat: str


class GameEnded(msgspec.Struct, frozen=True, kw_only=True, tag="ff_game_ended.v1"):
    reason: Literal["final_round", "piles_empty"]
    banked: tuple[int, ...]  # per seat in seat order
    ranks: tuple[int, ...]  # FF7 competition ranking, 1 best


FarkleFlipEvent = (
    SeatReady
    | GameDealt
    | PileReshuffled
    | PileOrderGiven
    | CardDrawn
    | CardPlaced
    | CombinationLocked
    | Busted
    | Stopped
    | FinalRoundStarted
    | TurnEnded
    | GameEnded
)


# ---------------------------------------------------------------- view
class AreaCard(msgspec.Struct, frozen=True, kw_only=True):
    value: str
    lost_group: int | None = None  # a lost group needs a new card before it is locked again (FF1)


class PlayerArea(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    banked: int
    on_board: bool  # the entry mark
    farkle_held: int
    area: tuple[AreaCard, ...]


class CentreCombination(msgspec.Struct, frozen=True, kw_only=True):
    owner: str
    cards: tuple[str, ...]
    pattern: str
    value: int


class ScoreRound(msgspec.Struct, frozen=True, kw_only=True):
    """One round of the score sheet (every seat's turn once, in turn order from the first seat):
    per seat the points banked in its turn of the round (0: bust or nothing banked; absent: not
    played yet) and the banked totals after the round's last turn so far."""

    round_no: int
    points: dict[str, int]
    totals: dict[str, int]


class FarkleFlipView(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["waiting", "playing", "finished"]
    # the table header: which scoring table the scores come from
    scoring_table: str
    scoring_official: bool
    scoring_note: str
    patterns: tuple[Pattern, ...]
    target: int
    entry: int
    farkle_value: int
    dealer: str | None
    current: str | None
    to_move: tuple[str, ...]
    ready: tuple[str, ...]
    players: tuple[PlayerArea, ...]
    centre: tuple[CentreCombination, ...]
    turn_total: int
    pending: str | None
    pending_targets: tuple[str, ...]  # where the pending card may go (every seat)
    draws: int
    draw_pile: int  # its size; the order is hidden
    scored_pile: int
    set_aside: tuple[str, ...]
    final_round: tuple[str, ...]  # seats still to play in the final round
    final_trigger: str | None
    dry_turns: int  # consecutive turns started with both piles empty and no bank (FF3)
    ranks: tuple[int, ...] = ()
    result: str | None = None
    sheet: tuple[ScoreRound, ...] = ()  # the score sheet, one row per round of turns
    status_text: str = ""  # the status in words, in the view's language ("playing", «игра»)
    pattern_names: dict[str, str] = {}  # each scoring combination's name in the view's language


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
FARKLE_FLIP_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence("The request is not well formed.", "Запрос составлен неверно."),
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
    "invalid_seats": Sentence(
        "This number of players does not fit these rules.", "Такое число игроков не подходит к этим правилам."
    ),
    "seed_unavailable": Sentence(
        "The deal cannot be made yet: try again.", "Раздать пока нельзя: попробуйте ещё раз."
    ),
    "not_dealing": Sentence(
        "The next deal is not being prepared now.", "Следующая раздача сейчас не готовится."
    ),
    "already_ready": Sentence("You have already said you are ready.", "Вы уже сообщили о готовности."),
    "client_seed_too_long": Sentence("The seed you sent is too long.", "Присланное зерно слишком длинное."),
    "game_not_active": Sentence("The game is not in play.", "Игра сейчас не идёт."),
    "card_pending": Sentence("Place the card you drew first.", "Сначала положите взятую карту."),
    "no_card_pending": Sentence(
        "You have no drawn card to place.", "У вас нет взятой карты, чтобы её положить."
    ),
    "piles_empty": Sentence("The piles are empty.", "Стопки пусты."),
    "no_such_seat": Sentence("There is no such player at this table.", "За этим столом нет такого игрока."),
    "must_draw_first": Sentence("Draw a card first.", "Сначала возьмите карту."),
    "bad_positions": Sentence(
        "Those positions on the grid are not valid.", "Эти позиции на поле недопустимы."
    ),
    "unknown_pattern": Sentence("There is no such combination.", "Такой комбинации нет."),
    "pattern_mismatch": Sentence(
        "Those cards do not make that combination.", "Эти карты не составляют эту комбинацию."
    ),
    "lost_group_needs_new_card": Sentence(
        "A lost group needs a new card.", "Потерянной группе нужна новая карта."
    ),
    "last_placed_required": Sentence(
        "Use the card you placed last.", "Используйте последнюю положенную карту."
    ),
    "below_entry": Sentence("Your score is below the entry threshold.", "Ваши очки ниже порога входа."),
    "bad_deal": Sentence("The deal is not valid.", "Неверная раздача."),
    "bad_action": Sentence(
        "A recorded action could not be read.", "Записанное действие не удалось прочитать."
    ),  # a game record's action that cannot be read (rules/records.md)
}
FARKLE_FLIP_REJECTION_CODES: tuple[str, ...] = tuple(FARKLE_FLIP_REJECTIONS)

CONTRACT = GameContract(
    name="farkle-flip",
    command_type=FarkleFlipCommand,
    event_type=FarkleFlipEvent,
    view_type=FarkleFlipView,
    ruleset_type=FarkleFlipRuleset,
    rejections=FARKLE_FLIP_REJECTIONS,
)
