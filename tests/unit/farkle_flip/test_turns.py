"""Farkle Flip referee, rule by rule (rules/thousand-and-farkle-flip.md §3.3-§3.9, Decisions FF1-FF9)."""

from __future__ import annotations

import msgspec

from contracts.games.farkle_flip import (
    Busted,
    CardDrawn,
    Draw,
    GameEnded,
    Lock,
    Pattern,
    PileReshuffled,
    Place,
    Ready,
    Stop,
    Stopped,
    TurnEnded,
)
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.deal import deal, verify_chance
from domain.games.farkle_flip.legal import canonical
from domain.games.farkle_flip.phases import legal_commands
from domain.games.farkle_flip.rules import PRESETS
from domain.games.farkle_flip.view import redact, view
from tests.unit.farkle_flip.helpers import SEED, act, area, rejected, rules, table

P1, P2, P3 = "p1", "p2", "p3"


# ---------------------------------------------------------------- set-up (§3.3, FF2)
def test_setup_deals_one_card_each_from_the_dealers_left_and_sets_farkle_cards_aside_ff2() -> None:
    """§3.3 / FF2 / F7: one card face up each from left of the dealer; a Farkle card is set aside."""
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], ("p1", "p2", "p3", "p4"), SEED)
    for seat in s.seats[:-1]:
        s, _ = act(s, seat, Ready(client_seed=seat))
    s, events = act(s, "p4", Ready(client_seed="x"))
    dealt = events[-1]
    d = s.seats.index(dealt.dealer)
    assert dealt.first_seat == s.seats[(d + 1) % 4]  # 004:L1158: left of the dealer draws first
    for k in range(4):
        j = (d + 1 + k) % 4
        assert dealt.dealt[j] == dealt.deck[k]
        assert s.areas[j] == (() if dealt.deck[k] == "F" else ((dealt.deck[k], 0),))
    assert s.set_aside == tuple(c for c in dealt.deck[:4] if c == "F")
    assert len(s.draw_pile) == 106 - 4
    assert verify_chance(GAME.initial_state(s.rules, s.seats, SEED), dealt) is not None  # seeds differ
    folded = GAME.initial_state(s.rules, s.seats, SEED)
    folded = msgspec.structs.replace(folded, client_seeds=s.client_seeds)
    assert verify_chance(folded, dealt) is None
    forged = msgspec.structs.replace(dealt, deck=dealt.deck[1:] + dealt.deck[:1])
    assert verify_chance(folded, forged) is not None


def test_deck_composition_sets_what_is_shuffled_s3_1() -> None:
    """§3.1: deck_composition is configurable; the deal shuffles exactly those cards."""
    r = rules(deck_composition={"4": 3, "F": 2})
    s = msgspec.structs.replace(GAME.initial_state(r, ("p1", "p2"), SEED), ready=(True, True))
    d = deal(s)
    assert not isinstance(d, str)
    assert sorted(d.deck) == ["4", "4", "4", "F", "F"]


# ---------------------------------------------------------------- DRAW / PLACE (§3.4, §3.9)
def test_a_drawn_number_card_is_pending_until_placed_in_any_area_s3_4() -> None:
    """§3.4 / §3.9: a number card becomes pending; it goes to any player's area (004:L1162-L1164)."""
    s = table(draw="4 5")
    s, events = act(s, P1, Draw())
    assert events == (CardDrawn(seat=P1, card="4"),) and s.pending == "4"
    assert legal_commands(s, P1) == (Place(target=P1), Place(target=P2))
    assert rejected(s, P1, Draw()) == "card_pending"
    assert rejected(s, P1, Stop()) == "card_pending"
    s, _ = act(s, P1, Place(target=P2))
    assert s.areas[1] == area("4") and s.pending is None
    assert rejected(s, P1, Place(target=P2)) == "no_card_pending"
    assert rejected(s, P1, Place(target="p9")) in ("no_card_pending",)
    s, _ = act(s, P1, Draw())
    assert rejected(s, P1, Place(target="p9")) == "no_such_seat"


def test_only_the_active_player_acts() -> None:
    s = table(draw="4")
    assert rejected(s, P2, Draw()) == "not_your_turn"


