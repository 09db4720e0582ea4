"""What the rules of 1000 allow (rules/thousand-and-farkle-flip.md §2.21.2): the card facts, the
``*_problem`` checks of every command and the enumerations that list exactly the commands whose
problem is None, per phase, for the seats to move.

Rules that read another seat's cards run only on the full state (in ``decide``); a seat's
information state holds ``??`` for them.
"""

from __future__ import annotations

from typing import Any

from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SetContract,
    ThousandCommand,
    ThousandRuleset,
    WriteOff,
)
from domain.core import cards
from domain.core.cardgame import tricks
from domain.core.cardgame.redact import UNKNOWN
from domain.games.thousand.rules import MARRIAGE_TABLES, STRENGTH, card_points
from domain.games.thousand.state import TState

WINDOWS = frozenset({"redeal_window", "talon_window", "after_pass_window"})


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


# ---------------------------------------------------------------- card facts
def suit(c: str) -> str:
    return cards.parse(c).suit


def rank(c: str) -> str:
    return cards.parse(c).rank


def hand_points(hand: tuple[str, ...] | list[str]) -> int:
    return sum(card_points(c) for c in hand if c != UNKNOWN)


def marriages_held(rules: ThousandRuleset, hand: tuple[str, ...]) -> list[tuple[str, int]]:
    """Marriages in ``hand``: (suit or "aces", value)."""
    table = MARRIAGE_TABLES[rules.marriage_values]
    out = [(s, v) for s, v in table.items() if f"K{s}" in hand and f"Q{s}" in hand]
    if rules.ace_marriage and all(f"A{s}" in hand for s in "CDHS"):
        out.append(("aces", rules.ace_marriage_value))
    return out


def ceiling(rules: ThousandRuleset) -> int:
    """The most a deal can give a declarer: no contract above it can ever be made."""
    top = 120 + sum(MARRIAGE_TABLES[rules.marriage_values].values()) + rules.last_trick_bonus
    return top + (rules.ace_marriage_value if rules.ace_marriage else 0)


def cap(rules: ThousandRuleset, hand: tuple[str, ...]) -> int:
    """§2.5 bid cap on the current hand (``any_marriage_uncapped``: bounded by ``ceiling``)."""
    held = marriages_held(rules, hand)
    if rules.cap_mode == "sum_of_marriages":
        limit = 120 + sum(v for _, v in held)
    else:
        limit = ceiling(rules) if held else 120
    if rules.max_contract is not None:
        limit = min(limit, rules.max_contract)
    return limit


