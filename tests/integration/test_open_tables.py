"""Open tables against a real nats-server, referee, matchmaking and gateway (issue 15): a private
table opened as public is listed by GET /api/tables (game, preset title, seats taken of seats,
host, age; never a ticket id or token), a player joins it from the listing, the two sit at one
match, and the full table leaves the list."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from services.cli.stackrun import in_process_stack
from services.common import settings as settings_module
from tests.integration.test_identity import join, sign_up

pytestmark = pytest.mark.integration


@pytest.fixture
async def client(nats_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    async with in_process_stack(settings, ("referee", "gateway", "matchmaking")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            yield c


async def seated(client: httpx.AsyncClient, auth: dict[str, str], ticket: str) -> dict:
    for _ in range(200):
        state = (await client.get(f"/api/queue/{ticket}", headers=auth)).json()
        if state.get("state") == "seated":
            return state
        await asyncio.sleep(0.05)
    raise AssertionError(f"never seated: {state}")


async def test_a_public_table_is_listed_joined_from_the_list_and_then_gone(client: httpx.AsyncClient) -> None:
    tag = uuid.uuid4().hex[:6]
    host, guest, other = f"sam-{tag}", f"tom-{tag}", f"dan-{tag}"
    sam, tom, dan = [await sign_up(client, n) for n in (host, guest, other)]
    code = f"t-{tag}"
    opened = await join(client, sam, invite=code, public=True, ranked=False)
    assert opened.status_code == 200, opened.text
    hidden = await join(client, dan, invite=f"secret-{tag}", ranked=False)  # private: not listed
    assert hidden.status_code == 200, hidden.text

    listed = await client.get("/api/tables", params={"game": "ugolki"})
    assert listed.status_code == 200, listed.text
    mine = [t for t in listed.json()["tables"] if t["invite"] == code]
    assert len(mine) == 1
    table = mine[0]
    assert {k: table[k] for k in ("game", "preset", "title", "seats", "taken", "host", "players", "ranked")} == {
        "game": "ugolki",
        "preset": "halma-8x8-1234",
        "title": "Halma 8×8",
        "seats": 2,
        "taken": 1,
        "host": host,
        "players": [host],
        "ranked": False,
    }
    assert table["age_s"] >= 0 and table["since"] > 0
    assert table["game_title"] == "Ugolki (corners)"
    russian = await client.get("/api/tables", params={"game": "ugolki", "lang": "ru"})
    listed_ru = next(t for t in russian.json()["tables"] if t["invite"] == code)
    assert (listed_ru["game_title"], listed_ru["title"], listed_ru["preset"]) == ("Уголки", "Гальма 8×8", "halma-8x8-1234")
    by_header = await client.get("/api/tables", params={"game": "ugolki"}, headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert next(t for t in by_header.json()["tables"] if t["invite"] == code)["title"] == "Гальма 8×8"
    assert "ticket_id" not in table and opened.json()["ticket_id"] not in listed.text
    assert sam["Authorization"].split()[1] not in listed.text
    assert f"secret-{tag}" not in listed.text and other not in listed.text

    # Join it from the listing: the same game, preset, seats, ranked and code.
    joined = await join(
        client,
        tom,
        game=table["game"],
        preset=table["preset"],
        seats=table["seats"],
        ranked=table["ranked"],
        invite=table["invite"],
    )
    assert joined.status_code == 200, joined.text
    a = await seated(client, sam, opened.json()["ticket_id"])
    b = await seated(client, tom, joined.json()["ticket_id"])
    assert a["match_id"] == b["match_id"] and {a["seat"], b["seat"]} == {"white", "black"}
    after = (await client.get("/api/tables")).json()["tables"]
    assert code not in [t["invite"] for t in after]
    view = (await client.get(f"/api/matches/{a['match_id']}")).json()
    assert sorted(view["players"]) == sorted([host, guest])


async def test_open_tables_refusals(client: httpx.AsyncClient) -> None:
    me = await sign_up(client, f"eve-{uuid.uuid4().hex[:6]}")
    refused = await join(client, me, public=True)
    assert refused.status_code == 400 and refused.json()["code"] == "public_needs_invite"
    unknown = await client.get("/api/tables", params={"game": "nope"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_game"
