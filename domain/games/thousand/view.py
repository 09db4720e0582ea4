"""What one seat may see (§2.21.5): the view of a state, the redaction of events, the notation, and
the cards a seat may not see (``private_cards`` for the Decider's ``hidden``, ``unseen``)."""

from __future__ import annotations

import msgspec

from contracts.games.thousand import (
    BarrelStatus,
    Bid,
    CardsGiven,
    ClaimRedeal,
    DealDealt,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    HandShown,
    KeepHand,
    Pass,
    Play,
    Ready,
    RedealClaimed,
    SetContract,
    SheetLine,
    TalonRevealed,
    ThousandCommand,
    ThousandEvent,
    ThousandView,
    WriteOff,
)
from domain.core import cards
from domain.core.words import DEFAULT_LANG, Lang
from domain.games.thousand.phases import legal_commands, to_move
from domain.games.thousand.rules import ORDER
from domain.games.thousand.state import TState
from domain.games.thousand.words import announcement_text, phase_text, result_text

UNKNOWN = cards.UNKNOWN
_ANN = {"none": "", "marriage": "+m", "aces": "+aces"}


def describe(cmd: ThousandCommand) -> str:
    """Short text of a command: "ready", "blind", "no-blind", "redeal:weak", "keep", "bid:105",
    "pass", "give:p2=QS,p3=9H[,up]", "contract:120", "write-off", "play:KH+m", "play:AS+aces"."""
    if isinstance(cmd, Ready):
        return "ready"
    if isinstance(cmd, DeclareBlind):
        return "blind"
    if isinstance(cmd, DeclineBlind):
        return "no-blind"
    if isinstance(cmd, ClaimRedeal):
        return f"redeal:{cmd.reason}"
    if isinstance(cmd, KeepHand):
        return "keep"
    if isinstance(cmd, Bid):
        return f"bid:{cmd.amount}"
    if isinstance(cmd, Pass):
        return "pass"
    if isinstance(cmd, GiveCards):
        gifts = ",".join(f"{s}={c}" for s, c in sorted(cmd.gifts.items()))
        return f"give:{gifts}{',up' if cmd.face_up else ''}"
    if isinstance(cmd, SetContract):
        return f"contract:{cmd.amount}"
    if isinstance(cmd, WriteOff):
        return "write-off"
    assert isinstance(cmd, Play)
    return f"play:{cmd.card}{_ANN[cmd.announce]}"


