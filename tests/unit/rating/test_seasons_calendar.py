"""The calendar quarter of an instant, computed without a clock."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from domain.rating.seasons import civil_date, quarter_of


@given(st.integers(min_value=-2_000_000_000_000, max_value=10_000_000_000_000))
def test_civil_date_matches_the_standard_library(at_ms: int) -> None:
    moment = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(milliseconds=at_ms)
    assert civil_date(at_ms) == (moment.year, moment.month, moment.day)


def test_quarters_at_their_edges() -> None:
    assert quarter_of(0) == "1970-Q1"
    march_end = int(dt.datetime(2026, 3, 31, 23, 59, 59, 999000, tzinfo=dt.UTC).timestamp() * 1000)
    assert quarter_of(march_end) == "2026-Q1" and quarter_of(march_end + 1) == "2026-Q2"
    assert quarter_of(int(dt.datetime(2026, 11, 29, tzinfo=dt.UTC).timestamp() * 1000)) == "2026-Q4"