def test_a_farkle_card_busts_the_centre_back_as_lost_groups_in_lock_order_ff1_ff9() -> None:
    """§3.5 / §3.9 Bust / FF1 / FF9: each centre combination returns as its own lost group,
    appended in lock order; the Farkle card is held; play passes left (004:L1188)."""
    s = table(draw="F", areas=(area("2 4 4 4 3 3 3"),), draws=1)
    s, _ = act(s, P1, Lock(owner=P1, cards=(1, 2, 3), pattern="three_of_a_kind"))
    s, _ = act(s, P1, Lock(owner=P1, cards=(1, 2, 3), pattern="three_of_a_kind"))
    assert [c.cards for c in s.centre] == [("4", "4", "4"), ("3", "3", "3")]
    s, events = act(s, P1, Draw())
    assert events[1] == Busted(seat=P1, lost=(("4", "4", "4"), ("3", "3", "3")), groups=(1, 2))
    assert events[2] == TurnEnded(seat=P1, next_seat=P2)
    assert s.areas[0] == area("2") + area("4 4 4", 1) + area("3 3 3", 2)
    assert s.farkle_held == (1, 0) and s.centre == () and s.current == 1


# ---------------------------------------------------------------- LOCK (§3.4, §3.8, §3.9)
def test_seed_values_three_4s_400_four_4s_and_four_2s_1000_s3_8() -> None:
    """§3.8: three 4s = 400, four 4s = 1000, four 2s = 1000 (004:L1194, L1203)."""
    s = table(areas=(area("4 4 4 4 2 2 2 2"),), draws=1)
    _, e = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    assert e[0].value == 400
    _, e = act(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    assert e[0].value == 1000
    _, e = act(s, P1, Lock(owner=P1, cards=(4, 5, 6, 7), pattern="four_of_a_kind"))
    assert e[0].value == 1000


def test_placeholder_table_values_s3_8() -> None:
    """§3.8 placeholder: three 1s 300, 5/6 of a kind 2000/3000, straight and three pairs 1500,
    four of a kind + a pair 1500, two triplets 2500."""
    cases = [
        ("1 1 1", "three_of_a_kind", 300),
        ("6 6 6", "three_of_a_kind", 600),
        ("5 5 5 5 5", "five_of_a_kind", 2000),
        ("3 3 3 3 3 3", "six_of_a_kind", 3000),
        ("1 2 3 4 5 6", "straight", 1500),
        ("1 1 4 4 6 6", "three_pairs", 1500),
        ("2 2 2 2 5 5", "four_of_a_kind_and_a_pair", 1500),
        ("2 2 2 5 5 5", "two_triplets", 2500),
    ]
    for cards, pattern, value in cases:
        s = table(areas=(area(cards),), draws=1)
        n = len(cards.split())
        _, e = act(s, P1, Lock(owner=P1, cards=tuple(range(n)), pattern=pattern))
        assert (e[0].pattern, e[0].value) == (pattern, value), cards


def test_a_lock_must_match_its_pattern_exactly_s3_8() -> None:
    """§3.8: exact multisets; single cards do not score in the placeholder table (F3)."""
    s = table(areas=(area("4 4 4 4 1"),), draws=1)
    assert (
        rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="three_of_a_kind")) == "pattern_mismatch"
    )
    assert rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2, 4), pattern="four_of_a_kind")) == "pattern_mismatch"
    assert rejected(s, P1, Lock(owner=P1, cards=(4,), pattern="single_1")) == "unknown_pattern"
    assert rejected(s, P1, Lock(owner=P1, cards=(0, 0, 1), pattern="three_of_a_kind")) == "bad_positions"
    assert rejected(s, P1, Lock(owner=P1, cards=(0, 1, 9), pattern="three_of_a_kind")) == "bad_positions"
    assert rejected(s, P1, Lock(owner=P1, cards=(), pattern="three_of_a_kind")) == "bad_positions"
    assert rejected(s, P1, Lock(owner="p7", cards=(0,), pattern="three_of_a_kind")) == "no_such_seat"


def test_a_combination_comes_from_one_area_only_s3_4() -> None:
    """§3.4 (004:L1196): positions index the owner's area; two 4s here and one there are no triple."""
    s = table(areas=(area("4 4"), area("4")), draws=1)
    assert rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == "bad_positions"
    assert not any(isinstance(c, Lock) for c in legal_commands(s, P1))


def test_any_players_combination_may_be_locked_without_adding_a_card_f8() -> None:
    """F8: a non-lost combination in another player's area is locked as it is (004:L1149)."""
    s = table(areas=((), area("5 5 5")), draws=1)
    s, e = act(s, P1, Lock(owner=P2, cards=(0, 1, 2), pattern="three_of_a_kind"))
    assert e[0].value == 500 and s.areas[1] == () and s.centre[0].owner == 1


