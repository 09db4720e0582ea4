"""The 1000 referee (rules/thousand-and-farkle-flip.md §2.21): initial state, decide, evolve, legal
commands, the end-of-deal scoring of §2.21.4 and the checks of chance.

``decide`` folds every event it emits at once (``_Builder``), and then runs the server-driven steps
of §2.21.3 (opening the auction, the talon, trick resolution, scoring, the next deal) until a
player must act again.  ``evolve`` reads nothing a seat may not see from the event itself, so the
events redacted for one seat fold into that seat's information state.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import (
    AuctionOpened,
    Bid,
    BidMade,
    BlindAnswered,
    CardPlayed,
    CardsGiven,
    ClaimRedeal,
    ContractSet,
    DealDealt,
    DealScored,
    DeclareBlind,
    DeclarerChosen,
    DeclineBlind,
    GiveCards,
    HandKept,
    HandShown,
    KeepHand,
    Pass,
    Passed,
    Play,
    Ready,
    RedealClaimed,
    SeatReady,
    SeatScore,
    SetContract,
    TalonRevealed,
    TalonTaken,
    ThousandCommand,
    ThousandEvent,
    ThousandRuleset,
    TrickTaken,
    WriteOff,
    WrittenOff,
)
from contracts.match import Outcome
from domain.core import cards, rng
from domain.core.cardgame import tricks
from domain.games.thousand.rules import (
    DECK,
    MARRIAGE_TABLES,
    STRENGTH,
    card_points,
    half5,
    low_key,
    round5,
)
from domain.games.thousand.state import SERVER_PHASES, TState

MAX_CLIENT_SEED = 256
UNKNOWN = cards.UNKNOWN
_replace = msgspec.structs.replace


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _remove(hand: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """Take ``gone`` out of ``hand``; a card the hand does not show takes a placeholder instead."""
    out = list(hand)
    for c in gone:
        if c in out:
            out.remove(c)
        elif UNKNOWN in out:
            out.remove(UNKNOWN)
        else:
            raise ValueError(f"{c} is not in the hand")
    return tuple(out)


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


# ---------------------------------------------------------------- set-up
def initial_state(rules: ThousandRuleset, seats: tuple[str, ...], seed: bytes | None) -> TState:
    n = len(seats)
    return TState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
        golden_left=3 if rules.golden_kon else 0,
        scores=(0,) * n,
        barrel_on=(False,) * n,
        attempts=(0,) * n,
        falls=(0,) * n,
        disabled=(False,) * n,
        bolts=(0,) * n,
        writeoffs=(0,) * n,
    )


def _blind_eligible(s: TState, seat: int) -> bool:
    """§2.14 and Decision T4."""
    r = s.rules
    if not r.blind_on or s.golden_left > 0 and r.golden_kon:
        return False
    if r.blind_min_score is not None and s.scores[seat] < r.blind_min_score:
        return False
    if r.barrel_on:
        sitters = [i for i in range(len(s.seats)) if s.barrel_on[i] and i != s.sitout]
        if sitters and r.barrel_bidding in ("auto_bid", "no_auction"):
            return False
        if s.barrel_on[seat] and r.barrel_success == "contract_ge_required_and_made" and r.required() > 120:
            return False
    return True


def deal(state: TState) -> DealDealt | str:
    """The next deal (or redeal) from rng_v1 (§2.3 server deal, §2.21.3 step 1)."""
    if state.seed is None:
        return "the server seed is not available"
    n = len(state.seats)
    key = rng.derive_key(state.seed, state.client_seeds)
    dealer = state.dealer if state.dealer >= 0 else rng.Stream(key, b"dealer").randbelow(n)
    shuffle = state.shuffle + 1
    order = rng.shuffle(key, b"deal:%d" % shuffle, DECK)
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(7):
        for i in deal_order(state, dealer):
            hands[i].append(order[pos])
            pos += 1
    return deal_from(state, dealer, tuple(tuple(h) for h in hands), tuple(order[pos : pos + 3]), order)


def deal_order(state: TState, dealer: int) -> tuple[int, ...]:
    """The three seats that play a deal of ``dealer``, from the dealer's left (the sit-out skipped)."""
    probe = _replace(state, sitout=dealer if state.rules.sitout_4p else -1)
    seq = [probe.next_active(dealer)]
    while len(seq) < 3:
        seq.append(probe.next_active(seq[-1]))
    return tuple(seq)


def deal_from(
    state: TState,
    dealer: int,
    hands: tuple[tuple[str, ...], ...],
    talon: tuple[str, ...],
    order: tuple[str, ...],
) -> DealDealt:
    """The deal event for given hands and talon (from rng_v1, or from a game record's deal entry)."""
    r = state.rules
    sitout = dealer if r.sitout_4p else -1
    probe = _replace(state, sitout=sitout, dealer=dealer)
    seq = deal_order(state, dealer)
    forced = seq[0] if r.forced_bidder == "left_of_dealer" else dealer
    golden = r.golden_kon and state.golden_left > 0
    blind_seat = seq[0] if not golden and _blind_eligible(probe, seq[0]) else -1
    return DealDealt(
        deal_no=state.deal_no,
        shuffle=state.shuffle + 1,
        dealer=state.seats[dealer],
        seats=state.seats,
        sitout=state.seats[sitout] if sitout >= 0 else None,
        order=order,
        hands=hands,
        talon=talon,
        forced_seat=state.seats[forced],
        golden=golden,
        blind_seat=state.seats[blind_seat] if blind_seat >= 0 else None,
    )


