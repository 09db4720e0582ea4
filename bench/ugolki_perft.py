"""Ugolki move generation speed: perft(4) from BLK12 and TRI10 starts, ORTH and ALL8.

For each case it runs the engine's perft (bitboards, bulk-counted last ply) and, for
comparison, a plain generator over Python sets written below, checks that both count the
same, and prints nodes/s.  Then it times the replay (fold of evolve) of a 200-move game.

Times are the best of several runs; both wall-clock and process CPU time are reported because
other processes on a shared machine inflate wall-clock time.  The last line is one JSON object.

    .venv/bin/python bench/ugolki_perft.py [--depth 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts.games.ugolki import UgolkiRuleset  # noqa: E402
from domain.core.decider import fold  # noqa: E402
from domain.games.ugolki import GAME  # noqa: E402
from domain.games.ugolki.perft import perft  # noqa: E402
from domain.games.ugolki.rules import PRESETS  # noqa: E402

CASES: dict[str, UgolkiRuleset] = {
    "blk12_orth": PRESETS["luckforfree-3x4"],
    "blk12_all8": PRESETS["club-any-direction-40"],
    "tri10_orth": PRESETS["halma-8x8-1234"],
    "tri10_all8": PRESETS["halma-8x8-1234-diag"],
}

ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))
DIRS = {"ORTH": ORTH, "DIAG": DIAG, "ALL8": ORTH + DIAG}

Square = tuple[int, int]


def plain_moves(
    n: int,
    own: frozenset[Square],
    opp: frozenset[Square],
    steps: tuple[Square, ...],
    jumps: tuple[Square, ...],
) -> set[tuple[Square, Square]]:
    """Distinct (from, to) moves by the book: steps, then a depth-first search of jump chains."""
    occupied = own | opp
    out: set[tuple[Square, Square]] = set()
    for f, r in own:
        for df, dr in steps:
            t = (f + df, r + dr)
            if 1 <= t[0] <= n and 1 <= t[1] <= n and t not in occupied:
                out.add(((f, r), t))
        others = occupied - {(f, r)}
        seen = {(f, r)}
        stack = [(f, r)]
        while stack:
            x, y = stack.pop()
            for df, dr in jumps:
                over = (x + df, y + dr)
                land = (x + 2 * df, y + 2 * dr)
                if (
                    over in others
                    and 1 <= land[0] <= n
                    and 1 <= land[1] <= n
                    and land not in others
                    and land not in seen
                ):
                    seen.add(land)
                    stack.append(land)
        for t in seen - {(f, r)}:
            out.add(((f, r), t))
    return out


def plain_perft(
    n: int,
    own: frozenset[Square],
    opp: frozenset[Square],
    steps: tuple[Square, ...],
    jumps: tuple[Square, ...],
    depth: int,
) -> int:
    moves = plain_moves(n, own, opp, steps, jumps)
    if depth == 1:
        return len(moves)
    return sum(plain_perft(n, opp, (own - {f}) | {t}, steps, jumps, depth - 1) for f, t in moves)


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, best wall seconds, best CPU seconds)."""
    wall = cpu = float("inf")
    result = None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return result, wall, cpu


def squares(state: Any, bits: int) -> frozenset[Square]:
    geo = state.geo
    return frozenset(geo.file_rank(i) for i in geo.squares(bits))


def replay_game(moves: int = 200) -> tuple[Any, list[Any]]:
    """A seeded random game of ``moves`` turns under the default rules minus the move limits."""
    ruleset = msgspec.structs.replace(PRESETS["halma-8x8-1234"], leave_home="none", long_game="none")
    rng = random.Random(2024)
    state = start = GAME.initial_state(ruleset, ("white", "black"), None)
    events: list[Any] = []
    while len(events) < moves and GAME.outcome(state) is None:
        seat = next(iter(GAME.to_move(state)))
        decided = GAME.decide(state, seat, GAME.bots["random"](state, seat, rng))  # type: ignore[index]
        assert isinstance(decided, tuple)
        for event in decided:
            events.append(event)
            state = GAME.evolve(state, event)
    return start, events[:moves]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--plain-depth", type=int, default=None, help="depth for the plain generator")
    args = parser.parse_args()
    plain_depth = args.plain_depth or args.depth
    summary: dict[str, Any] = {"depth": args.depth}
    for name, ruleset in CASES.items():
        state = GAME.initial_state(ruleset, ("white", "black"), None)
        perft(state, 2)  # warm the geometry caches
        nodes, wall, cpu = best_of(args.repeat, lambda s=state: perft(s, args.depth))
        own, opp = squares(state, state.white), squares(state, state.black)
        steps, jumps = DIRS[ruleset.step_dirs], DIRS[ruleset.jump_dirs]
        plain_nodes, plain_wall, plain_cpu = best_of(
            1, lambda a=(ruleset.board, own, opp, steps, jumps): plain_perft(*a, plain_depth)
        )
        if plain_depth == args.depth and plain_nodes != nodes:
            raise SystemExit(f"{name}: engine counts {nodes}, plain generator {plain_nodes}")
        rate, rate_cpu = nodes / wall, nodes / cpu
        plain_rate, plain_rate_cpu = plain_nodes / plain_wall, plain_nodes / plain_cpu
        print(
            f"{name:11} perft({args.depth}) = {nodes:>9,}  engine {wall:7.3f} s {rate:>11,.0f} nodes/s "
            f"(cpu {rate_cpu:,.0f})  plain {plain_wall:7.3f} s {plain_rate:>9,.0f} nodes/s "
            f"(cpu {plain_rate_cpu:,.0f})  ratio {rate / plain_rate:5.1f}x"
        )
        summary[f"perft_nodes_{name}"] = nodes
        summary[f"perft_nodes_s_{name}"] = round(rate)
        summary[f"perft_cpu_nodes_s_{name}"] = round(rate_cpu)
        summary[f"plain_perft_nodes_s_{name}"] = round(plain_rate)
        summary[f"plain_perft_cpu_nodes_s_{name}"] = round(plain_rate_cpu)
    start, events = replay_game()
    final, wall, cpu = best_of(max(5, args.repeat), lambda: fold(GAME, start, events))
    print(f"replay of {len(events)} moves: {wall * 1000:.2f} ms wall, {cpu * 1000:.2f} ms cpu")
    summary["replay_moves"] = len(events)
    summary["replay_200_ms"] = round(wall * 1000, 3)
    summary["replay_200_cpu_ms"] = round(cpu * 1000, 3)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
