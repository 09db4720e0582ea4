"""King's decide: one step per phase on the kernel's event builder (rules/king.md §12.2-§12.3).

``decide`` works on a scratch copy of the state: every event it emits is folded at once, so the
follow-ups of an action (the end of a trick, an early end, the score of the deal, automatic
passes, the end of the match) are computed on the state they apply to.
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
    KingCommand,
    KingEvent,
    KingRuleset,
    MatchScored,
    OfferBuyout,
    OrderPassed,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    RestDealt,
    SeatReady,
    SheetRow,
    TalonShown,
    TrickTaken,
    schedule_deals,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.games.king import legal, scoring
from domain.games.king.deal import deal
from domain.games.king.evolve import evolve
from domain.games.king.state import KingState

_COMMANDS = (
    Ready,
    ChooseContract,
    PassOrder,
    OfferBuyout,
    PassBuyout,
    AcceptBuyout,
    RefuseBuyout,
    Declare,
    ChooseTrump,
    Bid,
    PassBid,
    Discard,
    Play,
)
# which commands each phase takes
_PHASE_COMMANDS: dict[str, tuple[type, ...]] = {
    "waiting": (Ready,),
    "scored": (Ready,),
    "ordering": (ChooseContract, PassOrder),
    "buyout": (OfferBuyout, PassBuyout),
    "buyout_answer": (AcceptBuyout, RefuseBuyout),
    "declaring": (Declare, ChooseTrump),
    "auction": (Bid, PassBid),
    "naming": (ChooseTrump,),
    "discard": (Discard,),
    "playing": (Play,),
    "finished": (),
}


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


# ---------------------------------------------------------------- decide
def last_eligible(s: KingState) -> int:
    """§12.3 PASS_ORDER / Q21: the dealer, or the last seat in asking order that still has games."""
    asking = [(s.dealer + k) % s.n() for k in range(1, s.n() + 1)]
    for i in reversed(asking):
        if i in s.active and s.remaining[i]:
            return i
    return s.dealer


def _auto(b: Builder[KingState, KingEvent]) -> None:
    """Automatic steps: seats with nothing to order pass (§12.3 PASS_ORDER)."""
    s = b.state
    while s.phase == "ordering" and s.rules.schedule == "ordered" and not s.remaining[s.to_act]:
        b.emit(OrderPassed(seat=s.seats[s.to_act], automatic=True))
        s = b.state


def _deal_next(b: Builder[KingState, KingEvent]) -> Rejected | None:
    dealt = deal(b.state)
    if isinstance(dealt, str):
        return _reject("seed_unavailable", dealt)
    b.emit(dealt)
    _auto(b)
    return None


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


def _finish_deal(b: Builder[KingState, KingEvent], ended_early: bool) -> None:
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


def scores_in(rules: KingRuleset, game: str, card: str) -> bool:
    """Whether a card scores in a no-trump game (001:L158: such cards may not be discarded)."""
    if game[1] not in scoring.SINGLE_CARD_CATEGORY and game[1] != "E":
        return False
    cats = scoring.CATEGORIES[game[1]]
    return any(scoring.card_units(rules, card, cat) for cat in cats)


def decide(state: KingState, seat_name: str, command: KingCommand) -> tuple[KingEvent, ...] | Rejected:
    if not isinstance(command, _COMMANDS):
        return _reject("malformed", "not a King command")
    if seat_name not in state.seats:
        return _reject("not_your_turn", f"{seat_name!r} is not a seat of this match")
    seat = state.seats.index(seat_name)
    s = state
    if not isinstance(command, _PHASE_COMMANDS[s.phase]):
        return _reject("wrong_phase", f"{type(command).__name__} is not taken in phase {s.phase}")
    b = Builder(s, evolve)
    if isinstance(command, Ready):
        ready = lifecycle.ready_problem(s.phase, s.ready, (0,) * s.n(), seat, command.client_seed)
        if ready is not None:
            return ready
        b.emit(SeatReady(seat=seat_name, client_seed=lifecycle.recorded_seed(s.deal_no, command.client_seed)))
        if all(b.state.ready):
            problem = _deal_next(b)
            if problem is not None:
                return problem
        return tuple(b.events)
    if seat != s.to_act:
        return _reject("not_your_turn", f"{s.seats[s.to_act]} is to act")
    problem = _decide_action(b, seat, command)
    if problem is not None:
        return problem
    return tuple(b.events)


def _decide_action(b: Builder[KingState, KingEvent], seat: int, command: KingCommand) -> Rejected | None:
    s = b.state
    rules = s.rules
    name = s.seats[seat]
    c = s.contract
    if isinstance(command, ChooseContract):
        if command.game not in s.remaining[seat]:
            return _reject("not_in_list", f"{command.game} is not in your list {list(s.remaining[seat])}")
        if rules.schedule == "atomic" and command.game == "OT":
            if command.trump is None:
                return _reject("trump_required", "the otyigrysh is ordered with its trump suit")
        elif command.trump is not None:
            return _reject("trump_not_allowed", f"{command.game} is played without trumps")
        b.emit(ContractChosen(seat=name, game=command.game, trump=command.trump))
        if rules.schedule == "atomic":
            b.emit(TalonShown(seat=name, cards=s.talon))
        return None
    if isinstance(command, PassOrder):
        if rules.schedule == "atomic" or seat == last_eligible(s):
            return _reject("must_order", "you must order a game")
        b.emit(OrderPassed(seat=name))
        _auto(b)
        return None
    assert c is not None
    if isinstance(command, OfferBuyout):
        low = s.best[1] if s.best is not None else 0
        if not low < command.tricks <= rules.hand_size:
            return _reject("buyout_too_low", f"an offer is {low + 1}..{rules.hand_size} tricks")
        b.emit(BuyoutOffered(seat=name, tricks=command.tricks))
        return None
    if isinstance(command, PassBuyout):
        b.emit(BuyoutPassed(seat=name))
        return None
    if isinstance(command, AcceptBuyout | RefuseBuyout):
        if s.best is None:
            return _reject("no_offer", "there is no offer")
        buyer, n = s.best
        b.emit(
            BuyoutDecided(
                seat=name, accepted=isinstance(command, AcceptBuyout), buyer=s.seats[buyer], tricks=n
            )
        )
        return None
    if isinstance(command, Declare):
        if c.game != "HV":
            return _reject("wrong_phase", "this trump deal is declared with choose_trump")
        if command.option not in rules.hv_options:
            return _reject("option_not_allowed", f"this ruleset offers {list(rules.hv_options)}")
        if command.option == "SUIT" and command.suit is None:
            return _reject("trump_required", "SUIT needs a suit")
        if command.option != "SUIT" and command.suit is not None:
            return _reject("trump_not_allowed", f"{command.option} takes no suit")
        return _declare(b, seat, command.option, command.suit)
    if isinstance(command, ChooseTrump):
        if s.phase == "naming":
            if command.suit is None:
                return _reject("trump_required", "the high bidder names a suit")
            return _declare(b, seat, "SUIT", command.suit)
        if c.game != "TR":
            return _reject("wrong_phase", "a hvalenka is declared with declare")
        option = "SUIT" if command.suit is not None else "BY_LAST"
        if option not in rules.hv_options:
            return _reject("option_not_allowed", f"this ruleset offers {list(rules.hv_options)}")
        return _declare(b, seat, option, command.suit)
    if isinstance(command, Bid):
        if s.forced:
            if command.tricks != 1:
                return _reject("bid_too_low", "the forced dealer bids 1 (K3)")
        else:
            low = s.best[1] if s.best is not None else 0
            if not low < command.tricks <= rules.hand_size:
                return _reject("bid_too_low", f"a bid is {low + 1}..{rules.hand_size} tricks")
        b.emit(BidMade(seat=name, tricks=command.tricks))
        return None
    if isinstance(command, PassBid):
        if s.forced:
            return _reject("must_bid", "the first three passed: the dealer bids 1 (001:L291-292)")
        b.emit(BidPassed(seat=name))
        return None
    if isinstance(command, Discard):
        hand = s.hands[seat]
        if len(command.cards) != rules.talon_size or len(set(command.cards)) != len(command.cards):
            return _reject("bad_discard", f"discard {rules.talon_size} different cards")
        if any(x not in hand for x in command.cards):
            return _reject("bad_discard", "you can only discard cards of your hand")
        bad = [x for x in command.cards if scores_in(rules, c.game, x)]
        if bad:
            return _reject("scoring_discard", f"{', '.join(bad)} scores in {c.game} (001:L158)")
        b.emit(Discarded(seat=name, cards=tuple(command.cards)))
        return None
    assert isinstance(command, Play)
    problem = legal.play_problem(s, seat, command.card)
    if problem is not None:
        return _reject(problem, f"{command.card} may not be played now")
    b.emit(CardPlayed(seat=name, card=command.card))
    s = b.state
    if len(s.plays) == len(s.active):
        winner = legal.trick_winner(c, s.plays)
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
    return None


def _declare(b: Builder[KingState, KingEvent], seat: int, option: str, suit: str | None) -> Rejected | None:
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
