"""What one seat may see (rules/king.md §12.9): the view of a state and the redaction of events."""

from __future__ import annotations

import msgspec

from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    ContractView,
    Dealt,
    Declare,
    Discard,
    Discarded,
    KingCommand,
    KingEvent,
    KingView,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    RestDealt,
    TrickView,
    schedule_deals,
)
from domain.core import cards
from domain.core.words import DEFAULT_LANG, Lang
from domain.games.king import scoring
from domain.games.king.evolve import UNKNOWN
from domain.games.king.queries import to_move
from domain.games.king.state import KingState
from domain.games.king.words import auction_text, contract_notes, game_cost, game_name, phase_text


def notation(cmd: KingCommand) -> str:
    """A command's label: "QS", "order NH", "trumps S", "by the last", "bid 3", "discard AC KS"..."""
    if isinstance(cmd, Play):
        return cmd.card
    if isinstance(cmd, Ready):
        return "ready"
    if isinstance(cmd, ChooseContract):
        return f"order {cmd.game}" + (f" {cmd.trump}" if cmd.trump else "")
    if isinstance(cmd, PassOrder | PassBuyout | PassBid):
        return "pass"
    if isinstance(cmd, OfferBuyout):
        return f"buy for {cmd.tricks}"
    if isinstance(cmd, AcceptBuyout):
        return "accept"
    if isinstance(cmd, RefuseBuyout):
        return "refuse"
    if isinstance(cmd, Declare):
        return {
            "SUIT": f"trumps {cmd.suit}",
            "NO_TRUMP": "no trumps",
            "BY_LAST": "by the last",
            "MISERE": "misère",
            "RASPIS": "raspis",
        }[cmd.option]
    if isinstance(cmd, ChooseTrump):
        return f"trumps {cmd.suit}" if cmd.suit else "decline (by the last)"
    if isinstance(cmd, Bid):
        return f"bid {cmd.tricks}"
    assert isinstance(cmd, Discard)
    return "discard " + " ".join(cmd.cards)


def cost(state: KingState, game: str, lang: Lang = DEFAULT_LANG) -> str:
    """What a game costs, e.g. "-2 per heart (deal total -16)"."""
    return game_cost(state.rules, game, state.contract, lang)


def _contract_view(state: KingState, lang: Lang) -> ContractView | None:
    c = state.contract
    if c is None:
        return None
    seats = state.seats
    return ContractView(
        game=c.game,  # type: ignore[arg-type]
        name=game_name(c.game, lang),
        cost=cost(state, c.game, lang),
        sign=c.sign,
        trump=c.trump,  # type: ignore[arg-type]
        misere=c.misere,
        raspis=c.raspis,
        declarer=seats[c.declarer] if c.declarer >= 0 else None,
        orderer=seats[c.orderer] if c.orderer >= 0 else None,
        bid=c.bid if c.game == "AU" and c.declared else None,
        buyout=(seats[c.buyout[0]], seats[c.buyout[1]], c.buyout[2]) if c.buyout is not None else None,
        by_last_card=c.by_last,
        hearts_lead_ban=c.hearts_lead_ban,
        king_discard=c.king_discard,
        trump_lead_restriction=state.rules.trump_lead_restriction and c.trump is not None,
        expected_sum=scoring.expected_sum(state.rules, c, state.won) if c.game != "AU" or c.declared else 0,
        notes=contract_notes(
            c.hearts_lead_ban,
            c.king_discard,
            state.rules.trump_lead_restriction and c.trump is not None,
            lang,
        ),
    )


def view(state: KingState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> KingView:
    """The table for ``viewer``; the contract's name and cost in ``lang``."""
    s = state
    seats = s.seats
    me = seats.index(viewer) if viewer in seats else None
    in_deal = s.phase not in ("waiting", "finished") and s.deal_no > 0
    hand: tuple[str, ...] = ()
    if me is not None and in_deal and s.phase != "scored":
        hand = cards.sorted_cards(s.hands[me], cards.KING_ORDER)
    trick = None
    if s.phase == "playing" and s.leader >= 0:
        trick = TrickView(
            trick_no=len(s.tricks) + 1,
            leader=seats[s.leader],
            plays=tuple((seats[i], c) for i, c in s.plays),
        )
    return KingView(
        phase=s.phase,
        deal_no=s.deal_no,
        deals_total=len(schedule_deals(s.rules)),
        dealer=seats[s.dealer] if s.dealer >= 0 else None,
        to_act=seats[s.to_act] if s.to_act >= 0 and s.phase not in ("scored", "finished") else None,
        to_move=tuple(x for x in seats if x in to_move(s)),
        ready=tuple(x for x, r in zip(seats, s.ready, strict=True) if r),
        contract=_contract_view(s, lang) if in_deal else None,
        hand=hand,
        hand_sizes={x: len(h) for x, h in zip(seats, s.hands, strict=True)} if in_deal else {},
        pending_sizes={x: len(p) for x, p in zip(seats, s.pending, strict=True)} if in_deal else {},
        talon=s.talon if s.talon_shown else (),
        talon_size=len(s.talon) if in_deal else 0,
        my_discards=s.discards[me] if me is not None and in_deal else (),
        trick=trick,
        tricks=tuple(
            TrickView(
                trick_no=t.trick_no,
                leader=t.leader,
                plays=tuple(zip(_play_order(s, t.leader), t.cards, strict=True)),
                winner=t.winner,
            )
            for t in s.tricks
        )
        if in_deal
        else (),
        tricks_won={x: w for x, w in zip(seats, s.won, strict=True)} if in_deal else {},
        auction=tuple(
            msgspec.structs.replace(a, text=auction_text(a.action, a.value, lang)) for a in s.auction
        )
        if in_deal
        else (),
        remaining={x: r for x, r in zip(seats, s.remaining, strict=True)} if s.remaining else {},
        sheet=s.sheet,
        compensation=dict(zip(seats, s.compensation, strict=True)),
        totals=dict(zip(seats, s.totals, strict=True)),
        balance=sum(s.totals),
        zero_sum=s.rules.zero_sum,
        ranks=s.ranks,
        phase_text=phase_text(s.phase, lang),
    )


def _play_order(s: KingState, leader: str) -> tuple[str, ...]:
    """Seats in the order they play to a trick led by ``leader`` (active seats only)."""
    i = s.seats.index(leader)
    out = [i]
    while len(out) < len(s.active):
        out.append(s.left_of(out[-1]))
    return tuple(s.seats[j] for j in out)


def redact(event: KingEvent, viewer: str | None) -> KingEvent | None:
    """What ``viewer`` may see of an event: cards it may not see become ``??`` placeholders, so
    every count survives and the redacted events fold into the viewer's information state."""
    if isinstance(event, Dealt):
        return msgspec.structs.replace(
            event,
            hands=tuple(
                h if seat == viewer else (UNKNOWN,) * len(h)
                for seat, h in zip(event.seats, event.hands, strict=True)
            ),
            pending=tuple((UNKNOWN,) * len(p) for p in event.pending),
            talon=(UNKNOWN,) * len(event.talon),
        )
    if isinstance(event, RestDealt):
        return msgspec.structs.replace(
            event,
            cards=tuple(
                h if seat == viewer else tuple(c if c == event.shown else UNKNOWN for c in h)
                for seat, h in zip(event.seats, event.cards, strict=True)
            ),
        )
    if isinstance(event, Discarded) and event.seat != viewer:
        return msgspec.structs.replace(event, cards=(UNKNOWN,) * len(event.cards))
    return event
