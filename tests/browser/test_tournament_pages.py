"""The tournaments' pages in headless Chromium, in English and Russian, at 1280 px and 390 px:
the list (each tournament a card on the phone, its action first, nothing scrolling sideways, the
phase filter), a Swiss tournament's page (pairings per round with results and a game still to
play, the crosstable with opponents and results, the standings with the named tie-breaks) and a
fair-tables page (the crosstable's table and position, the evenness in words); a page that follows
its tournament live as records are stored; joining and withdrawing from the page on a phone in
Russian (through the gateway's write routes and the tournaments service); the link to a player's
own game of the round being played.  The records are stored on the stack's GH_TOURNAMENTS
as the tournaments service stores them (tests/support/tournament_records.py).  Screenshots go to
test-artifacts/ (tournament-<lang>-<width>.png)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import up_stack
from tests.browser.test_russian_complete import latin_words
from tests.support.tournament_records import Recorder, store_on_stack

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SWISS_PLAYERS = ["anna", "boris", "vera", "gleb", "dina", "egor"]
FAIR_PLAYERS = ["p-ann", "p-bob", "p-cy", "p-dan", "p-eve", "p-fay", "p-gus", "p-hal"]
NAMES = {*SWISS_PLAYERS, *FAIR_PLAYERS, "zoya", "spring-swiss", "king-fair", "open-rr", "live-rr"}

# What scrolls sideways: the page, or any element whose content is wider than its box.
SIDEWAYS = """() => {
  const out = [...document.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).map((e) => e.tagName + '#' + e.id);
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) out.push('the page');
  return out;
}"""


@pytest.fixture(scope="module")
def tournaments_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``gamehall up`` (the referee, which makes GH_TOURNAMENTS, and the gateway) with three
    tournaments stored: a Swiss in round 2, fair tables of King after two rounds, a round robin
    in registration."""
    data_dir = tmp_path_factory.mktemp("tournament-stack")
    running = up_stack(
        tmp_path_factory, "tournament-stack", ("referee", "gateway", "tournaments"), data_dir=data_dir
    )
    url = next(running)
    try:
        swiss = Recorder("spring-swiss").open(
            SWISS_PLAYERS, "swiss", rounds=3, tie_breaks=("buchholz", "wins")
        )
        swiss.close().play_round()
        swiss.play_round(games=1)  # round 2: one game played, two to play
        fair = Recorder("king-fair").open(
            FAIR_PLAYERS, "fair_tables", game="king", preset="king-4p-classic", rounds=2, table_size=4
        )
        fair.close().play_round()
        fair.play_round()
        waiting = Recorder("open-rr").open(["anna", "boris"])
        store_on_stack(data_dir, swiss, fair, waiting)
        yield url, data_dir
    finally:
        running.close()