def test_lock_and_stop_need_a_draw_first_f9() -> None:
    """F9: at least one draw per turn before LOCK or STOP."""
    s = table(draw="2", areas=(area("5 5 5"),))
    assert rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == "must_draw_first"
    assert rejected(s, P1, Stop()) == "must_draw_first"
    assert legal_commands(s, P1) == (Draw(),)


def test_locked_combinations_cannot_be_extended_s3_4() -> None:
    """§3.4 (004:L1194): three 4s in the centre stay 400; a drawn 4 must go to an area."""
    s = table(draw="4", areas=(area("4 4 4"),), draws=1)
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, _ = act(s, P1, Draw())
    assert all(isinstance(c, Place) for c in legal_commands(s, P1))
    s, _ = act(s, P1, Place(target=P1))
    assert [(c.cards, c.value) for c in s.centre] == [(("4", "4", "4"), 400)]


# ---------------------------------------------------------------- lost groups (§3.6, FF1)
def test_a_lost_group_is_not_relocked_as_it_is_ff1() -> None:
    """FF1 / §3.6 (004:L1209-L1211): three lost 4s need a fourth 4 added."""
    s = table(draw="4", areas=(area("4 4 4", 1),), draws=1, next_group=2)
    assert (
        rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
        == "lost_group_needs_new_card"
    )
    assert not any(isinstance(c, Lock) for c in legal_commands(s, P1))
    s, _ = act(s, P1, Draw())
    s, _ = act(s, P1, Place(target=P1))
    s, e = act(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    assert e[0].value == 1000


def test_two_lost_groups_together_are_not_a_new_combination_ff1() -> None:
    """FF1: two lost triplets are not two_triplets."""
    s = table(areas=(area("2 2 2", 1) + area("5 5 5", 2),), draws=1, next_group=3)
    assert (
        rejected(s, P1, Lock(owner=P1, cards=tuple(range(6)), pattern="two_triplets"))
        == "lost_group_needs_new_card"
    )


def test_lost_cards_may_be_split_into_new_combinations_and_keep_their_tag_ff1() -> None:
    """FF1 / §3.6 (004:L1213): a lost 4 may go into a straight with fresh cards; the other lost
    cards keep their tag."""
    s = table(areas=(area("4 4 4", 1) + area("1 2 3 5 6"),), draws=1, next_group=2)
    s, e = act(s, P1, Lock(owner=P1, cards=(0, 3, 4, 5, 6, 7), pattern="straight"))
    assert e[0].value == 1500
    assert s.areas[0] == area("4 4", 1)


def test_canonical_names_the_same_kinds_of_cards() -> None:
    """The legal list names the earliest card of each kind; any equivalent lock is accepted."""
    s = table(areas=(area("4 3 4 4 4"),), draws=1)
    lock = Lock(owner=P1, cards=(2, 3, 4), pattern="three_of_a_kind")
    assert lock not in legal_commands(s, P1)
    assert canonical(s, lock) == Lock(owner=P1, cards=(0, 2, 3), pattern="three_of_a_kind")
    assert canonical(s, lock) in legal_commands(s, P1)
    _, e = act(s, P1, lock)
    assert e[0].cards == ("4", "4", "4")


# ---------------------------------------------------------------- STOP / banking (§3.5, §3.9)
def test_banking_adds_held_farkle_cards_four_2s_and_three_farkles_1300_s3_5() -> None:
    """§3.5 (004:L1203-L1205): four 2s (1000) + three Farkle cards = 1300; the cards go face down."""
    s = table(areas=(area("2 2 2 2"),), draws=1, farkle_held=(3, 0))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0] == Stopped(
        seat=P1, result="banked", turn_total=1000, farkle_cards=3, points=1300, banked=1300
    )
    assert s.banked == (1300, 0) and s.on_board == (True, False) and s.farkle_held == (0, 0)
    assert sorted(s.scored_pile) == ["2", "2", "2", "2", "F", "F", "F"]


def test_farkle_cards_count_toward_the_entry_f6() -> None:
    """F6: 800 in the centre + two Farkle cards = 1000 reaches the entry."""
    s = table(areas=(area("4 4 4 4 4 4 4"),), draws=1, farkle_held=(2, 0))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].result == "banked" and s.banked[0] == 1000 and s.on_board[0]


