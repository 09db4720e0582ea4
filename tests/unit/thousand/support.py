"""1000 fixtures: constructed deals and a small driver (rules/thousand-and-farkle-flip.md §2)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import DealDealt, ThousandRuleset
from domain.core.cardgame.builder import Builder
from domain.games.thousand.deal import blind_eligible
from domain.games.thousand.decide import advance
from domain.games.thousand.evolve import evolve
from domain.games.thousand.phases import decide
from domain.games.thousand.rules import DECK, PRESETS
from domain.games.thousand.scoring import score_deal
from domain.games.thousand.state import TState, initial_state

SEED = bytes(range(32))
SEATS = ("p1", "p2", "p3")
CLASSIC = PRESETS["classic"]
ONLINE = PRESETS["online"]
SIMPLE = PRESETS["simple"]
_r = msgspec.structs.replace
# p1 deals; p2 sits on the hundred (left of the dealer); p3 speaks first; the talon is 10C KC AC.
HANDS = ("9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC")
# None of the redeal windows of §2.21.2: the auction opens at once after the deal.
NO_WINDOWS: dict[str, Any] = dict(
    redeal_weak_before_bid=None,
    redeal_four_nines_before_bid=False,
    redeal_four_nines_after_passing=False,
    redeal_talon_low=None,
)


def cs(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def rules(base: ThousandRuleset = CLASSIC, **kw: Any) -> ThousandRuleset:
    r = _r(base, **kw)
    assert r.validate() is None, r.validate()
    return r


def deal(
    r: ThousandRuleset,
    hands: tuple[str, ...],
    talon: str | None = None,
    dealer: int = 0,
    **fields: Any,
) -> TState:
    """A state right after a constructed deal (server steps run), p1 dealing unless told.

    ``hands`` holds one string per seat; the talon defaults to the three cards left over."""
    n = 4 if r.sitout_4p else 3
    seats = tuple(f"p{i}" for i in range(1, n + 1))
    hand_t = tuple(cs(h) for h in hands)
    if len(hand_t) < n:
        hand_t = hand_t + ((),) * (n - len(hand_t))
    used = [c for h in hand_t for c in h]
    rest = [c for c in DECK if c not in used]
    tal = cs(talon) if talon is not None else tuple(rest)
    assert len(tal) == 3 and sorted(used + list(tal)) == sorted(DECK), "a deal uses the 24 cards once"
    s = initial_state(r, seats, SEED)
    s = _r(s, ready=(True,) * n, phase="waiting", dealer=dealer, **fields)
    sitout = dealer if r.sitout_4p else -1
    probe = _r(s, sitout=sitout)
    left = probe.next_active(dealer)
    forced = left if r.forced_bidder == "left_of_dealer" else dealer
    golden = r.golden_kon and s.golden_left > 0
    blind = left if not golden and blind_eligible(probe, left) else -1
    event = DealDealt(
        deal_no=s.deal_no,
        shuffle=s.shuffle + 1,
        dealer=seats[dealer],
        seats=seats,
        sitout=seats[sitout] if sitout >= 0 else None,
        order=tuple(used) + tal,
        hands=hand_t,
        talon=tal,
        forced_seat=seats[forced],
        golden=golden,
        blind_seat=seats[blind] if blind >= 0 else None,
    )
    b = Builder(s, evolve)
    b.emit(event)
    advance(b)
    return b.state


def act(s: TState, seat: str, cmd: Any) -> TState:
    events = decide(s, seat, cmd)
    assert not isinstance(events, Rejected), events
    for e in events:
        s = evolve(s, e)
    return s


def events_of(s: TState, seat: str, cmd: Any) -> tuple[Any, ...]:
    events = decide(s, seat, cmd)
    assert not isinstance(events, Rejected), events
    return events


def code(s: TState, seat: str, cmd: Any) -> str:
    result = decide(s, seat, cmd)
    assert isinstance(result, Rejected), f"accepted: {result}"
    return result.code


def keep_all(s: TState) -> TState:
    """Answer every open redeal window with KEEP_HAND."""
    from contracts.games.thousand import KeepHand

    while s.phase in ("redeal_window", "after_pass_window", "talon_window"):
        seat = s.seats[s.window[0]]
        s = act(s, seat, KeepHand())
    return s


def scored(s: TState, **fields: Any) -> Any:
    """The DealScored of a constructed end of deal (fields of TState set directly)."""
    return score_deal(_r(s, **fields))


def end_state(
    r: ThousandRuleset,
    declarer: int,
    contract: int,
    raw: tuple[int, int, int],
    scores: tuple[int, int, int] = (0, 0, 0),
    bid: int | None = None,
    **fields: Any,
) -> TState:
    """A state at the end of a played deal: card points per seat as ``raw`` (marriages included)."""
    s = initial_state(r, SEATS, SEED)
    base: dict[str, Any] = dict(
        phase="deal_over",
        dealer=0,
        scores=scores,
        declarer=declarer,
        bid=contract if bid is None else bid,
        contract=contract,
        how="auction",
        won_points=raw,
        marriage_pts=(0, 0, 0),
        tricks_count=tuple(1 if x else 0 for x in raw),
        hands=((), (), ()),
        deal_talon=cs("9S 9C 9D"),
    )
    base.update(fields)
    return _r(s, **base)


def line(event: Any, seat: str) -> Any:
    return next(x for x in event.seats if x.seat == seat)


def sitout_end(**fields: Any) -> Any:
    """4 players, p1 dealt and sat out, p2 made 100; the talon holds 21 card points."""
    s = initial_state(rules(sitout_4p=True), ("p1", "p2", "p3", "p4"), SEED)
    at: dict[str, Any] = dict(
        phase="deal_over",
        dealer=0,
        sitout=0,
        declarer=1,
        bid=100,
        contract=100,
        how="auction",
        won_points=(0, 100, 10, 10),
        marriage_pts=(0, 0, 0, 0),
        tricks_count=(0, 6, 1, 1),
        hands=((),) * 4,
        deal_talon=("AS", "10S", "9D"),
    )
    return _r(s, **{**at, **fields})
