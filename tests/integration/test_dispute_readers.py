"""Who reads a match's disputes, against a real nats-server, referee and gateway (issue 22): an
account named like a guest seat of a match reads none of that match's disputes (nor opens one),
an operator reads them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.cli.stackrun import in_process_stack
from services.common import accounts, db
from services.common import settings as settings_module

pytestmark = pytest.mark.integration


@pytest.fixture
async def stack(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, settings_module.Settings]]:
    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    async with in_process_stack(settings, ("referee", "gateway")) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            yield client, settings


async def sign_up(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/api/accounts", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status and r.json()["code"] == code, r.text


async def test_an_account_named_like_a_guest_seat_reads_none_of_its_disputes(stack: Any) -> None:
    client, settings = stack
    created = (await client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})).json()
    match_id = created["match_id"]
    r = await client.post(
        f"/api/matches/{match_id}/commands",
        json={"command": {"type": "resign.v1"}},
        headers={"Authorization": f"Bearer {created['seats'][1]['token']}"},
    )
    assert r.status_code == 200, r.text
    ann = await sign_up(client, "ann")
    olga = await sign_up(client, "olga-op")
    engine = db.open_database(settings.database_url)
    try:
        assert accounts.set_role(engine, "olga-op", accounts.OPERATOR)
    finally:
        engine.dispose()
    # the account "ann" did not play the guest seat "ann": it may not open a dispute on the match
    reason = {"reason": "the guest seat was mine"}
    refused(await client.post(f"/api/matches/{match_id}/disputes", json=reason, headers=ann), 403, "not_a_player")
    # an operator opens one; the account "ann" may not read it, the operator may
    r = await client.post(f"/api/matches/{match_id}/disputes", json={"reason": "report"}, headers=olga)
    assert r.status_code == 201, r.text
    dispute_id = r.json()["dispute_id"]
    assert r.json()["players"] == ["ann", "bob"]
    refused(await client.get(f"/api/disputes/{dispute_id}", headers=ann), 403, "not_allowed")
    assert (await client.get(f"/api/disputes/{dispute_id}", headers=olga)).json()["dispute_id"] == dispute_id
    # and a dispute id that does not exist answers the same to it (existence is for readers only)
    refused(await client.get(f"/api/disputes/{match_id}-9", headers=ann), 403, "not_allowed")


async def test_names_differing_only_by_case_are_one_name_at_sign_up(stack: Any) -> None:
    client, _ = stack
    first = await client.post("/api/accounts", json={"name": "QUINN"})
    assert first.status_code == 201
    second = await client.post("/api/accounts", json={"name": "quinn"})
    refused(second, 409, "name_taken")
    assert "without regard to case" in second.json()["detail"]
    refused(await client.post("/api/accounts", json={"name": "\uff31uinn"}), 400, "invalid_name")
