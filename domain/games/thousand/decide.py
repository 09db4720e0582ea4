"""The decide steps of 1000 (rules/thousand-and-farkle-flip.md §2.21.2-§2.21.3), one per phase, on
the kernel's ``Builder``: each checks its command (the ``*_problem`` checks of ``legal.py``),
emits the player's event, and then runs the server steps of §2.21.3 (``advance``: opening the
auction, the talon, trick resolution, scoring, a redeal) until a player must act again.

The deal step itself (``start_deal``) is the kernel's ``deal.step``: the rng_v1 deal, or
``seed_unavailable``.
"""

from __future__ import annotations

from typing import Literal

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
    DeclareBlind,
    DeclarerChosen,
    GiveCards,
    HandKept,
    HandShown,
    KeepHand,
    Pass,
    Passed,
    Play,
    RedealClaimed,
    SetContract,
    TalonRevealed,
    TalonTaken,
    ThousandCommand,
    ThousandEvent,
    TrickTaken,
    WriteOff,
    WrittenOff,
)
from domain.core.cardgame import deal as dealing
from domain.core.cardgame import tricks
from domain.core.cardgame.builder import Builder
from domain.games.thousand.deal import deal
from domain.games.thousand.legal import (
    after_pass,
    bid_problem,
    contract_problem,
    gifts_problem,
    next_bidder,
    plain_forced,
    play_problem,
    rank,
    redeal_problem,
    seat_name,
    suit,
    writeoff_problem,
)
from domain.games.thousand.rules import MARRIAGE_TABLES, STRENGTH, card_points
from domain.games.thousand.scoring import score_deal
from domain.games.thousand.state import SERVER_PHASES, TState

B = Builder[TState, ThousandEvent]


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------- the deal
def start_deal(b: B) -> Rejected | None:
    """Deal (or redeal) from rng_v1, then the server steps up to the first player's decision."""
    return dealing.step(b, deal, after=advance)


