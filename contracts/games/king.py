"""King (Кинг): ruleset, commands, events, view and rejection codes (rules/king.md §11-§12).

The ruleset holds every parameter of king.md §11.1.  Its fields are written in Python style and
encoded under the rules file's own names (``sitOutDealer``, ``hvTrick``, ``heartsLeadBan`` ...),
which are also the names ``--set`` and a record's ``overrides`` take.  Presets are values of it
(``domain.games.king.rules``).  Card ids are those of ``domain.core.cards`` ("QS", "10H");
game ids are those of king.md §4 (``NT NH NB NG NK NL NE PT PB PG PH PK PL PE HV TR AU OT``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

GameId = Literal[
    "NT", "NH", "NB", "NG", "NK", "NL", "NE", "PT", "PB", "PG", "PH", "PK", "PL", "PE", "HV", "TR", "AU", "OT"
]
NEGATIVE_GAMES: tuple[str, ...] = ("NT", "NH", "NB", "NG", "NK", "NL", "NE")
MIRROR_GAMES: tuple[str, ...] = ("PT", "PB", "PG", "PH", "PK", "PL", "PE")
TRUMP_DEALS: tuple[str, ...] = ("HV", "TR", "AU", "OT")
ALL_GAMES: tuple[str, ...] = NEGATIVE_GAMES + MIRROR_GAMES + TRUMP_DEALS
Suit = Literal["C", "D", "H", "S"]
SUITS_ORDER: tuple[str, ...] = ("C", "D", "H", "S")
Option = Literal["SUIT", "NO_TRUMP", "BY_LAST", "MISERE", "RASPIS"]
Boys = Literal["J", "K", "JK"]
Cut = Literal["none", "black_sevens", "black_aces"]


class UnitValues(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """king.md §11.1 ``v``: points per unit (4 players, boys = J: 2/2/4/4/16/8)."""

    trick: int = 2
    heart: int = 2
    boy: int = 4
    girl: int = 4
    king: int = 16
    last: int = 8  # each of the last two tricks


class KingRuleset(msgspec.Struct, frozen=True, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """Every parameter of king.md §11.1 (defaults = ``king-4p-classic``).

    ``schedule``: ``fixed`` plays ``games``, then ``hvCount`` deals of ``trumpDeal``, then
    ``gamesAfter``; ``ordered`` (``king-4p-ordered``, §11.4) gives every seat the list ``games``
    (plus ``hvCount`` trump deals) to order from; ``atomic`` (§8.4) is ordered with a talon, a
    discard and ``hvCount`` otyigrysh deals per player (K7).
    """

    players: int = 4
    sit_out_dealer: bool = False
    deck: Cut = "none"  # §8.1: 32 cards, or without the black sevens / black aces
    hand_size: int = 8
    talon_size: int = 0
    boys: Boys = "J"
    v: UnitValues = UnitValues()
    schedule: Literal["fixed", "ordered", "atomic"] = "fixed"
    games: tuple[GameId, ...] = ("NT", "NH", "NB", "NG", "NK", "NL", "NE")
    trump_deal: Literal["HV", "TR", "AU", "OT"] = "HV"
    hv_count: int = 8
    games_after: tuple[GameId, ...] = ()
    hv_trick: int = 3
    hv_options: tuple[Option, ...] = ("SUIT", "NO_TRUMP", "BY_LAST", "MISERE", "RASPIS")
    hv_buyout: bool = False
    hv_peek: int | Literal["all"] = 3
    trump_leader: Literal["declarer", "leftOfDealer"] = "declarer"
    ordered_leader: Literal["leftOfDealer", "orderer"] = "leftOfDealer"
    trump_lead_restriction: bool = False
    must_trump: bool = True
    must_overtrump: bool = False
    hearts_lead_ban: tuple[GameId, ...] = ("NH", "NK", "NE")
    king_discard: tuple[GameId, ...] = ("NK", "NE")
    king_discard_mode: Literal["mandatory", "optional"] = "mandatory"
    early_end: bool = True
    compensation: Literal["none", "perPlayer", "kingValue"] = "none"
    compensation_value: int = 0  # perPlayer: points written to every seat (-4); kingValue: v.king (24)
    zero_sum: bool = True

    def validate(self) -> str | None:
        return ruleset_problem(self)

    def check_seats(self, n: int) -> str | None:
        if n != self.players:
            return f"this ruleset is for {self.players} players, got {n}"
        return None


# ---------------------------------------------------------------- commands
class Ready(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_ready.v1"):
    """Ready for the first deal, with the seat's optional client seed (rng_v1)."""

    client_seed: str = ""