def next_step(rules: ThousandRuleset, high: int) -> int:
    """The smallest multiple of ``bid_step`` above ``high`` (121 -> 125)."""
    return (high // rules.bid_step + 1) * rules.bid_step


def cs_hand(text: str) -> tuple[str, ...]:
    """ "9S JS" -> ("9S", "JS")."""
    return tuple(text.split())


def four_nines(hand: tuple[str, ...]) -> bool:
    return sum(1 for c in hand if c != UNKNOWN and rank(c) == "9") == 4


def before_bid_window(r: ThousandRuleset) -> bool:
    """A redeal window opens after the deal: weak hands or four nines before bidding (§2.4)."""
    return r.redeal_weak_before_bid is not None or r.redeal_four_nines_before_bid


def after_pass_window(r: ThousandRuleset) -> bool:
    """A redeal window opens for the defenders after the passing (§2.4)."""
    return r.redeal_weak_after_passing is not None or r.redeal_four_nines_after_passing


def plain_forced(s: TState) -> bool:
    """The declarer took the talon at the plain forced bid with no voluntary bid (§2.21.2, T1)."""
    return (
        s.how == "auction"
        and not s.voluntary
        and s.declarer == s.forced_seat
        and s.bid == s.rules.forced_bid
        and not s.golden
    )


# ---------------------------------------------------------------- turn order
def seat_name(s: TState, i: int) -> str | None:
    """The seat at index ``i``; None for -1."""
    return s.seats[i] if i >= 0 else None


def next_bidder(s: TState, after: int, high: int, passed: tuple[bool, ...] | None = None) -> int:
    """The next seat clockwise after ``after`` that has not passed and is not the high bidder."""
    passed = s.passed if passed is None else passed
    j = after
    for _ in range(len(s.seats)):
        j = s.next_active(j)
        if not passed[j] and j != high:
            return j
    return -1


def after_pass(s: TState, i: int) -> int:
    """The next bidder once seat ``i`` passes; -1 when one seat is left and the auction ends."""
    passed = _set(s.passed, i, True)
    if sum(1 for j in s.active() if not passed[j]) <= 1:
        return -1
    return next_bidder(s, i, s.high_seat, passed)


# ---------------------------------------------------------------- validity checks
def redeal_problem(s: TState, i: int, reason: str) -> str | None:
    r = s.rules
    hand = s.hands[i]
    if s.phase == "redeal_window":
        if reason == "weak":
            if r.redeal_weak_before_bid is None:
                return "the weak-hand redeal before bidding is off"
            if hand_points(hand) >= r.redeal_weak_before_bid:
                return f"the hand has {r.redeal_weak_before_bid} card points or more"
            return None
        if reason == "four_nines":
            if not r.redeal_four_nines_before_bid:
                return "the four-nines redeal before bidding is off"
            return None if four_nines(hand) else "the hand does not hold four nines"
        return "this window is for weak hands and four nines"
    if s.phase == "talon_window":
        if reason != "talon_low":
            return "this window is for a low talon"
        assert r.redeal_talon_low is not None
        if hand_points(s.talon) >= r.redeal_talon_low:
            return f"the talon has {r.redeal_talon_low} card points or more"
        return None
    if reason == "weak":
        if r.redeal_weak_after_passing is None:
            return "the weak-hand redeal after the passing is off"
        if hand_points(hand) >= r.redeal_weak_after_passing:
            return f"the hand has {r.redeal_weak_after_passing} card points or more"
        return None
    if reason == "four_nines":
        if not r.redeal_four_nines_after_passing:
            return "the four-nines redeal after the passing is off"
        return None if four_nines(hand) else "the hand does not hold four nines"
    return "this window is for weak hands and four nines"


def bid_problem(s: TState, i: int, n: int) -> tuple[str, str] | None:
    r = s.rules
    if s.barred[i]:
        return ("must_pass", f"a score below {r.minus_bidding_threshold} may only pass")
    if n % r.bid_step:
        return ("bid_not_multiple", f"bids are multiples of {r.bid_step}")
    if n <= s.high_bid:
        return ("bid_too_low", f"the bid must exceed {s.high_bid}")
    sitter = r.barrel_on and s.barrel_on[i]
    req = r.required()
    if not r.bid_jumps:
        allowed = {next_step(r, s.high_bid)}
        if sitter and req % r.bid_step == 0 and req > s.high_bid:
            allowed.add(req)
        if n not in allowed:
            return ("bid_not_next_step", f"strict bidding: the next bid is {min(allowed)}")
    if sitter and r.barrel_success == "contract_ge_required_and_made" and n < req:
        return ("barrel_bid_too_low", f"on the barrel a bid must be at least {req}")
    if r.max_contract is not None and n > r.max_contract:
        return ("bid_above_max", f"the maximum contract is {r.max_contract}")
    if n > cap(r, s.hands[i]):
        return ("bid_above_cap", f"the hand allows bids up to {cap(r, s.hands[i])}")
    return None


def legal_bids(s: TState, i: int) -> list[int]:
    r = s.rules
    if s.barred[i]:
        return []
    top = cap(r, s.hands[i])
    lo = next_step(r, s.high_bid)
    cands = range(lo, top + 1, r.bid_step) if r.bid_jumps else [lo, r.required()]
    return sorted({n for n in cands if bid_problem(s, i, n) is None})


def writeoff_problem(s: TState, i: int) -> str | None:
    r = s.rules
    if not r.writeoff_allowed:
        return "write-offs are off in this ruleset"
    if r.barrel_on and s.barrel_on[i] and r.writeoff_on_barrel == "forbidden":
        return "a player on the barrel may not write off"
    if r.writeoff_limit is not None and s.writeoffs[i] >= r.writeoff_limit:
        return f"at most {r.writeoff_limit} write-offs per player"
    return None


def gifts_problem(s: TState, i: int, cmd: GiveCards) -> tuple[str, str] | None:
    defenders = {s.seats[j] for j in s.defenders()}
    gifts = cmd.gifts
    if not isinstance(gifts, dict) or set(gifts) != defenders:
        return ("bad_gifts", f"give exactly one card to each of {', '.join(sorted(defenders))}")
    given = list(gifts.values())
    if not all(isinstance(c, str) for c in given) or given[0] == given[1]:
        return ("bad_gifts", "two different cards")
    hand = s.hands[i]
    for c in given:
        if c not in hand:
            return ("card_not_in_hand", f"{c} is not in your hand")
    if cmd.face_up and (s.rules.pass_cards_visibility != "recipient_or_face_up" or s.blind_declarer):
        return ("face_up_not_allowed", "the cards are given face down here")
    return None


def contract_problem(s: TState, i: int, n: int) -> tuple[str, str] | None:
    r = s.rules
    if n == s.bid:
        return None
    if n < s.bid:
        return ("contract_too_low", f"the contract may not go below the winning bid {s.bid}")
    if not r.raise_after_talon:
        return ("raise_not_allowed", "raising after the talon is off")
    if n % 5:
        return ("contract_not_multiple", "a raised contract is a multiple of 5 (T10)")
    if r.max_contract is not None and n > r.max_contract:
        return ("contract_above_max", f"the maximum contract is {r.max_contract}")
    if n > cap(r, s.hands[i]):
        return ("contract_above_cap", f"the hand allows contracts up to {cap(r, s.hands[i])}")
    return None


def legal_contracts(s: TState, i: int) -> list[int]:
    out = [s.bid]
    if s.rules.raise_after_talon:
        top = cap(s.rules, s.hands[i])
        n = (s.bid // 5 + 1) * 5
        while n <= top:
            if contract_problem(s, i, n) is None:
                out.append(n)
            n += 5
    return out


def playable(s: TState, i: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(cards the follow/trump duties allow, cards also meeting overtake/overtrump duties) (T11)."""
    r = s.rules
    hand = tuple(c for c in s.hands[i] if c != UNKNOWN)
    led = s.trick[0][1] if s.trick else None
    if led is None or not r.must_follow_suit:
        return hand, hand
    basic = tricks.legal_follows(hand, led, s.trump, must_trump_when_void=r.must_trump_when_void)
    narrowed = basic
    in_trick = [c for _, c in s.trick]
    power = {rk: len(STRENGTH) - k for k, rk in enumerate(STRENGTH)}
    led_suit = suit(led)
    trumps_in = [c for c in in_trick if s.trump is not None and suit(c) == s.trump]
    if r.must_overtrump and trumps_in and all(suit(c) == s.trump for c in basic):
        best = max(power[rank(c)] for c in trumps_in)
        higher = tuple(c for c in basic if power[rank(c)] > best)
        if higher:
            narrowed = higher
    elif r.must_overtake and not trumps_in and all(suit(c) == led_suit for c in basic):
        best = max(power[rank(c)] for c in in_trick if suit(c) == led_suit)
        higher = tuple(c for c in basic if power[rank(c)] > best)
        if higher:
            narrowed = higher
    return basic, narrowed


def announce_ok(s: TState, i: int, card: str, announce: str) -> bool:
    r = s.rules
    if announce == "none":
        return True
    if s.trick or not (s.trick_no > 0 or r.marriage_on_first_lead):
        return False
    hand = s.hands[i]
    c = cards.parse(card)
    if announce == "marriage":
        partner = {"K": "Q", "Q": "K"}.get(c.rank)
        return partner is not None and f"{partner}{c.suit}" in hand
    return r.ace_marriage and c.rank == "A" and not s.aces_announced and all(f"A{x}" in hand for x in "CDHS")


def play_problem(s: TState, i: int, cmd: Play) -> tuple[str, str] | None:
    if not isinstance(cmd.card, str) or cmd.card not in s.hands[i]:
        return ("card_not_in_hand", f"{cmd.card!r} is not in your hand")
    basic, narrowed = playable(s, i)
    if cmd.card not in basic:
        led = s.trick[0][1]
        if any(suit(c) == suit(led) for c in s.hands[i] if c != UNKNOWN):
            return ("must_follow_suit", f"follow {suit(led)}")
        return ("must_trump", f"play a trump ({s.trump})")
    if cmd.card not in narrowed:
        code = "must_overtrump" if s.trump is not None and suit(cmd.card) == s.trump else "must_overtake"
        return (code, "beat the best card of the trick when you can")
    if cmd.announce not in ("none", "marriage", "aces") or not announce_ok(s, i, cmd.card, cmd.announce):
        return ("bad_announcement", f"{cmd.announce} cannot be announced with {cmd.card} now")
    return None


# ---------------------------------------------------------------- who moves, and the legal commands
def movers(s: TState) -> frozenset[int]:
    """The seat indexes to act in the state's phase (none in a server phase or at the end)."""
    p = s.phase
    if p == "waiting":
        return frozenset(j for j in range(len(s.seats)) if not s.ready[j])
    if p == "next_deal":
        return frozenset({s.dealer})
    if p == "blind_offer" or p in WINDOWS:
        return frozenset(s.window)
    if p == "auction":
        return frozenset({s.to_act})
    if p in ("passing", "contract"):
        return frozenset({s.declarer})
    if p == "play":
        return frozenset({s.leader if not s.trick else s.next_active(s.trick[-1][0])})
    return frozenset()


def ready_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    return (Ready(),) if i in movers(s) else ()


def blind_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    return (DeclareBlind(), DeclineBlind()) if i in movers(s) else ()


def window_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    """The redeals the open window lets seat ``i`` claim (§2.4), then keeping the hand."""
    if i not in movers(s):
        return ()
    out: list[ThousandCommand] = []
    for reason in ("weak", "four_nines", "talon_low"):
        if (s.phase == "talon_window") == (reason == "talon_low") and redeal_problem(s, i, reason) is None:
            out.append(ClaimRedeal(reason=reason))
    out.append(KeepHand())
    return tuple(out)


def auction_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    if i not in movers(s):
        return ()
    return (*(Bid(amount=n) for n in legal_bids(s, i)), Pass())


def _writeoff(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    return (WriteOff(),) if writeoff_problem(s, i) is None else ()


def passing_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    """A write-off, then every pair of different cards to the two defenders (face up too where
    the ruleset allows it)."""
    if i not in movers(s):
        return ()
    out = list(_writeoff(s, i))
    a, b_ = (s.seats[j] for j in s.defenders())
    hand = s.hands[i]
    ups = (
        (False, True)
        if s.rules.pass_cards_visibility == "recipient_or_face_up" and not s.blind_declarer
        else (False,)
    )
    for x in hand:
        for y in hand:
            if x != y:
                for up in ups:
                    out.append(GiveCards(gifts={a: x, b_: y}, face_up=up))
    return tuple(out)


def contract_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    if i not in movers(s):
        return ()
    return (*_writeoff(s, i), *(SetContract(amount=n) for n in legal_contracts(s, i)))


def play_moves(s: TState, i: int) -> tuple[ThousandCommand, ...]:
    """Every playable card, each followed by the announcements it may carry (§2.10)."""
    if i not in movers(s):
        return ()
    out: list[ThousandCommand] = []
    _, allowed = playable(s, i)
    for c in allowed:
        out.append(Play(card=c))
        for ann in ("marriage", "aces"):
            if announce_ok(s, i, c, ann):
                out.append(Play(card=c, announce=ann))
    return tuple(out)
