"""The audit re-derives the seeding, every round's tables and the standings from the events."""

from __future__ import annotations

import msgspec
import pytest

from contracts.tournaments import (
    Bye,
    RegistrationClosed,
    ResultRecorded,
    RoundStarted,
    TournamentEvent,
    TournamentFinished,
)
from domain.tournaments import audit
from tests.unit.tournaments.support import Run, opened, play_all


def _swiss() -> Run:
    run = opened(
        "swiss", [f"p{i:02d}" for i in range(9)], rounds=4, tie_breaks=("buchholz", "sonneborn_berger")
    )
    play_all(run)
    return run


@pytest.mark.parametrize(
    ("fmt", "n", "kw"),
    [
        ("round_robin", 5, {}),
        ("double_round_robin", 4, {}),
        ("swiss", 9, {"rounds": 4}),
        ("knockout", 6, {}),
        ("fair_tables", 10, {"rounds": 3, "table_size": 4, "min_table_size": 3}),
    ],
)
def test_an_honest_log_passes(fmt: str, n: int, kw: dict[str, object]) -> None:
    run = opened(fmt, [f"p{i}" for i in range(n)], **kw)
    play_all(run)
    assert audit(run.events) is None
    assert audit(run.events[:-1]) is None  # an unfinished tournament audits as far as it goes


def _replace(events: list[TournamentEvent], index: int, event: TournamentEvent) -> list[TournamentEvent]:
    return [*events[:index], event, *events[index + 1 :]]


def test_a_tampered_pairing_is_named_by_its_round() -> None:
    events = list(_swiss().events)
    i, second = next((i, e) for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 2)
    t1, t2 = second.tables[0], second.tables[1]
    swapped = (
        msgspec.structs.replace(t1, seats=(t1.seats[0], t2.seats[1])),
        msgspec.structs.replace(t2, seats=(t2.seats[0], t1.seats[1])),
        *second.tables[2:],
    )
    found = audit(_replace(events, i, msgspec.structs.replace(second, tables=swapped)))
    assert found is not None and "round 2 pairings differ" in found and "table 1" in found
    colours = (msgspec.structs.replace(t1, seats=t1.seats[::-1]), *second.tables[1:])
    found = audit(_replace(events, i, msgspec.structs.replace(second, tables=colours)))
    assert found is not None and "round 2 pairings differ" in found


def test_a_tampered_result_shows_in_the_next_pairing_or_the_standings() -> None:
    events = list(_swiss().events)
    i, result = next((i, e) for i, e in enumerate(events) if isinstance(e, ResultRecorded) and e.round == 1)
    flipped = msgspec.structs.replace(result, ranks=result.ranks[::-1])
    found = audit(_replace(events, i, flipped))
    assert found is not None and ("round 2 pairings differ" in found or "final standings" in found)
    # the last round's result can only show in the standings
    j, last = next((j, e) for j, e in reversed(list(enumerate(events))) if isinstance(e, ResultRecorded))
    found = audit(_replace(events, j, msgspec.structs.replace(last, ranks=(0, 0))))
    assert found is not None and "the final standings differ" in found


def test_tampered_standings_seeding_and_byes_are_found() -> None:
    events = list(_swiss().events)
    finished = events[-1]
    assert isinstance(finished, TournamentFinished)
    rows = finished.standings
    reordered = msgspec.structs.replace(finished, standings=(rows[1], rows[0], *rows[2:]))
    found = audit(_replace(events, len(events) - 1, reordered))
    assert found is not None and "final standings" in found and "rank 1" in found
    k, closed = next((k, e) for k, e in enumerate(events) if isinstance(e, RegistrationClosed))
    shuffled = msgspec.structs.replace(closed, order=closed.order[::-1])
    found = audit(_replace(events, k, shuffled))
    assert found is not None and "the seeding differ" in found
    b, bye = next((b, e) for b, e in enumerate(events) if isinstance(e, Bye))
    found = audit(_replace(events, b, msgspec.structs.replace(bye, player=events[k].order[0])))  # type: ignore[attr-defined]
    assert found is not None and "round 1 pairings differ" in found
    found = audit([*events[:b], *events[b + 1 :]])
    assert found is not None and "round 1" in found


def test_a_result_for_a_game_not_in_the_round_is_refused() -> None:
    events = list(_swiss().events)
    i, result = next((i, e) for i, e in enumerate(events) if isinstance(e, ResultRecorded))
    found = audit(_replace(events, i, msgspec.structs.replace(result, table=99)))
    assert found is not None and "refused (unknown_game" in found
