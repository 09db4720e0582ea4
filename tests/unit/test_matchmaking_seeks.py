"""Open seeks (GET /api/seeks, contracts.matchmaking.ListSeeks): the public queues with players
waiting, oldest first; private (invite) queues, computer tables and ticket ids never appear."""

from __future__ import annotations

import msgspec
import structlog

from contracts.codecs import encode
from contracts.envelope import Rejected
from contracts.matchmaking import JoinQueue, ListSeeks, QueueStatus, Seeks, Ticket, reply_decoder
from services.matchmaking.app import Matchmaker, MatchmakingService


def join(waiting: list[Ticket], player: str, at: int, **kw: object) -> Ticket:
    """A waiting ticket as the matchmaker makes it (the queue bucket holds it as ``Waiting``)."""
    fields: dict[str, object] = {"game": "ugolki", "preset": "mini-3x3", **kw}
    ticket = Matchmaker().ticket(JoinQueue(player=player, **fields), 1500.0, at)  # type: ignore[arg-type]
    waiting.append(ticket)
    return ticket


def test_seeks_group_public_tickets_by_queue_oldest_first() -> None:
    mm, w = Matchmaker(), []
    join(w, "cat", 300, preset="halma-8x8-1234")
    a = join(w, "ann", 100, seats=3)
    join(w, "bob", 200, seats=3, bots_ok=True)
    join(w, "dan", 50, invite="secret-code")  # private table: not a seek
    join(w, "eve", 60, vs_computer=True)  # a computer table: not a seek
    join(w, "fay", 70, game="thousand", preset="classic", seats=3, ranked=False)
    seeks = mm.seeks(w).seeks
    assert [(s.game, s.preset, s.seats, s.players) for s in seeks] == [
        ("thousand", "classic", 3, ("fay",)),
        ("ugolki", "mini-3x3", 3, ("ann", "bob")),
        ("ugolki", "halma-8x8-1234", 2, ("cat",)),
    ]
    three = seeks[1]
    assert three.waiting == 2 and three.since == 100 and three.ranked and three.bots_ok
    assert seeks[0].ranked is False
    encoded = msgspec.json.encode(mm.seeks(w))
    assert a.ticket_id.encode() not in encoded and b"secret-code" not in encoded
    assert isinstance(reply_decoder.decode(encoded), Seeks)


def test_seeks_of_one_game_and_of_fewer_waiting() -> None:
    mm, w = Matchmaker(), []
    join(w, "ann", 1)
    join(w, "fay", 2, game="thousand", preset="classic", seats=3)
    assert [s.game for s in mm.seeks(w, "thousand").seeks] == ["thousand"]
    w = [t for t in w if t.player != "ann"]
    assert [s.players for s in mm.seeks(w).seeks] == [("fay",)]
    assert mm.seeks([]) == Seeks(seeks=())



class _EmptyQueue:
    """A queue bucket with no tickets (what MatchmakingService reads of it here)."""

    def entries(self) -> list[object]:
        return []

    async def get(self, player: str) -> tuple[None, int]:
        return None, 0


class _NoBus:
    def jetstream(self) -> None:
        return None


async def test_an_answered_poll_is_not_logged_at_info_but_a_refusal_is() -> None:
    """The lobby asks for the seeks every 4 s and a queued player's status every second: those
    answers stay out of the info log; a refused request is still logged there."""
    service = MatchmakingService(_NoBus(), None, Matchmaker(), _EmptyQueue())  # type: ignore[arg-type]
    with structlog.testing.capture_logs() as logged:
        for poll in (ListSeeks(game=""), QueueStatus(player="ann")):
            assert not isinstance(reply_decoder.decode(await service.answer(encode(poll))), Rejected)
        join = JoinQueue(player="ann", game="ugolki", preset="mini-3x3", seats=9)  # no such table
        refused = reply_decoder.decode(await service.answer(encode(join)))
    assert isinstance(refused, Rejected)
    at_info = [e for e in logged if e["event"] == "matchmaking_request" and e["log_level"] == "info"]
    assert [(e["kind"], e["result"]) for e in at_info] == [("join", refused.code)]
