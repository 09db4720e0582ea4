"""Glicko-2 against the worked example of Glickman's paper, at full precision.

The paper rounds every intermediate figure (mu' = -0.2069, phi' = 0.8722, ...).  Here the same
example is recomputed independently with 60-digit decimals, including the volatility iteration,
and the float implementation must agree with it to ~1e-12, not just to the paper's rounding.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext

import pytest

from domain.rating import glicko2

PLAYER = (1500.0, 200.0, 0.06)
OPPONENTS = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]


def _reference(rating: float, rd: float, sigma: float, results: list[tuple[float, float, float]], tau: float):
    getcontext().prec = 60
    d = Decimal
    pi = d("3.14159265358979323846264338327950288419716939937510582097494")
    scale = d("173.7178")
    mu = (d(rating) - 1500) / scale
    phi = d(rd) / scale
    v_inv = d(0)
    dsum = d(0)
    for r, rdj, s in results:
        mu_j = (d(r) - 1500) / scale
        phi_j = d(rdj) / scale
        g = 1 / (1 + 3 * phi_j * phi_j / (pi * pi)).sqrt()
        e = 1 / (1 + (-g * (mu - mu_j)).exp())
        v_inv += g * g * e * (1 - e)
        dsum += g * (d(s) - e)
    v = 1 / v_inv
    delta = v * dsum
    a = (d(sigma) * d(sigma)).ln()
    t = d(tau)

    def f(x: Decimal) -> Decimal:
        ex = x.exp()
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (t * t)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = (delta * delta - phi * phi - v).ln()
    else:
        k = 1
        while f(a - k * t) < 0:
            k += 1
        big_b = a - k * t
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > d("0.000001"):
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa = fa / 2
        big_b, fb = big_c, fc
    sigma_new = (big_a / 2).exp()
    phi_star = (phi * phi + sigma_new * sigma_new).sqrt()
    phi_new = 1 / (1 / (phi_star * phi_star) + 1 / v).sqrt()
    mu_new = mu + phi_new * phi_new * dsum
    return {
        "v": v,
        "delta": delta,
        "rating": float(scale * mu_new + 1500),
        "rd": float(scale * phi_new),
        "volatility": float(sigma_new),
    }


def test_paper_example_at_full_precision() -> None:
    ref = _reference(*PLAYER, OPPONENTS, 0.5)
    # the paper rounds its intermediates (v = 1.7785, delta = -0.4834); full precision differs in the 4th digit
    assert float(ref["v"]) == pytest.approx(1.7785, abs=1e-3)
    assert float(ref["delta"]) == pytest.approx(-0.4834, abs=1e-3)

    rating, rd, vol = glicko2.rate(*PLAYER, OPPONENTS, tau=0.5)
    assert rating == pytest.approx(ref["rating"], rel=1e-12, abs=0)
    assert rd == pytest.approx(ref["rd"], rel=1e-12, abs=0)
    assert vol == pytest.approx(ref["volatility"], rel=1e-12, abs=0)
    # full-precision figures (the paper prints 1464.06, 151.52 and 0.05999 from rounded steps)
    assert rating == pytest.approx(1464.0506705393, abs=1e-9)
    assert rd == pytest.approx(151.5165241239, abs=1e-9)
    assert vol == pytest.approx(0.0599959842864, abs=1e-12)
    # and they differ from the paper's rounded result, which a rounded implementation would give
    assert round(rating, 2) != 1464.06


def test_no_games_only_grows_rd() -> None:
    rating, rd, vol = glicko2.rate(1500.0, 200.0, 0.06, [])
    assert rating == 1500.0 and vol == 0.06
    assert rd == pytest.approx(math.sqrt((200 / 173.7178) ** 2 + 0.06**2) * 173.7178)


def test_inflate_rd_matches_repeated_empty_periods_and_caps() -> None:
    rd = 60.0
    for _ in range(5):
        _, rd, _ = glicko2.rate(1500.0, rd, 0.06, [])
    assert glicko2.inflate_rd(60.0, 0.06, 5) == pytest.approx(rd, rel=1e-12)
    assert glicko2.inflate_rd(300.0, 0.06, 10_000) == 350.0
    assert glicko2.inflate_rd(60.0, 0.06, 0) == 60.0


def test_symmetry_of_a_draw_between_equals() -> None:
    a = glicko2.rate(1500.0, 350.0, 0.06, [(1500.0, 350.0, 0.5)])
    assert a[0] == pytest.approx(1500.0, abs=1e-9)
    win = glicko2.rate(1500.0, 350.0, 0.06, [(1500.0, 350.0, 1.0)])
    loss = glicko2.rate(1500.0, 350.0, 0.06, [(1500.0, 350.0, 0.0)])
    assert win[0] - 1500.0 == pytest.approx(1500.0 - loss[0], rel=1e-12)


def test_big_upset_takes_the_large_delta_branch() -> None:
    # delta^2 > phi^2 + v: the first bracket of step 5.2
    r, rd, vol = glicko2.rate(1200.0, 50.0, 0.06, [(2200.0, 50.0, 1.0)] * 5)
    ref = _reference(1200.0, 50.0, 0.06, [(2200.0, 50.0, 1.0)] * 5, 0.5)
    assert (r, rd, vol) == pytest.approx((ref["rating"], ref["rd"], ref["volatility"]), rel=1e-11)
    assert vol > 0.06
