"""The seasons stream as an event store on a real nats-server (services/common/seasons.py): two
operators deciding at once cannot both succeed (the stream's expected last sequence; the loser
decides again on the new state and is refused), a book follows the stream, and the season a
match counts in is the stream's, else the static calendar's, else the quarter."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from contracts import subjects
from contracts.codecs import encode
from contracts.envelope import Rejected
from contracts.seasons import OpenSeason, SeasonOpened, SeasonRecord
from domain import seasons as rules
from domain.rating.seasons import Season, SeasonCalendar, quarter_of
from services.common import natsio
from services.common import seasons as store
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    with nats_server(tmp_path / "nats") as found:
        yield found


def open_cmd(season_id: str, now: int, games: tuple[str, ...] = ()) -> OpenSeason:
    return OpenSeason(season_id=season_id, starts_at=now + 60_000, games=games, by="op", now=now)


async def test_two_operators_at_once_one_wins_the_other_decides_again(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    nc = await natsio.connect(url, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    now = time.time_ns() // 1_000_000
    theirs = rules.decide(open_cmd("theirs", now), rules.initial())
    assert not isinstance(theirs, Rejected)
    publish = js.publish
    appended: list[str] = []

    async def racing(subject: str, payload: bytes, **kwargs: Any) -> Any:
        if not appended:  # the other operator's opening lands between this one's read and append
            appended.append(subject)
            await publish(subjects.season_subject("theirs"), encode(SeasonRecord(events=theirs)), stream=subjects.SEASON_STREAM)
        return await publish(subject, payload, **kwargs)

    monkeypatch.setattr(js, "publish", racing)
    decided, _ = await store.execute(js, open_cmd("mine", now))
    # the append on the stale read was refused; decided again on the stream with "theirs"
    assert isinstance(decided, Rejected) and decided.code == "overlapping_season", decided
    assert appended == [subjects.season_subject("mine")]
    book = store.SeasonBook()
    assert (await book.refresh(js)).order == ("theirs",) and book.position == 1
    await nc.drain()


async def test_a_book_follows_the_stream_and_names_the_season_of_a_match(url: str) -> None:
    nc = await natsio.connect(url, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    now = time.time_ns() // 1_000_000
    book = store.SeasonBook()
    assert (await book.refresh(js)).order == ()
    decided, _ = await store.execute(js, open_cmd("u1", now, games=("ugolki",)))
    assert isinstance(decided[0], SeasonOpened)  # type: ignore[index]
    state = await book.refresh(js)
    assert state.order == ("u1",) and book.position == 1
    calendar = SeasonCalendar(seasons={"king": (Season(name="k-static", start_ms=0, end_ms=2**62),)})
    later = now + 120_000
    assert store.season_name(calendar, state, "ugolki", later) == "u1"  # the stream's season
    assert store.season_name(calendar, state, "ugolki", now) == quarter_of(now)  # before it starts
    assert store.season_name(calendar, state, "king", later) == "k-static"  # the static calendar
    assert store.season_name(SeasonCalendar(), state, "king", later) == quarter_of(later)
    again, _ = await store.execute(js, open_cmd("u1", now))
    assert isinstance(again, Rejected) and again.code == "season_exists"
    assert (await book.refresh(js)).order == ("u1",) and book.position == 1  # nothing stored
    await nc.drain()
