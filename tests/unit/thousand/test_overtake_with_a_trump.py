"""T11 ``must_overtake`` when a trump has been named (§2.8, §2.21.2): a seat following the led suit,
no trump in the trick, must play a higher card of that suit if it holds one; the refusal names the
overtake duty, not the overtrump duty."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import Play
from domain.games.thousand.phases import decide
from domain.games.thousand.state import initial_state
from tests.unit.thousand.support import CLASSIC, NO_WINDOWS, rules

_r = msgspec.structs.replace


def test_following_low_under_a_named_trump_breaks_the_overtake_duty_t11() -> None:
    """Trump ♠; p2 led K♥ (no trump in the trick): p3 holding A♥ and J♥ must play the ace, and J♥
    is refused as ``must_overtake``."""
    r = rules(CLASSIC, must_overtake=True, **NO_WINDOWS)
    s = _r(
        initial_state(r, ("p1", "p2", "p3"), None),
        phase="play",
        hands=((), (), ("JH", "AH", "9S")),
        trick=((1, "KH"),),
        leader=1,
        sitout=-1,
        declarer=1,
        trump="S",
        seen=(True,) * 3,
    )
    got = decide(s, "p3", Play(card="JH"))
    assert isinstance(got, Rejected) and got.code == "must_overtake"
    assert not isinstance(decide(s, "p3", Play(card="AH")), Rejected)
