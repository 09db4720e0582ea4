"""A complete gamehall client on the typed client library (gamehall.client): create an Ugolki
match, show a refused move, watch the match over its WebSocket, play both seats from their legal
moves to the end, and fetch the audit bundle.

    python docs/examples/ugolki_client.py http://127.0.0.1:8000

Every answer is a msgspec struct of ``contracts`` (``MatchCreatedReply``, ``MatchView``, the
game's ``UgolkiView``); an error answer raises ``ApiError`` with the server's ``code``.
"""

from __future__ import annotations

import asyncio
import random
import sys

from contracts.games.ugolki import MovePiece, UgolkiView
from gamehall.client import ApiError, GamehallClient, ViewFrame, game_view


async def main(base_url: str, seed: int = 1) -> int:
    rng = random.Random(seed)
    async with GamehallClient(base_url) as gh:
        # 1. Create a match: one token per seat; keep them secret, they act for that seat only.
        created = await gh.create_match("ugolki", preset="halma-8x8-1234", players=["alice", "bob"])
        match_id = created.match_id
        print(f"match {match_id}: seats {', '.join(s.seat for s in created.seats)}")
        print(f"invite links: {', '.join(i.url for i in created.invites)}")

        # 2. An illegal move gets a typed refusal and changes nothing.
        try:
            await gh.send(match_id, MovePiece(path=("a1", "a2")), token=created.token("white"))
        except ApiError as refused:
            print(f"illegal move refused: {refused.status} {refused.code}")

        # 3. Watch the match as a spectator; move for whichever seat is to move.
        async with gh.stream(match_id) as stream:
            async for frame in stream:
                if not isinstance(frame, ViewFrame):
                    continue
                view = frame.view
                if view.status == "finished":
                    break
                seat = view.to_move[0]
                # The seat's own view lists its legal moves, each with the command to send.
                mine = await gh.match(match_id, token=created.token(seat))
                if mine.seq != view.seq:
                    continue  # a newer view is on its way
                move = rng.choice(mine.legal_moves)
                await gh.send(match_id, move.command, token=created.token(seat))

        board: UgolkiView = game_view(view)
        outcome = view.outcome
        assert outcome is not None
        result = "draw" if outcome.draw else f"{view.seats[outcome.ranks.index(1)]} won"
        print(f"{result} ({outcome.reason}) after {view.seq - 1} decisions; tempo to go {board.tempo_to_go}")

        # 4. The audit bundle: every stored envelope, byte for byte.
        bundle = await gh.export(match_id)
        print(f"audit bundle: {len(bundle['envelopes'])} envelopes, head {bundle['head_hash'][:16]}…")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")))
