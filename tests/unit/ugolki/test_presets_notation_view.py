"""Presets (rules/ugolki.md §10), notation (§5), the view and the Decider record."""

from __future__ import annotations

import msgspec
import pytest

from contracts.games.ugolki import UgolkiRuleset
from contracts.match import CreateMatch
from domain.core import match
from domain.games.registry import GAMES
from domain.games.ugolki import GAME
from domain.games.ugolki.geometry import geometry
from domain.games.ugolki.notation import format_path, parse_path, parse_square
from domain.games.ugolki.rules import DESCRIPTIONS, PRESETS
from tests.unit.ugolki.helpers import at, moved, mv, play, rules, start

# (preset, board, layout, corner, steps, jumps, completion, leave_home, N, long_game, M) from §10.
TABLE = [
    ("gambiter-classic", 8, "TRI10", "BR", "ORTH", "ORTH", "EQUALIZE", "STAGE", 40, "COUNT", 80),
    ("gambiter-diagonal", 8, "TRI10", "BR", "ALL8", "ALL8", "EQUALIZE", "STAGE", 30, "COUNT", 80),
    ("halma-8x8-1234", 8, "TRI10", "BR", "ORTH", "ORTH", "EQUALIZE", "STAGE", 40, "TEMPO", 80),
    ("halma-8x8-1234-diag", 8, "TRI10", "BR", "ALL8", "ALL8", "EQUALIZE", "STAGE", 30, "TEMPO", 80),
    ("halma-10x10-12345", 10, "TRI15", "BR", "ORTH", "ORTH", "EQUALIZE", "STAGE", 60, "TEMPO", 120),
    ("halma-10x10-12345-diag", 10, "TRI15", "BR", "ALL8", "ALL8", "EQUALIZE", "STAGE", 50, "TEMPO", 120),
    ("mini-3x3", 8, "SQ3", "BR", "ORTH", "ORTH", "EQUALIZE", "STAGE", 40, "TEMPO", 80),
    ("mini-3x3-diag", 8, "SQ3", "BR", "ALL8", "ALL8", "EQUALIZE", "STAGE", 30, "TEMPO", 80),
    ("kostrov", 8, "SQ3", "BR", "ORTH", "ORTH", "IMMEDIATE", "none", None, "none", None),
    ("kostrov-diagonal", 8, "SQ3", "BR", "ALL8", "ALL8", "IMMEDIATE", "none", None, "none", None),
    ("ugolki-50", 8, "SQ3", "BL", "ORTH", "ORTH", "IMMEDIATE", "CONT_GT", 50, "none", None),
    ("kosynka-universal", 8, "TRI10", "BL", "ALL8", "ALL8", "EQUALIZE", "none", None, "none", None),
    ("pryamye", 8, "TRI10", "BL", "ORTH", "ORTH", "EQUALIZE", "none", None, "none", None),
    ("kosye", 8, "TRI10", "BL", "DIAG", "DIAG", "EQUALIZE", "none", None, "none", None),
    ("kids-3x3-40", 8, "SQ3", "BL", "ORTH", "ORTH", "IMMEDIATE", "CONT_GT", 40, "none", None),
    ("shashki-online-12", 8, "BLK12", "BL", "ORTH", "ORTH", "EQUALIZE", "CONT_GT", 40, "none", None),
    ("luckforfree-3x4", 8, "BLK12", "BL", "ORTH", "ORTH", "EQUALIZE", "CONT_GT", 40, "none", None),
    ("club-any-direction-40", 8, "BLK12", "BL", "ALL8", "ALL8", "EQUALIZE", "CONT_GE", 40, "none", None),
    ("min2win-3x4", 8, "BLK12", "BL", "ORTH", "ORTH", "IMMEDIATE", "none", None, "none", None),
]


