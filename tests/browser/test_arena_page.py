"""The tournament page of a running arena (Chromium): an entrant whose game is still being played
in an earlier pairing gets the link to it (an arena's pairings run at once), and someone who has
not entered is offered to join (an arena takes late entries)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from contracts.tournaments import PairArena, RecordResult
from tests.browser.conftest import up_stack
from tests.browser.test_tournament_pages import DESKTOP, new_page
from tests.support.tournament_records import Recorder, store_on_stack

pytestmark = pytest.mark.browser

PLAYERS = ["ara", "bea", "cai", "dov", "eli", "fin"]


@pytest.fixture(scope="module")
def arena_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Recorder]]:
    """``gamehall up`` with an arena stored: six paired, two games of the first pairing played,
    their four players paired again, the third game still open.  Its window lies ahead (the
    service pairs no one more while the test looks)."""
    data_dir = tmp_path_factory.mktemp("arena-stack")
    running = up_stack(
        tmp_path_factory, "arena-stack", ("referee", "gateway", "tournaments"), data_dir=data_dir
    )
    url = next(running)
    try:
        later = int(time.time() * 1000) + 3_600_000
        arena = Recorder("evening-arena").open(
            PLAYERS, "arena", window_start=later, window_end=later + 3_600_000
        )
        arena.close().do(PairArena(), actor="system")
        for g in arena.state.rounds[0].games[:2]:
            arena.do(RecordResult(round=1, table=g.table, ranks=(0, 1)), actor="system")
        arena.do(PairArena(), actor="system")
        assert len(arena.state.rounds) == 2
        store_on_stack(data_dir, arena)
        yield url, arena
    finally:
        running.close()


def signed_in(page: Any, url: str, name: str) -> None:
    signed = httpx.post(f"{url}/api/accounts", json={"name": name}, timeout=30).json()
    page.goto(f"{url}/?lang=en#/tournaments")
    page.evaluate(
        "([name, token]) => localStorage.setItem('gh.account', JSON.stringify({name, token}))",
        [name, signed["token"]],
    )


def test_an_entrant_gets_their_game_of_an_earlier_pairing_and_others_may_join(
    browser: Any, arena_stack: tuple[str, Recorder]
) -> None:
    url, arena = arena_stack
    still = arena.state.rounds[0].games[2]
    player = still.seats[0]
    context, page, errors = new_page(browser, DESKTOP, "en")
    try:
        signed_in(page, url, player)
        page.goto(f"{url}/?lang=en#/tournament/evening-arena")
        link = page.wait_for_selector("#tournament-your-game")
        assert link.inner_text() == f"Your game in round 1 (table {still.table}): play it"
    finally:
        context.close()
    assert not errors, errors
    context, page, errors = new_page(browser, DESKTOP, "en")
    try:
        signed_in(page, url, "newcomer")
        page.goto(f"{url}/?lang=en#/tournament/evening-arena")
        page.wait_for_selector("#tournament-join-button")
    finally:
        context.close()
    assert not errors, errors
