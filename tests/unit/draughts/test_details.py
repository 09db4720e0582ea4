"""What the worked examples leave open: the board's diagonals square by square, the view of the
mover, the other seat and a spectator when a capture is due, the repetition counter, a position
string as a state, PDN tags of other programs, record actions that are no move, and the computer
players' evaluation and pruned search (rules/draughts.md §3, §7, §9)."""

from __future__ import annotations

import random

import pytest

from contracts.envelope import Rejected
from contracts.games.draughts import DraughtsMove
from domain.games.draughts import GAME
from domain.games.draughts.board import INDEX, NAMES, RAYS, STEPS, _ray, coords
from domain.games.draughts.bots import _WIN, _material, _search, draw_answer, greedy_bot, search_bot
from domain.games.draughts.movegen import legal_moves
from domain.games.draughts.pdn import read, write
from domain.games.draughts.play import moved
from domain.games.draughts.rules import PRESETS
from domain.games.draughts.state import other

from .helpers import SEATS, at, moves, play


def test_3_every_diagonal_runs_to_the_edge_of_the_board() -> None:
    for s in range(32):
        f, r = coords(s)
        for d, ray in enumerate(RAYS[s]):
            df, dr = STEPS[d]
            want = []
            f2, r2 = f + df, r + dr
            while 1 <= f2 <= 8 and 1 <= r2 <= 8:
                want.append(f"{'abcdefgh'[f2 - 1]}{r2}")
                f2, r2 = f2 + df, r2 + dr
            assert [NAMES[q] for q in ray] == want == [NAMES[q] for q in _ray(s, d)], (NAMES[s], d)
    assert len(max((ray for rays in RAYS for ray in rays), key=len)) == 7  # the main road a1-h8
    assert other(0) == 1 and other(1) == 0


def test_the_view_names_the_capturing_pieces_to_everybody_and_the_plays_to_the_mover() -> None:
    s = at("W:Wc3,g3:Bd4")
    mine = GAME.view(s, "white")
    assert mine.capture_required and mine.capturing == ("c3",)
    assert [p.move for p in mine.plays] == moves(s) == ["c3:e5"]
    assert GAME.view(s, "black").plays == () and GAME.view(s, None).plays == ()
    assert GAME.view(s, None).capturing == ("c3",) and GAME.view(s, None).capture_required
    assert mine.status_text != GAME.view(at("W:Wc3,g3:Bd6"), "white").status_text
    quiet = GAME.view(at("W:Wc3,g3:Bd6"), "white")
    assert not quiet.capture_required and quiet.capturing == () and len(quiet.plays) == 4


def test_7_the_view_counts_the_repetitions_of_the_position() -> None:
    s = at("W:WKa1:BKh2")
    assert GAME.view(s, None).counters.repetition == 1
    s = play(s, "a1-b2", "h2-g1", "b2-a1", "g1-h2")
    assert GAME.view(s, None).counters.repetition == 2
    assert GAME.view(play(s, "a1-b2"), None).counters.repetition == 2


def test_9_3_a_position_string_is_the_state_to_play_on() -> None:
    s = GAME.position(PRESETS["russian"], SEATS, "B:Wa1,Kh8:Bb2,e3,h6")
    assert not isinstance(s, Rejected)
    assert GAME.view(s, None).fen == GAME.view(at("B:Wa1,Kh8:Bb2,e3,h6"), None).fen != GAME.view(at(), None).fen
    assert GAME.view(s, None).to_move == "black"
    bad = GAME.position(PRESETS["russian"], SEATS, "W:Wz9")
    assert isinstance(bad, Rejected) and bad.code == "bad_position" and bad.detail


def test_9_pdn_of_another_program_keeps_its_set_up_position_and_its_game_type() -> None:
    text = '[White "ann"]\n[Black "bob"]\n[SetUp "1"]\n[FEN "B:Wa1,Kh8:Bb2,e3,h6"]\n\n1... 25-30 *\n'
    record = read(text)
    assert record["overrides"]["start_fen"] == "B:Wa1,Kh8:Bb2,e3,h6" and record["preset"] == "russian"
    brazilian = read('[GameType "26,W,8,8,A0,0"]\n\n1. 22-18 *\n')
    assert brazilian["preset"] == "brazilian" and "start_fen" not in brazilian.get("overrides", {})
    assert read('[GameType "25"]\n\n1. 22-18 *\n')["preset"] == "russian"


