"""Listing at scale: ``--matches`` finished matches (default 1,000,000) bulk-inserted straight into
the read models (``match_history`` and ``match_players``, and the match list ``match_list``;
SQLite, or PostgreSQL with ``--db-url``), then a real gateway process (``gamehall serve gateway``
on an embedded nats-server) answers paged listings over HTTP.

Reports, per listing: p50/p99 of the first page, of pages deep in the listing (reached by
following ``next_cursor``), of ``/api/history`` (its first page, and deep, following its
``Next-Cursor`` header), of ``/api/matches`` and ``/api/match-summaries`` (first page, and deep
after following ``next_cursor`` of ``/api/matches``, whose cursors both routes take); the
gateway's resident memory before and after; and the ratio deep-page p99 / first-page p99 (1.0: a
page costs the same wherever it is).  One JSON line at the end.

    .venv/bin/python bench/listing_bench.py [--matches 1000000] [--db-url postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from services.common import db  # noqa: E402
from services.common.embedded import EmbeddedNats  # noqa: E402
from services.common.processes import free_port  # noqa: E402

PLAYERS = 10_000
GAMES = ("ugolki", "kings-corner", "king", "thousand")
T0 = 1_700_000_000_000


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def fill(url: str, matches: int, batch: int = 20_000) -> float:
    """Insert ``matches`` finished matches (2 seats each) and their players; seconds taken."""
    engine = db.open_database(url)
    rng = random.Random(16)
    started = time.perf_counter()
    with engine.begin() as conn:
        conn.execute(
            insert(db.Player),
            [
                {"player_id": f"p{i:05d}", "first_seen_at": T0, "last_seen_at": T0, "rated_games": 0}
                for i in range(PLAYERS)
            ],
        )
    raw = None
    if url.startswith("sqlite:///"):
        raw = sqlite3.connect(url.removeprefix("sqlite:///"))
        raw.execute("PRAGMA synchronous=OFF")
    for start in range(0, matches, batch):
        records, seats, listed = [], [], []
        for n in range(start, min(start + batch, matches)):
            a, b = rng.sample(range(PLAYERS), 2)
            game = GAMES[n % len(GAMES)]
            match_id = f"m{n:08d}"
            at = T0 + n * 1000
            win = rng.random() < 0.5
            records.append(
                {
                    "match_id": match_id,
                    "game": game,
                    "preset": "classic",
                    "family": "classic",
                    "season": "2026",
                    "ranked": True,
                    "rated": True,
                    "model": "glicko2",
                    "seats": ["white", "black"],
                    "players": [f"p{a:05d}", f"p{b:05d}"],
                    "ranks": [1, 2] if win else [2, 1],
                    "scores": [1.0, 0.0] if win else [0.0, 1.0],
                    "draw": False,
                    "reason": "finished",
                    "moves": 40,
                    "finished_at": at,
                    "position": n + 1,
                }
            )
            listed.append(
                {
                    "match_id": match_id,
                    "game": game,
                    "rules_version": "1",
                    "preset": "classic",
                    "status": "finished",
                    "seats": ["white", "black"],
                    "players": [f"p{a:05d}", f"p{b:05d}"],
                    "to_move": [],
                    "outcome": {"ranks": [1, 2] if win else [2, 1], "scores": [], "reason": "finished", "draw": False},
                    "outcome_text": {
                        "en": f"p{(a if win else b):05d} (white) wins: the other side resigned.",
                        "ru": f"Побеждает p{(a if win else b):05d} (white): другая сторона сдалась.",
                    },
                    "decisions": 41,
                    "stream_seq": 41 * (n + 1),
                    "created_at": at - 600_000,
                    "updated_at": at,
                    "finished_at": at,
                }
            )
            for i, p in enumerate((a, b)):
                seats.append(
                    {
                        "match_id": match_id,
                        "seat_index": i,
                        "player": f"p{p:05d}",
                        "game": game,
                        "rank": (1 if win else 2) if i == 0 else (2 if win else 1),
                        "finished_at": at,
                        "rating_before": 1500.0,
                        "rating_after": 1510.0,
                    }
                )
        if raw is not None:  # SQLite: the driver's executemany, no ORM per row
            raw.executemany(RECORD_SQL, [_record_row(r) for r in records])
            raw.executemany(SEAT_SQL, [tuple(x[k] for k in SEAT_COLUMNS) for x in seats])
            raw.executemany(LISTED_SQL, [_row(x, LISTED_COLUMNS) for x in listed])
            raw.commit()
        else:
            with engine.begin() as conn:
                conn.execute(insert(db.MatchRecord), records)
                conn.execute(insert(db.MatchPlayer), seats)
                conn.execute(insert(db.StoredMatch), listed)
        if start and start % 200_000 == 0:
            say(f"  {start:,} matches stored")
    if raw is not None:
        raw.close()
    engine.dispose()
    return time.perf_counter() - started


RECORD_COLUMNS = (
    "match_id", "game", "preset", "family", "season", "ranked", "rated", "model", "seats", "players",
    "ranks", "scores", "draw", "reason", "moves", "finished_at", "position",
)  # fmt: skip
SEAT_COLUMNS = ("match_id", "seat_index", "player", "game", "rank", "finished_at", "rating_before", "rating_after")
RECORD_SQL = f"INSERT INTO match_history ({', '.join(RECORD_COLUMNS)}) VALUES ({', '.join('?' * len(RECORD_COLUMNS))})"
LISTED_COLUMNS = tuple(c.name for c in db.StoredMatch.__table__.columns)
LISTED_SQL = f"INSERT INTO match_list ({', '.join(LISTED_COLUMNS)}) VALUES ({', '.join('?' * len(LISTED_COLUMNS))})"
SEAT_SQL = f"INSERT INTO match_players ({', '.join(SEAT_COLUMNS)}) VALUES ({', '.join('?' * len(SEAT_COLUMNS))})"


def _record_row(record: dict) -> tuple:
    return _row(record, RECORD_COLUMNS)


def _row(values: dict, columns: tuple[str, ...]) -> tuple:
    return tuple(json.dumps(values[k]) if isinstance(values[k], list | dict) else values[k] for k in columns)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def timed(client: httpx.Client, path: str, params: dict) -> tuple[float, dict | list]:
    started = time.perf_counter()
    r = client.get(path, params=params)
    elapsed = time.perf_counter() - started
    assert r.status_code == 200, r.text
    return elapsed, r.json()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000.0


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": round(pct(values, 0.5), 2), "p99_ms": round(pct(values, 0.99), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--db-url", default=None, help="an empty database (default: a new SQLite file)")
    parser.add_argument("--requests", type=int, default=200, help="requests per measured listing")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gh-listing-"))
    url = args.db_url or f"sqlite:///{work / 'gamehall.sqlite3'}"
    say(f"storing {args.matches:,} finished matches in {url.split('@')[-1]}")
    fill_s = fill(url, args.matches)
    say(f"  stored in {fill_s:.1f}s")
    nats = EmbeddedNats(work / "nats").start()
    port = free_port()
    env = dict(
        os.environ,
        NATS_URL=nats.url,
        GAMEHALL_DB_URL=url,
        GAMEHALL_DATA_DIR=str(work),
        GAMEHALL_HTTP_PORT=str(port),
        GAMEHALL_METRICS_PORT="0",
        GAMEHALL_RATE_ADDRESS="off",
    )
    env.pop("GAMEHALL_NATS_CREDENTIALS", None)
    gateway = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "serve", "gateway"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: dict = {"matches": args.matches, "database": url.split(":")[0], "fill_s": round(fill_s, 1)}
    try:
        base = f"http://127.0.0.1:{port}"
        client = httpx.Client(base_url=base, timeout=60)
        for _ in range(300):
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        out["gateway_rss_start_kb"] = rss_kb(gateway.pid)
        n = args.requests
        first = [timed(client, "/api/finished", {"limit": 50})[0] for _ in range(n)]
        # walk deep: follow next_cursor for n pages of 500, then time pages from there on
        cursor = None
        walked = 0
        for _ in range(n):
            _, page = timed(client, "/api/finished", {"limit": 500, **({"cursor": cursor} if cursor else {})})
            cursor = page["next_cursor"]
            walked += len(page["matches"])
        deep = []
        for _ in range(n):
            elapsed, page = timed(client, "/api/finished", {"limit": 50, "cursor": cursor})
            deep.append(elapsed)
            cursor = page["next_cursor"] or cursor
        game = [timed(client, "/api/finished", {"limit": 50, "game": "king"})[0] for _ in range(n)]
        rng = random.Random(1)
        player = [
            timed(client, "/api/finished", {"limit": 50, "player": f"p{rng.randrange(PLAYERS):05d}"})[0]
            for _ in range(n)
        ]
        players = [timed(client, "/api/players", {"limit": 100})[0] for _ in range(n)]
        history = [timed(client, "/api/history", {"limit": 50})[0] for _ in range(n)]
        # the same listing through /api/history, deep: its cursor comes in the Next-Cursor header
        cursor = None
        for _ in range(n):
            r = client.get("/api/history", params={"limit": 500, **({"cursor": cursor} if cursor else {})})
            cursor = r.headers.get("next-cursor") or cursor
        history_deep = []
        for _ in range(n):
            start = time.perf_counter()
            r = client.get("/api/history", params={"limit": 50, "cursor": cursor})
            r.raise_for_status()
            history_deep.append(time.perf_counter() - start)
            cursor = r.headers.get("next-cursor") or cursor
        # the match list: /api/matches and /api/match-summaries, first page and deep (their cursors
        # are interchangeable: walk with /api/matches, 1000 a page)
        matches_first = [timed(client, "/api/matches", {})[0] for _ in range(n)]
        summaries_first = [timed(client, "/api/match-summaries", {})[0] for _ in range(n)]
        summaries_first_ru = [timed(client, "/api/match-summaries", {"lang": "ru"})[0] for _ in range(n)]
        cursor = None
        listed_walked = 0
        for _ in range(n):
            _, page = timed(client, "/api/matches", {"limit": 1000, **({"cursor": cursor} if cursor else {})})
            cursor = page["next_cursor"]
            listed_walked += len(page["matches"])
        deep_cursor = cursor
        matches_deep = []
        for _ in range(n):
            elapsed, page = timed(client, "/api/matches", {"cursor": cursor})
            matches_deep.append(elapsed)
            cursor = page["next_cursor"] or cursor
        cursor = deep_cursor
        summaries_deep = []
        for _ in range(n):
            elapsed, page = timed(client, "/api/match-summaries", {"cursor": cursor})
            summaries_deep.append(elapsed)
            cursor = page["next_cursor"] or cursor
        out.update(
            matches_first_page=summary(matches_first),
            matches_deep_page=summary(matches_deep) | {"after_matches": listed_walked},
            summaries_first_page=summary(summaries_first),
            summaries_first_page_ru=summary(summaries_first_ru),
            summaries_deep_page=summary(summaries_deep) | {"after_matches": listed_walked},
        )
        out.update(
            first_page=summary(first),
            deep_page=summary(deep) | {"after_matches": walked},
            one_game=summary(game),
            one_player=summary(player),
            players=summary(players),
            history_first_page=summary(history),
            history_deep_page=summary(history_deep),
            gateway_rss_end_kb=rss_kb(gateway.pid),
        )
        out["deep_over_first_p99"] = round(out["deep_page"]["p99_ms"] / out["first_page"]["p99_ms"], 2)
        for name in ("matches", "summaries", "history"):
            deep_p99 = out[f"{name}_deep_page"]["p99_ms"]
            out[f"{name}_deep_over_first_p99"] = round(deep_p99 / out[f"{name}_first_page"]["p99_ms"], 2)
        out["median_first_ms"] = round(statistics.median(first) * 1000, 2)
    finally:
        gateway.terminate()
        gateway.wait(20)
        nats.stop()
    # flat keys with a prefix, so bench/run.py can merge them into its summary line
    print(json.dumps({k if k.startswith("listing") else f"listing_{k}": v for k, v in out.items()}))


if __name__ == "__main__":
    main()
