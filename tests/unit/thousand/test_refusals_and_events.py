"""1000: a blind command outside the blind offer (§2.14, §2.21.2), Ready between deals from a seat
that does not deal next (§2.3, §2.21.3 step 10) and the write-off's event (§2.7, §2.21.1: the log
names who wrote off what)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import DeclareBlind, DeclineBlind, GiveCards, Pass, Ready, WriteOff, WrittenOff
from domain.games.thousand.phases import decide
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, act, deal, events_of, rules

R = rules(CLASSIC, **NO_WINDOWS)


def test_a_blind_answer_without_a_blind_offer_is_refused_2_21_2() -> None:
    """§2.21.2: DECLARE_BLIND / DECLINE_BLIND only in phase BLIND_OFFER (here: the auction)."""
    s = deal(R, HANDS)
    assert s.phase == "auction"
    for command in (DeclareBlind(), DeclineBlind()):
        got = decide(s, "p3", command)
        assert isinstance(got, Rejected)
        assert (got.code, got.detail) == ("blind_not_offered", "no blind offer is open")


def test_the_write_off_names_its_declarer_and_the_winning_bid_2_7() -> None:
    """§2.7 [DECISION]: the amount written off is the winning bid of the auction; the event says
    whose write-off it is."""
    s = act(act(deal(R, HANDS), "p3", Pass()), "p1", Pass())  # p2 keeps the forced 100
    written = [e for e in events_of(s, "p2", WriteOff()) if isinstance(e, WrittenOff)]
    assert written == [WrittenOff(declarer="p2", amount=100)]


def test_between_deals_only_the_next_dealer_deals_2_3_2_21_3() -> None:
    """§2.3: the deal passes to the left each deal; §2.21.3 step 10: a new deal starts with the
    next dealer. p1 dealt the written-off deal, so p2 deals the next one."""
    s = act(act(act(deal(R, HANDS), "p3", Pass()), "p1", Pass()), "p2", WriteOff())
    assert s.phase == "next_deal"
    for seat in ("p1", "p3"):
        got = decide(s, seat, Ready())
        assert isinstance(got, Rejected)
        assert (got.code, got.detail) == ("not_your_turn", "p2 deals the next hand")
    assert not isinstance(decide(s, "p2", Ready()), Rejected)


def test_the_two_given_cards_must_differ_2_21_2() -> None:
    """§2.21.2 GIVE_CARDS: "c1 ≠ c2"."""
    s = act(act(deal(R, HANDS), "p3", Pass()), "p1", Pass())
    got = decide(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "KD"}))
    assert isinstance(got, Rejected)
    assert (got.code, got.detail) == ("bad_gifts", "two different cards")


class _Chess(msgspec.Struct, frozen=True):
    move: str = "e4"


def test_a_command_of_no_1000_action_is_malformed_2_21_2() -> None:
    """§2.21.2 lists the actions a player may submit; anything else is not a 1000 command."""
    got = decide(deal(R, HANDS), "p3", _Chess())  # type: ignore[arg-type]
    assert isinstance(got, Rejected)
    assert (got.code, got.detail) == ("malformed", "not a 1000 command: _Chess")
