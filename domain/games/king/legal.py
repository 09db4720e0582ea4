"""What King's rules allow (rules/king.md §12.3-§12.5): the legal commands of each phase, the
legal cards of §12.4 and the trick resolution of §12.5 on the card kernel's tricks.

Each ``*_moves(state, seat)`` lists every legal command of the seat to act in its phase (the
phase table of ``phases.py`` asks only the seat to act); ``phases.legal_commands`` sorts them.
"""

from __future__ import annotations

from itertools import combinations

from contracts.games.king import (
    SUITS_ORDER,
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    KingCommand,
    KingRuleset,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    RefuseBuyout,
)
from domain.core.cardgame import tricks
from domain.games.king import scoring
from domain.games.king.state import Contract, KingState

KH = "KH"
NORMAL: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7")  # strongest first (§3.2)
MISERE: tuple[str, ...] = tuple(reversed(NORMAL))  # 7 high, A low (001:L73, L141)


def strength(contract: Contract) -> tuple[str, ...]:
    return MISERE if contract.misere else NORMAL


def suit(card: str) -> str:
    return card[-1]


def legal_cards(state: KingState, seat: int) -> tuple[str, ...]:
    """§12.4 legalCards(seat), in hand order (cards the seat cannot see are never legal)."""
    c = state.contract
    if c is None:
        return ()
    hand = tuple(x for x in state.hands[seat] if x != "??")
    return legal_for(hand, tuple(card for _, card in state.plays), c, state.rules, seat)


def legal_for(
    hand: tuple[str, ...], trick: tuple[str, ...], c: Contract, rules: KingRuleset, seat: int
) -> tuple[str, ...]:
    """§12.4 on plain values: ``trick`` is the cards played to the current trick so far."""
    if not trick:
        cards = hand
        if c.hearts_lead_ban and any(suit(x) != "H" for x in cards):
            cards = tuple(x for x in cards if suit(x) != "H")  # 001:L24, L240
        if (
            c.trump is not None
            and rules.trump_lead_restriction
            and seat != c.declarer
            and any(suit(x) != c.trump for x in cards)
        ):
            cards = tuple(x for x in cards if suit(x) != c.trump)  # 001:L151
        return cards
    led = suit(trick[0])
    if (
        c.trump is None
        and c.king_discard
        and rules.king_discard_mode == "mandatory"
        and KH in hand
        and not any(suit(x) == led for x in hand)
    ):
        return (KH,)  # 001:L34, L134, L151, L241
    return tricks.legal_follows(
        hand,
        trick[0],
        c.trump,
        must_trump_when_void=rules.must_trump,
        must_overtrump=rules.must_overtrump,
        trick=trick,
        strength=strength(c),
    )


def play_problem(state: KingState, seat: int, card: str) -> str | None:
    """Why ``card`` may not be played by ``seat`` now (a stable rejection code), or None."""
    if card not in state.hands[seat]:
        return "card_not_in_hand"
    if card in legal_cards(state, seat):
        return None
    c = state.contract
    assert c is not None
    hand = state.hands[seat]
    if not state.plays:
        if c.hearts_lead_ban and suit(card) == "H":
            return "hearts_lead_banned"
        return "trump_lead_restricted"
    led = suit(state.plays[0][1])
    if any(suit(x) == led for x in hand) and suit(card) != led:
        return "must_follow_suit"
    if c.trump is not None and any(suit(x) == c.trump for x in hand) and suit(card) != c.trump:
        return "must_trump"
    if c.trump is not None and suit(card) == c.trump:
        return "must_overtrump"
    return "must_discard_king"


def trick_winner(contract: Contract, plays: tuple[tuple[int, str], ...]) -> int:
    """The seat that wins a complete trick (§12.5)."""
    i = tricks.trick_winner([card for _, card in plays], contract.trump, strength(contract))
    return plays[i][0]


def last_eligible(s: KingState) -> int:
    """§12.3 PASS_ORDER / Q21: the dealer, or the last seat in asking order that still has games."""
    asking = [(s.dealer + k) % s.n() for k in range(1, s.n() + 1)]
    for i in reversed(asking):
        if i in s.active and s.remaining[i]:
            return i
    return s.dealer


def scores_in(rules: KingRuleset, game: str, card: str) -> bool:
    """Whether a card scores in a no-trump game (001:L158: such cards may not be discarded)."""
    if game[1] not in scoring.SINGLE_CARD_CATEGORY and game[1] != "E":
        return False
    cats = scoring.CATEGORIES[game[1]]
    return any(scoring.card_units(rules, card, cat) for cat in cats)


def _above(s: KingState, build: type[OfferBuyout] | type[Bid]) -> list[KingCommand]:
    """Every offer or bid that beats the best one so far, up to a hand's tricks."""
    low = s.best[1] if s.best is not None else 0
    return [build(tricks=n) for n in range(low + 1, s.rules.hand_size + 1)]


def order_moves(s: KingState, seat: int) -> list[KingCommand]:
    """§12.3 ORDER / PASS_ORDER: a game of the seat's list (atomic OT with each trump)."""
    rules = s.rules
    out: list[KingCommand] = []
    for g in dict.fromkeys(s.remaining[seat]):
        if rules.schedule == "atomic" and g == "OT":
            out.extend(ChooseContract(game=g, trump=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
        else:
            out.append(ChooseContract(game=g))  # type: ignore[arg-type]
    if rules.schedule == "ordered" and seat != last_eligible(s):
        out.append(PassOrder())
    return out


def buyout_moves(s: KingState, seat: int) -> list[KingCommand]:
    return [*_above(s, OfferBuyout), PassBuyout()]


def answer_moves(s: KingState, seat: int) -> list[KingCommand]:
    return [AcceptBuyout(), RefuseBuyout()]


def declare_moves(s: KingState, seat: int) -> list[KingCommand]:
    """§12.3 DECLARE: a hvalenka's options (SUIT with each suit), a trump deal's trump choice."""
    c = s.contract
    assert c is not None
    options = s.rules.hv_options
    out: list[KingCommand] = []
    if c.game == "HV":
        for opt in options:
            if opt == "SUIT":
                out.extend(Declare(option="SUIT", suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
            else:
                out.append(Declare(option=opt))
        return out
    if "SUIT" in options:
        out.extend(ChooseTrump(suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
    if "BY_LAST" in options:
        out.append(ChooseTrump(suit=None))
    return out


def auction_moves(s: KingState, seat: int) -> list[KingCommand]:
    if s.forced:
        return [Bid(tricks=1)]
    return [*_above(s, Bid), PassBid()]


def naming_moves(s: KingState, seat: int) -> list[KingCommand]:
    return [ChooseTrump(suit=t) for t in SUITS_ORDER]  # type: ignore[arg-type]


def discard_moves(s: KingState, seat: int) -> list[KingCommand]:
    c = s.contract
    assert c is not None
    allowed = [x for x in s.hands[seat] if not scores_in(s.rules, c.game, x)]
    return [Discard(cards=pair) for pair in combinations(allowed, s.rules.talon_size)]


def play_moves(s: KingState, seat: int) -> list[KingCommand]:
    return [Play(card=x) for x in legal_cards(s, seat)]