def test_records_refuse_an_action_that_is_no_move() -> None:
    assert GAME.record is not None
    s = at()
    for action in (["jump", 0, "c3-d4"], ["move", 0], ["move", 0, 12], ["move", 0, "c3-d4", "x"]):
        r = GAME.record.parse_action(s, "white", action)
        assert isinstance(r, Rejected) and r.code == "bad_action", action
    assert GAME.record.parse_action(s, "white", ["move", 0, "c3-d4"]) == DraughtsMove(move="c3-d4")


def test_the_evaluation_counts_kings_three_times_and_the_advance_of_men() -> None:
    pos = at("W:Wc5,Ka1:Bd6").pos
    # White: a man on c5 (advance 4) and a king; Black: a man on d6 (advance 2).
    assert _material(pos, 0, False) == pytest.approx((1 + 3 + 0.05 * 4) - (1 + 0.05 * 2))
    assert _material(pos, 1, False) == -_material(pos, 0, False)
    assert _material(pos, 0, True) == -_material(pos, 0, False)


def _negamax(state: object, pos: object, depth: int) -> float:
    rules = state.rules  # type: ignore[attr-defined]
    ms = legal_moves(rules, pos)  # type: ignore[arg-type]
    if not ms:
        lost = -_WIN if rules.win_condition == "standard" else _WIN
        return lost - depth if lost < 0 else lost + depth
    if depth == 0:
        return _material(pos, pos.side, rules.win_condition == "giveaway")  # type: ignore[arg-type, attr-defined]
    return max(-_negamax(state, moved(pos, m), depth - 1) for m in ms)  # type: ignore[arg-type]


@pytest.mark.parametrize(("fen", "preset"), [("W:Wc3,e3,g3:Bd6,f6,b6", "russian"), ("W:Wc3,g3:Bd4", "russian"), ("W:Wc3,e3:Bd6,f6", "russian-giveaway"), ("W:WKa1:Bc3,e5", "russian")])
def test_the_search_prunes_without_changing_the_value(fen: str, preset: str) -> None:
    s = at(fen, preset)
    for depth in (0, 1, 2, 3):
        assert _search(s, s.pos, depth, -2 * _WIN, 2 * _WIN) == _negamax(s, s.pos, depth), depth


def test_the_search_prefers_a_quicker_win_and_a_slower_loss() -> None:
    lost = at("W:Wa1:Bb2,c3")  # White's man on a1 is blocked by b2 with c3 behind: no move
    assert _search(lost, lost.pos, 2, -2 * _WIN, 2 * _WIN) == -_WIN - 2
    giveaway = at("W:Wa1:Bb2,c3", "russian-giveaway")
    assert _search(giveaway, giveaway.pos, 2, -2 * _WIN, 2 * _WIN) == _WIN + 2


@pytest.mark.parametrize("bot", [greedy_bot, search_bot])
def test_the_computer_players_win_material_and_play_only_when_it_is_their_turn(bot: object) -> None:
    # White to move: c3-d4 is taken by e5 for nothing; g3-h4 is safe.
    s = at("W:Wc3,g3:Be5")
    for seed in range(4):
        assert bot(s, "white", random.Random(seed)).move in set(moves(s)) - {"c3-d4"}  # type: ignore[operator]
    with pytest.raises(ValueError):
        bot(s, "black", random.Random(0))  # type: ignore[operator]
    over = play(at("W:Wc3:Bd4"), "c3:e5")
    assert over.result is not None
    with pytest.raises(ValueError):
        bot(over, "black", random.Random(0))  # type: ignore[operator]


def test_draw_answers_accept_only_when_behind() -> None:
    s = at("W:Wc3,e3:Bd6")
    assert not draw_answer(s, "white") and draw_answer(s, "black")
    assert draw_answer(at("W:Wc3,e3:Bd6", "russian-giveaway"), "white")


def test_square_names_and_indices_agree() -> None:
    assert all(INDEX[NAMES[s]] == s for s in range(32))


def test_9_pdn_export_names_the_game_type_and_the_set_up_position() -> None:
    """§9: GameType 25 (Russian) or 26 (Brazilian); a set position is SetUp 1 with its FEN."""
    base = {"format": "gamehall-record/1", "game": "draughts", "players": ["ann", "bob"], "actions": []}
    assert '[GameType "26"]' in write({**base, "preset": "brazilian"})
    assert '[GameType "25"]' in write({**base, "preset": "russian"})
    text = write({**base, "preset": "russian", "overrides": {"start_fen": "B:Wa1,Kh8:Bb2,e3,h6"}})
    assert '[SetUp "1"]' in text and '[FEN "B:Wa1,Kh8:Bb2,e3,h6"]' in text
