"""The page for players in headless Chromium: English and Russian (the browser's language, a
remembered switch) with the server's sentences (rules help, warnings, end reason) in that
language, phone width (390 px) for the lobby and every game's table, the Ugolki board
played with the keyboard only, the catalogue's titles and King's move buttons in the page's
language, the replay in Russian, open seeks, the matches list, the leaderboard that opens on the
game with rated players, the player page in words and the quick-match link to a match in progress.

Screenshots go to test-artifacts/ (GAMEHALL_TEST_ARTIFACTS): lobby and tables at 390 px and at
desktop width, in English and in Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import FULL_STACK, up_stack
from tests.browser.test_web_client import wait_my_turn_or_end

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Every game with a renderer of its own, with a preset that makes a quick table, and what shows
# that its table is drawn.
TABLES = {
    "ugolki": ("halma-10x10-12345", "#board .sq"),
    "kings-corner": ("cardgames-zone", ".kc .table-grid"),
    "king": ("king-4p-classic", ".king-table"),
    "thousand": ("classic", ".kc-status"),
    "farkle-flip": ("farkle-flip-placeholder", ".ff-areas"),
    "kings-cup": ("kings-cup-neutral", ".kcup"),
    "draughts": ("russian", "#board .sq"),
    "tablut": ("tablut-seed", "#board .sq"),
}


@pytest.fixture(scope="module")
def ranked_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gamehall up`` with scoring and the leaderboard too (rated matches reach the pages); seeks
    stay open (no computer fills them)."""
    yield from up_stack(tmp_path_factory, "players-stack", FULL_STACK, fill_ms=600_000)


def new_page(browser: Any, viewport: dict[str, int], locale: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    return context, page, errors


def scroll_width(page: Any) -> int:
    return int(page.evaluate("document.scrollingElement.scrollWidth"))


def right_edge(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "el => el.getBoundingClientRect().right"))


