"""1000 record actions and deal entries (rules/records.md, the action names of §2.21.2): each action
parses to its command, and each malformed action or deal entry is refused with ``bad_action`` and a
detail that says what is wrong."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DealDealt,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SeatReady,
    SetContract,
    WriteOff,
)
from contracts.match import Resign
from domain.games.thousand import GAME
from domain.games.thousand.record import RECORD
from tests.unit.thousand.support import CLASSIC, HANDS, SEATS, cs, deal, rules

_r = msgspec.structs.replace
TALON = ["10C", "KC", "AC"]
SHAPE = 'a thousand deal is {"hands": [3 lists of card ids], "talon": [3 card ids]}'
DECK_ONCE = "the hands and the talon must hold each of the 24 cards (9-A) once, 3 in the talon"


def entry(**kw: Any) -> dict[str, Any]:
    return {"hands": [list(cs(h)) for h in HANDS], "talon": list(TALON), **kw}


def fresh() -> Any:
    """A record's replay before its first deal (no server seed, nobody ready)."""
    return GAME.initial_state(CLASSIC, SEATS, None)


def parsed(action: list[Any], seat: str = "p1") -> Any:
    return RECORD.parse_action(deal(CLASSIC, HANDS), seat, action)


def refused(result: Any) -> str:
    assert isinstance(result, Rejected), f"accepted: {result}"
    assert result.code == "bad_action", result
    return result.detail


def dealt(state: Any, e: dict[str, Any]) -> tuple[Any, ...]:
    assert RECORD.deal is not None
    events = RECORD.deal(state, e)
    assert not isinstance(events, Rejected), events
    return events


# ---------------------------------------------------------------- actions
@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("declare_blind", DeclareBlind()),
        ("decline_blind", DeclineBlind()),
        ("keep_hand", KeepHand()),
        ("pass", Pass()),
        ("write_off", WriteOff()),
        ("resign", Resign()),
        ("ready", Ready()),
    ],
)
def test_actions_without_arguments_name_their_command_2_21_2(name: str, command: Any) -> None:
    assert parsed([name, 0]) == command


def test_an_action_starts_with_its_name() -> None:
    for bad in ([], [5, 0], [None]):
        assert refused(parsed(bad)) == "an action starts with its name"


def test_each_action_takes_its_number_of_arguments() -> None:
    assert refused(parsed(["pass", 0, 105])) == "pass takes 0 argument(s) after the seat"
    assert refused(parsed(["keep_hand", 0, "x", "y"])) == "keep_hand takes 0 argument(s) after the seat"
    assert refused(parsed(["bid", 0])) == "bid takes 1 argument(s) after the seat"
    assert refused(parsed(["bid", 0, 105, 110])) == "bid takes 1 argument(s) after the seat"
    assert refused(parsed(["claim_redeal", 0])) == "claim_redeal takes 1 argument(s) after the seat"
    assert refused(parsed(["set_contract", 0])) == "set_contract takes 1 argument(s) after the seat"
    assert refused(parsed(["play", 0])) == "play takes 2 argument(s) after the seat"
    assert refused(parsed(["play", 0, "AS", "none", 1])) == "play takes 2 argument(s) after the seat"
    assert refused(parsed(["give_cards", 0])) == "give_cards takes 2 argument(s) after the seat"
    assert refused(parsed(["fly", 0])) == "unknown action 'fly'"
    assert refused(parsed(["fly", 0, 1])) == "fly takes 0 argument(s) after the seat"


def test_play_and_give_cards_may_leave_out_their_last_argument() -> None:
    """records.md: ``["play", s, card]`` announces nothing, ``["give_cards", s, pairs]`` gives face down."""
    assert parsed(["play", 1, "AH"], "p2") == Play(card="AH", announce="none")
    assert parsed(["play", 1, "KH", "marriage"], "p2") == Play(card="KH", announce="marriage")
    assert parsed(["play", 0, "AS", "aces"]) == Play(card="AS", announce="aces")
    assert parsed(["give_cards", 1, [[2, "KD"], [0, "AD"]]], "p2") == GiveCards(
        gifts={"p3": "KD", "p1": "AD"}, face_up=False
    )
    assert parsed(["give_cards", 1, [[2, "KD"], [0, "AD"]], True], "p2") == GiveCards(
        gifts={"p3": "KD", "p1": "AD"}, face_up=True
    )