@pytest.mark.parametrize("row", TABLE, ids=[r[0] for r in TABLE])
def test_preset_matches_the_table(row: tuple[object, ...]) -> None:
    """rules/ugolki.md §10: every refereeable preset with its cited parameters."""
    name, board, layout, corner, steps, jumps, completion, leave, n, long_game, m = row
    rs = PRESETS[str(name)]
    assert (rs.board, rs.layout, rs.white_corner, rs.step_dirs, rs.jump_dirs) == (
        board,
        layout,
        corner,
        steps,
        jumps,
    )
    assert rs.completion == completion and rs.leave_home == leave and rs.long_game == long_game
    if n is not None:
        assert rs.leave_home_moves == n and rs.leave_home_threshold == 1
    if m is not None:
        assert rs.long_game_moves == m
    assert GAME.validate(rs, 2) is None
    assert DESCRIPTIONS[str(name)]


def test_preset_restrictions_per_table() -> None:
    """§10: repetition/anti-lock/mirror inherited by Gambiter and Halma; return bans; «вреднюги»; lock."""
    for name in ("gambiter-classic", "halma-8x8-1234", "halma-10x10-12345", "mini-3x3"):
        rs = PRESETS[name]
        assert rs.repetition == "THREEFOLD_HOME_SYMMETRIC" and rs.anti_lock == "LITERAL_ORTH"
        assert (rs.mirror_limit, rs.mirror_window) == (10, 12)
    for name in ("gambiter-diagonal", "halma-8x8-1234-diag", "mini-3x3-diag", "kosynka-universal"):
        assert PRESETS[name].anti_lock == "none"  # 000:L45
    assert PRESETS["pryamye"].anti_lock == "LITERAL_ORTH"
    assert {n for n, r in PRESETS.items() if r.target_home_lock} == {"kosynka-universal", "pryamye", "kosye"}
    assert {n: r.return_home_loss_after for n, r in PRESETS.items() if r.return_home_loss_after} == {
        "ugolki-50": 50,
        "kids-3x3-40": 40,
        "shashki-online-12": 40,
        "luckforfree-3x4": 40,
        "club-any-direction-40": 40,
    }
    assert not any(r.vrednyugi for r in PRESETS.values())  # optional switch, off by default (Q18)
    assert (PRESETS["shashki-online-12"].mirror_limit, PRESETS["shashki-online-12"].mirror_window) == (
        10,
        None,
    )


def test_halma_16x16_is_not_refereeable() -> None:
    """§10, §11, Q22: halma-16x16 is not specified well enough to referee."""
    assert "halma-16x16" not in PRESETS
    assert "not specified" in (GAME.validate(UgolkiRuleset(board=16), 2) or "")
    assert GAME.validate(UgolkiRuleset(board=9), 2)
    assert GAME.validate(UgolkiRuleset(), 3)
    rejected = match.resolve_ruleset(GAME, "halma-8x8-1234", {"board": 16})
    assert getattr(rejected, "code", None) == "invalid_ruleset"


def test_decider_record() -> None:
    """ARCHITECTURE §3: the registry serves Ugolki as a Decider with its meta."""
    meta = GAME
    assert GAMES["ugolki"] is GAME
    assert (meta.name, meta.rules_version, meta.min_seats, meta.max_seats) == ("ugolki", "ugolki-1", 2, 2)
    assert meta.seat_names(2) == ("white", "black")
    assert not meta.chance and not meta.hidden_info
    assert meta.default_preset == "halma-8x8-1234"
    assert GAME.bots is not None and set(GAME.bots) == {"random", "greedy", "search"}


