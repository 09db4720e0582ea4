"""Starting layouts (rules/ugolki.md §3) and the tempo number (§7)."""

from __future__ import annotations

import pytest

from domain.games.ugolki import GAME
from domain.games.ugolki.geometry import geometry
from domain.games.ugolki.state import BLACK, WHITE
from domain.games.ugolki.tempo import tempo, tempo_full, tempo_to_go
from tests.unit.ugolki.helpers import moved, mv, play, rules, start


def _expand(text: str) -> set[str]:
    """'e1-h1 e2' -> squares; a range runs along one rank."""
    out: set[str] = set()
    for token in text.split():
        if "-" in token:
            a, b = token.split("-")
            rank = int(a[1:])
            for f in range(ord(a[0]), ord(b[0]) + 1):
                out.add(f"{chr(f)}{rank}")
        else:
            out.add(token)
    return out


# §3.4 table, row by row (Black = sigma(White)).
LAYOUTS = [
    (8, "SQ3", "BR", "f1 g1 h1 f2 g2 h2 f3 g3 h3", "a6 b6 c6 a7 b7 c7 a8 b8 c8"),
    (8, "SQ3", "BL", "a1 b1 c1 a2 b2 c2 a3 b3 c3", "f6 g6 h6 f7 g7 h7 f8 g8 h8"),  # 000:L281-L282
    (8, "BLK12", "BR", "e1-h1 e2-h2 e3-h3", "a6-d6 a7-d7 a8-d8"),
    (8, "BLK12", "BL", "a1-d1 a2-d2 a3-d3", "e6-h6 e7-h7 e8-h8"),  # 000:L414-L416, L459
    (8, "SQ4", "BR", "e1-h1 e2-h2 e3-h3 e4-h4", "a5-d5 a6-d6 a7-d7 a8-d8"),
    (8, "SQ4", "BL", "a1-d1 a2-d2 a3-d3 a4-d4", "e5-h5 e6-h6 e7-h7 e8-h8"),
    (
        8,
        "TRI10",
        "BR",
        "e1 f1 g1 h1 f2 g2 h2 g3 h3 h4",
        "a5 a6 b6 a7 b7 c7 a8 b8 c8 d8",
    ),  # 000:L101 corrected
    (8, "TRI10", "BL", "a1 b1 c1 d1 a2 b2 c2 a3 b3 a4", "h5 g6 h6 f7 g7 h7 e8 f8 g8 h8"),
    (
        8,
        "TRI15",
        "BR",
        "d1 e1 f1 g1 h1 e2 f2 g2 h2 f3 g3 h3 g4 h4 h5",
        "a4 a5 b5 a6 b6 c6 a7 b7 c7 d7 a8 b8 c8 d8 e8",
    ),  # 000:L64 Kostrov
    (8, "TRI15", "BL", "a1-e1 a2-d2 a3-c3 a4-b4 a5", "h4 g5 h5 f6 g6 h6 e7 f7 g7 h7 d8 e8 f8 g8 h8"),
    (10, "TRI15", "BR", "f1-j1 g2-j2 h3-j3 i4-j4 j5", "a6 a7-b7 a8-c8 a9-d9 a10-e10"),  # 000:L119
    (10, "TRI15", "BL", "a1-e1 a2-d2 a3-c3 a4-b4 a5", "j6 i7-j7 h8-j8 g9-j9 f10-j10"),
]


@pytest.mark.parametrize(("board", "layout", "corner", "white", "black"), LAYOUTS)
def test_start_squares_match_the_table(board: int, layout: str, corner: str, white: str, black: str) -> None:
    """rules/ugolki.md §3.4: exact starting squares per layout and corner (000:L101, L281, L414)."""
    geo = geometry(board, layout, corner, "ORTH", "ORTH")
    assert {geo.names[i] for i in geo.squares(geo.homes[WHITE])} == _expand(white)
    assert {geo.names[i] for i in geo.squares(geo.homes[BLACK])} == _expand(black)
    assert not geo.homes[WHITE] & geo.homes[BLACK]


@pytest.mark.parametrize(
    ("board", "layout", "start_t", "full_t"),
    [(8, "SQ3", 108, 18), (8, "BLK12", 138, 30), (8, "SQ4", 176, 48), (8, "TRI10", 120, 20),
     (8, "TRI15", 170, 40), (10, "TRI15", 230, 40)],
)  # fmt: skip
@pytest.mark.parametrize("corner", ["BR", "BL"])
def test_tempo_at_the_start(board: int, layout: str, start_t: int, full_t: int, corner: str) -> None:
    """rules/ugolki.md §7 table: T at the start and T_full, equal for both sides (000:L121)."""
    state = GAME.initial_state(
        rules(board=board, layout=layout, white_corner=corner), ("white", "black"), None
    )
    for side in (WHITE, BLACK):
        assert tempo(state, side) == start_t
        assert tempo_full(state.geo, side) == full_t
        assert tempo_to_go(state, side) == start_t - full_t


def test_worked_example_120_to_118() -> None:
    """rules/ugolki.md §7 worked example: 1. h3-h5 gives T(W)=118, 1. ... a6-a4 gives T(B)=118 (000:L121, L136)."""
    s = start()
    assert (tempo(s.state, WHITE), tempo(s.state, BLACK)) == (120, 120)
    after_white = s.when("white", mv("h3", "h5")).then(moved("white", "h3", "h5"))
    assert tempo(after_white, WHITE) == 118
    after_black = play(after_white, "a6-a4")
    assert tempo(after_black, BLACK) == 118
    view = GAME.view(after_black, None)
    assert view.tempo == {"white": 118, "black": 118}
    assert view.tempo_to_go == {"white": 98, "black": 98}


def test_diagonal_step_changes_tempo_by_two() -> None:
    """rules/ugolki.md §7: in a diagonal preset g3-f4 takes White's T from 120 to 118."""
    state = start("halma-8x8-1234-diag").when("white", mv("g3", "f4")).then(moved("white", "g3", "f4"))
    assert tempo(state, WHITE) == 118
