"""Ugolki computer players: the search bot against the greedy bot.

Plays N seeded matches (default 50) on a preset (default the product default), alternating
colours, and prints the score (win 1, draw 1/2) and the search bot's time per move.  The last
line is one JSON object.

    .venv/bin/python bench/ugolki_bots.py [--matches 50] [--preset halma-8x8-1234] [--a search --b greedy]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.games.ugolki import GAME  # noqa: E402
from domain.games.ugolki.rules import PRESETS  # noqa: E402


def play_match(
    preset: str, white: str, black: str, seed: int, times: dict[str, list[float]]
) -> tuple[Any, int]:
    bots = GAME.bots
    assert bots is not None
    rng = random.Random(seed)
    state = GAME.initial_state(PRESETS[preset], ("white", "black"), None)
    names = {"white": white, "black": black}
    turns = 0
    while GAME.outcome(state) is None and turns < 2000:
        seat = next(iter(GAME.to_move(state)))
        started = time.process_time()
        command = bots[names[seat]](state, seat, rng)
        times[names[seat]].append(time.process_time() - started)
        events = GAME.decide(state, seat, command)
        assert isinstance(events, tuple), events
        for event in events:
            state = GAME.evolve(state, event)
        turns += 1
    return GAME.outcome(state), turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--preset", default="halma-8x8-1234")
    parser.add_argument("--a", default="search", help="the bot being measured")
    parser.add_argument("--b", default="greedy", help="its opponent")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: dict[str, list[float]] = {args.a: [], args.b: []}
    score = 0.0
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for i in range(args.matches):
        a_white = i % 2 == 0
        white, black = (args.a, args.b) if a_white else (args.b, args.a)
        outcome, turns = play_match(args.preset, white, black, args.seed * 1000 + i, times)
        if outcome is None:
            results["unfinished"] += 1
            score += 0.5
            continue
        reasons[outcome.reason] += 1
        a_rank = outcome.ranks[0 if a_white else 1]
        if outcome.draw:
            results["draw"] += 1
            score += 0.5
        elif a_rank == 1:
            results["win"] += 1
            score += 1
        else:
            results["loss"] += 1
        print(
            f"match {i + 1:2}: {white} (white) vs {black} (black): "
            f"{'draw' if outcome.draw else ('white' if outcome.ranks[0] == 1 else 'black') + ' wins'} "
            f"by {outcome.reason} after {turns} turns"
        )
    a_times = times[args.a]
    per_move = sum(a_times) / max(1, len(a_times))
    worst = max(a_times, default=0.0)
    print(
        f"{args.a} vs {args.b} on {args.preset}: {score} / {args.matches} "
        f"(wins {results['win']}, draws {results['draw']}, losses {results['loss']}); "
        f"{args.a} {per_move * 1000:.1f} ms/move cpu (max {worst * 1000:.0f} ms); reasons {dict(reasons)}"
    )
    print(
        json.dumps(
            {
                "preset": args.preset,
                "bot": args.a,
                "opponent": args.b,
                "matches": args.matches,
                "score": score,
                "wins": results["win"],
                "draws": results["draw"],
                "losses": results["loss"],
                "unfinished": results["unfinished"],
                "ms_per_move": round(per_move * 1000, 2),
                "max_ms_per_move": round(worst * 1000, 1),
                "reasons": dict(reasons),
                "seconds": round(time.perf_counter() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
