"""Kings in the Corner: ruleset, commands, events, view and rejection codes.

The ruleset holds every parameter of ``rules/kings-corner.md`` §4.1; presets are values of it
(``domain.games.kings_corner.rules``).  Card ids are those of ``domain.core.cards`` ("QS", "10H",
"QS2" for a second deck, "RJ"/"BJ" for jokers).  Slots: cross ``N E S W``, corners ``NE SE SW NW``.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

Slot = Literal["N", "E", "S", "W", "NE", "SE", "SW", "NW"]
CROSS_SLOTS: tuple[str, ...] = ("N", "E", "S", "W")
CORNER_SLOTS: tuple[str, ...] = ("NE", "SE", "SW", "NW")
SLOTS: tuple[str, ...] = CROSS_SLOTS + CORNER_SLOTS

Build = Literal["down_alt_colour", "down_in_suit", "up_in_suit"]
ScoringTable = Literal[
    "K10_O1", "COUNT", "A25_F10_PIP", "A50_TF10_P5", "F10_6T10_5_A5_1", "A25_TF10_P5", "ROBINSON"
]
MatchEnd = Literal["single_round", "fixed_rounds", "target", "elimination"]


class KingsCornerRuleset(msgspec.Struct, frozen=True, kw_only=True):
    """Every parameter of rules/kings-corner.md §4.1 (defaults = the `cardgames-zone` preset)."""

    decks: int = 1  # 1 or 2
    jokers: int = 0  # 0 or 2 (in the whole game, not per deck)
    min_players: int = 2
    max_players: int = 4
    hand_size: int = 7  # 7 or 4
    dealer: Literal["random_first_then_left"] = "random_first_then_left"
    first_player: Literal["left_of_dealer"] = "left_of_dealer"
    setup_cross_kings: Literal["manual", "auto_corner_refill_from_stock"] = "auto_corner_refill_from_stock"
    draw_timing: Literal["start", "end", "start_if_stuck", "until_playable"] = "start"
    draw_count: int = 1  # 1 or 2
    stock_empty: Literal["no_draw_no_reshuffle"] = "no_draw_no_reshuffle"
    optional_play: bool = True
    mandatory_kings: Literal["off", "enforce", "penalty3"] = "off"
    cross_build: Build = "down_alt_colour"
    corner_build: Literal["down_alt_colour", "down_in_suit"] = "down_alt_colour"
    empty_corner_accepts: Literal["king_only"] = "king_only"
    empty_cross_accepts: Literal["any", "any_except_king"] = "any_except_king"
    king_pile_to_corner: bool = False
    pile_move: Literal["whole_pile_base_fits_target_exposed"] = "whole_pile_base_fits_target_exposed"
    run_play_action: bool = True
    going_out: Literal["immediate", "after_stock_exhausted", "draw3_if_open_cross"] = "immediate"
    block_end: Literal["stock_empty_and_(no_legal_action_or_full_idle_cycle)"] = (
        "stock_empty_and_(no_legal_action_or_full_idle_cycle)"
    )
    scoring_table: ScoringTable = "K10_O1"
    settlement: Literal["penalty", "chips", "pool"] = "penalty"
    ante: int = 0  # chips / pool
    idle_fee: int = 0
    per_card: int = 1
    per_king: int = 10
    match_end: MatchEnd = "fixed_rounds"
    match_end_value: int = 3  # N rounds for fixed_rounds, T for target / elimination
    target_compare: Literal["reach_or_exceed", "strictly_exceed"] = "reach_or_exceed"
    winner: Literal["lowest_total", "highest_balance"] = "lowest_total"
    tie_policy: Literal["shared", "extra_round"] = "shared"
    first_turn_out_adjust: int = 0  # V5: added to the penalty of a seat going out on its first turn
    corner_ace_bonus: int = 0  # V12: penalty points taken off for completing a K..A corner pile
    joker_penalty: int = 1  # V17: penalty of a joker left in hand
    score_sign: Literal["positive", "negative"] = "positive"  # display only (S3 writes -25)

    def validate(self) -> str | None:
        """The parameters against rules/kings-corner.md §4.1 (Decision D6): the first problem as
        a sentence naming the parameter and its allowed values, or None."""
        for name, allowed in _ALLOWED.items():
            value = getattr(self, name)
            if value not in allowed:
                return f"{name} must be one of {', '.join(str(a) for a in allowed)} (got {value})"
        for name in ("ante", "idle_fee", "per_card", "per_king", "corner_ace_bonus", "joker_penalty"):
            if getattr(self, name) < 0:
                return f"{name} must be >= 0 (got {getattr(self, name)})"
        if self.min_players < 2:
            return f"min_players must be >= 2 (got {self.min_players})"
        cap = MAX_PLAYERS[self.decks]
        if not self.min_players <= self.max_players <= cap:
            return f"max_players must be within {self.min_players}-{cap} with {self.decks} deck(s) (got {self.max_players})"
        if self.match_end != "single_round" and self.match_end_value < 1:
            return f"match_end_value must be >= 1 for {self.match_end} (got {self.match_end_value})"
        if self.settlement != "penalty" and self.match_end in ("target", "elimination"):
            return "match_end must be fixed_rounds or single_round with a chips or pool ledger"
        if self.settlement != "penalty" and self.winner != "highest_balance":
            return "winner must be highest_balance with a chips or pool ledger"
        if self.settlement == "penalty" and self.winner != "lowest_total":
            return "winner must be lowest_total with penalty points"
        if not self.optional_play and self.draw_timing != "until_playable":
            return "optional_play may be false only with draw_timing = until_playable"
        return self.check_seats(self.max_players)

    def check_seats(self, n: int) -> str | None:
        """The seat count within the ruleset's players range, and a deck that holds every hand,
        the cross and the auto-refill reserve (§5.3 step 1)."""
        if not self.min_players <= n <= self.max_players:
            return f"players must be {self.min_players}-{self.max_players} for this ruleset (got {n})"
        reserve = 4 * self.decks if self.setup_cross_kings == "auto_corner_refill_from_stock" else 0
        cards = 52 * self.decks + self.jokers
        if cards < self.hand_size * n + 4 + reserve:
            return f"{cards} cards cannot deal {self.hand_size} to {n} players plus the cross (§5.3)"
        return None


# §4.1 values of the numeric parameters with a closed list; players: the deck cap (§2.3) and Q22.
_ALLOWED: dict[str, tuple[int, ...]] = {
    "decks": (1, 2),
    "jokers": (0, 2),
    "hand_size": (4, 7),
    "draw_count": (1, 2),
    "first_turn_out_adjust": (0, -5),
}
MAX_PLAYERS: dict[int, int] = {1: 6, 2: 10}


# ---------------------------------------------------------------- commands
class Ready(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_ready.v1"):
    """Ready for the next deal.  Before the first deal it carries the seat's client seed (rng_v1)."""

    client_seed: str = ""


class DrawCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_draw.v1"):
    """A1: draw (end timing: ends the turn; until_playable: only while nothing can be played)."""


class PlayCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_play_card.v1"):
    """A2: a card from hand onto a slot.  ``as_card`` declares a joker's identity (V17)."""

    card: str
    slot: Slot
    as_card: str | None = None


class PlayRun(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_play_run.v1"):
    """A3: several cards from hand onto one slot, each fitting the one before (no jokers)."""

    cards: tuple[str, ...]
    slot: Slot


class MovePile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_move_pile.v1"):
    """A4: a whole pile onto another pile whose exposed card its base fits."""

    from_slot: Slot
    to_slot: Slot


class MoveKingPile(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_move_king_pile.v1"
):
    """A5: a cross pile with a king at its base into an empty corner."""

    from_slot: Slot
    to_slot: Slot


class EndTurn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kc_end_turn.v1"):
    """A6: end the turn (performs the compulsory draw where the timing demands one)."""


KingsCornerCommand = Ready | DrawCard | PlayCard | PlayRun | MovePile | MoveKingPile | EndTurn


# ---------------------------------------------------------------- events
class SeatReady(msgspec.Struct, frozen=True, kw_only=True, tag="kc_seat_ready.v1"):
    seat: str
    client_seed: str = ""  # only meaningful before the first deal


class SetupStep(msgspec.Struct, frozen=True, kw_only=True):
    """One step of the §5.3 cross clean-up: ``card`` left ``slot`` for ``to`` and ``refill`` came in."""

    card: str
    slot: str
    to: str  # a corner slot, or "stock_bottom"
    refill: str


class RoundDealt(msgspec.Struct, frozen=True, kw_only=True, tag="kc_round_dealt.v1"):
    """A deal from rng_v1 (label ``deal:<round>``).  Hidden parts are blanked by ``redact``."""

    round_no: int
    dealer: str
    seats: tuple[str, ...]  # the match's seats, so a hand can be blanked per viewer
    order: tuple[str, ...]  # the whole shuffled deck, top first (hidden)
    hands: tuple[tuple[str, ...], ...]  # per seat in seat order; eliminated seats get () (hidden)
    hand_sizes: tuple[int, ...]
    cross: tuple[str, ...]  # N, E, S, W as first turned up
    setup: tuple[SetupStep, ...]
    layout: tuple[tuple[str, ...], ...]  # the 8 slots after set-up, in SLOTS order
    stock: tuple[str, ...]  # top first (hidden)
    stock_size: int
    first_seat: str


class CardsDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="kc_cards_drawn.v1"):
    seat: str
    cards: tuple[str, ...]  # blanked for everyone but ``seat``
    count: int
    reason: Literal["turn_start", "turn_end", "until_playable", "going_out", "open_cross"]


