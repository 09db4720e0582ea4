"""The leaderboards page with seasons and divisions in headless Chromium: four accounts play
ranked Ugolki matches, `gamehall seasons open` places them in two divisions by rating, a match of
the season is played, and the page picks the season and a division and shows the division's
table with the promotion and relegation zones marked; after `gamehall seasons close` the same
table is the frozen one. English and Russian, at 1280 px and at 390 px without sideways scroll.
Screenshots go to test-artifacts/ (season-division-<lang>-<width>.png)."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import FULL_STACK, ROOT, assert_no_sideways_scroll, up_stack
from tests.browser.test_player_own_page import play_ranked
from tests.browser.test_players_page import DESKTOP, PHONE, new_page, sign_up

pytestmark = pytest.mark.browser

SEASON = "web-league"


def gamehall(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMEHALL_DATA_DIR=str(data_dir))
    env.pop("NATS_URL", None)
    return subprocess.run(
        [str(ROOT / ".venv/bin/gamehall"), *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def until(check: Any, what: str, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.25)


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data_dir = tmp_path_factory.mktemp("season-stack")
    for url in up_stack(tmp_path_factory, "season-stack", FULL_STACK, fill_ms=600_000, data_dir=data_dir):
        yield from _played(url, data_dir)


def _played(url: str, data_dir: Path) -> Iterator[dict[str, Any]]:
    """Four accounts, two rated matches, the season opened, one match of the season played."""
    tag = uuid.uuid4().hex[:4]
    ann, bob, cat, dan = (f"{p}-{tag}" for p in ("ann", "bob", "cat", "dan"))
    tokens = {p: sign_up(url, p) for p in (ann, bob, cat, dan)}
    client = httpx.Client(base_url=url, timeout=30)
    # before the season: ann beats bob, cat beats dan (ann and cat rated above bob and dan)
    play_ranked(client, {ann: tokens[ann], bob: tokens[bob]}, bob)
    play_ranked(client, {cat: tokens[cat], dan: tokens[dan]}, dan)
    until(lambda: len(client.get("/api/leaderboard/ugolki").json()["entries"]) == 4, "four rated players")
    opened = gamehall(
        data_dir, "seasons", "open", SEASON, "--game", "ugolki", "--division", "gold:2", "--division", "silver",
        "--move", "1/1", "--lead", "1",
    )  # fmt: skip
    assert opened.returncode == 0, opened.stdout + opened.stderr
    starts = client.get(f"/api/seasons/{SEASON}").json()["starts_at"]
    until(lambda: time.time() * 1000 > starts + 200, "the season started")
    # the season: bob (silver) beats ann (gold)
    play_ranked(client, {ann: tokens[ann], bob: tokens[bob]}, ann)

    def silver_played() -> bool:
        rows = client.get(f"/api/seasons/{SEASON}", params={"division": "silver"}).json()["standings"][0]["rows"]
        return any(r["player"] == bob and r["games"] == 1 for r in rows)

    until(silver_played, "the season's match in the silver table")
    yield {"url": url, "data_dir": data_dir, "ann": ann, "bob": bob, "cat": cat, "dan": dan}
    client.close()


WORDS = {
    "en": {"live": "standings so far", "final": "final standings", "up": "goes up", "down": "goes down", "season": "Season"},
    "ru": {"live": "текущая таблица", "final": "итоговая таблица", "up": "повышение", "down": "понижение", "season": "Сезон"},
}


def table(page: Any) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        "#division-table tr[data-player]",
        "rows => rows.map(r => ({player: r.dataset.player, zone: r.dataset.zone, cls: r.className,"
        " place: r.querySelector('td.rank').textContent, mark: r.querySelector('td.zone').textContent}))",
    )
    return rows


def check_division(page: Any, lang: str, stage: str, division: str, want: list[tuple[str, str]], width: int) -> None:
    words = WORDS[lang]
    page.wait_for_function(
        "([s, d]) => (document.querySelector('#division-heading')?.textContent || '').includes(s)"
        " && document.querySelector('#board-division')?.value === d",
        arg=[words[stage], division],
    )
    rows = table(page)
    assert [(r["player"], r["zone"]) for r in rows] == want
    for r in rows:
        if r["zone"]:
            assert f"zone-{r['zone']}" in r["cls"]
            assert words["up" if r["zone"] == "promotion" else "down"] in r["mark"]
    assert page.inner_text("#board-pick").count(words["season"]) >= 1
    options = page.eval_on_selector_all("#board-division option", "os => os.map(o => o.value)")
    assert options == ["", "gold", "silver"]
    assert_no_sideways_scroll(page, f"the division table at {width} px")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_pick_a_season_and_a_division_and_see_its_zones(
    browser: Any, league: dict[str, Any], artifacts_dir: Path, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    url, ann, bob, cat, dan = league["url"], league["ann"], league["bob"], league["cat"], league["dan"]
    closed = httpx.get(f"{url}/api/seasons/{SEASON}").json()["status"] == "closed"
    stage = "final" if closed else "live"
    context, page, errors = new_page(browser, viewport, "en-GB")
    try:
        page.goto(url + "/#/leaderboard/ugolki")
        page.wait_for_selector("#board-season")
        page.select_option("#board-season", SEASON)
        page.wait_for_function("document.querySelector('#board-division') && !document.querySelector('#board-division').disabled")
        page.select_option("#board-division", "silver")
        # silver: bob won the season's match (up); dan has not played
        check_division(page, "en", stage, "silver", [(bob, "promotion"), (dan, "")], width)
        page.screenshot(path=str(artifacts_dir / f"season-division-en-{width}.png"), full_page=True)
        page.select_option("#board-division", "gold")
        # gold: ann lost the season's match, cat has not played (no game: zeros, last, down)
        check_division(page, "en", stage, "gold", [(ann, ""), (cat, "relegation")], width)
        page.click('#lang-switch [data-lang="ru"]')
        check_division(page, "ru", stage, "gold", [(ann, ""), (cat, "relegation")], width)
        page.screenshot(path=str(artifacts_dir / f"season-division-ru-{width}.png"), full_page=True)
        page.click('#lang-switch [data-lang="en"]')
        check_division(page, "en", stage, "gold", [(ann, ""), (cat, "relegation")], width)
        if not closed:
            # the player's page names their division in the season in force, linked to its table
            page.goto(url + f"/#/player/{bob}")
            link = page.locator('#player-division a[data-division="silver"]')
            link.wait_for()
            assert "division silver, place 1 of 2" in link.inner_text()
            page.goto(url + f"/#/leaderboard/ugolki?season={SEASON}&division=gold")
            done = gamehall(league["data_dir"], "seasons", "close", SEASON, "--lead", "1")
            assert done.returncode == 0, done.stdout + done.stderr
            assert "1 promoted, 1 relegated" in done.stdout
            page.reload()
            check_division(page, "en", "final", "gold", [(ann, ""), (cat, "relegation")], width)
    finally:
        context.close()
    assert not errors, errors
