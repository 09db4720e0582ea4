"""Open tables (GET /api/tables, contracts.matchmaking.ListTables): private (invite) tables whose
host opened them to anyone, oldest first, while seats are free; tables not marked public, seeks,
computer tables and ticket ids never appear."""

from __future__ import annotations

import msgspec

from contracts.codecs import encode
from contracts.matchmaking import JoinQueue, ListTables, OpenTables, Ticket, reply_decoder
from domain.matchmaking.listing import open_tables
from services.matchmaking.app import Matchmaker, MatchmakingService
from tests.unit.test_matchmaking_seeks import _EmptyQueue, _NoBus


def join(waiting: list[Ticket], player: str, at: int, **kw: object) -> Ticket:
    fields: dict[str, object] = {"game": "ugolki", "preset": "mini-3x3", **kw}
    ticket = Matchmaker().ticket(JoinQueue(player=player, **fields), 1500.0, at)  # type: ignore[arg-type]
    waiting.append(ticket)
    return ticket


def test_public_private_tables_are_listed_with_their_host_oldest_first() -> None:
    w: list[Ticket] = []
    sam = join(w, "sam", 100, invite="t-sam", public=True, seats=3, ranked=False)
    join(w, "tom", 150, invite="t-sam", seats=3, ranked=False)  # sits at sam's table
    join(w, "ann", 50, invite="t-ann", public=True, game="thousand", preset="classic", seats=3)
    join(w, "dan", 20, invite="secret")  # private, not opened to anyone
    join(w, "eve", 10)  # a public queue: a seek, not a table
    join(w, "fay", 30, vs_computer=True, invite="t-fay", public=True)  # a computer table
    tables = open_tables(w).tables
    assert [(t.game, t.invite, t.host, t.taken, t.seats) for t in tables] == [
        ("thousand", "t-ann", "ann", 1, 3),
        ("ugolki", "t-sam", "sam", 2, 3),
    ]
    at_sam = tables[1]
    assert at_sam.players == ("sam", "tom") and at_sam.since == 100 and not at_sam.ranked
    assert [t.invite for t in open_tables(w, "thousand").tables] == ["t-ann"]
    encoded = msgspec.json.encode(open_tables(w))
    assert sam.ticket_id.encode() not in encoded and b"secret" not in encoded
    assert isinstance(reply_decoder.decode(encoded), OpenTables)


def test_the_host_decides_and_a_full_table_is_not_listed() -> None:
    w: list[Ticket] = []
    join(w, "ann", 1, invite="t-1")  # the host did not open it to anyone
    join(w, "bob", 2, invite="t-1", public=True)  # a later player's flag is ignored
    assert open_tables(w).tables == ()
    full: list[Ticket] = []
    join(full, "ann", 1, invite="t-2", public=True)
    join(full, "bob", 2, invite="t-2")
    assert open_tables(full).tables == ()  # 2 of 2 seats: the table forms, nobody can join
    assert open_tables(full[:1]).tables[0].taken == 1
    # public without a code is no table at all
    assert Matchmaker().ticket(JoinQueue(player="x", game="ugolki", preset="mini-3x3", public=True), 1500.0, 0).public is False


async def test_the_service_answers_list_tables() -> None:
    service = MatchmakingService(_NoBus(), None, Matchmaker(), _EmptyQueue())  # type: ignore[arg-type]
    assert reply_decoder.decode(await service.answer(encode(ListTables(game="ugolki")))) == OpenTables(tables=())
