"""King's referee: initial state, the deal lifecycle, decide and evolve (rules/king.md §12.2-§12.8).

``decide`` works on a scratch copy of the state: every event it emits is folded at once (the
event builder), so the follow-ups of an action (the end of a trick, an early end, the score of
the deal, automatic passes, the end of the match) are computed on the state they apply to.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import (
    SUITS_ORDER,
    AcceptBuyout,
    AuctionEntry,
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
    Dealt,
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
from contracts.match import Outcome
from domain.core import rng
from domain.core.cardgame.redact import remove_cards
from domain.games.king import legal, scoring
from domain.games.king.state import Contract, KingState

MAX_CLIENT_SEED = 256
UNKNOWN = "??"
_replace = msgspec.structs.replace
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
    "ready": (Ready,),
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


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _remove(hand: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """The hand without ``gone`` (in another seat's information state a card not known to be
    there takes one ``??`` placeholder)."""
    return remove_cards(hand, gone)


# ---------------------------------------------------------------- set-up
def initial_state(rules: KingRuleset, seats: tuple[str, ...], seed: bytes | None) -> KingState:
    n = len(seats)
    comp = rules.compensation_value if rules.compensation == "perPlayer" else 0
    remaining: tuple[tuple[str, ...], ...] = ()
    if rules.schedule != "fixed":
        remaining = tuple((*rules.games, *(rules.trump_deal,) * rules.hv_count) for _ in range(n))
    return KingState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        client_seeds=("",) * n,
        ready=(False,) * n,
        remaining=remaining,
        compensation=(comp,) * n,
        totals=(comp,) * n,
    )


def deal(state: KingState) -> Dealt | str:
    """The next deal from rng_v1 (labels ``dealer`` and ``deal:<n>``), or why it cannot be dealt.

    Cards go one at a time clockwise from the player left of the dealer to every active seat;
    what is left is the talon.  In HV and TR deals each seat holds its first ``hvPeek`` cards and
    the rest is pending (§6.2 step 1, §6.3: the declarer's last card is his last dealt card).
    """
    rules = state.rules
    n = state.n()
    deal_no = state.deal_no + 1
    if state.scripted:
        if deal_no > len(state.scripted):
            return f"the record has no deal {deal_no}"
        first = state.scripted_first_dealer
    elif state.seed is None:
        return "the server seed is not available"
    else:
        key = rng.derive_key(state.seed, state.client_seeds)
        first = rng.Stream(key, b"dealer").randbelow(n) if deal_no == 1 else state.first_dealer
    dealer = (first + deal_no - 1) % n
    active = tuple(i for i in range(n) if not (rules.sit_out_dealer and i == dealer))
    order = [(dealer + k) % n for k in range(1, n + 1)]
    seq = [i for i in order if i in active]
    if state.scripted:
        hands = [tuple(h) for h in state.scripted[deal_no - 1]]
        talon = state.scripted_talons[deal_no - 1] if deal_no <= len(state.scripted_talons) else ()
    else:
        shuffled = rng.shuffle(key, b"deal:%d" % deal_no, scoring.deck(rules))
        lists: list[list[str]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(rules.hand_size):
            for i in seq:
                lists[i].append(shuffled[pos])
                pos += 1
        hands = [tuple(h) for h in lists]
        talon = tuple(shuffled[pos:])
    return dealt_from(state, deal_no, dealer, hands, talon)


def dealt_from(
    state: KingState, deal_no: int, dealer: int, hands: list[tuple[str, ...]], talon: tuple[str, ...]
) -> Dealt:
    """The Dealt event of full hands (each in dealing order) and a talon: in HV and TR deals each
    seat holds its first ``hvPeek`` cards and the rest is pending (§6.2 step 1, §6.3)."""
    rules = state.rules
    n = state.n()
    game: str | None = None
    if rules.schedule == "fixed":
        game = schedule_deals(rules)[state.cursor]
    peek = rules.hv_peek
    held: list[tuple[str, ...]] = hands
    pending: list[tuple[str, ...]] = [() for _ in range(n)]
    if game in ("HV", "TR") and not isinstance(peek, str):
        held = [h[:peek] for h in hands]
        pending = [h[peek:] for h in hands]
    order = [(dealer + k) % n for k in range(1, n + 1)]
    first_active = next(i for i in order if not (rules.sit_out_dealer and i == dealer))
    return Dealt(
        deal_no=deal_no,
        dealer=state.seats[dealer],
        seats=state.seats,
        game=game,  # type: ignore[arg-type]
        declarer=state.seats[first_active] if game in ("HV", "TR") else None,
        hands=tuple(tuple(h) for h in held),
        pending=tuple(tuple(p) for p in pending),
        talon=tuple(talon),
    )


def check_scripted_deal(state: KingState, dealt: Dealt) -> str | None:
    """A record's deal must hold the deck exactly, dealt as the ruleset deals (§12.10)."""
    rules = state.rules
    dealer = state.seats.index(dealt.dealer)
    cards_ = [c for h in dealt.hands for c in h] + [c for p in dealt.pending for c in p] + list(dealt.talon)
    if sorted(cards_) != sorted(scoring.deck(rules)):
        return f"deal {dealt.deal_no} does not hold the {len(scoring.deck(rules))}-card deck exactly once"
    for i in range(state.n()):
        size = len(dealt.hands[i]) + len(dealt.pending[i])
        want = 0 if (rules.sit_out_dealer and i == dealer) else rules.hand_size
        if size != want:
            return f"deal {dealt.deal_no}: seat {i} holds {size} cards, the rules deal {want}"
    if len(dealt.talon) != rules.talon_size:
        return (
            f"deal {dealt.deal_no}: the talon has {len(dealt.talon)} cards, the rules use {rules.talon_size}"
        )
    return None


# ---------------------------------------------------------------- evolve
def _contract(rules: KingRuleset, game: str, **kw: Any) -> Contract:
    return Contract(
        game=game,
        sign=-1 if game.startswith("N") else 1,
        hearts_lead_ban=game in rules.hearts_lead_ban,
        king_discard=game in rules.king_discard,
        **kw,
    )


def _first_leader(s: KingState) -> int:
    """§12.2 step 4: who leads the first trick of the deal."""
    c = s.contract
    assert c is not None
    rules = s.rules
    left = s.left_of(s.dealer)
    if rules.schedule == "atomic":
        return c.orderer
    if c.game in ("HV", "TR", "AU"):
        return c.declarer if rules.trump_leader == "declarer" else left
    if rules.schedule == "ordered" and rules.ordered_leader == "orderer":
        return c.orderer
    return left


def _playing(s: KingState) -> KingState:
    leader = _first_leader(s)
    return _replace(s, phase="playing", leader=leader, to_act=leader, plays=())


def _next_clockwise(s: KingState, seat: int, among: set[int]) -> int:
    n = s.n()
    for step in range(1, n + 1):
        j = (seat + step) % n
        if j in among:
            return j
    raise ValueError("nobody left")


def _after_buyout_step(s: KingState) -> KingState:
    c = s.contract
    assert c is not None
    candidates = {i for i in s.active if i != c.declarer and not s.passed[i]}
    best = s.best
    if not candidates or (best is not None and candidates == {best[0]}):
        return _replace(s, phase="buyout_answer" if best is not None else "declaring", to_act=c.declarer)
    return _replace(s, to_act=_next_clockwise(s, s.to_act, candidates))


def _after_bid_step(s: KingState) -> KingState:
    n_passed = sum(1 for i in s.active if s.passed[i])
    if n_passed == len(s.active) - 1:
        if s.best is not None:
            return _replace(s, phase="naming", to_act=s.best[0], forced=False)
        # 001:L291-292: the first three passed, the dealer must bid 1 (K3)
        return _replace(s, forced=True, to_act=next(i for i in s.active if not s.passed[i]))
    unpassed = {i for i in s.active if not s.passed[i]}
    return _replace(s, to_act=_next_clockwise(s, s.to_act, unpassed))


def _entry(s: KingState, seat: str, action: str, value: str = "") -> tuple[AuctionEntry, ...]:
    return (*s.auction, AuctionEntry(seat=seat, action=action, value=value))


def evolve(state: KingState, event: KingEvent) -> KingState:
    s = state
    seats = s.seats
    if isinstance(event, CardPlayed):
        i = seats.index(event.seat)
        plays = (*s.plays, (i, event.card))
        s = _replace(s, hands=_set(s.hands, i, _remove(s.hands[i], (event.card,))), plays=plays)
        if len(plays) < len(s.active):
            return _replace(s, to_act=s.left_of(i))
        return _replace(s, to_act=-1)
    if isinstance(event, TrickTaken):
        w = seats.index(event.winner)
        return _replace(
            s,
            captured=_set(s.captured, w, s.captured[w] + event.cards),
            won=_set(s.won, w, s.won[w] + 1),
            tricks=(*s.tricks, event),
            plays=(),
            leader=w,
            to_act=w,
        )
    if isinstance(event, SeatReady):
        i = seats.index(event.seat)
        client = s.client_seeds
        if s.deal_no == 0:
            client = _set(client, i, event.client_seed)
        return _replace(s, ready=_set(s.ready, i, True), client_seeds=client)
    if isinstance(event, Dealt):
        return _evolve_dealt(s, event)
    if isinstance(event, OrderPassed):
        return _replace(
            s,
            auction=_entry(s, event.seat, "pass_order", "automatic" if event.automatic else ""),
            to_act=s.left_of(seats.index(event.seat)),
        )
    if isinstance(event, ContractChosen):
        i = seats.index(event.seat)
        rules = s.rules
        kw: dict[str, Any] = {"orderer": i}
        if event.game in ("OT",):
            kw.update(trump=event.trump, declarer=i, declared=True)
        s = _replace(
            s,
            contract=_contract(rules, event.game, **kw),
            auction=_entry(s, event.seat, "order", event.game + (f" {event.trump}" if event.trump else "")),
        )
        if rules.schedule == "atomic":
            return _replace(s, phase="discard", to_act=i)
        return _playing(s)
    if isinstance(event, TalonShown):
        i = seats.index(event.seat)
        # In another seat's information state the talon joins the hand as placeholders: which
        # two cards the orderer lays aside is hidden, so no card of his hand is known.
        add = (UNKNOWN,) * len(event.cards) if UNKNOWN in s.hands[i] else event.cards
        return _replace(s, hands=_set(s.hands, i, s.hands[i] + add), talon=event.cards, talon_shown=True)
    if isinstance(event, Discarded):
        i = seats.index(event.seat)
        s = _replace(
            s,
            hands=_set(s.hands, i, _remove(s.hands[i], event.cards)),
            discards=_set(s.discards, i, event.cards),
        )
        return _playing(s)
    if isinstance(event, BuyoutOffered):
        i = seats.index(event.seat)
        s = _replace(
            s, best=(i, event.tricks), auction=_entry(s, event.seat, "offer_buyout", str(event.tricks))
        )
        return _after_buyout_step(s)
    if isinstance(event, BuyoutPassed):
        i = seats.index(event.seat)
        s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, event.seat, "pass_buyout"))
        return _after_buyout_step(s)
    if isinstance(event, BuyoutDecided):
        c = s.contract
        assert c is not None
        s = _replace(
            s, auction=_entry(s, event.seat, "accept" if event.accepted else "refuse", str(event.tricks))
        )
        if event.accepted:
            buyer = seats.index(event.buyer)
            c = _replace(c, declarer=buyer, buyout=(buyer, c.declarer, event.tricks))
        return _replace(s, contract=c, phase="declaring", to_act=c.declarer)
    if isinstance(event, Declared):
        c = s.contract
        assert c is not None
        i = seats.index(event.seat)
        c = _replace(
            c,
            declarer=i,
            trump=event.trump,
            misere=event.option == "MISERE",
            raspis=event.option == "RASPIS",
            by_last=event.last_card,
            bid=s.best[1] if c.game == "AU" and s.best is not None else c.bid,
            declared=True,
        )
        value = event.option + (f" {event.trump}" if event.trump else "")
        s = _replace(s, contract=c, auction=_entry(s, event.seat, "declare", value))
        return s if c.raspis else _playing(s)
    if isinstance(event, RestDealt):
        return _replace(
            s,
            hands=tuple(h + tuple(r) for h, r in zip(s.hands, event.cards, strict=True)),
            pending=tuple(() for _ in seats),
        )
    if isinstance(event, BidMade):
        i = seats.index(event.seat)
        s = _replace(
            s, best=(i, event.tricks), forced=False, auction=_entry(s, event.seat, "bid", str(event.tricks))
        )
        return _after_bid_step(s)
    if isinstance(event, BidPassed):
        i = seats.index(event.seat)
        s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, event.seat, "pass_bid"))
        return _after_bid_step(s)
    if isinstance(event, DealScored):
        row = event.row
        remaining = s.remaining
        c = s.contract
        if remaining and c is not None and c.orderer >= 0:
            lst = list(remaining[c.orderer])
            lst.remove(row.game)
            remaining = _set(remaining, c.orderer, tuple(lst))
        return _replace(
            s,
            sheet=(*s.sheet, row),
            totals=row.totals,
            cursor=s.cursor + 1,
            remaining=remaining,
            phase="scored",
            ready=(False,) * len(seats),
            to_act=-1,
        )
    if isinstance(event, MatchScored):
        return _replace(s, phase="finished", ranks=event.ranks, balance=event.balance, totals=event.totals)
    raise TypeError(f"not a King event: {type(event).__name__}")