def test_play_takes_a_card_id_and_an_announcement() -> None:
    detail = "play takes a card id and an announcement (none, marriage, aces)"
    assert refused(parsed(["play", 0, 5, "none"])) == detail
    assert refused(parsed(["play", 0, ["AS"]])) == detail
    assert refused(parsed(["play", 0, "AS", "trump"])) == detail
    assert refused(parsed(["play", 0, "AS", None])) == detail


def test_bid_and_contract_take_an_integer_2_21_2() -> None:
    assert parsed(["bid", 2, 105], "p3") == Bid(amount=105)
    assert parsed(["set_contract", 1, 120], "p2") == SetContract(amount=120)
    assert refused(parsed(["bid", 2, "105"], "p3")) == "bid takes an integer"
    assert refused(parsed(["bid", 2, True], "p3")) == "bid takes an integer"
    assert refused(parsed(["set_contract", 1, 120.0], "p2")) == "set_contract takes an integer"


def test_give_cards_takes_two_seat_card_pairs_and_a_flag_2_21_2() -> None:
    detail = "give_cards takes [[to_seat, card], [to_seat, card]] and face_up true/false"
    for pairs, up in (
        ("KD AD", False),
        ([[2, "KD", 0]], False),
        ([(2, "KD")], False),
        ([[True, "KD"]], False),
        (["2", "KD"], False),
        ([[2, 13]], False),
        ([[2, "KD"], [0, "AD"]], "yes"),
        ([[2, "KD"], [0, "AD"]], 1),
    ):
        assert refused(parsed(["give_cards", 1, pairs, up], "p2")) == detail, pairs
    for seat in (3, -1):
        assert refused(parsed(["give_cards", 1, [[seat, "KD"], [0, "AD"]], False], "p2")) == (
            "give_cards names a seat that does not exist"
        )


def test_claim_redeal_reasons_and_their_windows_t1() -> None:
    weak = ("9S 9C 9D JS JC QS JH", "KH QH AH 10H KD QD AD", "9H JD 10D 10S AS KS QC")
    s = deal(CLASSIC, weak)
    assert RECORD.parse_action(s, "p1", ["claim_redeal", 0, "weak_before_bid"]) == ClaimRedeal(reason="weak")
    assert RECORD.parse_action(s, "p1", ["claim_redeal", 0, "four_nines_before_bid"]) == ClaimRedeal(
        reason="four_nines"
    )
    assert refused(RECORD.parse_action(s, "p1", ["claim_redeal", 0, "weak"])) == (
        "claim_redeal reason must be one of weak_before_bid, four_nines_before_bid, talon_low, "
        "weak_after_passing, four_nines_after_passing"
    )
    late = RECORD.parse_action(s, "p1", ["claim_redeal", 0, "four_nines_after_passing"])
    assert late == Rejected(
        code="redeal_not_allowed", detail="four_nines_after_passing is not claimed in phase redeal_window"
    )
    low = RECORD.parse_action(s, "p1", ["claim_redeal", 0, "talon_low"])
    assert low == Rejected(
        code="redeal_not_allowed", detail="talon_low is not claimed in phase redeal_window"
    )


# ---------------------------------------------------------------- deal entries
def test_the_first_deal_readies_every_seat_and_deals_the_entry() -> None:
    """records.md: a record lists no ``ready``; the first dealer is 0 unless the entry names one; the
    deck order is the hands in seat order, then the talon."""
    events = dealt(fresh(), entry())
    assert events[:3] == tuple(SeatReady(seat=p) for p in SEATS)
    d = events[3]
    assert isinstance(d, DealDealt)
    assert d.dealer == "p1" and d.forced_seat == "p2" and d.deal_no == 0 and d.shuffle == 1
    assert d.hands == tuple(cs(h) for h in HANDS) and d.talon == tuple(TALON)
    assert d.order == cs(" ".join(HANDS)) + tuple(TALON)
    state = fresh()
    for e in events:
        state = GAME.evolve(state, e)
    assert state.phase == "redeal_window" and GAME.to_move(state) == frozenset(SEATS)  # T1


