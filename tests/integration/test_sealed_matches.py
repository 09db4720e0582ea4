"""Sealed card matches on a real nats-server (docs/audit.md "Sealed decisions"): while a Kings in
the Corner match runs, its stored log holds no card a spectator may not see; the gateway still
serves each seat its own hand (views, decisions, the WebSocket); a restarted referee opens the log;
after the end the bundle audits clean and one flipped byte of a sealed box fails it."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from websockets.asyncio.client import connect as ws_connect

from contracts import subjects
from contracts.audit import StoredEnvelope
from contracts.codecs import codec
from contracts.envelope import Accepted, Rejected
from contracts.games.kings_corner import RoundDealt
from contracts.match import Resign
from domain.audit import audit, decode_bundle
from domain.core import match as match_layer
from domain.core import seal
from domain.core.matchlog import fold_envelopes
from domain.games import registry
from services.common import commands
from services.common.natsio import EventStore
from services.referee.core import Referee
from tests.support.bundles import clear_values, played_match
from tests.support.redaction import strings
from tests.support.referees import own_nats

pytestmark = pytest.mark.integration

KC = registry.get("kings-corner")
CODEC = codec("kings-corner")


def played(envelopes: list[Any]) -> set[str]:
    """The cards put on the table in ``envelopes`` (public from then on)."""
    out: set[str] = set()
    for env in envelopes:
        for event in env.events:
            tag = event.__struct_config__.tag
            if tag == "kc_card_played.v1":
                out.add(event.card)
            elif tag == "kc_run_played.v1":
                out |= set(event.cards)
    return out


async def raw_log(nc: Any, match_id: str) -> list[bytes]:
    """The match's stored messages, read from GH_MATCHES as any reader of the stream reads them."""
    stored = await EventStore(nc.jetstream()).load(subjects.match_subject("kings-corner", match_id))
    return [s.data for s in stored]