def new_page(browser: Any, viewport: dict[str, int], lang: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, locale="ru-RU" if lang == "ru" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    return context, page, errors


def assert_fits(page: Any, width: int, what: str) -> None:
    assert not page.evaluate(SIDEWAYS), f"{what} scrolls sideways at {width} px: {page.evaluate(SIDEWAYS)}"


def assert_russian(page: Any, what: str) -> None:
    hidden = "document.getElementById('lang-switch').hidden = true"
    page.evaluate(hidden)
    text = page.evaluate("document.body.innerText + '\\n' + document.title")
    page.evaluate("document.getElementById('lang-switch').hidden = false")
    left = latin_words(text, NAMES)
    assert not left, f"{what}: Latin words on the Russian page: {sorted(left)}"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_list_and_two_tournaments_pages(
    browser: Any,
    tournaments_stack: tuple[str, Path],
    artifacts_dir: Path,
    lang: str,
    viewport: dict[str, int],
) -> None:
    url, _ = tournaments_stack
    width = viewport["width"]
    context, page, errors = new_page(browser, viewport, lang)
    try:
        page.goto(f"{url}/?lang={lang}#/tournaments")
        page.wait_for_selector("tr[data-tournament='open-rr']")
        assert page.locator("header nav a[href='#/tournaments']").inner_text() == (
            "Турниры" if lang == "ru" else "Tournaments"
        )
        rows = page.locator("table.tournament-list tr[data-tournament]")
        assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.tournament)")) == [
            "king-fair",
            "open-rr",
            "spring-swiss",
        ]
        phase = page.locator("tr[data-tournament='spring-swiss'] td.phase").inner_text()
        assert phase == ("Тур 2 из 3" if lang == "ru" else "Round 2 of 3")
        if width == PHONE["width"]:  # a card a tournament, its action first and on the screen
            boxes = rows.evaluate_all(
                """rs => rs.map(r => { const a = r.querySelector('td.actions a').getBoundingClientRect();
                   const tops = [...r.children].filter(c => c.getBoundingClientRect().height > 0).map(c => c.getBoundingClientRect().top);
                   return {left: a.left, right: a.right, top: a.top, first: Math.min(...tops)}; })"""
            )
            for box in boxes:
                assert 0 <= box["left"] and box["right"] <= width and box["top"] <= box["first"] + 4, box
        assert_fits(page, width, "the tournament list")
        if lang == "ru":
            assert_russian(page, "the tournament list")
        page.click("#tournament-tabs a[data-status='registration']")
        page.wait_for_function("document.querySelectorAll('tr[data-tournament]').length === 1")
        assert page.locator("tr[data-tournament]").get_attribute("data-tournament") == "open-rr"

        # the Swiss: pairings per round, the crosstable, the standings with its tie-breaks
        page.goto(f"{url}/?lang={lang}#/tournament/spring-swiss")
        page.wait_for_selector("#tournament-standings tr[data-player]")
        assert page.locator("#tournament-phase").get_attribute("data-phase") == "running"
        assert page.locator("#tournament-standings tr[data-player]").count() == len(SWISS_PLAYERS)
        heads = page.locator("#tournament-standings th.tb").all_inner_texts()
        assert heads == (["Бухгольц", "Число побед"] if lang == "ru" else ["Buchholz", "Wins"])
        round2 = page.locator(".round[data-round='2'] li[data-table]")
        assert round2.evaluate_all("ls => ls.map(l => l.dataset.status)") == ["played", "to_play", "to_play"]
        assert (
            page.locator(".round[data-round='2'] li[data-table='2']")
            .inner_text()
            .endswith("играется" if lang == "ru" else "to play")
        )
        assert page.locator(".round[data-round='1'] li[data-table] .result").all_inner_texts() == ["1-0"] * 3
        cross = page.locator("#tournament-crosstable tr[data-player]")
        assert cross.count() == len(SWISS_PLAYERS)
        marks = cross.evaluate_all(
            "rs => rs.map(r => [...r.querySelectorAll('td.cell')].map(c => c.dataset.mark))"
        )
        assert sorted(m[0] for m in marks) == ["0", "0", "0", "1", "1", "1"]  # round 1: three wins
        # a round 2 cell is a result only at the one game played
        assert sorted(m[1] for m in marks) == ["", "", "", "", "0", "1"]
        assert page.locator("#tournament-join").is_hidden()  # registration is closed: no join
        assert_fits(page, width, "the Swiss tournament's page")
        if lang == "ru":
            assert_russian(page, "the Swiss tournament's page")
        page.screenshot(path=str(artifacts_dir / f"tournament-{lang}-{width}.png"), full_page=True)

        # fair tables: table and position per round, the evenness in words
        page.goto(f"{url}/?lang={lang}#/tournament/king-fair")
        page.wait_for_selector("#tournament-evenness")
        evenness = page.locator("#tournament-evenness").inner_text()
        assert evenness.startswith("Пары встречались" if lang == "ru" else "Pairs met")
        cells = page.locator("#tournament-crosstable td.cell")
        assert cells.count() == 2 * len(FAIR_PLAYERS)
        assert re.search(r"(Стол|Table) \d, (место|position) [1-4]", cells.first.inner_text())
        assert (
            page.locator("#tournament-crosstable td.cell[data-mark='1']").count() == 4
        )  # a winner a table a round
        assert_fits(page, width, "the fair tables' page")
        if lang == "ru":
            assert_russian(page, "the fair tables' page")
    finally:
        context.close()
    assert not errors, errors


