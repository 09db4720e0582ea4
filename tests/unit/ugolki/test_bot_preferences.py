"""What each computer player prefers, in positions built for it (domain/games/ugolki/bots.py):
greedy lowers its tempo number (§7) and never loses to the return ban (§6.3) when it can help it;
search races (tempo, stragglers, the leave-home deadline of §6.2, the free target squares in the
ending) and looks at the reply."""

from __future__ import annotations

import random

from domain.games.ugolki import GAME
from domain.games.ugolki.bots import _weights
from domain.games.ugolki.state import WHITE, UgolkiState
from tests.unit.ugolki.helpers import pos, rules

BOTS = GAME.bots or {}
SEEDS = range(8)


def choices(bot: str, state: UgolkiState) -> set[tuple[str, str]]:
    seat = state.seats[state.side]
    out = set()
    for seed in SEEDS:
        path = BOTS[bot](state, seat, random.Random(seed)).path
        out.add((path[0], path[-1]))
    return out


def test_greedy_never_picks_the_losing_move_home_among_equal_moves() -> None:
    """§6.3 (ugolki-50, White's home a1-c3): at White's 51st move every move costs one tempo
    step; d1-c1 (e1 and d2 taken, no jump) would lose at once, h8-g8 and h8-h7 would not."""
    state = pos(rules("ugolki-50"), "d1 h8", "e1 f1 d2 d3", (50, 50))
    assert choices("greedy", state) <= {("h8", "g8"), ("h8", "h7")}


def test_search_keeps_racing_when_the_opponent_is_boxed_in() -> None:
    """§6.10: Black's a8 has no move (a7, b8 taken; a6, c8 behind them), so Black passes; the
    search still brings its one outside piece, d4, towards the free target squares b6, c6, b7, c7."""
    state = pos(rules("kostrov"), "a7 b8 a6 c8 d4", "a8")
    assert choices("search", state) <= {("d4", "c4"), ("d4", "d5")}


# Halma 8x8 (STAGE(40), White's home e1 f1 g1 h1 f2 g2 h2 g3 h3 h4): h4 is White's last piece at
# home; e3 has a double jump over d3 and c4 to c5, worth more tempo than a step out of home.
DEADLINE_WHITE = "h4 a2 e3 d3 c4 g6 b4 e8 f6 b6"


def test_search_takes_its_last_piece_out_of_home_before_the_deadline() -> None:
    """§6.2: at White's 40th move a piece still at home loses at Black's 40th; the search steps
    h4 out rather than take the longer jump."""
    state = pos(rules(), DEADLINE_WHITE, "h1 a8", (39, 39))
    assert {f for f, _ in choices("search", state)} == {"h4"}


def test_search_races_first_while_the_deadline_is_far() -> None:
    """Twenty moves before the deadline the same position is a race: the double jump first."""
    state = pos(rules(), DEADLINE_WHITE, "h1 a8", (20, 20))
    assert choices("search", state) == {("e3", "c5")}


def test_search_heads_for_the_free_target_square_in_the_ending() -> None:
    """Kostrov (target a6-c8, c6 free): with one piece left outside, c3 goes up the c-file to the
    free square; b3 would bring it as close to the corner a8 but further from c6."""
    state = pos(rules("kostrov"), "a6 b6 a7 b7 c7 a8 b8 c8 c3", "f1 g1 h1 f2 g2 h2 f3 g3 e6", (30, 30))
    assert choices("search", state) == {("c3", "c4")}


def test_search_brings_the_straggler_up_first() -> None:
    """The race weights grow faster than the distance: of four outside pieces that can each step
    one square nearer the corner a8, the one furthest behind (e2) moves first."""
    state = pos(rules(), "e2 f5 c4 d7 a8 b8 c8 a7 b7 a6", "e1 f1 g1 h1 f2 g2 h2 g3 h3 h6", (10, 10))
    assert choices("search", state) == {("e2", "e3"), ("e2", "d2")}


def test_search_hurries_from_eleven_moves_before_the_deadline() -> None:
    """§6.2 with the search's deadline weighting: twelve moves before the deadline the position
    above is still a race (the double jump); from eleven moves before it, h4 leaves home first."""
    assert choices("search", pos(rules(), DEADLINE_WHITE, "h1 a8", (28, 28))) == {("e3", "c5")}
    assert {f for f, _ in choices("search", pos(rules(), DEADLINE_WHITE, "h1 a8", (29, 29)))} == {"h4"}


def test_in_the_ending_a_square_outside_costs_six_plus_the_way_to_the_nearest_free_target() -> None:
    """The search's ending weights (bots._weights): with at most three pieces outside the target
    home, a square outside it costs 6 (more than any square inside, 0.3 x its tempo distance)
    plus its file and rank distance to the nearest free target square."""
    state = pos(rules("kostrov"), "a6 b6 a7 b7 c7 a8 b8 c8 c3", "f1 g1 h1 f2 g2 h2 f3 g3 e6", (30, 30))
    weights = _weights(state, WHITE)
    at = state.geo.index
    free = "c6"  # the one target square White has not filled
    for square, way in {"c3": 3, "e4": 4, "d5": 2, "c5": 1}.items():
        assert (square, weights[at[square]]) == (square, 6.0 + way), free
    inside = [weights[at[s]] for s in ("a6", "b6", "a7", "b7", "c7", "a8", "b8", "c8", "c6")]
    assert max(inside) < 6.0