class CardPlayed(msgspec.Struct, frozen=True, kw_only=True, tag="kc_card_played.v1"):
    seat: str
    card: str
    slot: str
    as_card: str | None = None


class RunPlayed(msgspec.Struct, frozen=True, kw_only=True, tag="kc_run_played.v1"):
    seat: str
    cards: tuple[str, ...]
    slot: str


class PileMoved(msgspec.Struct, frozen=True, kw_only=True, tag="kc_pile_moved.v1"):
    seat: str
    from_slot: str
    to_slot: str
    king_pile: bool = False  # True for A5


class TurnEnded(msgspec.Struct, frozen=True, kw_only=True, tag="kc_turn_ended.v1"):
    seat: str
    next_seat: str
    # penalty3 charged at once (stored before Decision D1 only; since D1 the charge is the seat's
    # private KingPenaltyCharged and this stays 0)
    king_penalty: int = 0
    idle_fee: int = 0  # chips / pool paid for a turn without playing a card


class KingPenaltyCharged(msgspec.Struct, frozen=True, kw_only=True, tag="kc_king_penalty_charged.v1"):
    """penalty3 (A6, Decision D1): ``points`` for kings ``seat`` held back this turn while a corner
    was empty.  Private to ``seat`` (redacted away for everyone else); the charges are added to the
    seat's total, and revealed, only when the round is scored (``SeatResult.king_penalty``)."""

    seat: str
    points: int


class SeatResigned(msgspec.Struct, frozen=True, kw_only=True, tag="kc_seat_resigned.v1"):
    """Decision D3: ``seat`` resigned.  It takes no more turns; a seat resigning during a round
    keeps its hand and scores it when the round is scored; it is ranked last.  ``match_over`` when
    fewer than two seats are left playing (``ranks`` per seat, 1 best)."""

    seat: str
    match_over: bool = False
    ranks: tuple[int, ...] = ()


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    hand: tuple[str, ...]  # public at the end of the round
    points: int  # penalty points of this round (penalty settlement)
    balance_change: int  # chips / pool ledger change of this round (0 under penalty)
    total: int  # running total after the round (penalty points or balance)
    eliminated: bool = False
    king_penalty: int = 0  # penalty3 charges of this round, included in points (Decision D1)
    resigned: bool = False  # the seat resigned during this round (Decision D3)


class RoundEnded(msgspec.Struct, frozen=True, kw_only=True, tag="kc_round_ended.v1"):
    round_no: int
    result: Literal["won", "blocked"]
    winner: str | None
    seats: tuple[SeatResult, ...]  # active seats of this round
    pot_carried: int = 0
    match_over: bool = False
    ranks: tuple[int, ...] = ()  # when match_over: per seat in seat order, 1 best
    reason: str = ""


KingsCornerEvent = (
    SeatReady
    | RoundDealt
    | CardsDrawn
    | CardPlayed
    | RunPlayed
    | PileMoved
    | TurnEnded
    | KingPenaltyCharged
    | SeatResigned
    | RoundEnded
)


