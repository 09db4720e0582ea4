"""The read side of a big tournament (pure domain, no network): the time to render and encode the
view (``domain.tournaments.view.view``: standings with four tie-breaks, the crosstable, every
round's pairings) of a two-seat tournament of ``--players`` (1,000) after ``--rounds`` (9) rounds,
in English and Russian, and its size in bytes.  The rounds' pairings are drawn at random (a
quarter draws): the view does not depend on how they were paired.

    .venv/bin/python bench/tournament_view_bench.py [--players 1000] [--rounds 9] [--repeat 3]

The last stdout line is one JSON object (keys ``tournament_view_*``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts.codecs import encode  # noqa: E402
from contracts.tournaments import (  # noqa: E402
    PlayerJoined,
    RegistrationClosed,
    ResultRecorded,
    RoundStarted,
    Table,
    TournamentCreated,
    TournamentEvent,
    TournamentSettings,
)
from domain.tournaments import TournamentState, fold  # noqa: E402
from domain.tournaments.view import view  # noqa: E402


def tournament(players: int, rounds: int) -> TournamentState:
    names = [f"p{i:05d}" for i in range(players)]
    settings = TournamentSettings(
        format="swiss",
        game="ugolki",
        preset="gambiter-classic",
        seed_commitment=hashlib.sha256(bytes(32)).hexdigest(),
        rounds=rounds,
        tie_breaks=("buchholz", "median_buchholz", "sonneborn_berger", "wins"),
    )
    events: list[TournamentEvent] = [TournamentCreated(tournament_id="big", settings=settings)]
    events += [PlayerJoined(player=p) for p in names]
    events.append(RegistrationClosed(server_seed=bytes(32).hex(), order=tuple(names)))
    rng = random.Random(1)
    for r in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        tables = tuple(Table(table=i + 1, seats=(order[2 * i], order[2 * i + 1])) for i in range(players // 2))
        events.append(RoundStarted(round=r, tables=tables))
        for t in tables:
            ranks = (0, 0) if rng.random() < 0.25 else rng.choice([(0, 1), (1, 0)])
            events.append(ResultRecorded(round=r, table=t.table, ranks=ranks))
    return fold(events)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    state = tournament(args.players, args.rounds)
    out: dict[str, float | int] = {"tournament_view_players": args.players, "tournament_view_rounds": args.rounds}
    for lang in ("en", "ru"):
        best = float("inf")
        size = 0
        for _ in range(args.repeat):
            started = time.process_time()
            size = len(encode(view(state, lang)))  # type: ignore[arg-type]
            best = min(best, time.process_time() - started)
        out[f"tournament_view_{lang}_ms"] = round(best * 1000, 1)
        out[f"tournament_view_{lang}_bytes"] = size
        print(f"view in {lang}: {best * 1000:.0f} ms CPU, {size:,} bytes", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
