"""Set-up of a 1000 deal (rules/thousand-and-farkle-flip.md §2.3, §2.21.3 step 1) and the check
of a recorded deal (``verify_chance``).

Deals follow rng_v1 (``domain.core.cardgame.deal``): the first dealer is drawn under the label
``dealer``, and each dealing shuffles under ``deal:<shuffle>``, a counter that redeals advance
too.  Seven cards go to each of the three seats that play, one at a time from the dealer's left
(a sitting-out dealer gets none), and the three left over make the talon.
"""

from __future__ import annotations

import msgspec

from contracts.games.thousand import DealDealt, ThousandEvent
from domain.core import rng
from domain.core.cardgame import deal as dealing
from domain.games.thousand.rules import DECK
from domain.games.thousand.state import TState

_replace = msgspec.structs.replace


def blind_eligible(s: TState, seat: int) -> bool:
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
    key = dealing.round_key(state.seed, state.client_seeds)
    dealer = state.dealer if state.dealer >= 0 else rng.Stream(key, b"dealer").randbelow(n)
    order = dealing.shuffled(key, state.shuffle + 1, DECK)
    playing = deal_order(state, dealer)
    out_round = tuple(0 if j in playing else 1 for j in range(n))
    hands, used = dealing.deal_hands(order, out_round, dealer, 7)
    return deal_from(state, dealer, hands, tuple(order[used : used + 3]), order)


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
    blind_seat = seq[0] if not golden and blind_eligible(probe, seq[0]) else -1
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
