"""Legal cards (rules/king.md §12.4) and trick resolution (§12.5), on the card kernel's tricks."""

from __future__ import annotations

from contracts.games.king import KingRuleset
from domain.core.cardgame import tricks
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
