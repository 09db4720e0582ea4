"""King's decide steps: one per command, on the kernel's event builder (rules/king.md §12.2-§12.3).

``phases.py`` runs them: it has already checked the phase and that the seat is the one to act.
Every event a step emits is folded at once, so the follow-ups of an action (the end of a trick,
an early end, the score of the deal, automatic passes, the end of the match) are computed on the
state they apply to.  A step returns None, or the rejection (its events are then discarded).
"""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    BidMade,
    BidPassed,
    BuyoutDecided,
    BuyoutOffered,
    BuyoutPassed,
    CardPlayed,
    ChooseContract,
    ChooseTrump,
    ContractChosen,
    DealScored,
    Declare,
    Declared,
    Discard,
    Discarded,
    KingEvent,
    MatchScored,
    OfferBuyout,
    OrderPassed,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    RefuseBuyout,
    RestDealt,
    SheetRow,
    TalonShown,
    TrickTaken,
    schedule_deals,
)
from domain.core.cardgame import deal as dealing
from domain.core.cardgame.builder import Builder
from domain.games.king import legal, scoring
from domain.games.king.deal import deal
from domain.games.king.legal import last_eligible, scores_in
from domain.games.king.state import KingState

B = Builder[KingState, KingEvent]


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


# ---------------------------------------------------------------- the deal and its follow-ups
def auto_pass(b: B) -> None:
    """Automatic steps: seats with nothing to order pass (§12.3 PASS_ORDER)."""
    s = b.state
    while s.phase == "ordering" and s.rules.schedule == "ordered" and not s.remaining[s.to_act]:
        b.emit(OrderPassed(seat=s.seats[s.to_act], automatic=True))
        s = b.state


def _after_deal(b: B) -> Rejected | None:
    auto_pass(b)
    return None


def deal_step(b: B) -> Rejected | None:
    """The last Ready deals (§12.2 step 1) and the seats with nothing to order pass."""
    return dealing.step(b, deal, after=_after_deal)


def match_over(s: KingState) -> bool:
    if s.rules.schedule == "fixed":
        return s.cursor >= len(schedule_deals(s.rules))
    return not any(s.remaining)


def _detail(s: KingState) -> str:
    c = s.contract
    assert c is not None
    parts: list[str] = []
    if c.trump:
        parts.append(f"trumps {c.trump}" + (f" (by the last card {c.by_last})" if c.by_last else ""))
    elif c.game in ("HV", "TR", "AU", "OT"):
        parts.append("misère" if c.misere else "raspis" if c.raspis else "no trumps")
    if c.game == "AU":
        parts.append(f"bid {c.bid}")
    if c.buyout is not None:
        buyer, seller, n = c.buyout
        parts.append(f"bought by {s.seats[buyer]} from {s.seats[seller]} for {n}")
    if c.orderer >= 0:
        parts.append(f"ordered by {s.seats[c.orderer]}")
    return "; ".join(parts)


def _finish_deal(b: B, ended_early: bool) -> None:
    s = b.state
    c = s.contract
    assert c is not None
    points = scoring.deal_points(s)
    expected = scoring.expected_sum(s.rules, c, s.won)
    if sum(points) != expected:  # §9.3 check 1: never commit a deal that does not add up
        raise AssertionError(f"deal {s.deal_no}: points {points} sum to {sum(points)}, expected {expected}")
    totals = tuple(t + p for t, p in zip(s.totals, points, strict=True))
    won = tuple(2 if c.raspis and i in s.active else w for i, w in enumerate(s.won))
    row = SheetRow(
        deal_no=s.deal_no,
        game=c.game,  # type: ignore[arg-type]
        dealer=s.seats[s.dealer],
        declarer=s.seats[c.declarer] if c.declarer >= 0 else None,
        detail=_detail(s),
        points=points,
        row_sum=sum(points),
        expected_sum=expected,
        ended_early=ended_early,
        tricks=won,
        totals=totals,
    )
    b.emit(DealScored(row=row))
    s = b.state
    if match_over(s):
        balance = sum(s.totals)
        if s.rules.zero_sum and balance != 0:  # §9.3 check 2 (validate makes it hold)
            raise AssertionError(f"a zero-sum ruleset ended with totals summing to {balance}")
        b.emit(
            MatchScored(
                totals=s.totals,
                ranks=scoring.competition_ranks(s.totals),
                balance=balance,
                zero_sum=s.rules.zero_sum,
            )
        )


