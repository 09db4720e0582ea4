"""1000 details a log or a record keeps (§2.13, §2.16, §2.21.2, §2.21.4): the golden declarer's
event, the end reason, the write-off refusal's detail, contracts and face-up gifts at their limits,
the four aces as a held marriage, and a fold of redacted plays."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import (
    CardPlayed,
    DeclareBlind,
    DeclarerChosen,
    DeclineBlind,
    GiveCards,
    Pass,
    Play,
    Ready,
    SetContract,
    WriteOff,
)
from domain.core import cards
from domain.games.thousand import GAME
from domain.games.thousand.evolve import evolve
from domain.games.thousand.legal import contract_problem, marriages_held
from domain.games.thousand.phases import decide
from domain.games.thousand.rules import ORDER
from domain.games.thousand.state import initial_state
from domain.games.thousand.view import private_cards, unseen, view
from tests.unit.thousand.support import (
    CLASSIC,
    HANDS,
    NO_WINDOWS,
    ONLINE,
    act,
    cs,
    deal,
    end_state,
    events_of,
    keep_all,
    rules,
    scored,
)

_r = msgspec.structs.replace


def test_the_golden_declarer_is_forced_not_voluntary_2_13() -> None:
    r = rules(CLASSIC, golden_kon=True, **NO_WINDOWS)
    s = initial_state(r, ("p1", "p2", "p3"), bytes(range(32)))
    events: list[Any] = []
    for seat in ("p1", "p2", "p3"):
        got = decide(s, seat, Ready())
        assert not isinstance(got, Rejected)
        events += got
        for e in got:
            s = evolve(s, e)
    chosen = next(e for e in events if isinstance(e, DeclarerChosen))
    assert chosen.how == "golden" and chosen.bid == 120 and chosen.voluntary is False


def test_a_target_win_says_target_2_16() -> None:
    ev = scored(
        end_state(rules(barrel_on=False), declarer=0, contract=150, raw=(150, 0, 0), scores=(900, 0, 0))
    )
    assert ev.match_over and ev.winner == "p1" and ev.reason == "target"


def test_a_barrel_sitter_may_not_write_off_2_7() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS, scores=(0, 880, 0), barrel_on=(False, True, False))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert decide(s, "p2", WriteOff()) == Rejected(
        code="writeoff_not_allowed", detail="a player on the barrel may not write off"
    )


def test_a_contract_may_reach_the_maximum_c10() -> None:
    s = act(act(deal(rules(ONLINE, **NO_WINDOWS), HANDS), "p3", Pass()), "p1", Pass())
    s = keep_all(act(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"})))
    assert SetContract(amount=300) in GAME.legal_commands(s, "p2")
    assert act(s, "p2", SetContract(amount=300)).contract == 300
    assert contract_problem(s, 1, 305) == ("contract_above_max", "the maximum contract is 300")


def test_face_up_gifts_are_legal_where_the_rules_allow_them_c12() -> None:
    assert CLASSIC.pass_cards_visibility == "recipient_or_face_up"
    s = act(act(deal(rules(CLASSIC, **NO_WINDOWS), HANDS), "p3", Pass()), "p1", Pass())
    assert GiveCards(gifts={"p3": "KD", "p1": "AD"}, face_up=True) in GAME.legal_commands(s, "p2")


def test_the_four_aces_are_a_held_marriage_2_2() -> None:
    assert marriages_held(CLASSIC, cs("AS AC AD AH KH QH 9S")) == [("H", 100), ("aces", 200)]


def test_a_play_folds_into_a_hand_of_placeholders() -> None:
    """In p1's fold p2's hand is unknown: p2's card takes one placeholder away."""
    s = act(act(deal(rules(CLASSIC, **NO_WINDOWS), HANDS), "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    s = act(s, "p2", SetContract(amount=100))
    fold = _r(s, hands=(s.hands[0], ("??",) * 8, ("??",) * 8))
    played = events_of(s, "p2", Play(card="AH"))[0]
    assert isinstance(played, CardPlayed)
    after = evolve(fold, played)
    assert after.hands[1] == ("??",) * 7 and after.trick == ((1, "AH"),)


def test_a_golden_restart_clears_every_count_2_13() -> None:
    """§2.21.4 golden: reset scores, barrel, bolt and write-off state."""
    r = rules(golden_kon=True)
    s = end_state(
        r,
        declarer=0,
        contract=120,
        raw=(50, 40, 30),
        golden=True,
        golden_left=1,
        deal_no=2,
        writeoffs=(1, 0, 2),
    )
    ev = scored(s)
    assert ev.golden_restart
    assert [(x.score, x.writeoffs, x.bolts, x.attempts, x.falls) for x in ev.seats] == [(0, 0, 0, 0, 0)] * 3


def test_a_played_card_records_its_announcement_2_8() -> None:
    s = act(
        act(deal(rules(CLASSIC, marriage_on_first_lead=True, **NO_WINDOWS), HANDS), "p3", Pass()),
        "p1",
        Pass(),
    )
    s = act(act(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"})), "p2", SetContract(amount=100))
    plain = events_of(s, "p2", Play(card="AH"))[0]
    assert isinstance(plain, CardPlayed) and plain.announce == "none"
    assert act(s, "p2", Play(card="AH")).announced == ()
    married = events_of(s, "p2", Play(card="QH", announce="marriage"))[0]
    assert isinstance(married, CardPlayed) and married.announce == "marriage" and married.value == 100


def test_t1_a_declined_blind_answers_the_before_bid_window_too() -> None:
    """Every active seat except a blind player answers the before-bid window."""
    r = rules(CLASSIC, blind_on=True)
    assert r.redeal_weak_before_bid is not None
    declined = act(deal(r, HANDS), "p2", DeclineBlind())
    assert declined.phase == "redeal_window" and sorted(declined.window) == [0, 1, 2]
    blind = act(deal(r, HANDS), "p2", DeclareBlind())
    assert blind.phase == "redeal_window" and sorted(blind.window) == [0, 2]


def test_the_next_deal_starts_afresh_2_21_3() -> None:
    """Step 10: the next dealer deals; nothing of the last deal's auction or shown cards carries over."""
    from domain.games.thousand.rules import DECK

    s = keep_all(deal(CLASSIC, HANDS))
    s = act(keep_all(act(act(s, "p3", Pass()), "p1", Pass())), "p2", WriteOff())
    assert s.phase == "next_deal"
    s = act(s, "p2", Ready())
    assert s.phase == "redeal_window" and s.seats[s.dealer] == "p2"
    v = view(s, "p1")
    assert v.bids == () and v.passed == () and v.hand == cards.sorted_cards(s.hands[0], ORDER)
    assert unseen(s, "p1") == frozenset(DECK) - frozenset(s.hands[0])
    assert private_cards(s, "p1") == frozenset(s.hands[0])