def _before_bid_window(r: ThousandRuleset) -> bool:
    return r.redeal_weak_before_bid is not None or r.redeal_four_nines_before_bid


def _after_pass_window(r: ThousandRuleset) -> bool:
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


# ---------------------------------------------------------------- evolve
def evolve(state: TState, event: ThousandEvent) -> TState:  # noqa: C901 - one branch per event
    seats = state.seats
    r = state.rules
    n = len(seats)
    if isinstance(event, SeatReady):
        i = seats.index(event.seat)
        return _replace(
            state,
            ready=_set(state.ready, i, True),
            client_seeds=_set(state.client_seeds, i, event.client_seed),
        )
    if isinstance(event, DealDealt):
        blind = seats.index(event.blind_seat) if event.blind_seat is not None else -1
        sitout = seats.index(event.sitout) if event.sitout is not None else -1
        s = _replace(
            state,
            phase="blind_offer",
            shuffle=event.shuffle,
            dealer=seats.index(event.dealer),
            sitout=sitout,
            golden=event.golden,
            hands=event.hands,
            talon=event.talon,
            deal_talon=event.talon,
            talon_public=False,
            forced_seat=seats.index(event.forced_seat),
            blind_seat=blind,
            seen=tuple(i != blind and i != sitout for i in range(n)),
            blind=False,
            window=(blind,) if blind >= 0 else (),
            window_kind="",
            high_bid=0,
            high_seat=-1,
            passed=(False,) * n,
            barred=(False,) * n,
            to_act=-1,
            voluntary=False,
            bids=(),
            declarer=-1,
            bid=0,
            contract=0,
            how="",
            blind_declarer=False,
            written_off=False,
            public=frozenset(),
            given_to=(),
            given=(),
            given_face_up=False,
            trick_no=0,
            trick=(),
            leader=-1,
            trump=None,
            announced=(),
            aces_announced=False,
            won_points=(0,) * n,
            tricks_count=(0,) * n,
            marriage_pts=(0,) * n,
            last_trick=(),
            last_winner=-1,
            played=(),
        )
        return s if blind >= 0 else _open_before_bid(s)
    if isinstance(event, BlindAnswered):
        return _open_before_bid(_replace(state, blind=event.blind, window=()))
    if isinstance(event, HandShown):
        i = seats.index(event.seat)
        return _replace(state, hands=_set(state.hands, i, event.cards), seen=_set(state.seen, i, True))
    if isinstance(event, HandKept):
        i = seats.index(event.seat)
        window = tuple(j for j in state.window if j != i)
        if window:
            return _replace(state, window=window)
        after = {"before_bid": "pre_auction", "talon": "talon_open", "after_pass": "contract"}
        return _replace(state, window=(), phase=after[state.window_kind], window_kind="")
    if isinstance(event, RedealClaimed):
        return _replace(
            state, phase="redeal", window=(), window_kind="", deal_rows=(*state.deal_rows, state.scores)
        )
    if isinstance(event, AuctionOpened):
        return _replace(
            state,
            phase="auction",
            high_bid=event.standing_bid,
            high_seat=seats.index(event.high_seat),
            to_act=seats.index(event.to_act),
            barred=tuple(s in event.barred for s in seats),
            bids=((seats.index(event.high_seat), f"{event.kind}:{event.standing_bid}"),),
        )
    if isinstance(event, BidMade):
        i = seats.index(event.seat)
        return _replace(
            state,
            high_bid=event.amount,
            high_seat=i,
            voluntary=True,
            blind=state.blind and i == state.blind_seat,
            to_act=seats.index(event.to_act) if event.to_act is not None else -1,
            bids=(*state.bids, (i, str(event.amount))),
        )
    if isinstance(event, Passed):
        i = seats.index(event.seat)
        return _replace(
            state,
            passed=_set(state.passed, i, True),
            to_act=seats.index(event.to_act) if event.to_act is not None else -1,
            phase="auction" if event.to_act is not None else "auction_done",
            bids=(*state.bids, (i, "pass")),
        )
    if isinstance(event, DeclarerChosen):
        i = seats.index(event.seat)
        return _replace(
            state,
            phase="talon_step",
            declarer=i,
            bid=event.bid,
            contract=event.bid,
            how=event.how,
            voluntary=event.voluntary,
            blind_declarer=event.blind,
            to_act=-1,
        )
    if isinstance(event, TalonRevealed):
        s = _replace(
            state,
            talon=event.cards,
            deal_talon=event.cards,
            talon_public=event.public,
            public=state.public | (frozenset(event.cards) if event.public else frozenset()),
        )
        if r.redeal_talon_low is not None and plain_forced(s):
            return _replace(s, phase="talon_window", window=(s.declarer,), window_kind="talon")
        return _replace(s, phase="talon_open")
    if isinstance(event, TalonTaken):
        d = state.declarer
        return _replace(
            state, phase="passing", hands=_set(state.hands, d, state.hands[d] + state.talon), talon=()
        )
    if isinstance(event, CardsGiven):
        d = state.declarer
        hands = list(state.hands)
        if UNKNOWN in event.cards:  # a defender's fold: which shown card went where is unknown
            hands[d] = (UNKNOWN,) * (len(hands[d]) - len(event.cards))
        else:
            hands[d] = _remove(hands[d], event.cards)
        for to, c in zip(event.to, event.cards, strict=True):
            j = seats.index(to)
            hands[j] = hands[j] + (c,)
        s = _replace(
            state,
            hands=tuple(hands),
            given_to=tuple(seats.index(t) for t in event.to),
            given=event.cards,
            given_face_up=event.face_up,
            public=state.public | (frozenset(event.cards) if event.face_up else frozenset()),
        )
        if _after_pass_window(r):
            return _replace(s, phase="after_pass_window", window=s.defenders(), window_kind="after_pass")
        return _replace(s, phase="contract")
    if isinstance(event, ContractSet):
        return _replace(state, phase="play", contract=event.amount, leader=state.declarer)
    if isinstance(event, WrittenOff):
        return _replace(state, phase="deal_over", written_off=True)
    if isinstance(event, CardPlayed):
        i = seats.index(event.seat)
        s = _replace(
            state,
            hands=_set(state.hands, i, _remove(state.hands[i], (event.card,))),
            trick=(*state.trick, (i, event.card)),
            trump=event.trump,
            played=(*state.played, event.card),
        )
        if event.announce != "none":
            kind = "aces" if event.announce == "aces" else suit(event.card)
            s = _replace(
                s,
                announced=(*s.announced, (i, kind, event.value)),
                aces_announced=s.aces_announced or event.announce == "aces",
            )
            if event.value:
                gets = i if r.marriage_points_to == "announcer" else state.declarer
                s = _replace(s, marriage_pts=_set(s.marriage_pts, gets, s.marriage_pts[gets] + event.value))
        return s
    if isinstance(event, TrickTaken):
        w = seats.index(event.winner)
        s = _replace(
            state,
            won_points=_set(state.won_points, w, state.won_points[w] + event.points),
            tricks_count=_set(state.tricks_count, w, state.tricks_count[w] + 1),
            last_trick=state.trick,
            trick=(),
            trick_no=event.trick_no,
            leader=w,
        )
        if event.trick_no == 8:
            return _replace(s, phase="deal_over", last_winner=w)
        return s
    if isinstance(event, DealScored):
        by = {x.seat: x for x in event.seats}
        lines = [by[s] for s in seats]
        golden_left, golden_made = state.golden_left, state.golden_made
        if event.golden:
            golden_left -= 1
            golden_made = golden_made or event.result == "made"
        if event.golden_restart:
            golden_left, golden_made = 3, False
        s = _replace(
            state,
            phase="finished" if event.match_over else "next_deal",
            deal_no=0 if event.golden_restart else event.deal_no,
            golden_left=golden_left,
            golden_made=golden_made,
            scores=tuple(x.score for x in lines),
            barrel_on=tuple(x.barrel for x in lines),
            attempts=tuple(x.attempts for x in lines),
            falls=tuple(x.falls for x in lines),
            disabled=tuple(x.disabled for x in lines),
            bolts=tuple(x.bolts for x in lines),
            writeoffs=tuple(x.writeoffs for x in lines),
            sheet=(*state.sheet, event),
            deal_rows=(*state.deal_rows, tuple(x.score for x in lines)),
            dealer=(state.dealer + 1) % n,
            hands=tuple(() for _ in seats),
            talon=(),
            trick=(),
            window=(),
        )
        if event.match_over:
            s = _replace(
                s,
                ranks=event.ranks,
                winner=seats.index(event.winner) if event.winner is not None else -1,
                end_reason=event.reason,
            )
        return s
    raise TypeError(f"not a 1000 event: {type(event).__name__}")


