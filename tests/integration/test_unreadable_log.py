"""A match log holding a message that is not an envelope of its game (written by another
program, or damaged) is answered with a typed 409 ``unreadable_match`` on every route that folds
it, and the matches listing leaves it out instead of failing for every match on the page."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

from services.common.natsio import connect
from tests.support.listing import settled

pytestmark = pytest.mark.integration


def publish(nats_url: str, subject: str, *payloads: bytes) -> None:
    async def go() -> None:
        nc = await connect(nats_url, "unreadable-test")
        try:
            js = nc.jetstream()
            for data in payloads:
                await js.publish(subject, data)
        finally:
            await nc.close()

    asyncio.run(go())


def test_an_unreadable_log_is_a_typed_409_and_is_left_out_of_the_listing(
    client: httpx.Client, nats_url: str
) -> None:
    good = client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
    assert good.status_code == 201, good.text
    bad = f"junk-{uuid.uuid4().hex[:8]}"
    publish(nats_url, f"match.ugolki.{bad}", b"\x00not an envelope")

    for path in (f"/api/matches/{bad}", f"/api/matches/{bad}/events", f"/api/matches/{bad}/replay"):
        r = client.get(path)
        assert r.status_code == 409, (path, r.text)
        body = r.json()
        assert body["code"] == "unreadable_match" and bad in body["detail"], body

    # settled: the list has everything stored before a match created now, the junk included
    seen = [m["match_id"] for m in settled(client)]
    assert good.json()["match_id"] in seen and bad not in seen
    # the match that reads is still served
    assert client.get(f"/api/matches/{good.json()['match_id']}").status_code == 200