def test_stopping_below_the_entry_forfeits_the_centre_as_lost_groups_f5() -> None:
    """§3.9 FORFEIT / F5 / FF1: nothing banked, the centre becomes lost groups, Farkle cards stay."""
    s = table(areas=(area("4 4 4"),), draws=1, farkle_held=(1, 0))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].result == "forfeit" and e[0].points == 0
    assert s.banked == (0, 0) and not s.on_board[0] and s.farkle_held == (1, 0)
    assert s.areas[0] == area("4 4 4", 1)


def test_on_board_players_bank_any_amount_s3_2() -> None:
    """§3.2 (004:L1142): after the first entry there is no minimum."""
    s = table(areas=(area("2 2 2"),), draws=1, on_board=(True, False), banked=(1500, 0))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, _ = act(s, P1, Stop())
    assert s.banked == (1700, 0)


def test_must_continue_refuses_a_stop_below_the_entry() -> None:
    """§3.9 MUST_CONTINUE: STOP is invalid while not on board and below the entry."""
    r = rules(entry_stop_policy="MUST_CONTINUE")
    s = table(draw="2", areas=(area("4 4 4"),), draws=1, ruleset=r)
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    assert rejected(s, P1, Stop()) == "below_entry"
    assert Stop() not in legal_commands(s, P1)
    on = msgspec.structs.replace(s, on_board=(True, False))
    assert Stop() in legal_commands(on, P1)
    # the same position under FORFEIT may stop (and forfeits)
    assert Stop() in legal_commands(msgspec.structs.replace(s, rules=rules()), P1)


def test_a_stop_with_nothing_in_the_centre_scores_nothing_and_keeps_farkle_cards_ff6() -> None:
    """FF6 / §3.5 (004:L1180): Farkle cards score only with other points, on board or not."""
    for on_board in (False, True):
        s = table(draw="2", areas=(area("2"),), draws=1, farkle_held=(2, 0), on_board=(on_board, False))
        s, e = act(s, P1, Stop())
        assert e[0].result == "nothing" and e[0].points == 0
        assert s.farkle_held == (2, 0) and s.banked == (0, 0)


def test_lock_requires_last_placed_ff4() -> None:
    """FF4: with lock_requires_last_placed the card of the latest PLACE must be in the lock;
    with no PLACE yet this turn no lock is valid."""
    r = rules(lock_requires_last_placed=True)
    s = table(draw="5 6", areas=(area("5 5 5 6 6"),), draws=1, ruleset=r)
    assert (
        rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == "last_placed_required"
    )
    assert not any(isinstance(c, Lock) for c in legal_commands(s, P1))
    s, _ = act(s, P1, Draw())
    s, _ = act(s, P1, Place(target=P1))  # a 5 at position 5
    assert (
        rejected(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == "last_placed_required"
    )
    locks = [c for c in legal_commands(s, P1) if isinstance(c, Lock)]
    assert locks and all(5 in c.cards for c in locks)
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 5), pattern="three_of_a_kind"))
    # the placed card is in the centre now: no lock until the next PLACE
    assert not any(isinstance(c, Lock) for c in legal_commands(s, P1))
    # without the parameter the same first lock is fine
    free = table(draw="5 6", areas=(area("5 5 5 6 6"),), draws=1)
    act(free, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))


# ---------------------------------------------------------------- piles (§3.7, F10, FF3)
def test_an_empty_draw_pile_is_refilled_from_the_scored_pile_s3_7() -> None:
    """§3.7 (004:L1186): the scored pile is reshuffled into a new draw pile before the draw."""
    s = table(draw="", areas=(area("3"),), scored_pile=("2", "5", "F", "2"))
    s, e = act(s, P1, Draw())
    assert isinstance(e[0], PileReshuffled) and sorted(e[0].order) == ["2", "2", "5", "F"]
    assert isinstance(e[1], CardDrawn) and e[1].card == e[0].order[0]
    assert s.scored_pile == () and s.reshuffles == 1
    before = table(draw="", areas=(area("3"),), scored_pile=("2", "5", "F", "2"))
    assert verify_chance(before, e[0]) is None
    assert verify_chance(before, msgspec.structs.replace(e[0], order=e[0].order[::-1])) is not None