def _open_before_bid(s: TState) -> TState:
    """After the deal (and the blind answer): the before-bid redeal window, or the auction (T1)."""
    if _before_bid_window(s.rules):
        window = tuple(i for i in s.active() if not (s.blind and i == s.blind_seat))
        if window:
            return _replace(s, phase="redeal_window", window=window, window_kind="before_bid")
    return _replace(s, phase="pre_auction")


# ---------------------------------------------------------------- decide
class _Builder:
    __slots__ = ("state", "events")

    def __init__(self, state: TState) -> None:
        self.state = state
        self.events: list[ThousandEvent] = []

    def emit(self, event: ThousandEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


_COMMANDS = (
    DeclareBlind,
    DeclineBlind,
    ClaimRedeal,
    KeepHand,
    Bid,
    Pass,
    GiveCards,
    SetContract,
    WriteOff,
    Play,
)


def decide(state: TState, seat: str, command: ThousandCommand) -> tuple[ThousandEvent, ...] | Rejected:
    if seat not in state.seats:
        return _reject("not_your_turn", f"{seat!r} is not a seat of this match")
    if state.seat_problem is not None:
        return _reject("invalid_seats", state.seat_problem)
    i = state.seats.index(seat)
    if isinstance(command, Ready):
        return _decide_ready(state, i, command)
    if not isinstance(command, _COMMANDS):
        return _reject("malformed", f"not a 1000 command: {type(command).__name__}")
    if state.phase in ("waiting", "finished"):
        return _reject("wrong_phase", f"no deal is being played ({state.phase})")
    if seat not in to_move(state):
        return _reject("not_your_turn", f"{seat} is not to act in phase {state.phase}")
    b = _Builder(state)
    problem = _act(b, i, command)
    if problem is not None:
        return problem
    try:
        _advance(b)
    except _SeedMissing as exc:
        return _reject("seed_unavailable", str(exc))
    return tuple(b.events)


class _SeedMissing(Exception):
    pass


def _decide_ready(state: TState, i: int, command: Ready) -> tuple[ThousandEvent, ...] | Rejected:
    if state.phase == "next_deal":
        if i != state.dealer:
            return _reject("not_your_turn", f"{state.seats[state.dealer]} deals the next hand")
        b = _Builder(state)
        try:
            _start_deal(b)
            _advance(b)
        except _SeedMissing as exc:
            return _reject("seed_unavailable", str(exc))
        return tuple(b.events)
    if state.phase != "waiting":
        return _reject("not_dealing", "Ready is for the start of the match and of each deal")
    if state.ready[i]:
        return _reject("already_ready", "this seat is ready already")
    if not isinstance(command.client_seed, str) or len(command.client_seed) > MAX_CLIENT_SEED:
        return _reject("client_seed_too_long", f"at most {MAX_CLIENT_SEED} characters")
    b = _Builder(state)
    b.emit(SeatReady(seat=state.seats[i], client_seed=command.client_seed))
    if all(b.state.ready):
        try:
            _start_deal(b)
            _advance(b)
        except _SeedMissing as exc:
            return _reject("seed_unavailable", str(exc))
    return tuple(b.events)


def _start_deal(b: _Builder) -> None:
    dealt = deal(b.state)
    if isinstance(dealt, str):
        raise _SeedMissing(dealt)
    b.emit(dealt)


def _act(b: _Builder, i: int, cmd: Any) -> Rejected | None:  # noqa: C901 - one branch per command
    s = b.state
    name = s.seats[i]
    if isinstance(cmd, (DeclareBlind, DeclineBlind)):
        if s.phase != "blind_offer":
            return _reject("blind_not_offered", "no blind offer is open")
        blind = isinstance(cmd, DeclareBlind)
        b.emit(BlindAnswered(seat=name, blind=blind))
        if not blind:
            b.emit(HandShown(seat=name, cards=s.hands[i]))
        return None
    if isinstance(cmd, (ClaimRedeal, KeepHand)):
        if s.phase not in ("redeal_window", "talon_window", "after_pass_window"):
            return _reject("wrong_phase", "no redeal window is open")
        if isinstance(cmd, KeepHand):
            b.emit(HandKept(seat=name))
            return None
        problem = redeal_problem(s, i, cmd.reason)
        if problem is not None:
            return _reject("redeal_not_allowed", problem)
        b.emit(RedealClaimed(seat=name, reason=cmd.reason))
        return None
    if isinstance(cmd, (Bid, Pass)):
        if s.phase != "auction":
            return _reject("wrong_phase", "the auction is not open")
        if isinstance(cmd, Pass):
            b.emit(Passed(seat=name, to_act=_seat_name(s, _after_pass(s, i))))
            return None
        if not isinstance(cmd.amount, int) or isinstance(cmd.amount, bool):
            return _reject("malformed", "a bid is an integer")
        problem_code = bid_problem(s, i, cmd.amount)
        if problem_code is not None:
            return _reject(*problem_code)
        nxt = _next_bidder(s, i, i)
        b.emit(BidMade(seat=name, amount=cmd.amount, to_act=_seat_name(s, nxt)))
        if s.blind and i != s.blind_seat and not b.state.seen[s.blind_seat]:  # outbid: he looks
            b.emit(HandShown(seat=s.seats[s.blind_seat], cards=s.hands[s.blind_seat]))
        return None
    if isinstance(cmd, WriteOff):
        if s.phase not in ("passing", "contract"):
            return _reject("wrong_phase", "a write-off comes after taking the talon, before the contract")
        problem = writeoff_problem(s, i)
        if problem is not None:
            return _reject("writeoff_not_allowed", problem)
        b.emit(WrittenOff(declarer=name, amount=s.bid))
        return None
    if isinstance(cmd, GiveCards):
        if s.phase != "passing":
            return _reject("wrong_phase", "cards are given after taking the talon")
        problem_code = gifts_problem(s, i, cmd)
        if problem_code is not None:
            return _reject(*problem_code)
        to = tuple(t for t in s.seats if t in cmd.gifts)
        b.emit(CardsGiven(declarer=name, to=to, cards=tuple(cmd.gifts[t] for t in to), face_up=cmd.face_up))
        return None
    if isinstance(cmd, SetContract):
        if s.phase != "contract":
            return _reject("wrong_phase", "the contract is set after giving the two cards")
        if not isinstance(cmd.amount, int) or isinstance(cmd.amount, bool):
            return _reject("malformed", "a contract is an integer")
        problem_code = contract_problem(s, i, cmd.amount)
        if problem_code is not None:
            return _reject(*problem_code)
        b.emit(ContractSet(declarer=name, amount=cmd.amount))
        return None
    assert isinstance(cmd, Play)
    if s.phase != "play":
        return _reject("wrong_phase", "no trick is being played")
    problem_code = play_problem(s, i, cmd)
    if problem_code is not None:
        return _reject(*problem_code)
    value, trump = 0, s.trump
    if cmd.announce == "marriage":
        value = MARRIAGE_TABLES[s.rules.marriage_values][suit(cmd.card)]
        trump = suit(cmd.card)
    elif cmd.announce == "aces":
        value = s.rules.ace_marriage_value
        if s.rules.ace_marriage_sets_trump:
            trump = suit(cmd.card)
    if value and s.rules.marriage_points_to == "declarer" and i != s.declarer:
        value = 0  # §2.21.3 step 7: nobody's points, the trump still changes
    b.emit(CardPlayed(seat=name, card=cmd.card, announce=cmd.announce, value=value, trump=trump))
    return None


def _seat_name(s: TState, i: int) -> str | None:
    return s.seats[i] if i >= 0 else None


def _next_bidder(s: TState, after: int, high: int, passed: tuple[bool, ...] | None = None) -> int:
    """The next seat clockwise after ``after`` that has not passed and is not the high bidder."""
    passed = s.passed if passed is None else passed
    j = after
    for _ in range(len(s.seats)):
        j = s.next_active(j)
        if not passed[j] and j != high:
            return j
    return -1


def _after_pass(s: TState, i: int) -> int:
    passed = _set(s.passed, i, True)
    if sum(1 for j in s.active() if not passed[j]) <= 1:
        return -1
    return _next_bidder(s, i, s.high_seat, passed)


def _advance(b: _Builder) -> None:
    """The server-driven steps of §2.21.3 until a player must act (or the match is over)."""
    while True:
        s = b.state
        r = s.rules
        if s.phase == "play" and len(s.trick) == 3:
            cards_ = tuple(c for _, c in s.trick)
            w = s.trick[tricks.trick_winner(cards_, s.trump, STRENGTH)][0]
            b.emit(
                TrickTaken(
                    trick_no=s.trick_no + 1,
                    winner=s.seats[w],
                    cards=cards_,
                    points=sum(card_points(c) for c in cards_),
                )
            )
        elif s.phase not in SERVER_PHASES:
            return
        elif s.phase == "redeal":
            if s.seed is None:
                return  # a game record's replay: the next deal entry comes from the record
            _start_deal(b)
        elif s.phase == "pre_auction":
            _open_auction(b)
        elif s.phase == "auction_done":
            winner = next(j for j in s.active() if not s.passed[j])
            b.emit(
                DeclarerChosen(
                    seat=s.seats[winner],
                    bid=s.high_bid,
                    how="auction",
                    voluntary=s.voluntary,
                    blind=s.blind and winner == s.blind_seat,
                )
            )
        elif s.phase == "talon_step":
            d = s.declarer
            if not s.seen[d]:
                b.emit(HandShown(seat=s.seats[d], cards=s.hands[d]))
            if r.redeal_talon_nines and sum(1 for c in s.talon if rank(c) == "9") >= 2:
                b.emit(RedealClaimed(seat=None, reason="talon_nines", talon=s.talon))
                continue
            public = r.talon_shown and not (r.talon_hidden_at_forced_100 and plain_forced(s))
            b.emit(TalonRevealed(declarer=s.seats[d], cards=s.talon, public=public))
        elif s.phase == "talon_open":
            b.emit(TalonTaken(declarer=s.seats[s.declarer]))
        else:
            assert s.phase == "deal_over", s.phase
            b.emit(score_deal(s))


def _open_auction(b: _Builder) -> None:
    s = b.state
    r = s.rules
    req = r.required()
    if s.golden:
        left = s.next_active(s.dealer)
        b.emit(DeclarerChosen(seat=s.seats[left], bid=120, how="golden", voluntary=False, blind=False))
        return
    f = s.forced_seat
    order = [f]
    while len(order) < 3:
        order.append(s.next_active(order[-1]))
    sitters = [j for j in order if r.barrel_on and s.barrel_on[j]]
    if sitters and r.barrel_bidding == "no_auction":
        b.emit(
            DeclarerChosen(
                seat=s.seats[sitters[0]], bid=req, how="barrel_no_auction", voluntary=False, blind=False
            )
        )
        return
    kind: Literal["forced", "blind", "barrel_auto"]
    if s.blind:
        standing, high, kind = 120, s.blind_seat, "blind"
    elif sitters and r.barrel_bidding == "auto_bid":
        standing, high, kind = req, sitters[0], "barrel_auto"
    else:
        standing, high, kind = r.forced_bid, f, "forced"
        if r.barrel_on and s.barrel_on[f] and r.barrel_success == "contract_ge_required_and_made":
            standing = max(standing, req)
    threshold = r.minus_bidding_threshold
    barred = tuple(s.seats[j] for j in s.active() if threshold is not None and s.scores[j] < threshold)
    to_act = _next_bidder(s, f, high)
    b.emit(
        AuctionOpened(
            standing_bid=standing, high_seat=s.seats[high], kind=kind, to_act=s.seats[to_act], barred=barred
        )
    )


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


# ---------------------------------------------------------------- scoring (§2.21.4)
def score_deal(s: TState) -> DealScored:  # noqa: C901 - the algorithm of §2.21.4, step by step
    r = s.rules
    n = len(s.seats)
    act = s.active()
    decl = s.declarer
    defenders = s.defenders()
    wo = s.written_off
    W = s.bid
    c = s.bid if wo else s.contract
    req = r.required()
    golden = s.golden
    marks: list[list[str]] = [[] for _ in range(n)]
    raw = [0] * n
    if not wo:
        for p in act:
            raw[p] = s.won_points[p] + s.marriage_pts[p] + (r.last_trick_bonus if p == s.last_winner else 0)
    delta = [0] * n
    writeoffs = list(s.writeoffs)
    made = False
    if wo:
        delta[decl] = -W if r.writeoff_mode in ("W1", "W2") else 0
        for d in defenders:
            delta[d] = 60 if r.writeoff_mode == "W1" else half5(W)
        writeoffs[decl] += 1
        marks[decl].append("write_off")
    else:
        compared = round5(raw[decl]) if r.declarer_round_before_compare else raw[decl]
        made = compared >= c
        delta[decl] = c if made else -c
        for d in defenders:
            delta[d] = round5(raw[d])
    for p in act:
        delta[p] *= (2 if golden else 1) * (2 if p == decl and s.blind_declarer else 1)
    on = list(s.barrel_on)
    att = list(s.attempts)
    falls = list(s.falls)
    dis = list(s.disabled)
    used = [False] * n
    fell = [False] * n
    frozen = [False] * n
    win_barrel = -1

    def fall(p: int) -> None:
        on[p] = False
        falls[p] += 1
        fell[p] = True
        marks[p].append("fall")

    if r.barrel_on and on[decl]:
        if wo:
            used[decl] = True  # T9: scored normally, one attempt
        else:
            if r.barrel_success == "contract_ge_required_and_made":
                success = made and c >= req
            else:
                success = made and raw[decl] >= req
            if success:
                delta[decl] = max(c, req)  # T8: not doubled
                win_barrel = decl
                marks[decl].append("barrel_made")
            elif made:
                delta[decl] = 0
                used[decl] = True
            elif r.barrel_fail_mode == "attempt_at_required_else_minus" and c == req:
                delta[decl] = 0
                used[decl] = True
            else:
                delta[decl] = -c
                fall(decl)
    if r.barrel_on:
        for d in defenders:
            if on[d]:
                delta[d] = 0
                frozen[d] = True
                used[d] = True
                marks[d].append("frozen")
        if r.barrel_freeze_opponents and on[decl] and c == req:
            for d in defenders:
                if not frozen[d]:
                    delta[d] = 0
                    frozen[d] = True
                    marks[d].append("frozen")
    if s.sitout >= 0:
        q = s.sitout
        sitting = r.barrel_on and on[q]
        delta[q] = 0 if sitting else round5(hand_points(s.talon_all())) * (2 if golden else 1)
    # penalties (after the doubling, never doubled)
    if r.writeoff_third_penalty and wo and writeoffs[decl] == 3:
        delta[decl] -= r.writeoff_third_penalty
        marks[decl].append("third_write_off")
    bolts = list(s.bolts)
    limit = 1 if r.bolt_mode == "immediate" else r.bolt_limit
    eligible = [] if wo else [d for d in defenders if not frozen[d]]
    w3 = wo and r.writeoff_mode == "W3"
    if w3:
        eligible.append(decl)
    for p in eligible:
        if p == decl and w3:
            bolt = True
        elif r.bolt_trigger == "zero_points":
            bolt = delta[p] == 0
        else:
            bolt = s.tricks_count[p] == 0
        if bolt:
            bolts[p] += 1
            marks[p].append("bolt")
            if bolts[p] >= limit:
                delta[p] -= r.penalty(r.bolt_penalty)
                bolts[p] = 0
                marks[p].append("bolt_penalty")
        elif r.bolt_mode == "consecutive":
            bolts[p] = 0
    if r.bolt_mode == "consecutive":  # T6: a completed deal without a bolt resets the counter
        for p in act:
            if p not in eligible and not frozen[p]:
                bolts[p] = 0
    score = [s.scores[p] + delta[p] for p in range(n)]
    # the barrel
    if r.barrel_on:
        for p in range(n):
            if used[p] and not fell[p] and on[p] and p != win_barrel:
                att[p] += 1
                marks[p].append("barrel_attempt")
                if att[p] >= r.barrel_attempts:
                    score[p] -= r.penalty(r.barrel_attempts_fail_penalty)
                    fall(p)
                    marks[p].append("attempts_exhausted")
        climbers = [
            p
            for p in range(n)
            if not on[p]
            and not dis[p]
            and not fell[p]
            and p != win_barrel
            and score[p] >= r.barrel_at
            and (not r.barrel_jump or score[p] < r.target)
        ]
        for p in climbers:
            score[p] = r.barrel_at
        sitters = [p for p in range(n) if on[p] and p != win_barrel]
        if climbers and not r.barrel_exclusive:
            for p in climbers:
                on[p] = True
                att[p] = 0
                marks[p].append("barrel_on")
        elif len(climbers) >= 2:
            for p in climbers:
                score[p] -= r.penalty(r.simultaneous_climb_penalty)
                fall(p)
                marks[p].append("simultaneous_climb")
            for p in sitters:
                score[p] -= r.penalty(r.barrel_knockoff_penalty)
                fall(p)
                marks[p].append("knocked_off")
        elif len(climbers) == 1:
            for p in sitters:
                score[p] -= r.penalty(r.barrel_knockoff_penalty)
                fall(p)
                marks[p].append("knocked_off")
            on[climbers[0]] = True
            att[climbers[0]] = 0
            marks[climbers[0]].append("barrel_on")
        if r.barrel_falls_result != "none":
            for p in range(n):
                if falls[p] >= r.barrel_falls_limit:
                    score[p] = 0 if r.barrel_falls_result == "zero" else 5
                    falls[p] = 0
                    marks[p].append("falls_reset")
                    if r.barrel_disabled_after_falls:
                        dis[p] = True
                        on[p] = False
    if r.samosval:
        for p in range(n):
            if score[p] in (555, -555):
                score[p] = 0
                marks[p].append("samosval")
    candidates = set()
    if win_barrel >= 0:
        candidates.add(win_barrel)
    for p in range(n):
        if score[p] >= r.target and (not r.barrel_on or r.barrel_jump or dis[p]):
            candidates.add(p)
    winner = -1
    ranks: tuple[int, ...] = ()
    reason = ""
    restart = False
    if candidates:
        seat_order = [(s.dealer + k) % n for k in range(1, n + 1)]
        winner = min(candidates, key=lambda p: (-score[p], p != decl, seat_order.index(p)))
        others = [p for p in range(n) if p != winner]
        ranks = tuple(
            1 if p == winner else 2 + sum(1 for q in others if score[q] > score[p]) for p in range(n)
        )
        reason = "barrel" if winner == win_barrel else "target"
    elif golden and s.golden_left == 1 and not (s.golden_made or (made and not wo)):
        restart = True
    lines = tuple(
        SeatScore(
            seat=s.seats[p],
            role="declarer" if p == decl else "sitout" if p == s.sitout else "defender",
            raw=raw[p],
            delta=score[p] - s.scores[p],
            score=0 if restart else score[p],
            marks=tuple(marks[p]) + (("golden_restart",) if restart else ()),
            bolts=0 if restart else bolts[p],
            writeoffs=0 if restart else writeoffs[p],
            barrel=False if restart else on[p],
            attempts=0 if restart else att[p],
            falls=0 if restart else falls[p],
            disabled=False if restart else dis[p],
        )
        for p in range(n)
    )
    return DealScored(
        deal_no=s.deal_no + 1,
        declarer=s.seats[decl],
        bid=W,
        contract=c,
        result="written_off" if wo else "made" if made else "failed",
        golden=golden,
        blind=s.blind_declarer,
        seats=lines,
        talon=s.talon_all(),
        golden_restart=restart,
        match_over=winner >= 0,
        winner=s.seats[winner] if winner >= 0 else None,
        ranks=ranks,
        reason=reason,
    )


# ---------------------------------------------------------------- queries
def to_move(state: TState) -> frozenset[str]:
    s = state
    if s.seat_problem is not None:
        return frozenset()
    p = s.phase
    if p == "waiting":
        return frozenset(s.seats[j] for j in range(len(s.seats)) if not s.ready[j])
    if p == "next_deal":
        return frozenset({s.seats[s.dealer]})
    if p in ("blind_offer", "redeal_window", "talon_window", "after_pass_window"):
        return frozenset(s.seats[j] for j in s.window)
    if p == "auction":
        return frozenset({s.seats[s.to_act]})
    if p in ("passing", "contract"):
        return frozenset({s.seats[s.declarer]})
    if p == "play":
        nxt = s.leader if not s.trick else s.next_active(s.trick[-1][0])
        return frozenset({s.seats[nxt]})
    return frozenset()


def legal_commands(state: TState, seat: str) -> tuple[ThousandCommand, ...]:  # noqa: C901
    s = state
    if seat not in s.seats or seat not in to_move(s):
        return ()
    i = s.seats.index(seat)
    p = s.phase
    out: list[ThousandCommand] = []
    if p in ("waiting", "next_deal"):
        return (Ready(),)
    if p == "blind_offer":
        return (DeclareBlind(), DeclineBlind())
    if p in ("redeal_window", "talon_window", "after_pass_window"):
        for reason in ("weak", "four_nines", "talon_low"):
            if (p == "talon_window") == (reason == "talon_low") and redeal_problem(s, i, reason) is None:
                out.append(ClaimRedeal(reason=reason))
        out.append(KeepHand())
        return tuple(out)
    if p == "auction":
        out.extend(Bid(amount=n) for n in legal_bids(s, i))
        out.append(Pass())
        return tuple(out)
    if p in ("passing", "contract") and writeoff_problem(s, i) is None:
        out.append(WriteOff())
    if p == "passing":
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
    if p == "contract":
        out.extend(SetContract(amount=n) for n in legal_contracts(s, i))
        return tuple(out)
    if p == "play":
        _, allowed = playable(s, i)
        for c in allowed:
            out.append(Play(card=c))
            for ann in ("marriage", "aces"):
                if announce_ok(s, i, c, ann):
                    out.append(Play(card=c, announce=ann))
        return tuple(out)
    return ()


def outcome(state: TState) -> Outcome | None:
    if state.phase != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(x) for x in state.scores),
        reason=state.end_reason,
        draw=False,
    )