def _evolve_dealt(s: KingState, event: Dealt) -> KingState:
    rules = s.rules
    seats = s.seats
    n = len(seats)
    dealer = seats.index(event.dealer)
    active = tuple(i for i in range(n) if not (rules.sit_out_dealer and i == dealer))
    s = _replace(
        s,
        deal_no=event.deal_no,
        dealer=dealer,
        first_dealer=dealer if event.deal_no == 1 else s.first_dealer,
        active=active,
        hands=event.hands,
        pending=event.pending,
        talon=event.talon,
        talon_shown=False,
        discards=((),) * n,
        captured=((),) * n,
        won=(0,) * n,
        tricks=(),
        plays=(),
        passed=(False,) * n,
        best=None,
        forced=False,
        auction=(),
        ready=(False,) * n,
        contract=None,
    )
    left = s.left_of(dealer)
    game = event.game
    if game is None:
        return _replace(s, phase="ordering", to_act=left)
    declarer = seats.index(event.declarer) if event.declarer is not None else -1
    s = _replace(s, contract=_contract(rules, game, declarer=declarer))
    if game == "HV":
        if rules.hv_buyout:
            return _replace(s, phase="buyout", to_act=s.left_of(declarer))
        return _replace(s, phase="declaring", to_act=declarer)
    if game == "TR":
        return _replace(s, phase="declaring", to_act=declarer)
    if game == "AU":
        return _replace(s, phase="auction", to_act=left)
    return _playing(s)