def test_only_the_seats_not_ready_are_readied() -> None:
    s = _r(fresh(), ready=(True, False, True))
    assert dealt(s, entry())[0] == SeatReady(seat="p2")
    assert isinstance(dealt(s, entry())[1], DealDealt)
    assert isinstance(dealt(_r(fresh(), ready=(True,) * 3), entry())[0], DealDealt)


def test_the_first_dealer_comes_from_the_entry_2_3() -> None:
    d = dealt(fresh(), entry(first_dealer=2))[3]
    assert d.dealer == "p3" and d.forced_seat == "p1"
    d = dealt(fresh(), entry(first_dealer=1))[3]
    assert d.dealer == "p2" and d.forced_seat == "p3"
    for bad in (3, -1, "1", True, None, 1.0):
        result = RECORD.deal(fresh(), entry(first_dealer=bad))  # type: ignore[misc]
        assert refused(result) == "first_dealer must be a seat index 0..2", bad


def test_a_later_deal_keeps_the_rotating_dealer_2_3() -> None:
    """After a scored deal the next dealer deals; the entry's ``first_dealer`` no longer counts."""
    s = _r(fresh(), ready=(True,) * 3, phase="next_deal", dealer=1, deal_no=1, shuffle=1)
    assert RECORD.wants_deal(s)
    events = dealt(s, entry(first_dealer=0))
    assert isinstance(events[0], DealDealt)
    assert events[0].dealer == "p2" and events[0].deal_no == 1 and events[0].shuffle == 2


def test_a_deal_entry_has_three_hands_of_card_ids_and_a_talon() -> None:
    good = entry()
    for bad in (
        {"talon": TALON},
        {**good, "hands": None},
        {**good, "hands": "abc"},
        {**good, "hands": good["hands"][:2]},
        {**good, "hands": [*good["hands"], []]},
        {**good, "hands": [good["hands"][0], "KH QH AH 10H KD QD AD", good["hands"][2]]},
        {**good, "hands": [good["hands"][0], [*good["hands"][1][:6], 7], good["hands"][2]]},
        {"hands": good["hands"]},
        {**good, "talon": "10C KC AC"},
        {**good, "talon": ["10C", "KC", None]},
    ):
        assert RECORD.deal is not None
        assert refused(RECORD.deal(fresh(), bad)) == SHAPE, bad


def test_a_deal_entry_gives_seven_cards_to_each_player_2_3() -> None:
    hands = entry()["hands"]
    short = {"hands": [hands[0], hands[1][:6], hands[2]], "talon": [*TALON, hands[1][6]]}
    assert RECORD.deal is not None
    assert refused(RECORD.deal(fresh(), short)) == "seat 1 must be dealt 7 cards, the record gives 6"


def test_the_sitting_out_dealer_is_dealt_nothing_2_15() -> None:
    r = rules(sitout_4p=True)
    state = GAME.initial_state(r, ("p1", "p2", "p3", "p4"), None)
    hands = [[], *entry()["hands"]]
    events = dealt(state, {"hands": hands, "talon": TALON})
    d = next(e for e in events if isinstance(e, DealDealt))
    assert d.dealer == "p1" and d.sitout == "p1" and d.forced_seat == "p2"
    wrong = {"hands": [hands[1], [], hands[2], hands[3]], "talon": TALON}
    assert RECORD.deal is not None
    assert refused(RECORD.deal(state, wrong)) == "seat 0 must be dealt 0 cards, the record gives 7"


def test_a_deal_entry_holds_the_24_cards_once_2_1() -> None:
    hands = entry()["hands"]
    twice = [hands[0], [*hands[1][:6], "9S"], hands[2]]
    assert RECORD.deal is not None
    assert refused(RECORD.deal(fresh(), {"hands": twice, "talon": TALON})) == DECK_ONCE
    assert refused(RECORD.deal(fresh(), {"hands": hands, "talon": ["10C", "KC", "AS"]})) == DECK_ONCE
    assert refused(RECORD.deal(fresh(), {"hands": hands, "talon": ["10C", "KC"]})) == DECK_ONCE
    assert refused(RECORD.deal(fresh(), {"hands": hands, "talon": [*TALON, "XX"]})) == DECK_ONCE
    assert refused(RECORD.deal(fresh(), {"hands": hands, "talon": ["10C", "KC", "1C"]})) == DECK_ONCE
