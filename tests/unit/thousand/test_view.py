"""What one seat sees of a 1000 match (§2.21.5): the view in each phase, the redaction of each event
kind, and the short notation of every command."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.games.thousand import (
    Bid,
    BidMade,
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
    WriteOff,
)
from domain.games.thousand import GAME
from domain.games.thousand.state import initial_state
from domain.games.thousand.view import describe, redact, view
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, SEATS, act, cs, deal, rules

_r = msgspec.structs.replace
R = rules(CLASSIC, **NO_WINDOWS)
HIDDEN = ("??", "??", "??")


def passing(r: Any = R) -> Any:
    """p2 took the talon at the forced 100 (p3 and p1 passed)."""
    return act(act(deal(r, HANDS), "p3", Pass()), "p1", Pass())


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize(
    ("command", "text"),
    [
        (Ready(), "ready"),
        (DeclareBlind(), "blind"),
        (DeclineBlind(), "no-blind"),
        (ClaimRedeal(reason="four_nines"), "redeal:four_nines"),
        (KeepHand(), "keep"),
        (Bid(amount=105), "bid:105"),
        (Pass(), "pass"),
        (GiveCards(gifts={"p3": "9H", "p2": "QS"}), "give:p2=QS,p3=9H"),
        (GiveCards(gifts={"p3": "9H", "p2": "QS"}, face_up=True), "give:p2=QS,p3=9H,up"),
        (SetContract(amount=120), "contract:120"),
        (WriteOff(), "write-off"),
        (Play(card="KH"), "play:KH"),
        (Play(card="KH", announce="marriage"), "play:KH+m"),
        (Play(card="AS", announce="aces"), "play:AS+aces"),
    ],
)
def test_every_command_has_a_short_notation(command: Any, text: str) -> None:
    assert describe(command) == text


@pytest.mark.parametrize(
    ("command", "en", "ru"),
    [
        (Ready(), "Deal", "Сдать"),
        (Bid(amount=105), "105", "105"),
        (
            GiveCards(gifts={"p3": "9H", "p2": "QS"}, face_up=True),
            "QS → p2, 9H → p3 (face up)",
            "QS → p2, 9H → p3 (открыто)",
        ),
        (Play(card="KH", announce="marriage"), "KH + marriage", "KH + марьяж"),
        (
            ClaimRedeal(reason="four_nines"),
            "Claim a redeal (four nines)",
            "Потребовать пересдачу (четыре девятки)",
        ),
    ],
)
def test_a_legal_moves_label_is_in_the_views_language(command: Any, en: str, ru: str) -> None:
    """The view's legal moves are labelled in words, card ids and seats as the game writes them."""
    assert GAME.describe(command) == GAME.describe(command, "en") == en
    assert GAME.describe(command, "ru") == ru


# ---------------------------------------------------------------- views
def test_before_the_first_deal_only_the_scores_are_shown() -> None:
    s = initial_state(CLASSIC, SEATS, None)
    v = view(s, None)
    assert v.phase == "waiting" and v.deal_no == 0 and v.dealer is None and v.forced_seat is None
    assert v.to_move == SEATS and v.legal == () and v.hand == () and v.hand_sizes == {}
    assert v.tricks_won == {} and v.talon == () and v.high_bid is None and v.blind is False
    assert v.scores == {"p1": 0, "p2": 0, "p3": 0} and v.bolts == {"p1": 0, "p2": 0, "p3": 0}
    assert v.result is None and v.winner is None and v.shortfall == {}
    assert view(s, "p1").legal == ("ready",)