def view(state: TState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> ThousandView:
    """The table for ``viewer``; the phase, the sheet's results and the announcements in ``lang``."""
    s = state
    seats = s.seats
    me = seats.index(viewer) if viewer in seats else -1
    dealing = bool(s.hands) and s.phase not in ("waiting", "finished", "next_deal")
    hand: tuple[str, ...] = ()
    if me >= 0 and dealing and s.seen[me]:
        hand = cards.sorted_cards(tuple(c for c in s.hands[me] if c != UNKNOWN), ORDER)
    talon: tuple[str, ...] = ()
    if dealing and s.talon:
        mine = me >= 0 and me == s.declarer and s.phase in ("talon_window", "talon_open")
        talon = s.talon if (s.talon_public or mine) else (UNKNOWN,) * len(s.talon)
    given: dict[str, str] = {}
    if dealing:
        for j, c in zip(s.given_to, s.given, strict=True):
            if s.given_face_up or me == s.declarer or me == j:
                given[seats[j]] = c

    def named(pairs: tuple[tuple[int, str], ...]) -> tuple[tuple[str, str], ...]:
        return tuple((seats[j], c) for j, c in pairs)

    legal = tuple(describe(c) for c in legal_commands(s, viewer)) if viewer is not None else ()
    sheet = tuple(
        SheetLine(
            deal_no=d.deal_no,
            declarer=d.declarer,
            contract=d.contract,
            result=d.result,
            deltas={x.seat: x.delta for x in d.seats},
            scores={x.seat: x.score for x in d.seats},
            marks={x.seat: x.marks for x in d.seats},
            result_text=result_text(d.result, lang),
        )
        for d in s.sheet
    )
    return ThousandView(
        phase=s.phase,
        deal_no=s.deal_no + (1 if dealing else 0),
        dealer=seats[s.dealer] if s.dealer >= 0 else None,
        sitout=seats[s.sitout] if s.sitout >= 0 and dealing else None,
        forced_seat=seats[s.forced_seat] if s.forced_seat >= 0 and dealing else None,
        golden=s.golden and dealing,
        to_move=tuple(x for x in seats if x in to_move(s)),
        hand=hand,
        hand_sizes={x: len(h) for x, h in zip(seats, s.hands, strict=True)} if dealing else {},
        talon=talon,
        high_bid=s.high_bid if s.high_seat >= 0 and dealing else None,
        high_seat=seats[s.high_seat] if s.high_seat >= 0 and dealing else None,
        passed=tuple(x for x, p in zip(seats, s.passed, strict=True) if p) if dealing else (),
        bids=named(s.bids) if dealing else (),
        declarer=seats[s.declarer] if s.declarer >= 0 and dealing else None,
        contract=s.contract if s.declarer >= 0 and dealing else None,
        blind=s.blind and dealing,
        given=given,
        trump=s.trump if dealing else None,
        trick=named(s.trick) if dealing else (),
        last_trick=named(s.last_trick) if dealing else (),
        leader=seats[s.leader] if s.leader >= 0 and s.phase == "play" else None,
        trick_no=s.trick_no if dealing else 0,
        tricks_won={x: t for x, t in zip(seats, s.tricks_count, strict=True)} if dealing else {},
        announcements=tuple((seats[j], k, v) for j, k, v in s.announced) if dealing else (),
        scores=dict(zip(seats, s.scores, strict=True)),
        barrel={
            x: BarrelStatus(
                on=s.barrel_on[j], attempts=s.attempts[j], falls=s.falls[j], disabled=s.disabled[j]
            )
            for j, x in enumerate(seats)
        },
        bolts=dict(zip(seats, s.bolts, strict=True)),
        writeoffs=dict(zip(seats, s.writeoffs, strict=True)),
        sheet=sheet,
        legal=legal,
        result=s.end_reason or None if s.phase == "finished" else None,
        winner=seats[s.winner] if s.winner >= 0 else None,
        shortfall={
            x: s.rules.target - s.scores[j]
            for j, x in enumerate(seats)
            if j != s.winner and s.phase == "finished" and s.rules.settlement_report == "shortfall"
        },
        phase_text=phase_text(s.phase, lang),
        announcement_texts=tuple(announcement_text(k, v, lang) for _, k, v in s.announced) if dealing else (),
    )


def redact(event: ThousandEvent, viewer: str | None) -> ThousandEvent | None:
    """What ``viewer`` may see of an event: hidden cards become ``UNKNOWN`` placeholders, so hand
    and talon sizes survive and the redacted events fold into the viewer's information state."""
    if isinstance(event, DealDealt):
        return msgspec.structs.replace(
            event,
            order=(),
            talon=(UNKNOWN,) * len(event.talon),
            hands=tuple(
                h if (s == viewer and s != event.blind_seat) else (UNKNOWN,) * len(h)
                for s, h in zip(event.seats, event.hands, strict=True)
            ),
        )
    if isinstance(event, RedealClaimed) and event.talon:
        return msgspec.structs.replace(event, talon=(UNKNOWN,) * len(event.talon))
    if isinstance(event, HandShown) and event.seat != viewer:
        return msgspec.structs.replace(event, cards=(UNKNOWN,) * len(event.cards))
    if isinstance(event, TalonRevealed) and not event.public and event.declarer != viewer:
        return msgspec.structs.replace(event, cards=(UNKNOWN,) * len(event.cards))
    if isinstance(event, CardsGiven) and not event.face_up and event.declarer != viewer:
        return msgspec.structs.replace(
            event,
            cards=tuple(c if to == viewer else UNKNOWN for to, c in zip(event.to, event.cards, strict=True)),
        )
    return event


_BEFORE_TALON = frozenset(
    {"blind_offer", "redeal_window", "pre_auction", "auction", "auction_done", "talon_step"}
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