def test_the_page_follows_the_browser_language_and_remembers_the_switch(
    browser: Any, ranked_stack: str, artifacts_dir: Path
) -> None:
    context, page, errors = new_page(browser, DESKTOP, "ru-RU")
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        assert page.inner_text("#lobby h1") == "Сыграть партию"
        assert page.inner_text("header nav a >> nth=0") == "Лобби"
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.get_attribute('#lang-switch [data-lang="ru"]', "aria-pressed") == "true"
        # The games by their Russian titles (GET /api/games?lang=ru); presets grouped by the
        # server's families, titled and described in Russian; the preset's name stays as the rules
        # files give it (the option's value and the description line).
        titles = dict(page.eval_on_selector_all("#game option", "els => els.map(e => [e.value, e.textContent])"))
        assert titles["ugolki"] == "Уголки" and titles["king"] == "Кинг"
        assert titles["kings-corner"] == "Короли в углах" and titles["thousand"] == "Тысяча (1000)"
        page.select_option("#game", "ugolki")
        groups = page.eval_on_selector_all("#preset optgroup", "els => els.map(e => e.label)")
        assert groups[:2] == ["Gambiter", "Доски гальмы"]
        page.select_option("#preset", "gambiter-classic")
        assert page.inner_text("#preset option:checked") == "Gambiter, классика"
        assert page.inner_text("#preset-description").startswith("ЧаВо Gambiter")  # words, not the id
        strengths = page.eval_on_selector_all("#strength option", "els => els.map(e => [e.value, e.textContent])")
        assert strengths == [["random", "новичок"], ["greedy", "любитель"], ["search", "сильный"]]
        page.screenshot(path=str(artifacts_dir / "lobby-ru-desktop.png"), full_page=True)

        page.click('#lang-switch [data-lang="en"]')
        page.wait_for_function("document.querySelector('#lobby h1').textContent === 'Play a game'")
        assert page.inner_text("header nav a >> nth=0") == "Lobby"
        page.wait_for_function("document.querySelector('#game option[value=ugolki]').textContent === 'Ugolki (corners)'")
        page.select_option("#game", "ugolki")
        groups = page.eval_on_selector_all("#preset optgroup", "els => els.map(e => e.label)")
        assert groups[:2] == ["Gambiter", "Halma boards"]
        assert page.eval_on_selector_all("#strength option", "els => els.map(e => e.textContent)") == [
            "beginner",
            "casual",
            "strong",
        ]
        page.reload()
        page.wait_for_selector("#lobby")
        assert page.inner_text("#lobby h1") == "Play a game"  # the choice outlives the reload
        assert page.evaluate("localStorage.getItem('gh.pref.lang')") == "en"
        page.screenshot(path=str(artifacts_dir / "lobby-en-desktop.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_phone_width_lobby_and_every_table_fit_in_390_px(
    browser: Any, ranked_stack: str, artifacts_dir: Path, locale: str
) -> None:
    lang = locale[:2]
    context, page, errors = new_page(browser, PHONE, locale)
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.wait_for_function("!document.querySelector('#recent').textContent.includes('…')")
        page.fill("#player-name", f"phone-{lang}")
        assert scroll_width(page) <= 390, "the lobby is wider than the phone"
        page.screenshot(path=str(artifacts_dir / f"lobby-{lang}-390.png"), full_page=True)
        for game, (preset, drawn) in TABLES.items():
            page.goto(ranked_stack + "/")
            page.wait_for_selector("#lobby")
            page.select_option("#game", game)
            page.select_option("#preset", preset)
            page.click("#play-computer")
            page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
            page.wait_for_selector(drawn)
            page.wait_for_function("Number(document.querySelector('#status').dataset.seq) > 0")
            if game == "king":  # the move buttons in the page's language (the view's labels, the server's words)
                word = {"en": "ready", "ru": "готов"}[lang]
                ready = page.locator(f'.king-actions button[data-label="{word}"]')
                assert ready.inner_text() == word
            deal_the_cards(page)
            width = scroll_width(page)
            page.screenshot(path=str(artifacts_dir / f"table-{game}-{lang}-390.png"), full_page=True)
            assert width <= 390, f"{game}: the page is {width} px wide on a 390 px phone"
            assert right_edge(page, drawn) <= 390, f"{game}: the table does not fit"
            if game == "ugolki":  # 10x10: the whole board is on the screen
                assert right_edge(page, "#board") <= 390
                assert page.locator("#board .sq").count() == 100
    finally:
        context.close()
    assert not errors, errors


def deal_the_cards(page: Any) -> None:
    """A card game waits for every seat to be ready: say ready, so the hand is dealt and drawn."""
    ready = page.locator("#game button", has_text=re.compile(r"^(ready|готов)", re.IGNORECASE))
    if ready.count():
        ready.first.click()
        if page.locator("#hand").count():
            page.wait_for_selector("#hand .card", timeout=30_000)


def test_desktop_tables_in_both_languages(browser: Any, ranked_stack: str, artifacts_dir: Path) -> None:
    for locale in ("en-GB", "ru-RU"):
        context, page, errors = new_page(browser, DESKTOP, locale)
        try:
            for game in ("ugolki", "kings-corner"):
                preset, drawn = TABLES[game]
                page.goto(ranked_stack + "/")
                page.wait_for_selector("#lobby")
                page.select_option("#game", game)
                page.select_option("#preset", preset)
                page.click("#play-computer")
                page.wait_for_selector(drawn)
                page.wait_for_function("Number(document.querySelector('#status').dataset.seq) > 0")
                deal_the_cards(page)
                assert scroll_width(page) <= DESKTOP["width"]
                page.screenshot(path=str(artifacts_dir / f"table-{game}-{locale[:2]}-desktop.png"), full_page=True)
        finally:
            context.close()
        assert not errors, errors


def test_the_russian_page_shows_the_server_sentences_in_russian(
    browser: Any, ranked_stack: str, artifacts_dir: Path
) -> None:
    """The rules help, Ugolki's warnings and the end reason come from the server in the page's
    language (?lang=ru), and in English again once the switch changes it."""
    context, page, errors = new_page(browser, DESKTOP, "ru-RU")
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.select_option("#game", "ugolki")
        page.select_option("#preset", "halma-8x8-1234")
        assert "Вовремя выйти из дома" in page.text_content("#preset-help-body")
        page.select_option("#strength", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
        page.wait_for_selector("#rules-help")
        help_text = page.inner_text("#rules-help")
        assert "Правила: Уголки — Гальма 8×8" in help_text  # the preset by its title in Russian, not its id
        assert "Переведите все 10 шашек из своего угла" in help_text
        assert "Вовремя выйти из дома (§6.2)" in help_text
        page.wait_for_selector("#warnings")
        page.wait_for_function("document.querySelector('#warnings').textContent.includes('дома ещё')")
        assert "Белые: дома ещё 10 шашек; осталось 40 ходов, чтобы вывести все 10" in page.inner_text("#warnings")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_selector("#after-game #end-reason")
        reason = page.inner_text("#end-reason")
        assert reason.startswith("Побеждает ") and reason.endswith("сдался."), reason
        assert page.inner_text("#warnings") == ""  # the match is over: no countdown is left
        page.screenshot(path=str(artifacts_dir / "ugolki-end-ru-desktop.png"), full_page=True)
        title = page.inner_text("#match-title")
        assert "Уголки" in title and "Гальма 8×8" in title, title  # the catalogue's titles in Russian

        # The replay's frames in the page's language: the end reason at the last step.
        match_url = page.url
        page.goto(ranked_stack + "/#/replay/" + match_url.rsplit("/", 1)[1])
        page.wait_for_selector("#step")
        page.click("#last")
        step = page.inner_text("#step")
        assert "Побеждает " in step and step.endswith("сдался."), step
        assert "Уголки" in page.inner_text(".replay h1")
        page.goto(match_url)
        page.wait_for_selector("#after-game #end-reason")

        page.click('#lang-switch [data-lang="en"]')
        page.wait_for_function(
            "(document.querySelector('#end-reason') || {}).textContent?.endsWith('resigned.')"
        )
        assert "wins: " in page.inner_text("#end-reason")
        page.wait_for_function("(document.querySelector('#rules-help') || {}).textContent?.includes('Leave home')")
        assert "Move all 10 of your pieces" in page.text_content("#rules-help")
    finally:
        context.close()
    assert not errors, errors


def press_towards(page: Any, target: str) -> None:
    """Arrow keys from the focused square to ``target`` (rows and columns as drawn)."""
    cells = page.eval_on_selector_all("#board .sq", "els => els.map(e => e.dataset.sq)")
    n = int(len(cells) ** 0.5)
    here = page.evaluate("document.activeElement.dataset.sq")
    i, j = cells.index(here), cells.index(target)
    dr, dc = j // n - i // n, j % n - i % n
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.sq") == target


def test_an_ugolki_move_with_the_keyboard_only(browser: Any, ranked_stack: str, artifacts_dir: Path) -> None:
    context, page, errors = new_page(browser, DESKTOP, "en-GB")
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.select_option("#game", "ugolki")
        page.select_option("#preset", "halma-8x8-1234")
        page.select_option("#strength", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
        match_id = page.url.rsplit("/", 1)[1]
        token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
        state = wait_my_turn_or_end(page, "white")
        # The board is one tab stop; every square is labelled for screen readers.
        assert page.locator('#board .sq[tabindex="0"]').count() == 1
        gv = httpx.get(f"{ranked_stack}/api/matches/{match_id}").json()["game_view"]
        white, black = gv["white"][0], gv["black"][0]
        assert page.get_attribute(f'#board [data-sq="{white}"]', "aria-label") == f"{white}, white piece"
        assert page.get_attribute(f'#board [data-sq="{black}"]', "aria-label") == f"{black}, black piece"
        assert page.get_attribute('#board [data-sq="e5"]', "aria-label") == "e5, empty"
        page.evaluate("document.activeElement && document.activeElement.blur()")
        for _ in range(40):  # Tab until the board has the focus
            page.keyboard.press("Tab")
            if page.evaluate("!!document.activeElement.closest('#board')"):
                break
        else:
            pytest.fail("Tab never reached the board")
        legal = httpx.get(f"{ranked_stack}/api/matches/{match_id}", params={"token": token}).json()["legal_moves"]
        move = max(legal, key=lambda m: len(m["command"]["path"]))
        path = move["command"]["path"]
        press_towards(page, path[0])
        page.keyboard.press("Enter")
        assert page.get_attribute(f'#board [data-sq="{path[0]}"]', "aria-selected") == "true"
        assert "selected" in page.get_attribute(f'#board [data-sq="{path[0]}"]', "aria-label")
        marked = page.get_attribute(f'#board [data-sq="{path[-1]}"]', "aria-label")
        assert f"move here: {move['label']}" in marked
        press_towards(page, path[-1])
        page.screenshot(path=str(artifacts_dir / "ugolki-keyboard.png"))
        page.keyboard.press(" ")
        wait_my_turn_or_end(page, "white", int(state["seq"]))
        history = httpx.get(f"{ranked_stack}/api/matches/{match_id}").json()["game_view"]["history"]
        assert history[0] == move["label"]
        assert page.evaluate("!!document.activeElement.closest('#board')"), "the focus stays on the board"
    finally:
        context.close()
    assert not errors, errors


def sign_up(url: str, name: str) -> str:
    reply = httpx.post(f"{url}/api/accounts", json={"name": name}, timeout=30)
    assert reply.status_code == 201, reply.text
    return str(reply.json()["token"])


def test_seeks_matches_leaderboard_and_player_pages(
    browser: Any, ranked_stack: str, artifacts_dir: Path
) -> None:
    client = httpx.Client(base_url=ranked_stack, timeout=30)
    sam = sign_up(ranked_stack, "sam")
    seek = {"game": "ugolki", "preset": "mini-3x3", "seats": 2, "ranked": True}
    joined = client.post("/api/queue", json=seek, headers={"Authorization": f"Bearer {sam}"})
    assert joined.status_code == 200, joined.text
    listed = client.get("/api/seeks").json()["seeks"]
    assert [(s["game"], s["preset"], s["players"]) for s in listed] == [("ugolki", "mini-3x3", ["sam"])]
    assert joined.json()["ticket_id"] not in client.get("/api/seeks").text
    assert client.get("/api/seeks", params={"game": "nope"}).json()["code"] == "unknown_game"

    context, page, errors = new_page(browser, DESKTOP, "en-GB")
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#open-seeks [data-join]")
        row = page.inner_text("#open-seeks tr")
        assert "sam" in row and "Mini 3×3" in row and "1 free seat" in row
        page.fill("#player-name", "tess")
        page.click("#open-seeks [data-join]")
        page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"), timeout=30_000)
        match_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector('#board [data-sq="a1"]')
        assert "sam" in page.inner_text("#players") and "tess" in page.inner_text("#players")

        # Quick match while that match runs: refused, with a link to it.
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.fill("#player-name", "tess")
        page.click("#quick-match")
        page.wait_for_selector("#match-in-progress")
        assert "already in a match" in page.inner_text("#lobby-message")
        assert page.get_attribute("#match-in-progress", "href") == f"#/play/{match_id}"
        page.click("#match-in-progress")
        page.wait_for_selector('#board [data-sq="a1"]')
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_function("document.querySelector('#status').dataset.status === 'finished'")

        # The matches list: players, status, result and date (once scoring has listed the end:
        # the list is a read model a moment behind the log).
        for _ in range(120):
            rows = client.get("/api/match-summaries", params={"limit": 100}).json()["matches"]
            if any(m["match_id"] == match_id and m["status"] == "finished" for m in rows):
                break
            page.wait_for_timeout(250)
        else:
            pytest.fail("the finished match never reached the match list")
        page.goto(ranked_stack + "/#/matches")
        row = page.locator(f'#all tr[data-match="{match_id}"]')
        row.wait_for()
        text = row.inner_text()
        assert "sam" in text and "tess" in text and "finished" in text
        assert "wins: " in text and "resigned." in text  # the server's end reason in words
        assert re.search(r"\d{4}", row.locator("td.date").inner_text())
        page.screenshot(path=str(artifacts_dir / "matches-en-desktop.png"), full_page=True)

        # The leaderboard opens on the game with rated players (Ugolki is last in the catalogue).
        for _ in range(60):
            board = client.get("/api/leaderboard/ugolki").json()
            if board["entries"]:
                break
            page.wait_for_timeout(500)
        else:
            pytest.fail("the rated match never reached the leaderboard")
        page.goto(ranked_stack + "/#/leaderboard")
        page.wait_for_selector("#board-table table.standings")
        assert page.inner_text(".tabs a.active") == "Ugolki (corners)"
        assert "sam" in page.inner_text("#board-table")

        # The player pages in words.
        page.goto(ranked_stack + "/#/player/sam")
        page.wait_for_selector("#player-record li")
        assert "won 1, lost 0" in page.inner_text("#player-record")
        assert page.inner_text("#player-summary").startswith("1 match")
        page.click('#lang-switch [data-lang="ru"]')
        page.wait_for_function("document.querySelector('#player-record')?.textContent.includes('побед 1, поражений 0')")
        assert page.inner_text("#player-summary").startswith("1 партия")
        page.screenshot(path=str(artifacts_dir / "player-ru-desktop.png"), full_page=True)
        page.goto(ranked_stack + "/#/player/tess")
        page.wait_for_function("document.querySelector('#player-record')?.textContent.includes('побед 0, поражений 1')")
        page.click('#lang-switch [data-lang="en"]')
    finally:
        context.close()
    assert not errors, errors


def test_an_open_table_is_listed_and_joined_from_the_lobby(
    browser: Any, ranked_stack: str, artifacts_dir: Path
) -> None:
    """A player opens a table for anyone (a private table code, listed by GET /api/tables); another
    sees it among the open tables (host, seats taken) and joins it with its Join button; both sit
    at one match."""
    host_ctx, host, host_errors = new_page(browser, DESKTOP, "en-GB")
    guest_ctx, guest, guest_errors = new_page(browser, DESKTOP, "ru-RU")
    try:
        host.goto(ranked_stack + "/")
        host.wait_for_selector("#lobby")
        host.fill("#player-name", "hana")
        host.select_option("#game", "ugolki")
        host.select_option("#preset", "halma-8x8-1234")
        host.click("#open-table")
        host.wait_for_function("document.querySelector('#lobby-message').textContent.includes('open to anyone')")
        listed = httpx.get(f"{ranked_stack}/api/tables", timeout=30).json()["tables"]
        assert [(t["host"], t["taken"], t["seats"], t["title"]) for t in listed] == [("hana", 1, 2, "Halma 8×8")]

        guest.goto(ranked_stack + "/")
        guest.wait_for_selector("#open-seeks tr[data-table] [data-join]")
        row = guest.inner_text("#open-seeks tr[data-table]")
        assert "хозяин: hana" in row and "занято мест: 1 из 2" in row
        assert "Уголки" in row and "Гальма 8×8" in row  # the titles in the page's language
        guest.screenshot(path=str(artifacts_dir / "lobby-open-table-ru-desktop.png"), full_page=True)
        guest.fill("#player-name", "ivan")
        guest.click("#open-seeks tr[data-table] [data-join]")
        guest.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"), timeout=30_000)
        host.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"), timeout=30_000)
        assert host.url.rsplit("/", 1)[1] == guest.url.rsplit("/", 1)[1]
        guest.wait_for_selector('#board [data-sq="a1"]')
        assert "hana" in guest.inner_text("#players") and "ivan" in guest.inner_text("#players")
        assert httpx.get(f"{ranked_stack}/api/tables", timeout=30).json()["tables"] == []
        guest.once("dialog", lambda dialog: dialog.accept())
        guest.click("#resign")
        guest.wait_for_function("document.querySelector('#status').dataset.status === 'finished'")
    finally:
        host_ctx.close()
        guest_ctx.close()
    assert not host_errors and not guest_errors, (host_errors, guest_errors)