def test_both_piles_empty_no_draw_lock_and_stop_without_drawing_f10() -> None:
    """§3.9 Both piles empty / F10: DRAW is invalid; LOCK and STOP need no draw."""
    s = table(draw="", areas=(area("6 6 6"),), on_board=(True, False))
    assert rejected(s, P1, Draw()) == "piles_empty"
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].result == "banked" and s.banked[0] == 600


def test_must_continue_stop_forfeits_with_both_piles_empty_ff3() -> None:
    """FF3: under MUST_CONTINUE a STOP below the entry with both piles empty forfeits."""
    r = rules(entry_stop_policy="MUST_CONTINUE")
    s = table(draw="", areas=(area("6 6 6"),), ruleset=r)
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].result == "forfeit" and s.areas[0] == area("6 6 6", 1)


def test_a_full_cycle_of_dry_turns_without_a_bank_ends_the_game_ff3() -> None:
    """FF3: as many consecutive turns as players, started with both piles empty and no bank,
    end the game; the highest banked wins below the target; a bank restarts the count."""
    s = table(n=3, draw="", areas=(area("2 2 2"),), banked=(900, 1200, 300), on_board=(False, True, True))
    s, _ = act(s, P1, Stop())  # dry turn 1 (nothing in the centre)
    assert s.dry_turns == 1
    s, _ = act(s, P2, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, _ = act(s, P2, Stop())  # a bank: the count restarts
    assert s.dry_turns == 0 and s.banked[1] == 1400
    # the bank refilled the scored pile, so the next turn is not dry; empty it again by hand
    s = msgspec.structs.replace(s, scored_pile=(), start_dry=True)
    s, _ = act(s, P3, Stop())
    s, _ = act(s, P1, Stop())
    s, e = act(s, P2, Stop())
    assert e[-1] == GameEnded(reason="piles_empty", banked=(900, 1400, 300), ranks=(2, 1, 3))
    assert GAME.outcome(s) is not None and GAME.outcome(s).ranks == (2, 1, 3)


def test_a_turn_in_which_the_piles_ran_out_does_not_count_ff3() -> None:
    """FF3: only turns that started with both piles empty count."""
    s = table(n=2, draw="3", areas=(), on_board=(True, True))
    s, _ = act(s, P1, Draw())
    s, _ = act(s, P1, Place(target=P1))
    s, _ = act(s, P1, Stop())
    assert s.dry_turns == 0 and s.start_dry


# ---------------------------------------------------------------- the end (§3.7, F11, FF7)
def test_the_final_round_gives_every_other_player_one_turn_and_ties_share_ff7() -> None:
    """§3.7 (004:L1188, L1218) / F11 / FF7: the first bank at the target queues every other seat
    once; the highest banked wins; ties share (1, 1, 3)."""
    s = table(
        n=3, draw="2 2 2 2", areas=(area("5 5 5 5"),), banked=(9500, 9000, 100), on_board=(True,) * 3, draws=1
    )
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert s.banked[0] == 10000 and s.trigger == 0 and s.remaining == (1, 2)
    # p2's final turn: 1000 for a tie
    s, _ = act(s, P2, Draw())
    for _ in range(3):
        s, _ = act(s, P2, Place(target=P2))
        s, _ = act(s, P2, Draw())
    s, _ = act(s, P2, Place(target=P2))
    s, _ = act(s, P2, Lock(owner=P2, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    s, _ = act(s, P2, Stop())
    assert s.banked == (10000, 10000, 100) and GAME.outcome(s) is None
    s = msgspec.structs.replace(s, draw_pile=("3",))
    s, _ = act(s, P3, Draw())
    s, _ = act(s, P3, Place(target=P3))
    s, e = act(s, P3, Stop())
    assert e[-1] == GameEnded(reason="final_round", banked=(10000, 10000, 100), ranks=(1, 1, 3))
    assert rejected(s, P1, Draw()) == "game_not_active"


def test_target_from_the_preset_ends_the_game_earlier_s3_2() -> None:
    """§3.2 / FF5: the party preset plays to 5000."""
    r = PRESETS["farkle-flip-placeholder-party-5000"]
    s = table(
        n=6,
        areas=(area("5 5 5"),),
        banked=(4500,) + (0,) * 5,
        on_board=(True,) + (False,) * 5,
        draws=1,
        ruleset=r,
    )
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert s.trigger == 0 and len(s.remaining) == 5
    same = table(
        n=6, areas=(area("5 5 5"),), banked=(4500,) + (0,) * 5, on_board=(True,) + (False,) * 5, draws=1
    )
    same, _ = act(same, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    same, _ = act(same, P1, Stop())
    assert same.trigger == -1


def test_target_needs_six_players_and_only_three_values_ff5() -> None:
    """FF5: 10000, or 5000 / 7500 with six or more players; anything else is a typed rejection."""
    assert rules(target=8000).validate() is not None
    assert rules(target=7500).check_seats(4) is not None
    assert rules(target=7500).check_seats(6) is None
    assert rules().check_seats(9) is not None


# ---------------------------------------------------------------- presets by behaviour
def test_entry_parameter_changes_what_a_first_bank_needs() -> None:
    s = table(areas=(area("4 4 4"),), draws=1, ruleset=rules(entry=400))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].result == "banked" and s.banked[0] == 400


def test_farkle_value_parameter_changes_the_bank() -> None:
    s = table(areas=(area("4 4 4 4"),), draws=1, farkle_held=(2, 0), ruleset=rules(farkle_value=250))
    s, _ = act(s, P1, Lock(owner=P1, cards=(0, 1, 2, 3), pattern="four_of_a_kind"))
    s, e = act(s, P1, Stop())
    assert e[0].points == 1500


def test_a_deck_without_farkle_cards_never_busts() -> None:
    r = rules(deck_composition={"3": 30})
    s = table(draw=" ".join(["3"] * 30), ruleset=r)
    for _ in range(10):
        s, e = act(s, P1, Draw())
        assert not any(isinstance(x, Busted) for x in e)
        s, _ = act(s, P1, Place(target=P1))


def test_an_operator_table_replaces_the_placeholder_values_and_label() -> None:
    """§3.8 / F2: an official table loaded as data changes lock values, enables singles, and the
    view header stops saying placeholder."""
    official = (
        Pattern(name="three_of_a_kind", groups=(3,), face_values={"4": 450, "2": 250}),
        Pattern(name="single_1", groups=(1,), face_values={"1": 100}),
    )
    r = rules(patterns=official, scoring_table="summary-cards-2027", scoring_official=True)
    assert r.validate() is None
    s = table(areas=(area("4 4 4 1 6 6 6"),), draws=1, ruleset=r)
    _, e = act(s, P1, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind"))
    assert e[0].value == 450
    _, e = act(s, P1, Lock(owner=P1, cards=(3,), pattern="single_1"))
    assert e[0].value == 100
    assert rejected(s, P1, Lock(owner=P1, cards=(4, 5, 6), pattern="three_of_a_kind")) == "pattern_mismatch"
    v = view(s, P1)
    assert v.scoring_official and "PLACEHOLDER" not in v.scoring_note
    placeholder = view(table(), P1)
    assert not placeholder.scoring_official and "PLACEHOLDER" in placeholder.scoring_note


def test_ambiguous_or_broken_tables_are_refused_s3_8() -> None:
    """§3.8: no multiset may fit two rows; bad deck kinds are refused."""
    twice = (
        Pattern(name="three_pairs", groups=(2, 2, 2), value=1),
        Pattern(name="straight", groups=(2, 2, 2), value=2),
    )
    assert rules(patterns=twice).validate() is not None
    assert rules(patterns=()).validate() is not None
    assert rules(patterns=(Pattern(name="straight", groups=(1, 2)),)).validate() is not None
    assert rules(deck_composition={"7": 3}).validate() is not None
    for name, preset in PRESETS.items():
        assert preset.validate() is None, name


def test_every_preset_description_says_placeholder() -> None:
    for name in PRESETS:
        assert "PLACEHOLDER" in GAME.presets[name].description


# ---------------------------------------------------------------- visibility (§3.9)
def test_everything_is_public_except_the_draw_pile_order() -> None:
    """§3.9 Visibility: the deck order and reshuffled orders are redacted for every viewer."""
    s = table(draw="", scored_pile=("2", "5"))
    _, e = act(s, P1, Draw())
    for viewer in (P1, P2, None):
        shown = redact(e[0], viewer)
        assert isinstance(shown, PileReshuffled) and set(shown.order) == {"??"} and shown.size == 2
        assert redact(e[1], viewer) == e[1]
    v = view(s, P1)
    assert v.draw_pile == 0 and v.scored_pile == 2
    assert "draw_pile" not in msgspec.to_builtins(v) or isinstance(msgspec.to_builtins(v)["draw_pile"], int)