# ---------------------------------------------------------------- view
class RoundSummary(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    result: str
    winner: str | None
    points: dict[str, int]  # per active seat: penalty points or ledger change


class KingsCornerView(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["waiting", "playing", "round_over", "finished"]
    round_no: int
    dealer: str | None
    to_move: tuple[str, ...]
    current: str | None  # whose turn during a round
    ready: tuple[str, ...]  # seats that sent Ready for the next deal
    layout: dict[str, tuple[str, ...]]  # slot -> pile, base first
    jokers: dict[str, str]  # joker id -> declared card (V17)
    hand: tuple[str, ...]  # the viewer's own hand; () for a spectator
    hand_sizes: dict[str, int]
    stock_size: int
    totals: dict[str, int]
    score_sign: str
    pot: int
    eliminated: tuple[str, ...]
    resigned: tuple[str, ...] = ()  # seats that resigned (Decision D3): no more turns, ranked last
    turn: dict[str, int]  # per-turn counters: drawn, played, merges, idle_turns
    pending_card: str | None = None  # V16: the viewer's drawn card that must go to an empty slot
    revealed_hands: dict[str, tuple[str, ...]] = {}  # at the end of a round
    rounds: tuple[RoundSummary, ...] = ()
    legal: tuple[str, ...] = ()  # the viewer's legal commands in short notation
    result: str | None = None
    status_text: str = ""  # the status in words, in the view's language ("round over", «раунд окончен»)


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
KINGS_CORNER_REJECTIONS: dict[str, Sentence] = {
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
    "round_not_active": Sentence("The round is not in play.", "Раунд сейчас не идёт."),
    "card_not_in_hand": Sentence("That card is not in your hand.", "Этой карты нет у вас в руке."),
    "does_not_fit": Sentence("That card does not fit on that pile.", "Эта карта не подходит к этой стопке."),
    "pile_closed": Sentence("That pile is closed.", "Эта стопка закрыта."),
    "corner_needs_king": Sentence(
        "Only a King may start a corner pile.", "Угловую стопку можно начать только с короля."
    ),
    "no_king_on_empty_cross": Sentence(
        "A King may not go on an empty side place.", "Короля нельзя класть на пустое боковое место."
    ),
    "empty_slot": Sentence("There is nothing in that place.", "На этом месте ничего нет."),
    "same_slot": Sentence("Choose two different places.", "Выберите два разных места."),
    "corner_pile_immovable": Sentence("A corner pile cannot be moved.", "Угловую стопку переносить нельзя."),
    "not_a_king_pile": Sentence(
        "That pile does not start with a King.", "Эта стопка начинается не с короля."
    ),
    "corner_occupied": Sentence("That corner is already taken.", "Этот угол уже занят."),
    "not_a_corner": Sentence("That place is not a corner.", "Это место не угол."),
    "not_a_cross_slot": Sentence("That place is not a side place.", "Это место не боковое."),
    "king_pile_move_disabled": Sentence(
        "Moving a King's pile is off in these rules.", "Перенос стопки короля в этих правилах выключен."
    ),
    "mixed_build": Sentence(
        "That pile may not be built in mixed order.", "Эту стопку нельзя строить вперемешку."
    ),
    "draw_not_allowed": Sentence("You may not draw now.", "Сейчас брать карту нельзя."),
    "stock_empty": Sentence("The stock is empty.", "Колода пуста."),
    "must_play_first": Sentence("Play a card first.", "Сначала сыграйте карту."),
    "play_available": Sentence(
        "You can still play a card, so you may not draw.", "У вас есть ход картой, брать нельзя."
    ),
    "kings_must_be_played": Sentence("Play your Kings first.", "Сначала выложите королей."),
    "runs_disabled": Sentence(
        "Runs are off in these rules.", "Последовательности в этих правилах выключены."
    ),
    "bad_run": Sentence("Those cards do not make a run.", "Эти карты не составляют последовательность."),
    "joker_needs_declaration": Sentence(
        "Say which card the joker stands for.", "Укажите, какую карту изображает джокер."
    ),
    "bad_declaration": Sentence(
        "That card cannot stand for the joker here.", "Джокер не может изображать здесь эту карту."
    ),
    "card_barred": Sentence("That card may not be played now.", "Эту карту сейчас играть нельзя."),
    "pending_placement": Sentence("Finish placing your card first.", "Сначала закончите выкладывать карту."),
    "seat_out": Sentence("That player is out of the game.", "Этот игрок выбыл из игры."),
    "bad_action": Sentence(
        "A recorded action could not be read.", "Записанное действие не удалось прочитать."
    ),  # a game record's action that cannot be read (rules/records.md)
}
KINGS_CORNER_REJECTION_CODES: tuple[str, ...] = tuple(KINGS_CORNER_REJECTIONS)

CONTRACT = GameContract(
    name="kings-corner",
    command_type=KingsCornerCommand,
    event_type=KingsCornerEvent,
    view_type=KingsCornerView,
    ruleset_type=KingsCornerRuleset,
    rejections=KINGS_CORNER_REJECTIONS,
)