def test_the_auction_view_2_21_5() -> None:
    s = deal(R, HANDS)
    v = view(s, "p2")
    assert v.phase == "auction" and v.deal_no == 1 and v.dealer == "p1" and v.forced_seat == "p2"
    assert v.hand == ("QD", "KD", "AD", "QH", "KH", "10H", "AH")  # by suit, then 9 < J < Q < K < 10 < A
    assert v.hand_sizes == {"p1": 7, "p2": 7, "p3": 7} and v.talon == HIDDEN
    assert v.high_bid == 100 and v.high_seat == "p2" and v.bids == (("p2", "forced:100"),)
    assert v.to_move == ("p3",) and v.legal == () and v.declarer is None and v.contract is None
    assert v.tricks_won == {"p1": 0, "p2": 0, "p3": 0} and v.leader is None and v.golden is False
    assert view(s, "p3").legal == ("bid:105", "pass")  # cap 120, strict steps
    assert view(s, None).hand == () and view(s, None).legal == ()
    s = act(s, "p3", Pass())
    assert view(s, "p1").passed == ("p3",) and view(s, "p1").bids == (("p2", "forced:100"), ("p3", "pass"))


def test_the_declarer_after_the_talon_2_6() -> None:
    s = passing()
    v = view(s, "p1")
    assert v.declarer == "p2" and v.contract == 100 and v.passed == ("p1", "p3")
    assert v.hand_sizes == {"p1": 7, "p2": 10, "p3": 7} and v.talon == ()
    assert view(s, "p2").hand == cs("KC 10C AC QD KD AD QH KH 10H AH")


def test_a_hidden_talon_is_shown_to_the_declarer_in_its_window_t1() -> None:
    """talon_hidden_at_forced_100 with the talon-low window: only the declarer sees the talon."""
    r = rules(CLASSIC, redeal_weak_before_bid=None, redeal_four_nines_before_bid=False)
    r = rules(r, talon_hidden_at_forced_100=True)
    hands = ("9S QS KS 10S AS 10C AC", "KH QH AH 10H KD QD AD", "JH 9D JD 10D JC QC KC")
    s = act(act(deal(r, hands, talon="9H 9C JS"), "p3", Pass()), "p1", Pass())
    assert s.phase == "talon_window" and not s.talon_public
    assert view(s, "p2").talon == cs("9H 9C JS")
    assert view(s, "p1").talon == HIDDEN and view(s, None).talon == HIDDEN
    shown = act(deal(_r(r, talon_hidden_at_forced_100=False), hands, talon="9H 9C JS"), "p3", Pass())
    shown = act(shown, "p1", Pass())
    assert view(shown, "p1").talon == cs("9H 9C JS")