# ---------------------------------------------------------------- the players' steps
def decide_blind(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.14: the seat left of the dealer plays blind, or looks at its hand."""
    s = b.state
    blind = isinstance(cmd, DeclareBlind)
    b.emit(BlindAnswered(seat=s.seats[i], blind=blind))
    if not blind:
        b.emit(HandShown(seat=s.seats[i], cards=s.hands[i]))
    return advance(b)


def decide_window(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.4: keep the hand, or claim a redeal the window allows."""
    s = b.state
    if isinstance(cmd, KeepHand):
        b.emit(HandKept(seat=s.seats[i]))
        return advance(b)
    assert isinstance(cmd, ClaimRedeal)
    problem = redeal_problem(s, i, cmd.reason)
    if problem is not None:
        return _reject("redeal_not_allowed", problem)
    b.emit(RedealClaimed(seat=s.seats[i], reason=cmd.reason))
    return advance(b)


def decide_auction(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.5: pass, or bid above the standing bid; a blind bidder who is outbid looks (§2.14)."""
    s = b.state
    name = s.seats[i]
    if isinstance(cmd, Pass):
        b.emit(Passed(seat=name, to_act=seat_name(s, after_pass(s, i))))
        return advance(b)
    assert isinstance(cmd, Bid)
    if not _int(cmd.amount):
        return _reject("malformed", "a bid is an integer")
    problem_code = bid_problem(s, i, cmd.amount)
    if problem_code is not None:
        return _reject(*problem_code)
    b.emit(BidMade(seat=name, amount=cmd.amount, to_act=seat_name(s, next_bidder(s, i, i))))
    if s.blind and i != s.blind_seat and not b.state.seen[s.blind_seat]:  # outbid: he looks
        b.emit(HandShown(seat=s.seats[s.blind_seat], cards=s.hands[s.blind_seat]))
    return advance(b)


def _write_off(b: B, i: int) -> Rejected | None:
    """§2.7: the declarer concedes the deal at the winning bid."""
    s = b.state
    problem = writeoff_problem(s, i)
    if problem is not None:
        return _reject("writeoff_not_allowed", problem)
    b.emit(WrittenOff(declarer=s.seats[i], amount=s.bid))
    return advance(b)


def decide_passing(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.6: one card to each defender (or a write-off)."""
    if isinstance(cmd, WriteOff):
        return _write_off(b, i)
    assert isinstance(cmd, GiveCards)
    s = b.state
    problem_code = gifts_problem(s, i, cmd)
    if problem_code is not None:
        return _reject(*problem_code)
    to = tuple(t for t in s.seats if t in cmd.gifts)
    b.emit(CardsGiven(declarer=s.seats[i], to=to, cards=tuple(cmd.gifts[t] for t in to), face_up=cmd.face_up))
    return advance(b)


def decide_contract(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.6: keep or raise the winning bid (or a write-off)."""
    if isinstance(cmd, WriteOff):
        return _write_off(b, i)
    assert isinstance(cmd, SetContract)
    s = b.state
    if not _int(cmd.amount):
        return _reject("malformed", "a contract is an integer")
    problem_code = contract_problem(s, i, cmd.amount)
    if problem_code is not None:
        return _reject(*problem_code)
    b.emit(ContractSet(declarer=s.seats[i], amount=cmd.amount))
    return advance(b)


def decide_play(b: B, i: int, cmd: ThousandCommand) -> Rejected | None:
    """§2.8-§2.10: a card to the trick, with the marriage it announces (its value and trump)."""
    assert isinstance(cmd, Play)
    s = b.state
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
    b.emit(CardPlayed(seat=s.seats[i], card=cmd.card, announce=cmd.announce, value=value, trump=trump))
    return advance(b)


# ---------------------------------------------------------------- the server's steps (§2.21.3)
def _take_trick(b: B, s: TState) -> None:
    """Step 8: the third card played, the trick goes to its winner."""
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


def _choose_declarer(b: B, s: TState) -> None:
    """Step 4: the one seat that has not passed declares at the high bid."""
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


def _talon_step(b: B, s: TState) -> None:
    """Step 5: the declarer sees his hand; two nines in the talon redeal (``redeal_talon_nines``);
    otherwise the talon is revealed (to all, unless hidden at the plain forced bid)."""
    r = s.rules
    d = s.declarer
    if not s.seen[d]:
        b.emit(HandShown(seat=s.seats[d], cards=s.hands[d]))
    if r.redeal_talon_nines and sum(1 for c in s.talon if rank(c) == "9") >= 2:
        b.emit(RedealClaimed(seat=None, reason="talon_nines", talon=s.talon))
        return
    public = r.talon_shown and not (r.talon_hidden_at_forced_100 and plain_forced(s))
    b.emit(TalonRevealed(declarer=s.seats[d], cards=s.talon, public=public))


def advance(b: B) -> Rejected | None:
    """The server-driven steps of §2.21.3 until a player must act (or the match is over).  A
    redeal without a server seed (a game record's replay) waits for the record's next deal."""
    while True:
        s = b.state
        if s.phase == "play" and len(s.trick) == 3:
            _take_trick(b, s)
        elif s.phase not in SERVER_PHASES:
            return None
        elif s.phase == "redeal":
            if s.seed is None:
                return None
            problem = dealing.step(b, deal)
            if problem is not None:
                return problem
        elif s.phase == "pre_auction":
            open_auction(b)
        elif s.phase == "auction_done":
            _choose_declarer(b, s)
        elif s.phase == "talon_step":
            _talon_step(b, s)
        elif s.phase == "talon_open":
            b.emit(TalonTaken(declarer=s.seats[s.declarer]))
        else:
            assert s.phase == "deal_over", s.phase
            b.emit(score_deal(s))


def open_auction(b: B) -> None:
    """Step 3: golden kon gives the deal to the dealer's left at 120; a barrel sitter may declare
    without an auction or open it at the required bid; a blind 120 stands; otherwise the forced
    bid (T1).  Seats below ``minus_bidding_threshold`` may only pass."""
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
    to_act = next_bidder(s, f, high)
    b.emit(
        AuctionOpened(
            standing_bid=standing, high_seat=s.seats[high], kind=kind, to_act=s.seats[to_act], barred=barred
        )
    )
