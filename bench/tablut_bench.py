"""Tablut: perft nodes/s of the generator on precomputed rays (domain/games/tablut/engine.py)
against the plain one written straight from the rules (domain/games/tablut/plain.py), decide+evolve
µs per move, the computer players' win shares with 95 % intervals, and the time to replay a
200-move record.  Progress on stderr; the last stdout line is one JSON object (keys ``tablut_*``).

    .venv/bin/python bench/tablut_bench.py [--matches 10] [--depth 3]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardbench import wilson  # noqa: E402

from contracts.envelope import Rejected  # noqa: E402
from domain import records  # noqa: E402
from domain.games.tablut import GAME, PRESETS  # noqa: E402
from domain.games.tablut import plain as plain_gen  # noqa: E402
from domain.games.tablut.board import ATTACKERS, KING, LETTER  # noqa: E402
from domain.games.tablut.perft import perft  # noqa: E402

SEATS = ("attackers", "defenders")
Sq = tuple[int, int]


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _plain_perft(rules: Any, board: dict[Sq, str], attackers: bool, depth: int) -> int:
    legal = plain_gen.moves(rules, board, attackers)
    if depth == 1:
        return len(legal)
    total = 0
    for s, x in legal:
        b = dict(board)
        b[x] = b.pop(s)
        taken = plain_gen.captured(rules, b, x)
        king_taken = any(board[q] == "K" for q in taken)
        for q in taken:
            del b[q]
        escaped = b[x] == "K" and (x in plain_gen.CORNERS if rules.escape == "corner" else 0 in x or 8 in x)
        if king_taken or escaped:
            continue
        total += _plain_perft(rules, b, not attackers, depth - 1)
    return total


def perft_speed(depth: int) -> dict[str, Any]:
    state = GAME.initial_state(PRESETS["tablut-seed"], SEATS, None)
    t = time.perf_counter()
    nodes = perft(state, depth)
    fast_s = time.perf_counter() - t
    board = {(i % 9, i // 9): LETTER[p] for i, p in enumerate(state.board) if p}
    t = time.perf_counter()
    plain_nodes = _plain_perft(state.rules, board, state.side == ATTACKERS, depth)
    plain_s = time.perf_counter() - t
    assert plain_nodes == nodes, (plain_nodes, nodes)
    assert KING in state.board
    return {
        "tablut_perft_depth": depth,
        "tablut_perft_nodes": nodes,
        "tablut_perft_nodes_s": round(nodes / fast_s),
        "tablut_perft_plain_nodes_s": round(nodes / plain_s),
        "tablut_perft_speedup": round(plain_s / fast_s, 2),
    }


def decide_speed(games: int = 10) -> dict[str, Any]:
    rng = random.Random(1)
    moves, spent = 0, 0.0
    for _ in range(games):
        s = GAME.initial_state(PRESETS["tablut-seed"], SEATS, None)
        while GAME.outcome(s) is None:
            seat = SEATS[s.side]
            cmd = rng.choice(GAME.legal_commands(s, seat))
            t = time.perf_counter()
            events = GAME.decide(s, seat, cmd)
            assert not isinstance(events, Rejected)
            for e in events:
                s = GAME.evolve(s, e)
            spent += time.perf_counter() - t
            moves += 1
    return {"tablut_decide_us_per_move": round(spent / moves * 1e6, 1), "tablut_decide_moves": moves}


def play(a: str, b: str, seed: int) -> float:
    """The score of ``a`` (1 win, 1/2 draw); ``a`` plays the attackers on even seeds."""
    rng = random.Random(seed)
    names = (a, b) if seed % 2 == 0 else (b, a)
    s = GAME.initial_state(PRESETS["tablut-seed"], SEATS, None)
    while GAME.outcome(s) is None:
        side = s.side
        cmd = GAME.bots[names[side]](s, SEATS[side], rng)
        for e in GAME.decide(s, SEATS[side], cmd):  # type: ignore[union-attr]
            s = GAME.evolve(s, e)
    out = GAME.outcome(s)
    assert out is not None
    if out.draw:
        return 0.5
    a_side = 0 if seed % 2 == 0 else 1
    return 1.0 if out.ranks[a_side] == 1 else 0.0


def shares(a: str, b: str, matches: int) -> dict[str, Any]:
    """The win share of ``a`` against ``b`` (a draw counts half), seats alternating, with its 95 %
    Wilson interval."""
    wins = sum(play(a, b, seed) for seed in range(matches))
    key = f"tablut_{a}_vs_{b}"
    return {key: round(wins / matches, 3), f"{key}_ci95": list(wilson(wins, matches))}


def replay_time() -> dict[str, Any]:
    """A record of 200 moves (the first 200 plies of the longest of up to 60 random games)
    replayed by ``records.replay``."""
    longest: list[list[Any]] = []
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.initial_state(PRESETS["tablut-seed"], SEATS, None)
        actions: list[list[Any]] = []
        while GAME.outcome(s) is None and len(actions) < 200:
            side = s.side
            cmd = rng.choice(GAME.legal_commands(s, SEATS[side]))
            actions.append(["move", side, cmd.move])
            for e in GAME.decide(s, SEATS[side], cmd):  # type: ignore[union-attr]
                s = GAME.evolve(s, e)
        if len(actions) > len(longest):
            longest = actions
        if len(longest) >= 200:
            break
    record = {"format": "gamehall-record/1", "game": "tablut", "preset": "tablut-seed", "players": ["a", "b"], "actions": longest}
    t = time.perf_counter()
    answer = records.replay(record)
    spent = time.perf_counter() - t
    assert isinstance(answer, records.Replayed), answer
    return {"tablut_replay_moves": len(longest), "tablut_replay_s": round(spent, 4)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=10)
    ap.add_argument("--depth", type=int, default=3)
    a = ap.parse_args()
    out: dict[str, Any] = {}
    say("perft...")
    out.update(perft_speed(a.depth))
    say("decide...")
    out.update(decide_speed())
    say("replay...")
    out.update(replay_time())
    for pair in (("greedy", "random"), ("search", "greedy")):
        say(f"{pair[0]} vs {pair[1]}...")
        out.update(shares(*pair, a.matches))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