class ChooseContract(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_choose_contract.v1"
):
    """ORDER(g) (§12.3, ordered presets) and ORDER_ATOMIC(g, s?) (atomic: ``trump`` iff g = OT)."""

    game: GameId
    trump: Suit | None = None


class PassOrder(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_pass_order.v1"
):
    """PASS_ORDER (§12.3)."""


class OfferBuyout(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_offer_buyout.v1"
):
    """OFFER_BUYOUT(n): buy the declaration for ``tricks`` tricks (§6.2 step 4, Q8)."""

    tricks: int


class PassBuyout(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_pass_buyout.v1"
):
    """PASS_BUYOUT: final (§12.3)."""


class AcceptBuyout(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_accept_buyout.v1"
):
    """ACCEPT_BUYOUT: the declarer sells to the best offer."""


class RefuseBuyout(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_refuse_buyout.v1"
):
    """REFUSE_BUYOUT: the declarer keeps the declaration."""


class Declare(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_declare.v1"):
    """DECLARE(opt) in a hvalenka: ``suit`` is given with SUIT and only then."""

    option: Option
    suit: Suit | None = None


class ChooseTrump(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_choose_trump.v1"
):
    """DECLARE_TRUMP(s) / DECLINE (``suit`` null) in a TR deal; NAME_TRUMP(s) after an auction."""

    suit: Suit | None = None


class Bid(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_bid.v1"):
    """BID(n): tricks the bidder gives up for naming trumps (§6.5)."""

    tricks: int


class PassBid(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_pass_bid.v1"):
    """PASS_BID: final."""


class Discard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_discard.v1"):
    """DISCARD(c1, c2): the atomic orderer lays two cards aside after taking the talon."""

    cards: tuple[str, ...]


class Play(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="king_play.v1"):
    """PLAY(c)."""

    card: str


KingCommand = (
    Ready
    | ChooseContract
    | PassOrder
    | OfferBuyout
    | PassBuyout
    | AcceptBuyout
    | RefuseBuyout
    | Declare
    | ChooseTrump
    | Bid
    | PassBid
    | Discard
    | Play
)


# ---------------------------------------------------------------- events
class SeatReady(msgspec.Struct, frozen=True, kw_only=True, tag="king_seat_ready.v1"):
    seat: str
    client_seed: str = ""


class Dealt(msgspec.Struct, frozen=True, kw_only=True, tag="king_dealt.v1"):
    """A deal from rng_v1 (label ``deal:<n>``), per seat in seat order, each hand in dealing order.

    ``hands`` are the cards a seat holds now (the 3-card peek in HV/TR deals); ``pending`` the
    rest fixed by the shuffle but not yet dealt (hidden from everybody, the owner too); ``talon``
    the atomic talon (hidden until shown).  ``redact`` blanks what a viewer may not see.
    """

    deal_no: int
    dealer: str
    seats: tuple[str, ...]
    game: GameId | None  # None while the game is still to be ordered
    declarer: str | None = None  # HV / TR: left of the dealer
    hands: tuple[tuple[str, ...], ...]
    pending: tuple[tuple[str, ...], ...]
    talon: tuple[str, ...] = ()


class OrderPassed(msgspec.Struct, frozen=True, kw_only=True, tag="king_order_passed.v1"):
    seat: str
    automatic: bool = False  # a seat with an empty list passes automatically


class ContractChosen(msgspec.Struct, frozen=True, kw_only=True, tag="king_contract_chosen.v1"):
    """ORDER / ORDER_ATOMIC: the game (and the OT trump) the seat ordered."""

    seat: str
    game: GameId
    trump: Suit | None = None


class TalonShown(msgspec.Struct, frozen=True, kw_only=True, tag="king_talon_shown.v1"):
    """Atomic King: the talon is shown to everybody and goes into the orderer's hand."""

    seat: str
    cards: tuple[str, ...]


class BuyoutOffered(msgspec.Struct, frozen=True, kw_only=True, tag="king_buyout_offered.v1"):
    seat: str
    tricks: int


class BuyoutPassed(msgspec.Struct, frozen=True, kw_only=True, tag="king_buyout_passed.v1"):
    seat: str


class BuyoutDecided(msgspec.Struct, frozen=True, kw_only=True, tag="king_buyout_decided.v1"):
    """The declarer accepted (the buyer declares and leads) or refused the best offer."""

    seat: str
    accepted: bool
    buyer: str
    tricks: int


class Declared(msgspec.Struct, frozen=True, kw_only=True, tag="king_declared.v1"):
    """DECLARE / DECLARE_TRUMP / DECLINE / NAME_TRUMP: the contract of a trump deal is set.

    ``last_card`` is the declarer's last dealt card, shown to everybody, when trumps are by it.
    """

    seat: str
    option: Option
    trump: Suit | None = None
    last_card: str | None = None


class RestDealt(msgspec.Struct, frozen=True, kw_only=True, tag="king_rest_dealt.v1"):
    """The rest of a declaration deal (§6.2 step 5).  ``shown`` is the public "by the last" card."""

    seats: tuple[str, ...]
    cards: tuple[tuple[str, ...], ...]
    shown: str | None = None


class BidMade(msgspec.Struct, frozen=True, kw_only=True, tag="king_bid_made.v1"):
    seat: str
    tricks: int


class BidPassed(msgspec.Struct, frozen=True, kw_only=True, tag="king_bid_passed.v1"):
    seat: str


class Discarded(msgspec.Struct, frozen=True, kw_only=True, tag="king_discarded.v1"):
    seat: str
    cards: tuple[str, ...]  # blanked for everyone but ``seat``


class CardPlayed(msgspec.Struct, frozen=True, kw_only=True, tag="king_card_played.v1"):
    seat: str
    card: str


class TrickTaken(msgspec.Struct, frozen=True, kw_only=True, tag="king_trick_taken.v1"):
    trick_no: int  # 1-based
    leader: str
    cards: tuple[str, ...]  # in the order played
    winner: str


class SheetRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the score sheet (§9.1, §12.1)."""

    deal_no: int
    game: GameId
    dealer: str
    declarer: str | None = None
    detail: str = ""  # contract detail: trump, misère, raspis, bid, buy-out
    points: tuple[int, ...]  # per seat in seat order
    row_sum: int
    expected_sum: int
    ended_early: bool = False
    tricks: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()  # running totals after this row


class DealScored(msgspec.Struct, frozen=True, kw_only=True, tag="king_deal_scored.v1"):
    row: SheetRow


class MatchScored(msgspec.Struct, frozen=True, kw_only=True, tag="king_match_scored.v1"):
    """§12.8: final totals (compensation + rows), ranks (K4), and the zero-sum check (§9.3)."""

    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    balance: int  # the sum of the totals
    zero_sum: bool  # the preset claims a zero sum (then balance is 0)


KingEvent = (
    SeatReady
    | Dealt
    | OrderPassed
    | ContractChosen
    | TalonShown
    | BuyoutOffered
    | BuyoutPassed
    | BuyoutDecided
    | Declared
    | RestDealt
    | BidMade
    | BidPassed
    | Discarded
    | CardPlayed
    | TrickTaken
    | DealScored
    | MatchScored
)


# ---------------------------------------------------------------- view
class ContractView(msgspec.Struct, frozen=True, kw_only=True):
    game: GameId
    name: str  # e.g. "don't take hearts"
    cost: str  # what it costs, e.g. "-2 per heart (total -16)"
    sign: int
    trump: Suit | None = None
    misere: bool = False
    raspis: bool = False
    declarer: str | None = None
    orderer: str | None = None
    bid: int | None = None
    buyout: tuple[str, str, int] | None = None  # buyer, seller, tricks
    by_last_card: str | None = None
    hearts_lead_ban: bool = False
    king_discard: bool = False
    trump_lead_restriction: bool = False
    expected_sum: int = 0
    notes: tuple[str, ...] = ()  # the deal's lead and discard restrictions in words, in the view's language


class TrickView(msgspec.Struct, frozen=True, kw_only=True):
    trick_no: int
    leader: str
    plays: tuple[tuple[str, str], ...]  # (seat, card) in the order played
    winner: str | None = None


class AuctionEntry(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    action: str  # order, pass_order, offer_buyout, pass_buyout, accept, refuse, bid, pass_bid, declare
    value: str = ""
    text: str = ""  # the entry in words, in the view's language ("buy for 2", «перекупить за 2»)


class KingView(msgspec.Struct, frozen=True, kw_only=True):
    phase: str  # ready, ordering, buyout, declaring, auction, naming, discard, playing, finished
    deal_no: int
    deals_total: int
    dealer: str | None
    to_act: str | None
    to_move: tuple[str, ...]
    ready: tuple[str, ...]
    contract: ContractView | None
    hand: tuple[str, ...]  # the viewer's own cards (the peek before the rest is dealt)
    hand_sizes: dict[str, int]
    pending_sizes: dict[str, int]  # cards fixed by the shuffle, not yet dealt
    talon: tuple[str, ...]  # the atomic talon once shown
    talon_size: int
    my_discards: tuple[str, ...]
    trick: TrickView | None
    tricks: tuple[TrickView, ...]  # completed tricks of this deal (public, §12.9)
    tricks_won: dict[str, int]
    auction: tuple[AuctionEntry, ...]
    remaining: dict[str, tuple[str, ...]]  # ordered / atomic: games each seat may still order
    sheet: tuple[SheetRow, ...]
    compensation: dict[str, int]
    totals: dict[str, int]
    balance: int  # sum of the totals (the zero-sum check)
    zero_sum: bool
    ranks: tuple[int, ...] = ()
    phase_text: str = ""  # the phase in words, in the view's language ("trading auction", «торговля»)


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
KING_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence(
        "The request is not well formed.", "Запрос составлен неверно."
    ),  # not a King command
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),  # the seat is not the one to act
    "wrong_phase": Sentence(
        "That move does not belong to this part of the deal.", "Этот ход не относится к этой части раздачи."
    ),  # the command does not belong to this phase of the deal
    "invalid_seats": Sentence(
        "This number of players does not fit these rules.", "Такое число игроков не подходит к этим правилам."
    ),  # the ruleset cannot be played with these seats
    "seed_unavailable": Sentence(
        "The deal cannot be made yet: try again.", "Раздать пока нельзя: попробуйте ещё раз."
    ),  # the server seed is not available to deal
    "not_dealing": Sentence(
        "The next deal is not being prepared now.", "Следующая раздача сейчас не готовится."
    ),  # Ready outside the pause between deals
    "already_ready": Sentence("You have already said you are ready.", "Вы уже сообщили о готовности."),
    "client_seed_too_long": Sentence("The seed you sent is too long.", "Присланное зерно слишком длинное."),
    "not_in_list": Sentence(
        "That game is not left in your list.", "Этой игры в вашем списке больше нет."
    ),  # ORDER: the game is not in the seat's remaining list
    "must_order": Sentence(
        "You are the last one: you must choose a game.", "Вы последний: нужно выбрать игру."
    ),  # PASS_ORDER by the last eligible seat
    "trump_required": Sentence(
        "Name the trump suit.", "Назовите козырную масть."
    ),  # ORDER_ATOMIC(OT) without a suit, DECLARE SUIT without one, NAME_TRUMP(null)
    "trump_not_allowed": Sentence(
        "This game takes no trump.", "В этой игре козыря нет."
    ),  # a suit with a game that takes none
    "option_not_allowed": Sentence(
        "That option is not allowed in these rules.", "Этот вариант в этих правилах не разрешён."
    ),  # DECLARE: the option is not in hvOptions
    "buyout_too_low": Sentence(
        "The buy-out offer must beat the best offer so far.",
        "Предложение выкупа должно быть больше лучшего предложения.",
    ),  # OFFER_BUYOUT not above the best offer, or out of 1..handSize
    "no_offer": Sentence(
        "There is no buy-out offer to answer.", "Предложения выкупа нет."
    ),  # ACCEPT_BUYOUT / REFUSE_BUYOUT with no offer
    "bid_too_low": Sentence(
        "The bid must be higher than the current one.", "Ставка должна быть выше текущей."
    ),  # BID not above the high bid, out of 1..handSize, or the forced dealer's bid is not 1
    "must_bid": Sentence(
        "As the dealer you must bid.", "Сдающий обязан назначить ставку."
    ),  # PASS_BID by the forced dealer
    "bad_discard": Sentence(
        "Discard two different cards from your hand.", "Снесите две разные карты из своей руки."
    ),  # DISCARD: not two distinct cards of the hand
    "scoring_discard": Sentence(
        "You may not discard a card that scores in this game.",
        "Нельзя сносить карту, которая считается в этой игре.",
    ),  # DISCARD of a card that scores in the ordered game (001:L158)
    "card_not_in_hand": Sentence("That card is not in your hand.", "Этой карты нет у вас в руке."),
    "must_follow_suit": Sentence("You must follow suit.", "Нужно ходить в масть."),
    "must_trump": Sentence("You must play a trump.", "Нужно бить козырем."),
    "must_overtrump": Sentence("You must play a higher trump.", "Нужно перебить старшим козырем."),  # K5
    "must_discard_king": Sentence(
        "You must discard the King of hearts.", "Вы должны снести червового короля."
    ),  # §3.7b
    "hearts_lead_banned": Sentence(
        "You may not lead a heart now.", "Сейчас нельзя ходить с червей."
    ),  # §3.7a
    "trump_lead_restricted": Sentence(
        "You may not lead a trump now.", "Сейчас нельзя ходить с козыря."
    ),  # §3.7c
}
KING_REJECTION_CODES: tuple[str, ...] = tuple(KING_REJECTIONS)

# ---------------------------------------------------------------- validation (§11.1, K6, K12)
NO_TRUMP_GAMES: tuple[str, ...] = NEGATIVE_GAMES + MIRROR_GAMES
_CATEGORIES = {
    "T": ("trick",),
    "H": ("heart",),
    "B": ("boy",),
    "G": ("girl",),
    "K": ("king",),
    "L": ("last",),
    "E": ("trick", "heart", "boy", "girl", "king", "last"),
}


def active_seats(r: KingRuleset) -> int:
    return r.players - (1 if r.sit_out_dealer else 0)


def deck_size(r: KingRuleset) -> int:
    return 32 - (0 if r.deck == "none" else 2)


def game_total(r: KingRuleset, game: str) -> int:
    """Expected deal total of a game with every card of the deck in play (§12.7; no §8.1 cut
    removes a heart, a jack, a queen or a king, so the category counts are those of 32 cards)."""
    if game in TRUMP_DEALS:
        return r.hv_trick * r.hand_size
    sign = -1 if game.startswith("N") else 1
    counts = {
        "trick": r.hand_size,
        "heart": 8,
        "boy": 8 if r.boys == "JK" else 4,
        "girl": 4,
        "king": 1,
        "last": 2,
    }
    values = msgspec.structs.asdict(r.v)
    return sign * sum(int(values[w]) * counts[w] for w in _CATEGORIES[game[1]])


def schedule_deals(r: KingRuleset) -> tuple[str, ...]:
    """Every deal of a match, as game ids (ordered presets: each seat's list, seat after seat)."""
    if r.schedule == "fixed":
        return (*r.games, *(r.trump_deal,) * r.hv_count, *r.games_after)
    return (*r.games, *(r.trump_deal,) * r.hv_count) * r.players


def match_balance(r: KingRuleset) -> int:
    """The sum of the final totals every match of this ruleset reaches when it is zero-sum."""
    comp = r.compensation_value * r.players if r.compensation == "perPlayer" else 0
    return comp + sum(game_total(r, g) for g in schedule_deals(r))


def ruleset_problem(r: KingRuleset) -> str | None:
    if r.players not in (3, 4):
        return "players must be 3 or 4 (K3)"
    if r.sit_out_dealer and (r.players != 4 or r.schedule != "atomic"):
        return "sitOutDealer is for atomic King with 4 players (§8.4)"
    if r.hand_size < 1 or r.talon_size < 0:
        return "handSize must be >= 1 and talonSize >= 0"
    if active_seats(r) * r.hand_size + r.talon_size != deck_size(r):
        return (
            f"{active_seats(r)} hands of {r.hand_size} and a talon of {r.talon_size} do not use the "
            f"{deck_size(r)}-card deck"
        )
    if (r.talon_size > 0) != (r.schedule == "atomic") or (r.schedule == "atomic" and r.talon_size != 2):
        return "a 2-card talon is used by atomic King only, and atomic King needs one (§8.4)"
    if r.players == 3 and r.boys == "JK":
        return "boys = JK is for four players only (K6)"
    if min(msgspec.structs.astuple(r.v)) < 0 or r.hv_trick < 1:
        return "unit values must be >= 0 and hvTrick >= 1"
    if r.hv_count < 0:
        return "hvCount must be >= 0"
    if len(set(r.hv_options)) != len(r.hv_options) or not r.hv_options:
        return "hvOptions must be a non-empty set"
    if not isinstance(r.hv_peek, str) and not 1 <= r.hv_peek < r.hand_size:
        return "hvPeek must be 'all' or a number of cards below handSize"
    for g in (*r.games, *r.games_after):
        if g not in NO_TRUMP_GAMES:
            return f"{g} is a trump deal: count trump deals with trumpDeal and hvCount"
    trump_deals = r.hv_count > 0
    if r.schedule == "atomic":
        if r.trump_deal != "OT" or r.games_after:
            return "atomic King plays trumpDeal OT and no gamesAfter"
        if trump_deals and set(r.hv_options) != {"SUIT"}:
            return "the otyigrysh allows suits only (Q12): hvOptions must be [SUIT]"
    elif r.trump_deal == "OT":
        return "OT is the otyigrysh of atomic King"
    if r.schedule == "ordered" and (r.hv_count or r.games_after):
        return "ordered King orders from its games list only (no trump deals, no gamesAfter)"
    if trump_deals and r.trump_deal == "TR" and not set(r.hv_options) <= {"SUIT", "BY_LAST"}:
        return "a TR deal offers a suit or declining, which is BY_LAST (K13)"
    if trump_deals and r.trump_deal == "AU" and set(r.hv_options) != {"SUIT"}:
        return "the trading auction ends with a suit (Q9): hvOptions must be [SUIT]"
    if trump_deals and "RASPIS" in r.hv_options and 2 * active_seats(r) != r.hand_size:
        return "RASPIS gives every seat 2 tricks: only with 4 players (Q7)"
    if r.hv_buyout and r.trump_deal != "HV":
        return "the buy-out is for hvalenki only (§6.2)"
    for g in r.king_discard:
        if g not in NO_TRUMP_GAMES:
            return "the King-discard duty exists in no-trump games only (§12.4)"
    if r.compensation == "kingValue" and r.compensation_value != r.v.king:
        return f"compensation kingValue({r.compensation_value}) and v.king = {r.v.king} differ (K12)"
    if r.compensation == "none" and r.compensation_value != 0:
        return "compensationValue needs compensation perPlayer or kingValue"
    if not schedule_deals(r):
        return "the schedule has no deal"
    if r.zero_sum:
        if r.trump_deal == "AU" and r.hv_count:
            return "the trading convention is not zero-sum (§6.5): set zeroSum false"
        balance = match_balance(r)
        if balance != 0:
            return f"this schedule is not zero-sum (the totals sum to {balance}): set zeroSum false (§9.3)"
    return None


CONTRACT = GameContract(
    name="king",
    command_type=KingCommand,
    event_type=KingEvent,
    view_type=KingView,
    ruleset_type=KingRuleset,
    rejections=KING_REJECTIONS,
)
