"""1000 (Тысяча): ruleset, commands, events, view and rejection codes.

The ruleset holds every parameter of ``rules/thousand-and-farkle-flip.md`` §2.20 that the referee
supports; presets are values of it (``domain.games.thousand.rules``).  Card ids are those of
``domain.core.cards`` on the 24-card deck: ``9 J Q K 10 A`` of ``C D H S`` ("QS", "10H").

Penalties left ``None`` default to ``penalty_unit`` and ``barrel_required`` left ``None`` is
``target - barrel_at`` (Decision T13), so overriding ``target`` or ``penalty_unit`` alone moves them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

MarriageTable = Literal["H100_D80_C60_S40", "S100_H80_C60_D40", "S100_C80_H60_D40"]
RedealReason = Literal["weak", "four_nines", "talon_low", "talon_nines"]
Announce = Literal["none", "marriage", "aces"]


class ThousandRuleset(msgspec.Struct, frozen=True, kw_only=True):
    """Every supported parameter of §2.20 (defaults = the CLASSIC preset)."""

    sitout_4p: bool = False  # 4 players, the dealer sits out (§2.15)
    marriage_values: MarriageTable = "H100_D80_C60_S40"
    ace_marriage: bool = True
    ace_marriage_value: int = 200
    ace_marriage_sets_trump: bool = False
    last_trick_bonus: int = 0
    # reserved by §2.18 / T15: accepted only as off
    bed_marriage: bool = False
    four_nines_bonus: bool = False
    bottom_card_ritual: bool = False
    # redeal triggers (§2.4): a weak hand is one with fewer card points than the threshold
    redeal_weak_before_bid: int | None = 14
    redeal_four_nines_before_bid: bool = True
    redeal_weak_after_passing: int | None = None
    redeal_four_nines_after_passing: bool = True
    redeal_talon_low: int | None = 5  # talon worth fewer card points than this (forced bid only)
    redeal_talon_nines: bool = False  # mandatory, >= 2 nines in the talon
    # bidding (§2.5)
    forced_bidder: Literal["left_of_dealer", "dealer"] = "left_of_dealer"
    forced_bid: int = 100
    bid_step: int = 5
    bid_jumps: bool = False
    cap_mode: Literal["sum_of_marriages", "any_marriage_uncapped"] = "sum_of_marriages"
    max_contract: int | None = None
    minus_bidding_threshold: int | None = None
    # talon, passing, contract (§2.6)
    talon_shown: bool = True
    talon_hidden_at_forced_100: bool = False
    pass_cards_visibility: Literal["recipient", "recipient_or_face_up"] = "recipient_or_face_up"
    raise_after_talon: bool = True
    # write-off (§2.7)
    writeoff_allowed: bool = True
    writeoff_mode: Literal["W1", "W2", "W3"] = "W1"
    writeoff_on_barrel: Literal["forbidden", "allowed"] = "forbidden"
    writeoff_limit: int | None = None
    writeoff_third_penalty: int | None = None
    # play (§2.8)
    must_follow_suit: bool = True
    must_trump_when_void: bool = True
    must_overtake: bool = False
    must_overtrump: bool = False
    marriage_on_first_lead: bool = False
    marriage_points_to: Literal["announcer", "declarer"] = "announcer"
    # scoring (§2.9, §2.16)
    declarer_round_before_compare: bool = False
    target: int = 1000
    # barrel (§2.10)
    barrel_on: bool = True
    barrel_at: int = 880
    barrel_required: int | None = None
    barrel_success: Literal["contract_ge_required_and_made", "made_and_raw_ge_required"] = (
        "contract_ge_required_and_made"
    )
    barrel_fail_mode: Literal["attempt_at_required_else_minus", "minus_contract"] = (
        "attempt_at_required_else_minus"
    )
    barrel_bidding: Literal["normal", "auto_bid", "no_auction"] = "normal"
    barrel_jump: bool = False
    barrel_exclusive: bool = True
    barrel_attempts: int = 3
    barrel_attempts_fail_penalty: int | None = None
    barrel_knockoff_penalty: int | None = None
    simultaneous_climb_penalty: int | None = None
    barrel_freeze_opponents: bool = False
    barrel_falls_limit: int = 3
    barrel_falls_result: Literal["zero", "five", "none"] = "zero"
    barrel_disabled_after_falls: bool = False
    # bolts (§2.11)
    bolt_trigger: Literal["zero_points", "no_tricks"] = "zero_points"
    bolt_mode: Literal["consecutive", "cumulative", "immediate"] = "consecutive"
    bolt_limit: int = 3
    bolt_penalty: int | None = None
    # other (§2.12-§2.14, §2.16)
    samosval: bool = True
    golden_kon: bool = False
    blind_on: bool = False
    blind_min_score: int | None = None
    penalty_unit: int = 120
    settlement_report: Literal["shortfall", "none"] = "shortfall"

    # ------------------------------------------------------------ derived values
    def required(self) -> int:
        return self.barrel_required if self.barrel_required is not None else self.target - self.barrel_at

    def penalty(self, value: int | None) -> int:
        return self.penalty_unit if value is None else value

    def players(self) -> int:
        return 4 if self.sitout_4p else 3

    def validate(self) -> str | None:
        if self.bed_marriage or self.four_nines_bonus:
            return "bed_marriage and four_nines_bonus are reserved and not supported (§2.18)"
        if self.bottom_card_ritual:
            return "the bottom-card ritual is not supported (Decision T15)"
        if self.bid_step < 1 or self.bid_step > 50:
            return "bid_step must be 1..50"
        if self.forced_bid < 0 or self.forced_bid % 5:
            return "forced_bid must be a non-negative multiple of 5"
        if self.max_contract is not None and not self.forced_bid < self.max_contract <= 1000:
            return "max_contract must be above forced_bid and at most 1000"
        if self.sitout_4p and self.forced_bidder != "left_of_dealer":
            return "with sitout_4p the dealer sits out, so the forced bidder is left of the dealer"
        if self.ace_marriage_value < 0 or self.ace_marriage_value % 5:
            return "ace_marriage_value must be a non-negative multiple of 5"
        if self.last_trick_bonus < 0 or self.last_trick_bonus % 5:
            return "last_trick_bonus must be a non-negative multiple of 5"
        for name in ("redeal_weak_before_bid", "redeal_weak_after_passing", "redeal_talon_low"):
            v = getattr(self, name)
            if v is not None and not 1 <= v <= 120:
                return f"{name} must be 1..120 card points or null"
        if self.target < 100 or self.target > 10_000:
            return "target must be 100..10000"
        if self.penalty_unit < 0 or self.penalty_unit % 5:
            return "penalty_unit must be a non-negative multiple of 5"
        for name in (
            "barrel_attempts_fail_penalty",
            "barrel_knockoff_penalty",
            "simultaneous_climb_penalty",
            "bolt_penalty",
            "writeoff_third_penalty",
        ):
            v = getattr(self, name)
            if v is not None and (v < 0 or v % 5):
                return f"{name} must be a non-negative multiple of 5 or null"
        if self.barrel_on:
            if not 0 < self.barrel_at < self.target:
                return "barrel_at must be between 0 and target"
            if self.barrel_at % 5:
                return "barrel_at must be a multiple of 5"
            req = self.required()
            if not 0 < req <= 1000:
                return "barrel_required must be 1..1000"
            if self.barrel_at + req < self.target:
                return "barrel_at + barrel_required must reach the target (a barrel success wins)"
            if self.barrel_attempts < 1:
                return "barrel_attempts must be >= 1"
            if self.barrel_falls_limit < 1:
                return "barrel_falls_limit must be >= 1"
            if self.max_contract is not None and self.max_contract < req:
                return "max_contract is below barrel_required"
        if self.bolt_limit < 1:
            return "bolt_limit must be >= 1"
        if self.bolt_mode == "immediate" and self.bolt_limit != 1:
            return "bolt_mode immediate means bolt_limit 1"
        if self.writeoff_limit is not None and self.writeoff_limit < 1:
            return "writeoff_limit must be >= 1 or null"
        if not self.must_follow_suit and (self.must_trump_when_void or self.must_overtake):
            return "must_follow_suit = false means no duty to trump or overtake (T11)"
        return None

    def check_seats(self, n: int) -> str | None:
        want = self.players()
        if n != want:
            return f"this ruleset takes {want} players ({'sitout_4p' if want == 4 else '3-player game'}), got {n}"
        return None


# ---------------------------------------------------------------- commands
class Ready(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_ready.v1"):
    """Ready to start; carries the seat's client seed (rng_v1).  Later deals follow on their own."""

    client_seed: str = ""