def private_cards(state: TState, seat: str) -> frozenset[str]:
    """Cards only ``seat`` knows: its hand less what was shown to all or given to it by the declarer."""
    if seat not in state.seats or not state.hands:
        return frozenset()
    hand = state.hands[state.seats.index(seat)]
    return frozenset(c for c in hand if c != UNKNOWN and c not in state.public and c not in state.given)


def unseen(state: TState, viewer: str | None) -> frozenset[str]:
    """Every card ``viewer`` may not see now (§2.21.5): other hands, the talon until shown to him,
    cards given by the declarer to somebody else, and his own hand before he has seen it."""
    s = state
    if not s.hands:
        return frozenset()
    v = s.seats.index(viewer) if viewer in s.seats else -1
    out: set[str] = set()
    for j, hand in enumerate(s.hands):
        if j != v or not s.seen[j]:
            out |= {c for c in hand if c != UNKNOWN}
    if s.talon and not (s.talon_public or (v == s.declarer and s.phase not in _BEFORE_TALON)):
        out |= {c for c in s.talon if c != UNKNOWN}
    out -= s.public
    if v >= 0 and v == s.declarer and s.phase not in _BEFORE_TALON:
        out -= set(s.talon_all())
        out -= set(s.given)
    return frozenset(out)


_BEFORE_TALON = frozenset(
    {"blind_offer", "redeal_window", "pre_auction", "auction", "auction_done", "talon_step"}
)


