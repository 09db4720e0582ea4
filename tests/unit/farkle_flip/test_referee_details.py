"""Farkle Flip referee details: the state after each event, the legal-lock list in constructed
positions, the typed refusals and what a STOP reports (rules/thousand-and-farkle-flip.md §3.4-§3.9,
Decisions FF1-FF9)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    CardDrawn,
    CardPlaced,
    CombinationLocked,
    Draw,
    GameDealt,
    Lock,
    Pattern,
    Place,
    Ready,
    Stop,
    Stopped,
)
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.legal import canonical, lock_commands
from domain.games.farkle_flip.rules import PLACEHOLDER_PATTERNS
from domain.games.farkle_flip.state import Combo
from domain.games.farkle_flip.view import redact
from tests.unit.farkle_flip.helpers import act, area, rules, table

P1, P2 = "p1", "p2"


def refusal(state: object, seat: str, command: object) -> Rejected:
    result = GAME.decide(state, seat, command)  # type: ignore[arg-type]
    assert isinstance(result, Rejected), f"accepted: {result}"
    return result


def combo(cards: str, pattern: str, value: int) -> Combo:
    return Combo(owner=0, cards=tuple(cards.split()), pattern=pattern, value=value)


# ---------------------------------------------------------------- evolve, event by event (§3.9)
def test_a_drawn_farkle_card_is_never_pending_s3_5() -> None:
    """§3.9 DRAW: a number card becomes ``pending``; a Farkle card does not (it busts, §3.5):
    either way the draw pile loses its top card and the turn counts one more draw."""
    s = table(draw="F 4")
    bust = GAME.evolve(s, CardDrawn(seat=P1, card="F"))
    assert bust.pending is None and bust.draws == 1 and bust.draw_pile == ("4",)
    number = GAME.evolve(bust, CardDrawn(seat=P1, card="4"))
    assert number.pending == "4" and number.draws == 2 and number.draw_pile == ()


def test_a_placed_card_reports_where_it_lies_in_the_target_area_ff9() -> None:
    """§3.4 / FF9: a placed card is appended to the target's area; the event names its position."""
    s = table(draw="5", areas=((), area("2 3")), draws=0)
    s, _ = act(s, P1, Draw())
    s, events = act(s, P1, Place(target=P2))
    assert events == (CardPlaced(seat=P1, target=P2, card="5", position=2),)
    assert s.areas[1][2] == ("5", 0) and s.last_placed == (1, 2)


def test_a_lock_keeps_pointing_at_the_card_placed_last_ff4() -> None:
    """FF4 / FF9: a lock removes cards from the area, so the positions after them move down; the
    card of the latest PLACE is still known as such (and forgotten once it is locked itself)."""
    s = table(areas=(area("4 4 4 5"),), draws=1, last_placed=(0, 3))
    locked = CombinationLocked(
        seat=P1, owner=P1, positions=(0, 1, 2), cards=("4", "4", "4"), pattern="three_of_a_kind", value=400
    )
    after = GAME.evolve(s, locked)
    assert after.areas[0] == area("5") and after.last_placed == (0, 0)
    # a lock in another area leaves it alone
    other = table(areas=(area("5"), area("4 4 4")), draws=1, last_placed=(0, 0))
    theirs = msgspec.structs.replace(locked, owner=P2)
    assert GAME.evolve(other, theirs).last_placed == (0, 0)
    # a lock that contains it forgets it
    mine = table(areas=(area("4 4 4"),), draws=1, last_placed=(0, 1))
    assert GAME.evolve(mine, locked).last_placed is None


def test_after_a_lock_the_card_placed_last_is_still_told_apart_in_the_legal_list_ff4() -> None:
    """The legal list keeps the card placed last apart from its equals (lock_commands): with four
    5s left, one of them placed last, a three of a kind can be taken with or without it."""
    s = table(draw="5", areas=(area("4 4 4 5 5 5"),), draws=0)
    s, _ = act(s, P1, Draw())
    s, _ = act(s, P1, Place(target=P1))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    assert s.areas[0] == area("5 5 5 5") and s.last_placed == (0, 3)
    triples = [c.cards for c in lock_commands(s) if c.pattern == "three_of_a_kind"]
    assert sorted(triples) == [(0, 1, 2), (0, 1, 3)]


def test_a_forfeit_gives_each_returned_combination_a_new_lost_group_ff1() -> None:
    """§3.9 FORFEIT / FF1 / FF9: below the entry the centre comes back, each combination its own new
    lost group, in lock order; the event names the groups and the next ones are fresh."""
    s = table(
        areas=(area("2 2 2 3 3 3"),),
        draws=1,
        next_group=4,
    )
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, events = act(s, P1, Stop())
    stopped = events[0]
    assert isinstance(stopped, Stopped) and stopped.result == "forfeit"
    assert stopped.turn_total == 500 and stopped.points == 0 and stopped.groups == (4, 5)
    assert s.areas[0] == area("2 2 2", 4) + area("3 3 3", 5)
    assert s.next_group == 6


