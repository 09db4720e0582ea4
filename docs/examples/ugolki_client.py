"""A complete gamehall client: create an Ugolki match, watch it over a WebSocket, play both seats.

    python docs/examples/ugolki_client.py http://127.0.0.1:8000

Needs only httpx and websockets.  Every move goes over HTTP with the seat's token; every new
view arrives over the WebSocket.  Illegal moves come back as 409 with a stable ``code``.
"""

from __future__ import annotations

import json
import random
import sys
import uuid

import httpx
from websockets.sync.client import connect


def main(base_url: str, seed: int = 1) -> int:
    rng = random.Random(seed)
    api = httpx.Client(base_url=base_url, timeout=30)

    # 1. Create a match: one token per seat; keep them secret, they act for that seat only.
    created = api.post("/api/matches", json={"game": "ugolki", "preset": "halma-8x8-1234",
                                             "players": ["alice", "bob"]})
    created.raise_for_status()
    match = created.json()
    match_id = match["match_id"]
    tokens = {s["seat"]: s["token"] for s in match["seats"]}
    print(f"match {match_id}: seats {', '.join(tokens)}")

    # 2. An illegal move gets a typed rejection and changes nothing.
    bad = api.post(f"/api/matches/{match_id}/commands",
                   json={"command": {"type": "move_piece.v1", "path": ["a1", "a2"]}},
                   headers={"Authorization": f"Bearer {tokens['white']}"})
    print(f"illegal move refused: {bad.status_code} {bad.json()['code']}")

    # 3. Watch the match as a spectator and move for whichever seat is to move.
    ws_url = base_url.replace("http", "ws", 1) + f"/ws/matches/{match_id}"
    with connect(ws_url) as ws:
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] != "view":
                continue
            view = message["view"]
            if view["status"] == "finished":
                break
            seat = view["to_move"][0]
            # The seat's own view lists its legal moves as "from-to".
            mine = api.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            if mine["seq"] != view["seq"]:
                continue  # a newer view is on its way
            move = rng.choice(mine["game_view"]["legal"])
            reply = api.post(f"/api/matches/{match_id}/commands",
                             json={"command": {"type": "move_piece.v1", "path": move.split("-")},
                                   "command_id": uuid.uuid4().hex},
                             headers={"Authorization": f"Bearer {tokens[seat]}"})
            reply.raise_for_status()
    outcome = view["outcome"]
    tempo = view["game_view"]["tempo_to_go"]
    result = "draw" if outcome["draw"] else f"{view['seats'][outcome['ranks'].index(1)]} won"
    print(f"{result} ({outcome['reason']}) after {view['seq'] - 1} decisions; tempo to go {tempo}")
    # 4. The audit bundle: every stored envelope, byte for byte.
    bundle = api.get(f"/api/matches/{match_id}/export").json()
    print(f"audit bundle: {len(bundle['envelopes'])} envelopes, head {bundle['head_hash'][:16]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"))
