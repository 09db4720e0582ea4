"""Matchmaking invariants: nobody is seated twice, no table breaks the current gap, waiting
never starves."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.matchmaking.pairing import DEFAULT_STEPS, Policy, Ticket, allowed_gap, form_tables, queue_key

POLICY = Policy()
LAST_STEP = max(s.after_ms for s in DEFAULT_STEPS)


@st.composite
def tickets(draw: st.DrawFn) -> list[Ticket]:
    n = draw(st.integers(0, 40))
    players = draw(st.lists(st.sampled_from([f"p{i}" for i in range(30)]), min_size=n, max_size=n))
    out = []
    for i, player in enumerate(players):
        out.append(
            Ticket(
                ticket_id=f"t{i}",
                player=player,
                game=draw(st.sampled_from(["ugolki", "king"])),
                preset="classic",
                seats=draw(st.sampled_from([2, 3, 4])),
                rating=draw(st.floats(800, 2400, allow_nan=False)),
                joined_at=draw(st.integers(0, 60_000)),
                ranked=draw(st.booleans()),
                bots_ok=draw(st.booleans()),
                invite=draw(st.sampled_from(["", "", "", "INV"])),
                vs_computer=draw(st.sampled_from([False, False, False, False, True])),
            )
        )
    return out


@settings(max_examples=300, deadline=None)
@given(tickets(), st.integers(0, 120_000))
def test_nobody_seated_twice_and_no_table_breaks_the_gap(queue: list[Ticket], offset: int) -> None:
    now = 60_000 + offset
    tables = form_tables(queue, now, POLICY)
    by_id = {t.ticket_id: t for t in queue}
    seated_tickets = [tid for table in tables for tid in table.tickets]
    seated_players = [by_id[tid].player for tid in seated_tickets]
    assert len(set(seated_tickets)) == len(seated_tickets)
    assert len(set(seated_players)) == len(seated_players)
    for table in tables:
        humans = [by_id[tid] for tid in table.tickets]
        assert len(table.players) == humans[0].seats
        assert len(humans) + len(table.bots) == humans[0].seats
        assert len({queue_key(h) for h in humans}) == 1
        if table.bots and not humans[0].vs_computer:
            assert all(h.bots_ok for h in humans)
        if not table.invite and not humans[0].vs_computer:
            spread = max(h.rating for h in humans) - min(h.rating for h in humans)
            assert spread <= min(allowed_gap(POLICY, now - h.joined_at) for h in humans)


@settings(max_examples=300, deadline=None)
@given(tickets())
def test_waiting_never_starves(queue: list[Ticket]) -> None:
    """Once everyone has waited past the last step, fewer than a table's worth stay in any queue,
    and whoever accepts bots and waited long enough is seated."""
    now = max((t.joined_at for t in queue), default=0) + LAST_STEP
    tables = form_tables(queue, now, POLICY)
    seated = {tid for table in tables for tid in table.tickets}
    first_ticket: dict[str, Ticket] = {}
    for t in sorted(queue, key=lambda t: (t.joined_at, t.ticket_id)):
        first_ticket.setdefault(t.player, t)
    waiting = Counter(queue_key(t) for t in first_ticket.values() if t.ticket_id not in seated)
    for key, count in waiting.items():
        assert count < key[2], key
    for t in first_ticket.values():
        if t.vs_computer or (t.bots_ok and now - t.joined_at >= POLICY.bot_fill_after_ms and not t.invite):
            assert t.ticket_id in seated


@settings(max_examples=100, deadline=None)
@given(tickets())
def test_the_oldest_ticket_of_a_full_queue_is_seated_once_the_gap_is_open(queue: list[Ticket]) -> None:
    now = max((t.joined_at for t in queue), default=0) + LAST_STEP
    seated = {tid for table in form_tables(queue, now, POLICY) for tid in table.tickets}
    first_ticket: dict[str, Ticket] = {}
    for t in sorted(queue, key=lambda t: (t.joined_at, t.ticket_id)):
        first_ticket.setdefault(t.player, t)
    groups: dict[object, list[Ticket]] = {}
    for t in first_ticket.values():
        if not t.vs_computer:
            groups.setdefault(queue_key(t), []).append(t)
    for members in groups.values():
        if len(members) >= members[0].seats:
            oldest = min(members, key=lambda t: (t.joined_at, t.ticket_id))
            assert oldest.ticket_id in seated
