"""The worked example of docs/ranked.md ("Rating constants", "Worked example") is what the rating
code computes: its tables are read from the document and every number recomputed."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.integration import MatchFinished
from contracts.match import Outcome
from domain.rating import glicko2, openskill_pl, ranked

DOC = Path(__file__).resolve().parents[3] / "docs" / "ranked.md"


def example_rows() -> dict[str, list[list[str]]]:
    """The rows of the worked example's tables, by example letter (cells as written)."""
    text = DOC.read_text()
    section = text.split("### Worked example", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[list[str]]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and len(cells[0]) == 1 and cells[0].isupper():
            rows.setdefault(cells[0], []).append(cells)
    return rows


ROWS = example_rows()


def test_the_document_has_every_example() -> None:
    assert sorted(ROWS) == ["A", "B", "C", "D", "E"]


def finished(players: tuple[str, ...], ranks: tuple[int, ...]) -> MatchFinished:
    return MatchFinished(
        match_id="doc-example",
        game="king",
        preset="king-4p-classic",
        rules_version="1",
        seats=tuple(f"s{i}" for i in range(len(players))),
        players=players,
        outcome=Outcome(ranks=ranks, draw=len(set(ranks)) == 1),
        moves=10,
        finished_at=86_400_000,
        last_seq=3,
        ranked=True,
    )


@pytest.mark.parametrize("example", sorted(ROWS))
def test_the_worked_example_is_what_the_code_computes(example: str) -> None:
    rows = ROWS[example]
    players = tuple(r[1] for r in rows)
    ranks = tuple(int(r[2]) for r in rows)
    applied, _states = ranked.rate_match(finished(players, ranks), "2026-Q4", "king-4p-classic", {})
    assert applied.model == (ranked.GLICKO2 if len(players) == 2 else ranked.OPENSKILL_PL)
    for row, (rating, rd, volatility) in zip(rows, applied.after, strict=True):
        third = volatility if len(players) == 2 else openskill_pl.ordinal(rating, rd)
        # each number as the document prints it: 6 decimals, volatility 8
        assert row[3:] == [
            f"{rating:.6f}",
            f"{rd:.6f}",
            f"{third:.8f}" if len(players) == 2 else f"{third:.6f}",
        ]


def test_the_constants_the_document_names() -> None:
    params = openskill_pl.PLParameters()
    assert (params.mu, params.sigma, params.beta, params.kappa, params.tau) == (
        25.0,
        25 / 3,
        25 / 6,
        0.0001,
        25 / 300,
    )
    assert params.idle_sigma_per_period == 25 / 300
    policy = ranked.RatingPolicy()
    assert (policy.tau, policy.initial_rating, policy.initial_rd, policy.initial_volatility) == (
        0.5,
        1500,
        350,
        0.06,
    )
    assert (
        policy.period_ms == 86_400_000
        and policy.season_rd_boost == 100
        and policy.season_sigma_boost == 25 / 9
    )
    assert (glicko2.SCALE, glicko2.EPSILON) == (173.7178, 0.000001)
    text = DOC.read_text()
    assert "`sqrt((25/3)^2 + (25/300)^2) = 8.333750`" in text
    assert f"{(params.sigma**2 + params.tau**2) ** 0.5:.6f}" == "8.333750"
