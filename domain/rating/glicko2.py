"""Glicko-2, from Mark Glickman, "Example of the Glicko-2 system" (2022 revision).

Pure and deterministic.  One call is one rating period for one player; the shell decides what a
period is (gamehall rates every ranked match as its own period) and grows the RD of inactive
players with :func:`inflate_rd` before rating them.
"""

from __future__ import annotations

import math

SCALE = 173.7178  # Glicko <-> Glicko-2 scale factor (step 2 of the paper)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
EPSILON = 0.000001  # convergence tolerance of step 5.4
MAX_ITERATIONS = 10_000  # the Illinois iteration converges in a handful; a cap turns a bug into an error


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) (the paper's procedure, unchanged)."""
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            return math.exp(big_a / 2.0)
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    raise ArithmeticError("Glicko-2 volatility iteration did not converge")


def rate(
    rating: float,
    rd: float,
    volatility: float,
    results: list[tuple[float, float, float]],
    tau: float = DEFAULT_TAU,
) -> tuple[float, float, float]:
    """One rating period: (rating, RD, volatility) after ``results``.

    Each result is (opponent rating, opponent RD, score 1 / 0.5 / 0).  With no results only the
    RD grows (step 6 of the paper applied alone).
    """
    mu = (rating - DEFAULT_RATING) / SCALE
    phi = rd / SCALE
    if not results:
        phi_star = math.sqrt(phi * phi + volatility * volatility)
        return rating, phi_star * SCALE, volatility
    opponents = [((r - DEFAULT_RATING) / SCALE, d / SCALE, s) for r, d, s in results]
    v_inv = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _new_volatility(delta, phi, v, volatility, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new


def inflate_rd(rd: float, volatility: float, periods: int, max_rd: float = DEFAULT_RD) -> float:
    """RD after ``periods`` rating periods without games: phi* = sqrt(phi^2 + n sigma^2), capped."""
    if periods <= 0:
        return rd
    phi = rd / SCALE
    grown = SCALE * math.sqrt(phi * phi + periods * volatility * volatility)
    return min(grown, max_rd)


def raise_rd(rd: float, boost: float, max_rd: float = DEFAULT_RD) -> float:
    """RD at the start of a new season: sqrt(rd^2 + boost^2), capped."""
    return min(math.sqrt(rd * rd + boost * boost), max_rd)
