"""The score sheet's marks for the barrel's last attempt (§2.10, §2.21.4 barrel (b), worked check
2): the line says the attempts ran out, beside the attempt itself."""

from __future__ import annotations

from tests.unit.thousand.support import CLASSIC, end_state, line, scored


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