async def test_a_running_match_keeps_every_hand_out_of_the_log_and_each_seat_sees_its_own(gateway: str, nc: Any) -> None:
    rng = random.Random(22)
    async with httpx.AsyncClient(base_url=gateway, timeout=30) as c:
        created = (await c.post("/api/matches", json={"game": "kings-corner"})).json()
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        seats = list(tokens)

        async def view(seat: str | None) -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat else {}
            r = await c.get(f"/api/matches/{match_id}", headers=headers)
            assert r.status_code == 200, r.text
            return r.json()  # type: ignore[no-any-return]

        async def play(n: int) -> None:
            for _ in range(n):
                spectator = await view(None)
                assert spectator["status"] == "running"
                seat = spectator["to_move"][0]
                move = rng.choice((await view(seat))["legal_moves"])
                r = await c.post(
                    f"/api/matches/{match_id}/commands",
                    json={"command": move["command"]},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                assert r.status_code == 200, r.text

        await play(24)
        hands = {s: set((await view(s))["game_view"]["hand"]) for s in seats}
        assert all(hands.values()) and not any("??" in h for h in hands.values()), hands
        every_hand = set().union(*hands.values())

        # The gateway: each seat its own hand, no other seat's; a spectator none.
        for s in seats:
            others = every_hand - hands[s]
            assert not strings(await view(s)) & others
            r = await c.get(f"/api/matches/{match_id}/events", headers={"Authorization": f"Bearer {tokens[s]}"})
            assert r.status_code == 200, r.text
            decided = r.json()
            assert not strings(decided) & others
            drawn = [e for d in decided for e in d["events"] if e["type"] == "kc_cards_drawn.v1"]
            assert any(e["seat"] == s and "??" not in e["cards"] for e in drawn) or not [e for e in drawn if e["seat"] == s]
            assert all("??" in e["cards"] or not e["cards"] for e in drawn if e["seat"] != s)
        assert not strings(await view(None)) & every_hand

        # The shared log: sealed decisions, and no card of a hand in the clear.
        stored = await raw_log(nc, match_id)
        clear = set().union(*(clear_values(json.loads(d)) for d in stored))
        assert not clear & every_hand, sorted(clear & every_hand)
        assert sum("sealed" in json.loads(d) for d in stored) >= 2  # the deal and draws at least

        # The WebSocket gives a seat its own cards in the deal, a spectator none.
        ws_url = gateway.replace("http://", "ws://") + f"/ws/matches/{match_id}"
        for s, token in ((seats[0], tokens[seats[0]]), (None, "")):
            async with ws_connect(ws_url + (f"?token={token}" if token else ""), max_size=None, open_timeout=10) as ws:
                deadline = time.monotonic() + 30
                events: list[dict[str, Any]] = []
                while time.monotonic() < deadline:
                    frame = json.loads(await ws.recv())
                    if frame["type"] == "events":
                        events += [e for d in frame["events"] for e in d["events"]]
                    elif frame["type"] == "view":
                        break
                dealt = [e for e in events if e["type"] == "kc_round_dealt.v1"]
                assert dealt, "the deal is among the decisions a socket gets first"
                shown = {c for hand in dealt[0]["hands"] for c in hand} - {"??"}
                assert dealt[0]["order"] == []
                if s is None:
                    assert shown == set()
                else:
                    assert shown and shown.isdisjoint(*(hands[o] for o in seats if o != s))

        # The end: a resignation ends a two-seat match; the bundle audits clean.
        r = await c.post(
            f"/api/matches/{match_id}/commands",
            json={"command": {"type": "resign.v1"}},
            headers={"Authorization": f"Bearer {tokens[seats[0]]}"},
        )
        assert r.status_code == 200, r.text
        assert (await view(None))["status"] == "finished"
        exported = await c.get(f"/api/matches/{match_id}/export")
        assert exported.status_code == 200, exported.text

    bundle = decode_bundle(exported.content)
    report = audit(bundle)
    assert report.ok, report.problems
    assert report.finished and report.sealed == report.opened >= 2

    # Opened with the revealed seed's key: no card of the stock or of a hand as they were when the
    # log was read was in the clear then (the deal's order and stock included).
    envelopes = [CODEC.decode_envelope(s.data.encode()) for s in bundle.envelopes]
    key = seal.revealed_key(envelopes)
    assert key is not None
    opened = [seal.open_envelope(env, key) for env in envelopes]
    then = fold_envelopes(KC, opened[: len(stored)]).state
    assert then is not None
    secret = set(then.game_state.stock) | {card for hand in then.game_state.hands for card in hand}
    assert then.game_state.stock and secret >= every_hand and not clear & secret
    dealt = [e for env in opened for e in env.events if isinstance(e, RoundDealt)]
    assert dealt and set(dealt[0].stock) - clear == set(dealt[0].stock) - played(opened[: len(stored)])

    # One flipped byte of a sealed box fails the audit.
    k = next(i for i, e in enumerate(envelopes) if e.sealed)
    data = bundle.envelopes[k].data
    at = data.index('"sealed":"') + len('"sealed":"') + 3
    flipped = data[:at] + ("B" if data[at] == "A" else "A") + data[at + 1 :]
    items = list(bundle.envelopes)
    items[k] = StoredEnvelope(stream_seq=items[k].stream_seq, data=flipped)
    broken = audit(msgspec.structs.replace(bundle, envelopes=tuple(items)))
    assert not broken.ok and any(f"envelope #{k + 2}" in p for p in broken.problems), broken.problems


async def test_the_seal_key_is_kept_beside_the_seed_and_a_restarted_referee_opens_the_log(tmp_path: Path) -> None:
    async with own_nats(tmp_path / "nats") as nc:
        referee = Referee(nc, nc.jetstream())
        await referee.start()
        match_id, seat, token = await restarted_referee_opens_the_log(nc, referee)
        # A referee whose secrets store lacks the seed cannot open the log: a typed refusal, and
        # nothing is stored in the clear.
        async with own_nats(tmp_path / "elsewhere") as other:
            blind = Referee(nc, nc.jetstream(), secrets_js=other.jetstream())
            await blind.start()
            before = len(await raw_log(nc, match_id))
            try:
                refused = await commands.send(nc, "kings-corner", match_id, Resign(), seat, token, "blind")
                assert isinstance(refused, Rejected) and refused.code == "unavailable", refused
                assert "seal key" in refused.detail
                assert len(await raw_log(nc, match_id)) == before
            finally:
                await blind.stop()


async def restarted_referee_opens_the_log(nc: Any, referee: Referee) -> tuple[str, str, str]:
    """A referee that restarts opens the sealed log; the match, a seat and its token."""
    created = await commands.create_match(nc, "kings-corner", seats=2)
    assert not isinstance(created, Rejected), created
    js = nc.jetstream()
    seed = bytes.fromhex((await js.get_last_msg(subjects.SECRET_STREAM, subjects.secret_subject("kings-corner", created.match_id))).data.decode())
    stored_key = (await js.get_last_msg(subjects.SEAL_STREAM, subjects.seal_subject("kings-corner", created.match_id))).data
    assert bytes.fromhex(stored_key.decode()) == hashlib.sha256(b"gamehall/seal/v1\n" + seed).digest()
    assert seed.hex() not in stored_key.decode()

    rng = random.Random(3)
    for step in range(20):
        state = referee.matches[created.match_id].state
        assert state is not None and state.outcome is None
        seat = match_layer.to_move(KC, state)[0]
        command = rng.choice(KC.legal_commands(state.game_state, seat))
        reply = await commands.send(nc, "kings-corner", created.match_id, command, seat, created.tokens[seat], f"c{step}")
        assert isinstance(reply, Accepted), reply
    before = referee.matches[created.match_id].state
    assert sum(bool(seal.is_sealed_data(d)) for d in await raw_log(nc, created.match_id)) >= 2
    await referee.stop()

    fresh = Referee(nc, js)
    await fresh.start()
    try:
        assert fresh.matches == {}
        state = before
        assert state is not None
        seat = match_layer.to_move(KC, state)[0]
        command = KC.legal_commands(state.game_state, seat)[0]
        reply = await commands.send(nc, "kings-corner", created.match_id, command, seat, created.tokens[seat], "after")
        assert isinstance(reply, Accepted), reply  # decided on the opened log: the hands are known
        reloaded = fresh.matches[created.match_id].state
        assert reloaded is not None
        # the fold of the opened log is the state the first referee had (plus the new decision)
        again = await fresh._reload("kings-corner", created.match_id)
        assert again.state == reloaded
        # a retried draw is answered to its seat with its own cards, from the opened log
        first = await commands.send(nc, "kings-corner", created.match_id, command, seat, created.tokens[seat], "after")
        assert isinstance(first, Accepted) and first.duplicate and first.events == reply.events
    finally:
        await fresh.stop()
    return created.match_id, seat, created.tokens[seat]


async def publish_log(nc: Any, match_id: str, datas: list[str]) -> None:
    js = nc.jetstream()
    for data in datas:
        await js.publish(subjects.match_subject("kings-corner", match_id), data.encode())


def relabelled(match_id: str, upto: int, server_seed: bytes) -> list[str]:
    """A Kings in the Corner log of ``upto`` decisions sealed under ``server_seed``'s key, stored
    under ``match_id`` (the box's nonce names the match)."""
    from tests.support.bundles import chain

    _, decisions = played_match("kings-corner", seed=9)
    bundle = chain(match_id, "kings-corner", decisions[:upto], seal.seal_key(server_seed))
    return [s.data for s in bundle.envelopes]


async def test_a_sealed_log_without_its_key_or_with_another_is_a_typed_error(gateway: str, nc: Any) -> None:
    unique = base64.b32encode(random.randbytes(5)).decode().lower()
    missing, wrong = f"sealed-nokey-{unique}", f"sealed-wrongkey-{unique}"
    await publish_log(nc, missing, relabelled(missing, 12, b"\x07" * 32))
    await publish_log(nc, wrong, relabelled(wrong, 12, b"\x07" * 32))
    await nc.jetstream().publish(subjects.seal_subject("kings-corner", wrong), seal.seal_key(b"\x01" * 32).hex().encode())
    async with httpx.AsyncClient(base_url=gateway, timeout=30) as c:
        r = await c.get(f"/api/matches/{missing}")
        assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
        assert "seal key" in r.json()["detail"]
        r = await c.get(f"/api/matches/{wrong}")
        assert r.status_code == 409 and r.json()["code"] == "unreadable_match", r.text
        assert (await c.get("/healthz")).status_code == 200  # the gateway still answers
