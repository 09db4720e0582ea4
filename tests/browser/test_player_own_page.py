"""A player's own page in headless Chromium: two accounts play three ranked Ugolki matches
(matchmaking seats them, one resigns), and the page of one of them, reached from the leaderboard
and from the matches list, shows those matches (newest first, the opponent a link, the result,
the rating change, a replay link), one chart of their Ugolki rating with one point per rated
match, the season in force and their place in it and no division, in English and Russian, at
1280 px and at 390 px without sideways scroll (on the phone each match a card, its replay link
first). Then `gamehall seasons open` (the command, through the seasons stream) opens a season with
two divisions placed by rating, a match of the season is played, and the same pages name each
player's division in the season in force, their place in its table (a link to it) and the zone
they stand in. Screenshots go to test-artifacts/ (player-page-<lang>-<width>.png,
player-division-<lang>-<width>.png)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.rating.seasons import quarter_of
from tests.browser.conftest import FULL_STACK, up_stack
from tests.browser.test_lobby_clocks_and_lists import assert_actions_first_and_on_screen
from tests.browser.test_players_page import (
    DESKTOP,
    PHONE,
    new_page,
    scroll_width,
    sign_up,
)

pytestmark = pytest.mark.browser

SEEK = {"game": "ugolki", "preset": "mini-3x3", "seats": 2, "ranked": True}


def play_ranked(client: httpx.Client, tokens: dict[str, str], loser: str) -> str:
    """One ranked match between the two accounts, formed by matchmaking; ``loser`` resigns."""
    tickets: dict[str, str] = {}
    for name, token in tokens.items():
        for _ in range(120):  # the last match may still count as running for a moment
            r = client.post("/api/queue", json=SEEK, headers={"Authorization": f"Bearer {token}"})
            if r.status_code == 200:
                tickets[name] = r.json()["ticket_id"]
                break
            assert r.status_code in (409, 503), r.text
            time.sleep(0.25)
        else:
            pytest.fail(f"{name} could not queue")
    for _ in range(120):
        st = client.get(
            f"/api/queue/{tickets[loser]}", headers={"Authorization": f"Bearer {tokens[loser]}"}
        ).json()
        if st.get("match_id") and st.get("token"):
            break
        time.sleep(0.25)
    else:
        pytest.fail("the two seeks never made a match")
    done = client.post(
        f"/api/matches/{st['match_id']}/commands",
        json={"command": {"type": "resign.v1"}},
        headers={"Authorization": f"Bearer {st['token']}"},
    )
    assert done.status_code == 200, done.text
    return str(st["match_id"])


@pytest.fixture(scope="module")
def own_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """``gamehall up`` with scoring and the leaderboard too (rated matches reach the pages; seeks
    stay open, no computer fills them), and its data folder for the ``gamehall seasons`` commands."""
    data_dir = tmp_path_factory.mktemp("own-stack")
    for url in up_stack(tmp_path_factory, "own-stack", FULL_STACK, fill_ms=600_000, data_dir=data_dir):
        yield {"url": url, "data_dir": data_dir}


@pytest.fixture(scope="module")
def ranked_stack(own_stack: dict[str, Any]) -> str:
    return str(own_stack["url"])


@pytest.fixture(scope="module")
def played(ranked_stack: str) -> Iterator[dict[str, Any]]:
    tag = uuid.uuid4().hex[:4]
    me, rival = f"mira-{tag}", f"olek-{tag}"
    tokens = {me: sign_up(ranked_stack, me), rival: sign_up(ranked_stack, rival)}
    client = httpx.Client(base_url=ranked_stack, timeout=30)
    matches = [play_ranked(client, tokens, loser) for loser in (rival, me, rival)]
    for _ in range(240):
        r = client.get(f"/api/players/{me}/ratings/history")
        if r.status_code == 200 and sum(len(s["points"]) for s in r.json()["series"]) == len(matches):
            break
        time.sleep(0.25)
    else:
        pytest.fail("the rated matches never reached the rating history")
    yield {"me": me, "rival": rival, "matches": matches, "history": r.json(), "tokens": tokens, "tag": tag}
    client.close()


WORDS = {
    "en": {
        "division": "Division: none",
        "replay": "replay",
        "won": "won",
        "lost": "lost",
    },
    "ru": {
        "division": "Дивизион: нет",
        "replay": "запись",
        "won": "победа",
        "lost": "поражение",
    },
}


def check_the_page(page: Any, played: dict[str, Any], lang: str, width: int) -> None:
    words = WORDS[lang]
    rival, matches = played["rival"], played["matches"]
    page.wait_for_selector(".rating-chart svg circle.pt")
    page.wait_for_selector("#player-matches tr[data-match]")
    # the matches, newest first: the opponent (a link to their page), the result, a replay link
    rows = page.eval_on_selector_all(
        "#player-matches tr[data-match]",
        """rows => rows.map(r => ({id: r.dataset.match, opponents: r.querySelector('td.rivals').textContent,
            rival: r.querySelector('td.rivals a').getAttribute('href'), result: r.querySelector('td.result').textContent,
            change: r.querySelector('td.change').textContent, replay: r.querySelector('td.actions a').getAttribute('href'),
            replayText: r.querySelector('td.actions a').textContent}))""",
    )
    assert [r["id"] for r in rows] == matches[::-1]
    for row, won in zip(rows, (True, False, True), strict=True):
        assert rival in row["opponents"] and row["rival"] == f"#/player/{rival}"
        assert row["result"] == (words["won"] if won else words["lost"])
        assert row["change"].startswith("+" if won else "-"), row
        assert row["replay"] == f"#/replay/{row['id']}" and row["replayText"] == words["replay"]
    # one chart (Ugolki, glicko2), one point per rated match, in the order they were played
    charts = page.eval_on_selector_all(
        ".rating-chart",
        "els => els.map(e => ({game: e.dataset.game, model: e.dataset.model, n: Number(e.dataset.points),"
        " pts: [...e.querySelectorAll('circle.pt')].map(c => c.dataset.match),"
        " right: e.querySelector('svg').getBoundingClientRect().right}))",
    )
    assert [(c["game"], c["model"], c["n"]) for c in charts] == [("ugolki", "glicko2", 3)]
    assert charts[0]["pts"] == matches
    assert charts[0]["right"] <= width
    ys = page.eval_on_selector_all(
        ".rating-chart circle.pt", "els => els.map(e => Number(e.getAttribute('cy')))"
    )
    assert ys[0] < ys[1] > ys[2]  # won (higher: a smaller y), lost, won
    # the season in force and the player's place in it; no division, said so
    season = page.locator('#season-list li[data-game="ugolki"]')
    now = quarter_of(int(time.time() * 1000))
    assert season.get_attribute("data-season") == now
    # the season in the leaderboards' words (seasonText): "2026-Q4", "4-й квартал 2026"
    year, quarter = now.split("-Q")
    said = {"en": f"season {now}", "ru": f"сезон: {quarter}-й квартал {year}"}[lang]
    assert said in season.inner_text(), season.inner_text()
    assert page.get_attribute('#season-list .season-place[data-family="mini-3x3"]', "data-rank") == "1"
    assert page.inner_text("#player-division").startswith(words["division"])
    assert scroll_width(page) <= width, "the player's page scrolls sideways"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_players_page_shows_their_matches_rating_chart_and_season(
    browser: Any, ranked_stack: str, played: dict[str, Any], artifacts_dir: Path, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    context, page, errors = new_page(browser, viewport, "en-GB")
    try:
        # reached from the leaderboard, where the name is a link
        page.goto(ranked_stack + "/#/leaderboard/ugolki")
        page.wait_for_selector("#board-table table.standings")
        page.click(f'#board-table a.player-link:text-is("{played["me"]}")')
        page.wait_for_url(f"**/#/player/{played['me']}")
        check_the_page(page, played, "en", width)
        if viewport is PHONE:
            assert_actions_first_and_on_screen(
                page, "#player-matches tr[data-match]", "td.actions a", "the matches"
            )
        page.screenshot(path=str(artifacts_dir / f"player-page-en-{width}.png"), full_page=True)

        page.click('#lang-switch [data-lang="ru"]')
        page.wait_for_function(
            "document.querySelector('#player-division')?.textContent.startsWith('Дивизион')"
        )
        check_the_page(page, played, "ru", width)
        page.screenshot(path=str(artifacts_dir / f"player-page-ru-{width}.png"), full_page=True)

        # reached from the matches list, and from an opponent's name on the page: #/players/ works too
        page.goto(ranked_stack + "/#/matches")
        row = page.locator(f'#all tr[data-match="{played["matches"][0]}"]')
        row.wait_for()
        row.locator(f'a.player-link:text-is("{played["rival"]}")').click()
        page.wait_for_url(f"**/#/player/{played['rival']}")
        page.wait_for_selector(".rating-chart circle.pt")
        assert page.locator(".rating-chart circle.pt").count() == 3
        page.click(f'#player-matches a.player-link:text-is("{played["me"]}") >> nth=0')
        page.wait_for_url(f"**/#/player/{played['me']}")
        page.goto(ranked_stack + f"/#/players/{played['me']}")
        check_the_page(page, played, "ru", width)
        page.click('#lang-switch [data-lang="en"]')
    finally:
        context.close()
    assert not errors, errors


SEASON = "own-league"

DIVISION_WORDS = {
    "en": {"heading": "Division", "place": "division {d}, place {p} of {n}", "season": f"season {SEASON}",
           "promotion": "↑ goes up", "relegation": "↓ goes down", "live": "standings so far"},
    "ru": {"heading": "Дивизион", "place": "дивизион {d}, место {p} из {n}", "season": f"сезон: {SEASON}",
           "promotion": "↑ повышение", "relegation": "↓ понижение", "live": "текущая таблица"},
}  # fmt: skip


@pytest.fixture(scope="module")
def league(own_stack: dict[str, Any], played: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """After the pages above (no season opened): kira beats olek, ``gamehall seasons open`` places
    the three by rating in gold (two: mira and kira) and silver (olek), and in the season kira and
    olek beat mira: gold is kira 1st, mira 2nd and going down; silver is olek alone, going up (a
    player goes up only with a match of the season)."""
    from tests.browser.test_season_divisions_page import gamehall, until  # the seasons pages' helpers

    url, me, rival = own_stack["url"], played["me"], played["rival"]
    third = f"kira-{played['tag']}"
    tokens = dict(played["tokens"]) | {third: sign_up(url, third)}
    client = httpx.Client(base_url=url, timeout=30)
    play_ranked(client, {third: tokens[third], rival: tokens[rival]}, rival)
    until(lambda: len(client.get("/api/leaderboard/ugolki").json()["entries"]) == 3, "three rated players")
    opened = gamehall(
        own_stack["data_dir"], "seasons", "open", SEASON, "--game", "ugolki", "--division", "gold:2",
        "--division", "silver", "--move", "1/1", "--lead", "1",
    )  # fmt: skip
    assert opened.returncode == 0, opened.stdout + opened.stderr
    starts = client.get(f"/api/seasons/{SEASON}").json()["starts_at"]
    until(lambda: time.time() * 1000 > starts + 200, "the season started")
    play_ranked(client, {me: tokens[me], third: tokens[third]}, me)
    play_ranked(client, {me: tokens[me], rival: tokens[rival]}, me)

    def played_in_the_season() -> bool:
        got = client.get(f"/api/players/{me}/ratings/history").json().get("divisions", [])
        return any(d["season"] == SEASON and d["games"] == 2 for d in got)

    until(played_in_the_season, "the season's match in mira's division line")
    yield {"url": url, "me": me, "rival": rival, "third": third}
    client.close()


def check_division(page: Any, lang: str, player_division: tuple[str, int, int, str], width: int) -> None:
    """The player's page names the division in the season in force: ``(division, place, of, zone)``."""
    words = DIVISION_WORDS[lang]
    division, place, of, zone = player_division
    said = words["place"].format(d=division, p=place, n=of)
    page.wait_for_function(
        "said => (document.querySelector('#player-division')?.textContent || '').includes(said)", arg=said
    )
    block = page.locator("#player-division")
    assert block.locator("b").inner_text() == words["heading"]
    item = block.locator('li[data-game="ugolki"]')
    link = item.locator("a")
    assert link.get_attribute("data-division") == division and link.get_attribute("data-place") == str(place)
    assert link.get_attribute("data-zone") == zone
    assert link.get_attribute("href") == f"#/leaderboard/ugolki?season={SEASON}&division={division}"
    text = item.inner_text()
    assert said in link.inner_text() and words["season"] in text, text
    assert words[zone] in text, text
    other = "relegation" if zone == "promotion" else "promotion"
    assert words[other] not in text, text
    # the season list above names the same season in force
    assert page.get_attribute('#season-list li[data-game="ugolki"]', "data-season") == SEASON
    assert scroll_width(page) <= width, f"the player's page scrolls sideways at {width} px"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_players_page_names_their_division_place_and_zone_in_the_season(
    browser: Any, league: dict[str, Any], artifacts_dir: Path, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    url, me, rival = league["url"], league["me"], league["rival"]
    context, page, errors = new_page(browser, viewport, "en-GB")
    try:
        page.goto(url + f"/#/player/{me}")
        check_division(page, "en", ("gold", 2, 2, "relegation"), width)
        page.screenshot(path=str(artifacts_dir / f"player-division-en-{width}.png"), full_page=True)
        page.click('#lang-switch [data-lang="ru"]')
        check_division(page, "ru", ("gold", 2, 2, "relegation"), width)
        page.screenshot(path=str(artifacts_dir / f"player-division-ru-{width}.png"), full_page=True)
        # the link opens the division's table, the player in it on the line the page named
        page.click('#player-division a[data-division="gold"]')
        page.wait_for_function(
            "s => (document.querySelector('#division-heading')?.textContent || '').includes(s)",
            arg=DIVISION_WORDS["ru"]["live"],
        )
        rows = page.eval_on_selector_all(
            "#division-table tr[data-player]",
            "rows => rows.map(r => [r.dataset.player, r.querySelector('td.rank').textContent, r.dataset.zone])",
        )
        assert rows == [[league["third"], "1", ""], [me, "2", "relegation"]]
        # the other division: olek alone in silver, going up
        page.goto(url + f"/#/player/{rival}")
        check_division(page, "ru", ("silver", 1, 1, "promotion"), width)
        page.click('#lang-switch [data-lang="en"]')
        check_division(page, "en", ("silver", 1, 1, "promotion"), width)
    finally:
        context.close()
    assert not errors, errors