def test_the_page_follows_its_tournament_live(browser: Any, tournaments_stack: tuple[str, Path]) -> None:
    url, data_dir = tournaments_stack
    live = Recorder("live-rr").open(["anna", "boris", "vera"])
    store_on_stack(data_dir, live)
    context, page, errors = new_page(browser, DESKTOP, "en")
    try:
        page.goto(f"{url}/?lang=en#/tournament/live-rr")
        page.wait_for_selector("#tournament-conn[data-state='live']")
        assert page.locator("#tournament-phase").inner_text().startswith("Registration open: 3 players")
        live.close().play_round()
        store_on_stack(data_dir, live)
        page.wait_for_function(
            f"document.getElementById('tournament-phase').dataset.seq === '{len(live.records)}'"
        )
        assert page.locator("#tournament-phase").get_attribute("data-phase") == "running"
        assert page.locator(".round[data-round='1'] li[data-table] .result").all_inner_texts() == ["1-0"]
        assert page.locator(".round[data-round='1'] li.bye").count() == 1
        deadline = time.monotonic() + 10
        while page.locator("#tournament-standings tr[data-player]").count() != 3:
            assert time.monotonic() < deadline, "the standings did not come"
            page.wait_for_timeout(50)
    finally:
        context.close()
    assert not errors, errors


def test_a_player_joins_and_withdraws_from_the_page(
    browser: Any, tournaments_stack: tuple[str, Path]
) -> None:
    """On a phone, in Russian: the name typed, *Join*, the entrants list them (the socket's next
    view) and the box offers withdrawing, which takes them off again."""
    url, _ = tournaments_stack
    context, page, errors = new_page(browser, PHONE, "ru")
    try:
        page.goto(f"{url}/?lang=ru#/tournament/open-rr")
        page.wait_for_selector("#tournament-join-button")
        assert page.locator("#tournament-join-button").inner_text() == "Записаться на турнир"
        page.fill("#tournament-player", "zoya")
        page.click("#tournament-join-button")
        page.wait_for_selector("#tournament-entrants li[data-player='zoya']")
        page.wait_for_selector("#tournament-withdraw")
        assert page.locator("#tournament-entered").inner_text() == "Вы участвуете в этом турнире как zoya."
        assert page.locator("#tournament-phase").inner_text().startswith("Идёт запись: 3 игрока")
        assert_fits(page, PHONE["width"], "the join box")
        assert_russian(page, "the join box")
        page.click("#tournament-withdraw")
        page.wait_for_function("!document.querySelector(\"#tournament-entrants li[data-player='zoya']\")")
        page.wait_for_selector("#tournament-join-button")
        assert page.locator("#tournament-phase").inner_text().startswith("Идёт запись: 2 игрока")
    finally:
        context.close()
    assert not errors, errors


def test_a_player_with_a_game_to_play_gets_the_link_to_it(
    browser: Any, tournaments_stack: tuple[str, Path]
) -> None:
    url, _ = tournaments_stack
    view = httpx.get(f"{url}/api/tournaments/spring-swiss", timeout=30).json()
    game = next(g for g in view["rounds"][1]["games"] if g["status"] == "to_play")
    player = game["seats"][1]
    signed = httpx.post(f"{url}/api/accounts", json={"name": player}, timeout=30).json()
    context, page, errors = new_page(browser, DESKTOP, "en")
    try:
        page.goto(f"{url}/?lang=en#/tournaments")
        page.evaluate(
            "([name, token]) => localStorage.setItem('gh.account', JSON.stringify({name, token}))",
            [player, signed["token"]],
        )
        page.goto(f"{url}/?lang=en#/tournament/spring-swiss")
        link = page.wait_for_selector("#tournament-your-game")
        assert link.inner_text() == f"Your game in round 2 (table {game['table']}): play it"
        seat = httpx.get(
            f"{url}/api/tournaments/spring-swiss/seat",
            headers={"Authorization": f"Bearer {signed['token']}"},
            timeout=30,
        ).json()
        assert link.get_attribute("href") == f"#/play/{seat['match_id']}"
        assert page.evaluate(f"localStorage.getItem('gh.token.{seat['match_id']}')") == seat["token"]
    finally:
        context.close()
    assert not errors, errors