class DeclareBlind(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_declare_blind.v1"
):
    """§2.14: bid 120 without looking at the hand (the seat left of the dealer, before seeing it)."""


class DeclineBlind(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_decline_blind.v1"
):
    pass


class ClaimRedeal(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_claim_redeal.v1"
):
    """§2.4: ``weak`` / ``four_nines`` (before bidding, or a defender after the passing), ``talon_low``."""

    reason: Literal["weak", "four_nines", "talon_low"]


class KeepHand(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_keep_hand.v1"
):
    """Answer to a redeal window without a claim."""


class Bid(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_bid.v1"):
    amount: int


class Pass(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_pass.v1"):
    pass


class GiveCards(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_give_cards.v1"
):
    """§2.6: one card to each opponent: ``gifts`` maps each defender's seat to the card he gets."""

    gifts: dict[str, str]
    face_up: bool = False


class SetContract(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_set_contract.v1"
):
    amount: int


class WriteOff(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_write_off.v1"
):
    """§2.7: concede the deal before play (the amount is the winning bid)."""


class Play(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag="thousand_play.v1"):
    card: str
    announce: Announce = "none"


ThousandCommand = (
    Ready
    | DeclareBlind
    | DeclineBlind
    | ClaimRedeal
    | KeepHand
    | Bid
    | Pass
    | GiveCards
    | SetContract
    | WriteOff
    | Play
)


# ---------------------------------------------------------------- events
class SeatReady(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_seat_ready.v1"):
    seat: str
    client_seed: str = ""


class DealDealt(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_deal_dealt.v1"):
    """A deal from rng_v1 (label ``deal:<shuffle>``).  Hands, talon and order are blanked by ``redact``;
    the hand of ``blind_seat`` is blanked for him too until he has seen it (``HandShown``)."""

    deal_no: int  # completed deals before this one (a redeal repeats the number)
    shuffle: int  # shuffles so far in the match, this one included
    dealer: str
    seats: tuple[str, ...]
    sitout: str | None  # 4 players: the dealer
    order: tuple[str, ...]  # the shuffled deck, top first
    hands: tuple[tuple[str, ...], ...]  # per seat in seat order; the sit-out gets ()
    talon: tuple[str, ...]
    forced_seat: str
    golden: bool
    blind_seat: str | None  # offered the blind game before seeing his hand


class BlindAnswered(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_blind_answered.v1"):
    seat: str
    blind: bool


class HandShown(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_hand_shown.v1"):
    """A blind-offered seat now sees his hand (blanked for everybody else)."""

    seat: str
    cards: tuple[str, ...]


class HandKept(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_hand_kept.v1"):
    seat: str


class RedealClaimed(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_redeal.v1"):
    """A redeal (same dealer, no score change).  ``seat`` is None for the mandatory talon-nines redeal,
    which shows the talon (``talon``); a player's claim shows nothing."""

    seat: str | None
    reason: RedealReason
    talon: tuple[str, ...] = ()


class AuctionOpened(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_auction_opened.v1"):
    """The standing bid (forced, blind 120 or the automatic barrel bid) and who speaks first."""

    standing_bid: int
    high_seat: str
    kind: Literal["forced", "blind", "barrel_auto"]
    to_act: str
    barred: tuple[str, ...] = ()  # seats that may only pass (minus_bidding_threshold)


class BidMade(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_bid_made.v1"):
    seat: str
    amount: int
    to_act: str | None


class Passed(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_passed.v1"):
    seat: str
    to_act: str | None


class DeclarerChosen(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_declarer.v1"):
    """The auction winner (or the golden-kon / no-auction barrel declarer) and the winning bid."""

    seat: str
    bid: int
    how: Literal["auction", "golden", "barrel_no_auction"]
    voluntary: bool  # a voluntary bid was made in the auction
    blind: bool  # the blind 120 was not outbid


class TalonRevealed(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_talon_revealed.v1"):
    declarer: str
    cards: tuple[str, ...]  # blanked for the defenders when not public
    public: bool


class TalonTaken(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_talon_taken.v1"):
    declarer: str


class CardsGiven(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_cards_given.v1"):
    """Per recipient (seat order) the card given; each is blanked but for the declarer and its
    recipient, unless face up."""

    declarer: str
    to: tuple[str, ...]
    cards: tuple[str, ...]
    face_up: bool


class ContractSet(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_contract_set.v1"):
    declarer: str
    amount: int


class WrittenOff(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_written_off.v1"):
    declarer: str
    amount: int


class CardPlayed(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_card_played.v1"):
    seat: str
    card: str
    announce: Announce = "none"
    value: int = 0  # marriage points credited (0 when they go to nobody)
    trump: str | None = None  # the trump after this card


class TrickTaken(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_trick_taken.v1"):
    trick_no: int  # 1..8
    winner: str
    cards: tuple[str, ...]  # in the order played
    points: int


class SeatScore(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's line of the score sheet for a deal."""

    seat: str
    role: Literal["declarer", "defender", "sitout"]
    raw: int  # card points + credited marriages (+ last trick bonus)
    delta: int  # the change of the score this deal (all effects included)
    score: int  # after the deal
    marks: tuple[str, ...]  # "bolt", "bolt_penalty", "barrel_on", "barrel_attempt", "fall", ...
    bolts: int
    writeoffs: int
    barrel: bool
    attempts: int
    falls: int
    disabled: bool


class DealScored(msgspec.Struct, frozen=True, kw_only=True, tag="thousand_deal_scored.v1"):
    deal_no: int  # 1-based number of the deal just scored
    declarer: str
    bid: int
    contract: int
    result: Literal["made", "failed", "written_off"]
    golden: bool
    blind: bool
    seats: tuple[SeatScore, ...]  # per seat in seat order
    talon: tuple[str, ...]  # revealed after the deal
    golden_restart: bool = False
    match_over: bool = False
    winner: str | None = None
    ranks: tuple[int, ...] = ()
    reason: str = ""


ThousandEvent = (
    SeatReady
    | DealDealt
    | BlindAnswered
    | HandShown
    | HandKept
    | RedealClaimed
    | AuctionOpened
    | BidMade
    | Passed
    | DeclarerChosen
    | TalonRevealed
    | TalonTaken
    | CardsGiven
    | ContractSet
    | WrittenOff
    | CardPlayed
    | TrickTaken
    | DealScored
)


# ---------------------------------------------------------------- view
class SheetLine(msgspec.Struct, frozen=True, kw_only=True):
    deal_no: int
    declarer: str
    contract: int
    result: str
    deltas: dict[str, int]
    scores: dict[str, int]
    marks: dict[str, tuple[str, ...]]
    result_text: str = ""  # the result in words, in the view's language ("made", «сыграл»)


class BarrelStatus(msgspec.Struct, frozen=True, kw_only=True):
    on: bool
    attempts: int
    falls: int
    disabled: bool


class ThousandView(msgspec.Struct, frozen=True, kw_only=True):
    phase: str
    deal_no: int
    dealer: str | None
    sitout: str | None
    forced_seat: str | None
    golden: bool
    to_move: tuple[str, ...]
    hand: tuple[str, ...]  # the viewer's hand (sorted), () when not seen or a spectator
    hand_sizes: dict[str, int]
    talon: tuple[str, ...]  # what the viewer may see of the talon (placeholders "??")
    high_bid: int | None
    high_seat: str | None
    passed: tuple[str, ...]
    bids: tuple[tuple[str, str], ...]  # the auction so far: (seat, "105" | "pass" | ...)
    declarer: str | None
    contract: int | None
    blind: bool
    given: dict[str, str]  # passed cards the viewer may see: recipient -> card
    trump: str | None
    trick: tuple[tuple[str, str], ...]  # (seat, card) in the order played
    last_trick: tuple[tuple[str, str], ...]
    leader: str | None
    trick_no: int
    tricks_won: dict[str, int]
    announcements: tuple[tuple[str, str, int], ...]  # (seat, suit or "aces", value)
    scores: dict[str, int]
    barrel: dict[str, BarrelStatus]
    bolts: dict[str, int]
    writeoffs: dict[str, int]
    sheet: tuple[SheetLine, ...]
    legal: tuple[str, ...]  # the viewer's legal commands in short notation
    result: str | None = None
    winner: str | None = None
    shortfall: dict[str, int] = {}  # at the end, what each loser lacks to the target (§2.16)
    phase_text: str = ""  # the phase in words, in the view's language ("auction", «торги»)
    announcement_texts: tuple[str, ...] = ()  # each announcement in words with its value ("♥ marriage 100")


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
THOUSAND_REJECTIONS: dict[str, Sentence] = {
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
    "wrong_phase": Sentence(
        "That move does not belong to this part of the deal.", "Этот ход не относится к этой части раздачи."
    ),
    "blind_not_offered": Sentence(
        "A blind bid is not offered to you now.", "Ставка втёмную вам сейчас не предлагается."
    ),
    "redeal_not_allowed": Sentence("A redeal is not allowed now.", "Пересдача сейчас не разрешена."),
    "bid_not_multiple": Sentence("The bid must go up in steps of 5.", "Ставка должна быть кратна 5."),
    "bid_too_low": Sentence(
        "The bid must be higher than the current one.", "Ставка должна быть выше текущей."
    ),
    "bid_not_next_step": Sentence("Bid the next step only.", "Можно назвать только следующую ставку."),
    "bid_above_cap": Sentence(
        "The bid is above the limit of your hand.", "Ставка выше предела для вашей руки."
    ),
    "bid_above_max": Sentence("The bid is above the maximum.", "Ставка выше максимальной."),
    "barrel_bid_too_low": Sentence(
        "Your bid is too low for a player on the barrel.", "Для игрока на бочке эта ставка слишком мала."
    ),
    "must_pass": Sentence("You must pass now.", "Сейчас нужно спасовать."),
    "bad_gifts": Sentence(
        "Give one card to each opponent, from your hand.", "Отдайте по одной карте из руки каждому сопернику."
    ),
    "card_not_in_hand": Sentence("That card is not in your hand.", "Этой карты нет у вас в руке."),
    "face_up_not_allowed": Sentence(
        "That card may not be shown face up.", "Эту карту нельзя показывать открытой."
    ),
    "contract_too_low": Sentence(
        "The contract may not be lower than your bid.", "Заказ не может быть меньше вашей ставки."
    ),
    "contract_not_multiple": Sentence("The contract must be a multiple of 5.", "Заказ должен быть кратен 5."),
    "contract_above_cap": Sentence(
        "The contract is above the limit of your hand.", "Заказ выше предела для вашей руки."
    ),
    "contract_above_max": Sentence("The contract is above the maximum.", "Заказ выше максимального."),
    "raise_not_allowed": Sentence("You may not raise the contract now.", "Сейчас повышать заказ нельзя."),
    "writeoff_not_allowed": Sentence(
        "You may not write off this deal now.", "Сейчас списать эту раздачу нельзя."
    ),
    "must_follow_suit": Sentence("You must follow suit.", "Нужно ходить в масть."),
    "must_trump": Sentence("You must play a trump.", "Нужно бить козырем."),
    "must_overtake": Sentence("You must play higher.", "Нужно перебить старшей картой."),
    "must_overtrump": Sentence("You must play a higher trump.", "Нужно перебить старшим козырем."),
    "bad_announcement": Sentence(
        "That marriage cannot be announced now.", "Этот марьяж сейчас объявить нельзя."
    ),
}
THOUSAND_REJECTION_CODES: tuple[str, ...] = tuple(THOUSAND_REJECTIONS)

CONTRACT = GameContract(
    name="thousand",
    command_type=ThousandCommand,
    event_type=ThousandEvent,
    view_type=ThousandView,
    ruleset_type=ThousandRuleset,
    rejections=THOUSAND_REJECTIONS,
)
