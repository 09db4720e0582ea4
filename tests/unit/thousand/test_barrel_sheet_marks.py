"""The score sheet's marks for the barrel's last attempt (§2.10, §2.21.4 barrel (b), worked check
2): the line says the attempts ran out, beside the attempt itself."""

from __future__ import annotations

from tests.unit.thousand.support import CLASSIC, ONLINE, end_state, line, scored


def test_the_third_used_attempt_is_marked_as_the_attempts_running_out_2_21_4() -> None:
    """Worked check 2, sitting deal 3: A, frozen on the barrel with 2 attempts used, uses the third:
    "attempts 3 -> -120 -> 760, off, falls 1"."""
    ev = scored(
        end_state(
            CLASSIC,
            declarer=1,
            contract=150,
            raw=(20, 160, 0),
            attempts=(2, 0, 0),
            barrel_on=(True, False, False),
            scores=(880, 750, 100),
        )
    )
    a = line(ev, "p1")
    assert (a.score, a.barrel, a.falls) == (760, False, 1)
    assert "barrel_attempt" in a.marks and "attempts_exhausted" in a.marks
    assert all(isinstance(m, str) for m in a.marks)


def test_online_barrel_marks_the_frozen_defenders_and_the_made_barrel_2_21_4() -> None:
    """Worked check 4 (ONLINE): A on the barrel keeps 121; raw 115 -> "B and C frozen (0, no
    sticks)"; raw 121 -> +121 -> 1001 and A wins by the barrel."""
    on = dict(barrel_on=(True, False, False), scores=(880, 300, 200))
    ev = scored(end_state(ONLINE, declarer=0, contract=121, raw=(115, 3, 2), **on))
    for seat in ("p2", "p3"):
        d = line(ev, seat)
        assert d.delta == 0 and "frozen" in d.marks and "bolt" not in d.marks
    ev = scored(end_state(ONLINE, declarer=0, contract=121, raw=(121, 0, 0), **on))
    a = line(ev, "p1")
    assert a.score == 1001 and "barrel_made" in a.marks
    assert ev.winner == "p1" and ev.reason == "barrel"