def test_given_cards_are_seen_by_the_declarer_and_their_recipient_2_21_5() -> None:
    s = act(passing(), "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    assert view(s, "p2").given == {"p1": "AD", "p3": "KD"}
    assert view(s, "p1").given == {"p1": "AD"}
    assert view(s, "p3").given == {"p3": "KD"}
    assert view(s, None).given == {}
    up = act(passing(), "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}, face_up=True))
    assert view(up, None).given == {"p1": "AD", "p3": "KD"}


def test_the_play_view_trick_trump_and_announcements_2_8() -> None:
    s = act(passing(), "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    s = act(s, "p2", SetContract(amount=100))
    assert view(s, "p1").leader == "p2" and view(s, "p1").trick_no == 0
    for seat, card in (("p2", "AH"), ("p3", "9H"), ("p1", "9C")):
        s = act(s, seat, Play(card=card))
    v = view(s, "p1")
    assert v.trick == () and v.last_trick == (("p2", "AH"), ("p3", "9H"), ("p1", "9C"))
    assert v.trick_no == 1 and v.tricks_won == {"p1": 0, "p2": 1, "p3": 0} and v.trump is None
    s = act(s, "p2", Play(card="KH", announce="marriage"))
    v = view(s, None)
    assert v.trick == (("p2", "KH"),) and v.trump == "H" and v.announcements == (("p2", "H", 100),)
    assert v.leader == "p2" and v.to_move == ("p3",) and v.hand_sizes == {"p1": 7, "p2": 6, "p3": 7}


def test_the_blind_stands_in_the_view_2_14() -> None:
    s = act(deal(rules(R, blind_on=True), HANDS), "p2", DeclareBlind())
    assert view(s, "p1").blind is True and view(s, "p1").high_bid == 120
    assert view(s, "p2").hand == ()  # not looked at
    assert view(deal(R, HANDS), "p1").blind is False


def test_between_deals_the_sheet_and_the_scores_2_21_4() -> None:
    s = act(passing(), "p2", WriteOff())
    v = view(s, "p2")
    assert v.phase == "next_deal" and v.deal_no == 1 and v.dealer == "p2" and v.to_move == ("p2",)
    assert v.legal == ("ready",) and v.hand == () and v.hand_sizes == {} and v.declarer is None
    assert v.scores == {"p1": 60, "p2": -100, "p3": 60}
    assert v.sheet == (
        SheetLine(
            deal_no=1,
            declarer="p2",
            contract=100,
            result="written_off",
            deltas={"p1": 60, "p2": -100, "p3": 60},
            scores={"p1": 60, "p2": -100, "p3": 60},
            marks={"p1": (), "p2": ("write_off",), "p3": ()},
            result_text="written off",
        ),
    )


def test_the_end_of_the_match_2_16() -> None:
    s = _r(
        initial_state(CLASSIC, SEATS, None),
        phase="finished",
        scores=(1010, 640, -20),
        winner=0,
        ranks=(1, 2, 3),
        end_reason="target",
    )
    v = view(s, "p2")
    assert v.result == "target" and v.winner == "p1" and v.to_move == () and v.legal == ()
    assert v.shortfall == {"p2": 360, "p3": 1020}  # settlement_report = shortfall
    assert view(_r(s, rules=rules(CLASSIC, settlement_report="none")), "p2").shortfall == {}
    assert view(_r(s, phase="next_deal", end_reason=""), "p2").result is None


# ---------------------------------------------------------------- redaction
def _dealt(blind_seat: str | None = None) -> DealDealt:
    return DealDealt(
        deal_no=0,
        shuffle=1,
        dealer="p1",
        seats=SEATS,
        sitout=None,
        order=cs(" ".join(HANDS)) + cs("10C KC AC"),
        hands=tuple(cs(h) for h in HANDS),
        talon=cs("10C KC AC"),
        forced_seat="p2",
        golden=False,
        blind_seat=blind_seat,
    )


def test_a_deal_shows_each_seat_its_own_hand_only() -> None:
    d = _dealt()
    mine = redact(d, "p1")
    assert isinstance(mine, DealDealt)
    assert mine.hands == (cs(HANDS[0]), ("??",) * 7, ("??",) * 7)
    assert mine.talon == HIDDEN and mine.order == ()
    assert redact(d, None).hands == (("??",) * 7,) * 3  # type: ignore[union-attr]
    blind = redact(_dealt(blind_seat="p2"), "p2")
    assert blind.hands == (("??",) * 7,) * 3  # type: ignore[union-attr]  # the blind seat has not looked


def test_shown_hands_and_talons_go_to_whom_they_are_shown() -> None:
    shown = HandShown(seat="p2", cards=cs(HANDS[1]))
    assert redact(shown, "p2") == shown
    assert redact(shown, "p1") == HandShown(seat="p2", cards=("??",) * 7)
    assert redact(shown, None) == HandShown(seat="p2", cards=("??",) * 7)
    public = TalonRevealed(declarer="p2", cards=cs("10C KC AC"), public=True)
    assert redact(public, "p1") == public and redact(public, None) == public
    private = TalonRevealed(declarer="p2", cards=cs("10C KC AC"), public=False)
    assert redact(private, "p2") == private
    assert redact(private, "p3") == _r(private, cards=HIDDEN)


def test_a_talon_nines_redeal_hides_the_talon_t2() -> None:
    nines = RedealClaimed(seat=None, reason="talon_nines", talon=cs("9S 9C AD"))
    assert redact(nines, "p1") == _r(nines, talon=HIDDEN)
    weak = RedealClaimed(seat="p1", reason="weak")
    assert redact(weak, "p2") == weak


def test_given_cards_and_public_events_2_21_5() -> None:
    given = CardsGiven(declarer="p2", to=("p1", "p3"), cards=("AD", "KD"), face_up=False)
    assert redact(given, "p2") == given
    assert redact(given, "p3") == _r(given, cards=("??", "KD"))
    up = _r(given, face_up=True)
    assert redact(up, "p1") == up
    bid = BidMade(seat="p3", amount=105, to_act="p1")
    assert redact(bid, None) == bid