# ---------------------------------------------------------------- decide
class _Builder:
    """Emit and fold at once."""

    def __init__(self, state: KingState) -> None:
        self.state = state
        self.events: list[KingEvent] = []

    def emit(self, event: KingEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def last_eligible(s: KingState) -> int:
    """§12.3 PASS_ORDER / Q21: the dealer, or the last seat in asking order that still has games."""
    asking = [(s.dealer + k) % s.n() for k in range(1, s.n() + 1)]
    for i in reversed(asking):
        if i in s.active and s.remaining[i]:
            return i
    return s.dealer


def _auto(b: _Builder) -> None:
    """Automatic steps: seats with nothing to order pass (§12.3 PASS_ORDER)."""
    s = b.state
    while s.phase == "ordering" and s.rules.schedule == "ordered" and not s.remaining[s.to_act]:
        b.emit(OrderPassed(seat=s.seats[s.to_act], automatic=True))
        s = b.state


def _deal_next(b: _Builder) -> Rejected | None:
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


def _finish_deal(b: _Builder, ended_early: bool) -> None:
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
    b = _Builder(s)
    if isinstance(command, Ready):
        if s.ready[seat]:
            return _reject("already_ready", "you are ready for the next deal already")
        if len(command.client_seed) > MAX_CLIENT_SEED:
            return _reject("client_seed_too_long", f"a client seed has at most {MAX_CLIENT_SEED} characters")
        if s.phase == "scored" and command.client_seed:
            return _reject("malformed", "a client seed is given before the first deal only")
        b.emit(SeatReady(seat=seat_name, client_seed=command.client_seed))
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


def _decide_action(b: _Builder, seat: int, command: KingCommand) -> Rejected | None:
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


def _declare(b: _Builder, seat: int, option: str, suit: str | None) -> Rejected | None:
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


# ---------------------------------------------------------------- queries
def legal_commands(state: KingState, seat_name: str) -> tuple[KingCommand, ...]:
    s = state
    if seat_name not in s.seats:
        return ()
    seat = s.seats.index(seat_name)
    rules = s.rules
    if s.phase in ("ready", "scored"):
        return () if s.ready[seat] else (Ready(),)
    if s.phase == "finished" or seat != s.to_act:
        return ()
    out: list[KingCommand] = []
    c = s.contract
    if s.phase == "ordering":
        for g in dict.fromkeys(s.remaining[seat]):
            if rules.schedule == "atomic" and g == "OT":
                out.extend(ChooseContract(game=g, trump=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
            else:
                out.append(ChooseContract(game=g))  # type: ignore[arg-type]
        if rules.schedule == "ordered" and seat != last_eligible(s):
            out.append(PassOrder())
    elif s.phase == "buyout":
        low = s.best[1] if s.best is not None else 0
        out.extend(OfferBuyout(tricks=n) for n in range(low + 1, rules.hand_size + 1))
        out.append(PassBuyout())
    elif s.phase == "buyout_answer":
        out.extend((AcceptBuyout(), RefuseBuyout()))
    elif s.phase == "declaring":
        assert c is not None
        if c.game == "HV":
            for opt in rules.hv_options:
                if opt == "SUIT":
                    out.extend(Declare(option="SUIT", suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
                else:
                    out.append(Declare(option=opt))
        else:
            if "SUIT" in rules.hv_options:
                out.extend(ChooseTrump(suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
            if "BY_LAST" in rules.hv_options:
                out.append(ChooseTrump(suit=None))
    elif s.phase == "auction":
        if s.forced:
            out.append(Bid(tricks=1))
        else:
            low = s.best[1] if s.best is not None else 0
            out.extend(Bid(tricks=n) for n in range(low + 1, rules.hand_size + 1))
            out.append(PassBid())
    elif s.phase == "naming":
        out.extend(ChooseTrump(suit=t) for t in SUITS_ORDER)  # type: ignore[arg-type]
    elif s.phase == "discard":
        assert c is not None
        allowed = [x for x in s.hands[seat] if not scores_in(rules, c.game, x)]
        out.extend(Discard(cards=pair) for pair in combinations(allowed, rules.talon_size))
    elif s.phase == "playing":
        out.extend(Play(card=x) for x in legal.legal_cards(s, seat))
    return tuple(sorted(out, key=msgspec.json.encode))


def to_move(state: KingState) -> frozenset[str]:
    if state.phase in ("ready", "scored"):
        return frozenset(state.seats[i] for i, r in enumerate(state.ready) if not r)
    if state.phase == "finished" or state.to_act < 0:
        return frozenset()
    return frozenset({state.seats[state.to_act]})


def outcome(state: KingState) -> Outcome | None:
    if state.phase != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(t) for t in state.totals),
        reason="all deals played" + ("" if state.rules.zero_sum else f"; the totals sum to {state.balance}"),
        draw=len(set(state.ranks)) == 1,
    )


def hidden(state: KingState, seat: str) -> frozenset[str]:
    """Card ids nobody but ``seat`` may see now: its hand and discards, plus what nobody may see
    (every pending card, an unshown talon).  Shown cards (the "by the last" card, a shown talon)
    are public."""
    if state.phase in ("ready", "finished") or seat not in state.seats:
        return frozenset()
    i = state.seats.index(seat)
    out = set(state.hands[i]) | set(state.discards[i])  # after an early end the rest stays hidden (Q13)
    for p in state.pending:
        out |= set(p)
    if not state.talon_shown:
        out |= set(state.talon)
    public: set[str] = set()
    c = state.contract
    if c is not None and c.by_last:
        public.add(c.by_last)
    if state.talon_shown:
        public |= set(state.talon)
    return frozenset(out - public - {UNKNOWN})


def verify_chance(state: KingState, event: KingEvent) -> str | None:
    """Re-derive a deal from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, RestDealt):
        if event.cards != state.pending:
            return f"deal {state.deal_no}: the rest dealt is not the cards the shuffle fixed"
        return None
    if not isinstance(event, Dealt):
        return None
    expected = deal(state)
    if isinstance(expected, str):
        return f"deal {event.deal_no}: {expected}"
    if event != expected:
        for name in ("deal_no", "dealer", "game", "declarer", "hands", "pending", "talon"):
            if getattr(event, name) != getattr(expected, name):
                return f"deal {expected.deal_no}: {name} recorded as {getattr(event, name)!r}, rng_v1 gives {getattr(expected, name)!r}"
        return f"deal {expected.deal_no} does not follow from rng_v1"
    return None


# ---------------------------------------------------------------- TIMEOUT (§12.3, K8)
_RANK_LOW = ("7", "8", "9", "10", "J", "Q", "K", "A")


def canonical_key(card: str) -> tuple[int, int]:
    """K8's canonical card order: suits C D H S, ranks low to high."""
    return (SUITS_ORDER.index(card[-1]), _RANK_LOW.index(card[:-1]))


def longest_suit(hand: tuple[str, ...]) -> str:
    """The suit the seat holds most cards of; ties by the suit order C D H S (K8)."""
    counts = {t: sum(1 for c in hand if c != UNKNOWN and c[-1] == t) for t in SUITS_ORDER}
    return max(SUITS_ORDER, key=lambda t: (counts[t], -SUITS_ORDER.index(t)))


def timeout_command(state: KingState, seat_name: str) -> KingCommand | None:
    """What the referee plays for a seat whose clock ran out (§12.3 TIMEOUT with K8's
    tie-breaks), or None when the seat has nothing to do.  Never MISERE or RASPIS."""
    legal_now = legal_commands(state, seat_name)
    if not legal_now:
        return None
    s = state
    seat = s.seats.index(seat_name)
    hand = s.hands[seat] if s.hands else ()
    for pass_cmd in (PassOrder(), PassBuyout(), PassBid()):
        if pass_cmd in legal_now:
            return pass_cmd
    if s.phase in ("ready", "scored"):
        return Ready()
    if s.phase == "buyout_answer":
        return RefuseBuyout()
    if s.phase == "ordering":
        game = s.remaining[seat][0]
        trump = longest_suit(hand) if s.rules.schedule == "atomic" and game == "OT" else None
        return ChooseContract(game=game, trump=trump)  # type: ignore[arg-type]
    if s.phase == "auction":
        return Bid(tricks=1)  # only the forced dealer cannot pass
    if s.phase == "naming":
        return ChooseTrump(suit=longest_suit(hand))  # type: ignore[arg-type]
    if s.phase == "declaring":
        c = s.contract
        assert c is not None
        options = s.rules.hv_options
        if c.game == "TR":
            if "BY_LAST" in options:
                return ChooseTrump(suit=None)
            return ChooseTrump(suit=longest_suit(hand))  # type: ignore[arg-type]
        if "BY_LAST" in options:
            return Declare(option="BY_LAST")
        if "SUIT" in options:
            return Declare(option="SUIT", suit=longest_suit(hand))  # type: ignore[arg-type]
        return Declare(option="NO_TRUMP")
    if s.phase == "discard":
        c = s.contract
        assert c is not None
        allowed = sorted((x for x in hand if not scores_in(s.rules, c.game, x)), key=canonical_key)
        return Discard(cards=tuple(allowed[: s.rules.talon_size]))
    cards_ = sorted(legal.legal_cards(s, seat), key=canonical_key)
    return Play(card=cards_[0])
