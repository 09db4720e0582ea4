"""1000 refusals that say which rule stops the command: a redeal reason the open window does not
take (§2.4, §2.21.2, T1), a card not in the hand (§2.21.2 PLAY) and a client seed that is not
text (§2.21.5: the seed is published for audit)."""

from __future__ import annotations

from typing import Any

from contracts.envelope import Rejected
from contracts.games.thousand import ClaimRedeal, GiveCards, Pass, Play, Ready, SetContract
from domain.games.thousand.phases import decide
from domain.games.thousand.state import initial_state
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, ONLINE, SEATS, act, deal, rules


def refusal(s: Any, seat: str, command: Any) -> tuple[str, str]:
    got = decide(s, seat, command)
    assert isinstance(got, Rejected), f"accepted: {got}"
    return got.code, got.detail


def test_the_before_bid_window_takes_weak_hands_and_four_nines_only_2_4_t1() -> None:
    """§2.21.2: before bidding the reasons are ``weak_before_bid`` / ``four_nines_before_bid``;
    ``talon_low`` belongs to the talon window."""
    s = deal(CLASSIC, HANDS)
    assert s.phase == "redeal_window"
    assert refusal(s, "p1", ClaimRedeal(reason="talon_low")) == (
        "redeal_not_allowed",
        "this window is for weak hands and four nines",
    )


def test_after_the_passing_each_trigger_is_its_own_switch_2_4() -> None:
    """§2.4 [DECISION] "Each trigger is a separate switch": with only the weak-hand trigger on
    after the passing, a defender cannot claim four nines there, nor a low talon."""
    r = rules(ONLINE, redeal_weak_after_passing=14, redeal_four_nines_after_passing=False)
    s = act(act(deal(r, HANDS), "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KH", "p1": "AD"}))
    assert s.phase == "after_pass_window"
    assert refusal(s, "p1", ClaimRedeal(reason="four_nines")) == (
        "redeal_not_allowed",
        "the four-nines redeal after the passing is off",
    )
    assert refusal(s, "p1", ClaimRedeal(reason="talon_low")) == (
        "redeal_not_allowed",
        "this window is for weak hands and four nines",
    )


def test_a_card_not_in_the_hand_is_refused_as_such_2_21_2() -> None:
    """§2.21.2 PLAY: "card in hand", checked before following suit."""
    r = rules(CLASSIC, **NO_WINDOWS)
    s = act(act(deal(r, HANDS), "p3", Pass()), "p1", Pass())
    s = act(act(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"})), "p2", SetContract(amount=100))
    assert s.phase == "play"
    assert refusal(s, "p2", Play(card="9S")) == ("card_not_in_hand", "'9S' is not in your hand")
    assert refusal(s, "p2", Play(card=5)) == ("card_not_in_hand", "5 is not in your hand")  # type: ignore[arg-type]


def test_a_client_seed_that_is_not_text_is_refused_with_the_limit() -> None:
    """§2.21.5: the seeds are published for audit; a seed that is not text is refused, saying how
    long a seed may be."""
    s = initial_state(CLASSIC, SEATS, None)
    code, detail = refusal(s, "p1", Ready(client_seed=5))  # type: ignore[arg-type]
    assert code == "client_seed_too_long" and detail == "at most 256 characters"