# ---------------------------------------------------------------- ordering (§12.3 ORDER)
def choose_contract(b: B, seat: int, command: ChooseContract) -> Rejected | None:
    s = b.state
    atomic = s.rules.schedule == "atomic"
    if command.game not in s.remaining[seat]:
        return _reject("not_in_list", f"{command.game} is not in your list {list(s.remaining[seat])}")
    if atomic and command.game == "OT":
        if command.trump is None:
            return _reject("trump_required", "the otyigrysh is ordered with its trump suit")
    elif command.trump is not None:
        return _reject("trump_not_allowed", f"{command.game} is played without trumps")
    name = s.seats[seat]
    b.emit(ContractChosen(seat=name, game=command.game, trump=command.trump))
    if atomic:
        b.emit(TalonShown(seat=name, cards=s.talon))
    return None


def pass_order(b: B, seat: int, command: PassOrder) -> Rejected | None:
    s = b.state
    if s.rules.schedule == "atomic" or seat == last_eligible(s):
        return _reject("must_order", "you must order a game")
    b.emit(OrderPassed(seat=s.seats[seat]))
    auto_pass(b)
    return None


# ---------------------------------------------------------------- the hvalenka's buy-out (§6.2)
def offer_buyout(b: B, seat: int, command: OfferBuyout) -> Rejected | None:
    problem = _tricks_problem(b.state, command.tricks, "buyout_too_low", "an offer")
    if problem is not None:
        return problem
    b.emit(BuyoutOffered(seat=b.state.seats[seat], tricks=command.tricks))
    return None


def pass_buyout(b: B, seat: int, command: PassBuyout) -> Rejected | None:
    b.emit(BuyoutPassed(seat=b.state.seats[seat]))
    return None


def answer_buyout(b: B, seat: int, command: AcceptBuyout | RefuseBuyout) -> Rejected | None:
    s = b.state
    if s.best is None:
        return _reject("no_offer", "there is no offer")
    buyer, n = s.best
    accepted = isinstance(command, AcceptBuyout)
    b.emit(BuyoutDecided(seat=s.seats[seat], accepted=accepted, buyer=s.seats[buyer], tricks=n))
    return None


# ---------------------------------------------------------------- trumps (§6.2-§6.3, §7)
def declare(b: B, seat: int, command: Declare) -> Rejected | None:
    s = b.state
    options = s.rules.hv_options
    assert s.contract is not None
    if s.contract.game != "HV":
        return _reject("wrong_phase", "this trump deal is declared with choose_trump")
    if command.option not in options:
        return _reject("option_not_allowed", f"this ruleset offers {list(options)}")
    if command.option == "SUIT" and command.suit is None:
        return _reject("trump_required", "SUIT needs a suit")
    if command.option != "SUIT" and command.suit is not None:
        return _reject("trump_not_allowed", f"{command.option} takes no suit")
    return _declare(b, seat, command.option, command.suit)


def choose_trump(b: B, seat: int, command: ChooseTrump) -> Rejected | None:
    """A trump deal's declarer: a suit, or BY_LAST (no suit)."""
    s = b.state
    options = s.rules.hv_options
    assert s.contract is not None
    if s.contract.game != "TR":
        return _reject("wrong_phase", "a hvalenka is declared with declare")
    option = "SUIT" if command.suit is not None else "BY_LAST"
    if option not in options:
        return _reject("option_not_allowed", f"this ruleset offers {list(options)}")
    return _declare(b, seat, option, command.suit)