def test_a_bank_moves_the_centre_and_the_held_farkle_cards_to_the_scored_pile_s3_9() -> None:
    """§3.9 Bank: banked += bank_total, on board, the Farkle cards scored; centre and Farkle cards
    go face down to the scored pile."""
    s = table(areas=(area("4 4 4 4"),), draws=1, farkle_held=(2, 0), scored_pile=("6",))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    s, events = act(s, P1, Stop())
    assert events[0] == Stopped(
        seat=P1, result="banked", turn_total=1000, farkle_cards=2, points=1200, banked=1200
    )
    assert s.banked == (1200, 0) and s.on_board == (True, False) and s.farkle_held == (0, 0)
    assert s.scored_pile == ("6", "4", "4", "4", "4", "F", "F")


# ---------------------------------------------------------------- STOP (§3.9 Bank, FF6)
def test_a_stop_with_an_empty_centre_reports_a_zero_turn_total_ff6() -> None:
    """FF6: nothing in the centre, nothing scored: the turn total is 0, the Farkle cards stay."""
    s = table(draw="2", draws=1, farkle_held=(1, 0), on_board=(True, False), banked=(700, 0))
    s, events = act(s, P1, Stop())
    assert events[0] == Stopped(seat=P1, result="nothing", turn_total=0, farkle_cards=1, points=0, banked=700)
    assert s.farkle_held == (1, 0)


def test_a_scoring_row_worth_nothing_is_refused_s3_8() -> None:
    """§3.8 table as data, §3.9 card conservation: a lock takes its cards out of play until the
    turn ends, so a row worth 0 would take them for nothing and a centre of such locks would bank
    nothing (FF6); the ruleset is refused with the row named, for a plain value and a face value."""
    for row in ("three_pairs", "three_of_a_kind"):
        pattern = next(p for p in PLACEHOLDER_PATTERNS if p.name == row)
        zero = (
            msgspec.structs.replace(pattern, face_values={f: 0 for f in pattern.face_values})
            if pattern.face_values
            else msgspec.structs.replace(pattern, value=0)
        )
        free = tuple(zero if p.name == row else p for p in PLACEHOLDER_PATTERNS)
        problem = rules(patterns=free).validate()
        assert problem is not None and row in problem and ">= 1" in problem
    assert rules(patterns=PLACEHOLDER_PATTERNS).validate() is None


# ---------------------------------------------------------------- legal locks (§3.4, FF1, FF4)
def test_four_of_a_kind_and_a_pair_is_listed_whichever_face_is_higher_s3_8() -> None:
    """§3.8: four 6s and two 2s are four of a kind and a pair; the legal list offers that lock."""
    s = table(areas=(area("2 2 6 6 6 6"),), draws=1)
    assert Lock(owner=P1, cards=(0, 1, 2, 3, 4, 5), pattern="four_of_a_kind_and_a_pair") in lock_commands(s)
    low = table(areas=(area("2 2 2 2 6 6"),), draws=1)
    assert Lock(owner=P1, cards=(0, 1, 2, 3, 4, 5), pattern="four_of_a_kind_and_a_pair") in lock_commands(low)


def test_three_pairs_are_listed_once_s3_8() -> None:
    """§3.8: one multiset of cards is one lock; three pairs are not offered once per order of the pairs."""
    s = table(areas=(area("1 1 2 2 3 3"),), draws=1)
    assert lock_commands(s) == [Lock(owner=P1, cards=(0, 1, 2, 3, 4, 5), pattern="three_pairs")]


def test_a_custom_shape_with_equal_and_unequal_groups_is_listed_once_s3_8() -> None:
    """§3.8 (the matcher is table-driven): a table may give a row any group sizes, largest first;
    a row of two pairs and a single card matches 1 1 2 2 3 in exactly one way."""
    r = rules(patterns=(Pattern(name="three_pairs", groups=(2, 2, 1), value=700),))
    assert r.validate() is None
    s = table(areas=(area("1 1 2 2 3"),), ruleset=r, draws=1)
    assert lock_commands(s) == [Lock(owner=P1, cards=(0, 1, 2, 3, 4), pattern="three_pairs")]
    s, events = act(s, P1, lock_commands(s)[0])
    assert isinstance(events[0], CombinationLocked) and events[0].value == 700


def test_a_new_card_beside_a_lost_group_makes_every_size_of_set_ff1() -> None:
    """FF1 (004:L1209-L1213): a fresh 4 before the lost 4 4 4 can be locked with two of them (three
    of a kind) or with all three (four of a kind); the lost three alone are not offered."""
    s = table(areas=(area("4") + area("4 4 4", 1),), draws=1)
    locks = lock_commands(s)
    assert Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind") in locks
    assert Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind") in locks
    assert Lock(owner=P1, cards=(1, 2, 3), pattern="three_of_a_kind") not in locks
    for lock in locks:
        act(s, P1, lock)


