"""The match-list projection's cost per decision (``services/common/matchlist.py``): a match of
each game recorded as the referee stores it (``cardbench.record_match``, computer players), stored
again under ``--matches`` match ids and fed round-robin, as concurrent matches interleave on the
stream, through the projection's own code (``prepare``, then ``apply_batch`` in batches of 500
into a SQLite file, position included).  No NATS: every match starts at its first decision, so
nothing is read back from the stream.

Reports decisions per second per game, and the share of the fold and row (``prepare``) in it.
One JSON line at the end.

    .venv/bin/python bench/match_list_bench.py [--matches 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cardbench  # noqa: E402

from contracts import subjects  # noqa: E402
from domain.core import match as match_layer  # noqa: E402
from domain.games import registry  # noqa: E402
from services.common import db  # noqa: E402
from services.common.matchlist import MatchList  # noqa: E402
from services.common.projection import apply_batch  # noqa: E402

GAMES = ("ugolki", "kings-corner", "king", "thousand", "farkle-flip")


def recorded(game_name: str) -> list[bytes]:
    game = registry.get(game_name)
    ruleset = game.presets[game.default_preset].ruleset
    seats = match_layer.default_seats(game, ruleset)
    assert game.default_bot is not None
    bundle = cardbench.record_match(game_name, ruleset, game.default_preset, seats, b"s" * 32, bot=game.default_bot)
    return [e.data.encode() for e in bundle.envelopes]


async def project(url: str, game: str, log: list[bytes], matches: int, batch: int = 500) -> dict[str, Any]:
    engine = db.open_database(url)
    lister = MatchList(store=None)  # type: ignore[arg-type]  # never read: no match starts mid-log
    items = [
        (0, subjects.match_subject(game, f"m{i:05d}"), data) for data in log for i in range(matches)
    ]  # round-robin: decision 1 of every match, then decision 2 ...
    items = [(n + 1, subject, data) for n, (_, subject, data) in enumerate(items)]
    folding = 0.0
    started = time.perf_counter()
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        t = time.perf_counter()
        await lister.prepare(chunk)
        folding += time.perf_counter() - t
        apply_batch(engine, subjects.MATCH_LIST_CONSUMER, [(s, d) for s, _, d in chunk], lister.apply, prefetch=lister.prefetch)
    elapsed = time.perf_counter() - started
    engine.dispose()
    return {
        "decisions": len(items),
        "decisions_per_match": len(log),
        "per_s": round(len(items) / elapsed),
        "fold_and_row_share": round(folding / elapsed, 2),
        "us_per_decision": round(elapsed / len(items) * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for game in GAMES:
        log = recorded(game)
        work = Path(tempfile.mkdtemp(prefix="gh-matchlist-"))
        out[game] = asyncio.run(project(f"sqlite:///{work / 'list.sqlite3'}", game, log, args.matches))
        print(game, out[game], file=sys.stderr, flush=True)
    print(json.dumps({f"match_list_{k}": v for k, v in out.items()}))


if __name__ == "__main__":
    main()
