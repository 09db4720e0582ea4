from __future__ import annotations

from domain.matchmaking.pairing import GapStep, Policy, Ticket, allowed_gap, form_tables

POLICY = Policy(
    steps=(GapStep(0, 50.0), GapStep(10_000, 200.0), GapStep(30_000, float("inf"))), bot_fill_after_ms=20_000
)


def ticket(tid: str, rating: float, joined: int = 0, **kw: object) -> Ticket:
    fields: dict[str, object] = {"game": "ugolki", "preset": "classic", "seats": 2}
    fields.update(kw)
    return Ticket(ticket_id=tid, player=f"p-{tid}", rating=rating, joined_at=joined, **fields)  # type: ignore[arg-type]


def test_gap_widens_with_waiting() -> None:
    assert allowed_gap(POLICY, 0) == 50.0
    assert allowed_gap(POLICY, 9_999) == 50.0
    assert allowed_gap(POLICY, 10_000) == 200.0
    assert allowed_gap(POLICY, 10**9) == float("inf")


def test_close_ratings_pair_at_once_far_ones_wait() -> None:
    q = [ticket("a", 1500), ticket("b", 1540), ticket("c", 1800)]
    (table,) = form_tables(q, now=0, policy=POLICY)
    assert sorted(table.players) == ["p-a", "p-b"]
    assert table.bots == () and table.gap == 40.0
    assert form_tables([ticket("a", 1500), ticket("c", 1800)], now=10_000, policy=POLICY) == ()
    assert len(form_tables([ticket("a", 1500), ticket("c", 1800)], now=30_000, policy=POLICY)) == 1


def test_closest_rating_is_preferred() -> None:
    q = [ticket("old", 1500), ticket("far", 1549, joined=1), ticket("near", 1510, joined=2)]
    (table,) = form_tables(q, now=3, policy=POLICY)
    assert sorted(table.players) == ["p-near", "p-old"]


def test_gap_of_the_newcomer_counts_too() -> None:
    # the old ticket accepts 200, but the newcomer still only accepts 50
    q = [ticket("old", 1500, joined=0), ticket("new", 1600, joined=10_000)]
    assert form_tables(q, now=10_000, policy=POLICY) == ()


def test_bots_fill_after_the_wait_when_asked() -> None:
    q = [ticket("a", 1500, seats=4, bots_ok=True), ticket("b", 1510, seats=4)]
    assert form_tables(q, now=19_999, policy=POLICY) == ()
    (table,) = form_tables(q, now=20_000, policy=POLICY)
    assert table.tickets == ("a",)
    assert len(table.bots) == 3 and len(table.players) == 4


def test_private_table_and_play_the_computer() -> None:
    q = [
        ticket("x", 1000, invite="KEY1"),
        ticket("y", 2500, joined=5, invite="KEY1"),
        ticket("solo", 1500, seats=3, vs_computer=True),
    ]
    tables = form_tables(q, now=5, policy=POLICY)
    assert len(tables) == 2
    private = next(t for t in tables if t.invite)
    assert sorted(private.players) == ["p-x", "p-y"]
    solo = next(t for t in tables if not t.invite)
    assert solo.tickets == ("solo",) and len(solo.bots) == 2


def test_same_player_twice_is_seated_once() -> None:
    a = ticket("a", 1500)
    q = [
        a,
        Ticket(**{**{f: getattr(a, f) for f in a.__struct_fields__}, "ticket_id": "a2"}),
        ticket("b", 1500),
    ]
    tables = form_tables(q, now=0, policy=POLICY)
    assert len(tables) == 1


def test_deterministic() -> None:
    q = [ticket(str(i), 1500 + 7 * i, joined=i) for i in range(30)]
    assert form_tables(q, 100, POLICY) == form_tables(list(reversed(q)), 100, POLICY)