def test_match_layer_ends_the_match() -> None:
    """The match layer appends MatchEnded when the game's outcome appears (§6.11)."""
    create = CreateMatch(
        preset="halma-8x8-1234",
        ruleset=msgspec.to_builtins(PRESETS["halma-8x8-1234"]),
        seats=("white", "black"),
        players=("a", "b"),
        token_hashes=("x", "y"),
    )
    created = match.decide(GAME, None, None, create)
    assert isinstance(created, tuple)
    state = match.evolve(GAME, None, created[0])
    moves = ["e1-d1", "d8-e8", "d1-e1", "e8-d8"] * 2
    events: tuple[object, ...] = ()
    for text in moves:
        seat = match.to_move(GAME, state)[0]
        events = match.decide(GAME, state, seat, mv(text))  # type: ignore[assignment]
        assert isinstance(events, tuple)
        for event in events:
            state = match.evolve(GAME, state, event)
    assert state.outcome is not None and state.outcome.reason == "repetition"
    assert type(events[-1]).__name__ == "MatchEnded"


@pytest.mark.parametrize(
    ("text", "square"),
    [("e4", "e4"), ("E4", "e4"), ("е4", "e4"), ("С4", "c4"), ("а8", "a8"), ("Н8", "h8"), ("в3", "b3"),
     ("1-A", "a1"), ("6‑H", "h6"), ("3–С", "c3")],
)  # fmt: skip
def test_parse_square_normalises(text: str, square: str) -> None:
    """§5: Cyrillic look-alikes (000:L74, L81, L281), any case, rank-FILE form (000:L281-L282)."""
    geo = geometry(8, "TRI10", "BR", "ORTH", "ORTH")
    idx = parse_square(geo, text)
    assert idx is not None and geo.names[idx] == square


def test_parse_and_format_paths() -> None:
    """§5: landing squares joined by dashes (en dash or hyphen); a step is written e2-e3."""
    geo = geometry(8, "TRI10", "BR", "ORTH", "ORTH")
    path = parse_path(geo, "g2–e2–е4–с4–с6–а6–а8")
    assert path is not None and format_path(geo, path) == "g2-e2-e4-c4-c6-a6-a8"
    assert parse_path(geo, "1-A-3-A") == parse_path(geo, "a1-a3")
    assert parse_path(geo, "e2 - e3") == parse_path(geo, "e2-e3")
    assert parse_path(geo, "i9-e3") is None
    assert parse_path(geo, "") is None
    assert format_path(geo, ()) == "--"
    ten = geometry(10, "TRI15", "BR", "ORTH", "ORTH")
    path10 = parse_path(ten, "j10-j9")
    assert path10 is not None and format_path(ten, path10) == "j10-j9"  # a-j files (Q21)


def test_view_shows_everything_and_legal_only_to_the_mover() -> None:
    """ARCHITECTURE §3 view: board, homes, counters, tempo, history; legal moves for the mover only."""
    state = play(start().state, "h3-h5")
    black_view = GAME.view(state, "black")
    white_view = GAME.view(state, "white")
    spectator = GAME.view(state, None)
    assert black_view.to_move == "black" and black_view.legal and "a6-a4" in black_view.legal
    assert white_view.legal == () and spectator.legal == ()
    assert black_view.white == ("e1", "f1", "f2", "g1", "g2", "g3", "h1", "h2", "h4", "h5")
    assert black_view.white_home == ("e1", "f1", "f2", "g1", "g2", "g3", "h1", "h2", "h3", "h4")
    assert black_view.moves_made == {"white": 1, "black": 0}
    assert black_view.history == ("h3-h5",)
    assert black_view.result is None and black_view.board == 8
    assert GAME.redact(moved("white", "h3", "h5"), "black") == moved("white", "h3", "h5")


def test_view_reports_the_result() -> None:
    state = play(start().state, *(["e1-d1", "d8-e8", "d1-e1", "e8-d8"] * 2))
    view = GAME.view(state, "white")
    assert view.result == "draw (repetition)" and view.to_move is None and view.legal == ()
    assert GAME.to_move(state) == frozenset()
    at(state).when("white", mv("h4", "h5")).then_rejected("game_over")


def test_initial_state_rejects_bad_rulesets_and_seats() -> None:
    with pytest.raises(ValueError):
        GAME.initial_state(rules(board=16), ("white", "black"), None)
    with pytest.raises(ValueError):
        GAME.initial_state(rules(), ("white",), None)