def verify_chance(state: TState, event: ThousandEvent) -> str | None:
    """Re-derive a deal from rng_v1 (the state before it, folded with the revealed server seed)."""
    if not isinstance(event, DealDealt):
        return None
    expected = deal(state)
    if isinstance(expected, str):
        return f"deal {event.shuffle}: {expected}"
    where = f"shuffle {expected.shuffle} (deal {expected.deal_no + 1})"
    if event.shuffle != expected.shuffle or event.deal_no != expected.deal_no:
        return f"{where}: recorded as shuffle {event.shuffle}, deal {event.deal_no + 1}"
    if event.dealer != expected.dealer:
        return f"{where}: dealer is {event.dealer}, rng_v1 gives {expected.dealer}"
    for k, (got, want) in enumerate(zip(event.order, expected.order, strict=False), start=1):
        if got != want:
            return f"{where}: card {k} is {got}, rng_v1 gives {want}"
    if len(event.order) != len(expected.order):
        return f"{where}: {len(event.order)} cards recorded, the deck has {len(expected.order)}"
    for name in ("hands", "talon", "forced_seat", "sitout", "golden", "blind_seat", "seats"):
        if getattr(event, name) != getattr(expected, name):
            return f"{where}: {name} do not follow from the deck order and the rules"
    return None


def lowest_legal(state: TState, seat: str) -> ThousandCommand | None:
    """The timeout action of §2.21.2 for ``seat`` (None when it is not to act)."""
    s = state
    legal = legal_commands(s, seat)
    if not legal:
        return None
    i = s.seats.index(seat)
    p = s.phase
    if p == "blind_offer":
        return DeclineBlind()
    if p in ("redeal_window", "talon_window", "after_pass_window"):
        return KeepHand()
    if p == "auction":
        return Pass()
    if p == "passing":
        low = sorted(s.hands[i], key=low_key)[:2]
        first = s.seats[s.next_active(i)]
        other = next(s.seats[j] for j in s.defenders() if s.seats[j] != first)
        return GiveCards(gifts={first: low[0], other: low[1]})
    if p == "contract":
        return SetContract(amount=s.bid)
    if p == "play":
        _, allowed = playable(s, i)
        return Play(card=min(allowed, key=low_key))
    return legal[0]
