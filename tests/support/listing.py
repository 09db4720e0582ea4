"""Waiting for the match list (``GET /api/matches``, ``GET /api/match-summaries``), which scoring
projects from the match stream a little after each decision is stored (docs/api.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx


def summaries(client: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    """Every match of the list, newest first, following ``next_cursor``."""
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        r = client.get("/api/match-summaries", params={"limit": 100, **params, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        out += r.json()["matches"]
        cursor = r.json()["next_cursor"]
        if cursor is None:
            return out


def listed(
    client: httpx.Client,
    match_id: str,
    until: Callable[[dict[str, Any]], bool] = lambda _: True,
    timeout: float = 60.0,
    **params: Any,
) -> dict[str, Any]:
    """The match's summary once the list has it (and ``until`` holds for it)."""
    deadline = time.monotonic() + timeout
    while True:
        found = next((m for m in summaries(client, **params) if m["match_id"] == match_id), None)
        if found is not None and until(found):
            return found
        assert time.monotonic() < deadline, f"match {match_id} not listed as wanted within {timeout} s: {found}"
        time.sleep(0.05)


SENTINELS: set[str] = set()


def settled(client: httpx.Client) -> list[dict[str, Any]]:
    """The whole list once everything stored so far is in it: a match created now is listed
    after every message stored before it (the projection reads the stream in order), so the
    list is waited for until it has this one.  Returned without the matches this function
    created."""
    sentinel = client.post("/api/matches", json={"game": "ugolki"})
    assert sentinel.status_code == 201, sentinel.text
    mid = sentinel.json()["match_id"]
    SENTINELS.add(mid)
    listed(client, mid)
    return [m for m in summaries(client) if m["match_id"] not in SENTINELS]