def name_trump(b: B, seat: int, command: ChooseTrump) -> Rejected | None:
    """The auction's high bidder names the trump suit."""
    if command.suit is None:
        return _reject("trump_required", "the high bidder names a suit")
    return _declare(b, seat, "SUIT", command.suit)


def _declare(b: B, seat: int, option: str, suit: str | None) -> Rejected | None:
    s = b.state
    last: str | None = None
    trump = suit
    if option == "BY_LAST":
        own = s.pending[seat] or s.hands[seat]
        last = own[-1]
        trump = last[-1]
    b.emit(Declared(seat=s.seats[seat], option=option, trump=trump, last_card=last))  # type: ignore[arg-type]
    if option == "RASPIS":
        _finish_deal(b, ended_early=False)
        return None
    if any(s.pending):
        b.emit(RestDealt(seats=s.seats, cards=s.pending, shown=last))
    return None


# ---------------------------------------------------------------- the auction (§7)
def _tricks_problem(s: KingState, tricks: int, code: str, what: str) -> Rejected | None:
    """An offer or a bid beats the best one so far and is at most a hand's tricks."""
    low = s.best[1] if s.best is not None else 0
    hand_size = s.rules.hand_size
    if not low < tricks <= hand_size:
        return _reject(code, f"{what} is {low + 1}..{hand_size} tricks")
    return None


def bid(b: B, seat: int, command: Bid) -> Rejected | None:
    s = b.state
    if s.forced:
        if command.tricks != 1:
            return _reject("bid_too_low", "the forced dealer bids 1 (K3)")
    else:
        problem = _tricks_problem(s, command.tricks, "bid_too_low", "a bid")
        if problem is not None:
            return problem
    b.emit(BidMade(seat=s.seats[seat], tricks=command.tricks))
    return None


def pass_bid(b: B, seat: int, command: PassBid) -> Rejected | None:
    s = b.state
    if s.forced:
        return _reject("must_bid", "the first three passed: the dealer bids 1 (001:L291-292)")
    b.emit(BidPassed(seat=s.seats[seat]))
    return None


# ---------------------------------------------------------------- atomic King's talon (§8)
def discard(b: B, seat: int, command: Discard) -> Rejected | None:
    s = b.state
    rules = s.rules
    c = s.contract
    assert c is not None
    cards = command.cards
    if len(cards) != rules.talon_size or len(set(cards)) != len(cards):
        return _reject("bad_discard", f"discard {rules.talon_size} different cards")
    if any(x not in s.hands[seat] for x in cards):
        return _reject("bad_discard", "you can only discard cards of your hand")
    bad = [x for x in cards if scores_in(rules, c.game, x)]
    if bad:
        return _reject("scoring_discard", f"{', '.join(bad)} scores in {c.game} (001:L158)")
    b.emit(Discarded(seat=s.seats[seat], cards=tuple(cards)))
    return None


# ---------------------------------------------------------------- play (§12.4-§12.6)
def play(b: B, seat: int, command: Play) -> Rejected | None:
    problem = legal.play_problem(b.state, seat, command.card)
    if problem is not None:
        return _reject(problem, f"{command.card} may not be played now")
    b.emit(CardPlayed(seat=b.state.seats[seat], card=command.card))
    s = b.state
    if len(s.plays) == len(s.active):
        _take_trick(b)
    return None


def _take_trick(b: B) -> None:
    """The trick's last card: its winner takes it (§12.5); the deal ends when the hands are empty
    or early (§12.6)."""
    s = b.state
    assert s.contract is not None
    winner = legal.trick_winner(s.contract, s.plays)
    b.emit(
        TrickTaken(
            trick_no=len(s.tricks) + 1,
            leader=s.seats[s.plays[0][0]],
            cards=tuple(card for _, card in s.plays),
            winner=s.seats[winner],
        )
    )
    s = b.state
    if all(not s.hands[i] for i in s.active):
        _finish_deal(b, ended_early=False)
    elif scoring.ends_early(s):
        _finish_deal(b, ended_early=True)