def test_the_card_placed_last_may_complete_a_set_in_another_players_area_ff4() -> None:
    """FF4 with §3.4 (a card may go to any player's area): placed in p2's area, the card placed
    last is in p2's area, and the set it completes there is the lock on offer."""
    r = rules(lock_requires_last_placed=True)
    s = table(draw="3", areas=(area("5 5 5"), area("3 3")), ruleset=r, draws=0)
    s, _ = act(s, P1, Draw())
    s, _ = act(s, P1, Place(target=P2))
    assert lock_commands(s) == [Lock(owner=P2, cards=(0, 1, 2), pattern="three_of_a_kind")]
    act(s, P1, lock_commands(s)[0])


def test_canonical_leaves_a_lock_naming_a_card_past_the_area_unchanged() -> None:
    """A lock naming a position past the end of the area has no representative: it is returned as
    given (and refused by decide as bad_positions)."""
    s = table(areas=(area("4 4 4"),), draws=1)
    bad = Lock(owner=P1, cards=(0, 1, 3), pattern="three_of_a_kind")
    assert canonical(s, bad) == bad
    assert refusal(s, P1, bad).code == "bad_positions"


# ---------------------------------------------------------------- refusals: a typed code and a reason
def test_lock_refusals_say_why_s3_9() -> None:
    """§3.9 LOCK: each refusal has its code and a detail that says what is wrong."""
    s = table(areas=(area("4 4 4") + area("5 5 5", 1),), draws=1)
    unknown = refusal(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="single_5"))  # not in this table
    assert unknown.code == "unknown_pattern"
    assert "'single_5'" in unknown.detail and "three_of_a_kind" in unknown.detail
    assert "two_triplets" in unknown.detail
    lost = refusal(s, P1, Lock(owner=P1, cards=(3, 4, 5), pattern="three_of_a_kind"))
    assert lost.code == "lost_group_needs_new_card"
    assert lost.detail == "a lock needs at least one card from outside the lost groups (FF1)"
    early = refusal(
        table(areas=(area("4 4 4"),), draws=0, draw="2"),
        P1,
        Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"),
    )
    assert early.code == "must_draw_first" and "draw" in early.detail


def test_draw_refusals_say_why_s3_9() -> None:
    """§3.9 DRAW / FF3: with both piles empty there is nothing to draw; a game record's reshuffle
    order must be a permutation of the scored pile."""
    dry = refusal(table(draw="", draws=0), P1, Draw())
    assert dry.code == "piles_empty" and "empty" in dry.detail and "stop" in dry.detail
    forged = table(draw="", scored_pile=("4", "5"), given_order=("4", "4"), draws=1)
    bad = refusal(forged, P1, Draw())
    assert bad.code == "bad_deal"
    assert bad.detail == "the reshuffle order is not a permutation of the scored pile"


def test_other_refusals_say_why() -> None:
    """A command of another game is malformed and named; Ready after the deal is refused."""
    s = table(draw="2")
    wrong = refusal(
        s, P1, GameDealt(dealer=P1, first_seat=P2, seats=(P1, P2), deck=(), dealt=(), draw_size=0)
    )
    assert wrong.code == "malformed" and "GameDealt" in wrong.detail
    late = refusal(s, P1, Ready())
    assert late.code == "not_dealing" and "dealt" in late.detail


# ---------------------------------------------------------------- visibility (§3.9)
def test_the_redacted_deal_keeps_the_deck_size_s3_9() -> None:
    """§3.9 Visibility: the deck order is hidden, its size is not."""
    dealt = GameDealt(
        dealer=P1, first_seat=P2, seats=(P1, P2), deck=("4", "F", "2"), dealt=("4", "F"), draw_size=1
    )
    shown = redact(dealt, P2)
    assert isinstance(shown, GameDealt)
    assert shown.deck == ("??", "??", "??") and shown.dealt == ("4", "F")


def test_with_last_placed_required_every_lock_using_that_card_is_listed_ff4_ff1() -> None:
    """FF4 with FF1: the 6 just placed completes two triplets with the 2s in two ways: the fresh 2
    and two lost 2s, or the whole lost group (the fresh 6s are the new cards it needs)."""
    r = rules(lock_requires_last_placed=True)
    s = table(areas=(area("2 2 2", 1) + area("2 6 6 6"),), ruleset=r, pending="6", draws=1)
    s, _ = act(s, P1, Place(target=P1))
    assert s.last_placed == (0, 7)
    triplets = sorted(c.cards for c in lock_commands(s) if c.pattern == "two_triplets")
    assert triplets == [(0, 1, 2, 4, 5, 7), (0, 1, 3, 4, 5, 7)]
    for cards in triplets:
        act(s, P1, Lock(owner=P1, cards=cards, pattern="two_triplets"))
