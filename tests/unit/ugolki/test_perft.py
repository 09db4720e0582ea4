"""Move generation and perft (rules/ugolki.md §4.2), checked against an independent reference."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from contracts.games.ugolki import MovePiece
from domain.games.ugolki import GAME
from domain.games.ugolki.geometry import VECTORS, Geometry
from domain.games.ugolki.movegen import count_moves, gen_moves
from domain.games.ugolki.perft import fast_path_safe, perft, perft_exact, perft_table
from services.cli.rules import rules_app
from tests.unit.ugolki.helpers import passed, pos, rules


def reference_moves(geo: Geometry, dirs: tuple[str, str], own: int, opp: int) -> set[tuple[int, int]]:
    """§4.2 by the book on (file, rank) pairs: steps, and a search of jump chains per piece."""
    occupied = {geo.file_rank(i) for i in geo.squares(own | opp)}
    out = set()
    for i in geo.squares(own):
        f, r = geo.file_rank(i)
        for df, dr in VECTORS[dirs[0]]:
            t = (f + df, r + dr)
            if geo.on_board(*t) and t not in occupied:
                out.add((i, geo.idx(*t)))
        others = occupied - {(f, r)}
        seen = {(f, r)}
        todo = [(f, r)]
        while todo:
            x, y = todo.pop()
            for df, dr in VECTORS[dirs[1]]:
                over, land = (x + df, y + dr), (x + 2 * df, y + 2 * dr)
                if over in others and geo.on_board(*land) and land not in others and land not in seen:
                    seen.add(land)
                    todo.append(land)
        out |= {(i, geo.idx(*t)) for t in seen if t != (f, r)}
    return out


@pytest.mark.parametrize("dirs", [("ORTH", "ORTH"), ("ALL8", "ALL8"), ("DIAG", "DIAG"), ("ALL8", "ORTH")])
@pytest.mark.parametrize("board", [8, 10])
def test_bitboard_generator_matches_the_reference(dirs: tuple[str, str], board: int) -> None:
    """§4.2 items 1-4: distinct (from, to) pairs; the jump-component shortcut loses nothing."""
    rs = rules("kostrov", board=board, step_dirs=dirs[0], jump_dirs=dirs[1])
    geo = GAME.initial_state(rs, ("white", "black"), None).geo
    squares = sorted(geo.names)
    r = random.Random(board * 7 + len(dirs[0]))
    for _ in range(150):
        chosen = r.sample(squares, r.randint(2, board * board * 2 // 3))
        cut = r.randint(1, len(chosen) - 1)
        own = sum(1 << i for i in chosen[:cut])
        opp = sum(1 << i for i in chosen[cut:])
        expected = reference_moves(geo, dirs, own, opp)
        got = [(f.bit_length() - 1, t.bit_length() - 1) for f, t in gen_moves(geo, own, opp)]
        assert len(got) == len(set(got))
        assert set(got) == expected
        assert count_moves(geo, own, opp) == len(expected)


def test_target_home_lock_generation_matches_decide() -> None:
    """§6.6: the generator under the lock agrees with what decide accepts."""
    r = random.Random(5)
    for final_only in (False, True):
        rs = rules("kosynka-universal", target_home_lock_final_only=final_only)
        state = GAME.initial_state(rs, ("white", "black"), None)
        names = sorted(state.geo.index)
        for _ in range(40):
            chosen = r.sample(names, 30)
            s = pos(rs, " ".join(chosen[:15]), " ".join(chosen[15:]))
            legal = {(c.path[0], c.path[-1]) for c in GAME.legal_commands(s, "white")}
            for a in chosen[:15]:
                for b in names:
                    accepted = isinstance(GAME.decide(s, "white", MovePiece(path=(a, b))), tuple)
                    assert accepted == ((a, b) in legal), (a, b)


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("halma-8x8-1234", [14, 196, 3584, 65536]),
        ("halma-8x8-1234-diag", [24, 576, 20050]),
        ("luckforfree-3x4", [14, 196, 4412]),
        ("club-any-direction-40", [33, 1107, 49318]),
        ("mini-3x3", [12, 144, 2784]),
        ("kosye", [10, 100, 1656]),
        ("halma-10x10-12345", [18, 324]),
    ],
)
def test_perft_from_the_start(preset: str, expected: list[int]) -> None:
    """perft from each preset's start (White to move), cross-checked with a plain set generator in bench/."""
    state = GAME.initial_state(rules(preset), ("white", "black"), None)
    assert perft_table(state, len(expected)) == expected
    assert perft_exact(state, min(3, len(expected))) == expected[min(3, len(expected)) - 1]


def test_perft_respects_the_end_rules() -> None:
    """§6.11: finished games have no children; near a deadline perft takes the exact path."""
    state = pos(rules(), "h1 d4", "d2 f6", moves_made=(40, 39))  # every Black move ends it (§6.2)
    assert not fast_path_safe(state, 2)
    assert perft(state, 1) == perft_exact(state, 1) > 0
    assert perft(state, 2) == 0


def test_perft_counts_a_forced_pass_as_one_node() -> None:
    """§6.10: a side without moves passes; the pass is one node."""
    state = pos(rules("kostrov"), "a7 b8 a6 c8 h1", "a8", moves_made=(1, 0))  # Black boxed in
    assert perft(state, 1) == 1
    after_pass = GAME.evolve(state, passed("black"))
    assert perft(state, 2) == perft_exact(state, 2) == len(GAME.legal_commands(after_pass, "white"))


def test_cli_perft_and_presets() -> None:
    """`gamehall rules perft ugolki --preset NAME --set key=value --depth D`."""
    runner = CliRunner()
    result = runner.invoke(rules_app, ["perft", "ugolki", "--preset", "halma-8x8-1234", "--depth", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["depth 1: 14", "depth 2: 196", "depth 3: 3584"]
    result = runner.invoke(
        rules_app,
        ["perft", "ugolki", "--preset", "luckforfree-3x4", "--set", "step_dirs=ALL8", "--set", "jump_dirs=ALL8",
         "--depth", "2"],
    )  # fmt: skip
    assert result.output.splitlines() == ["depth 1: 33", "depth 2: 1107"]
    bad = runner.invoke(rules_app, ["perft", "ugolki", "--set", "board=16", "--depth", "1"])
    assert bad.exit_code == 2
    listed = runner.invoke(rules_app, ["presets", "ugolki"])
    assert "* halma-8x8-1234" in listed.output and "kostrov" in listed.output
