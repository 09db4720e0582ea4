"""The players' page in headless Chromium, English and Russian, at 1280 px and 390 px: a clock
chosen in the lobby for every game (every seat's time shown and counting down, the last 10 seconds
flashing, an optional sound remembered in the browser, the timeout's end sentence); the lists'
actions first and on the screen of a phone; one "You play …" line at most, replaced by the
reply; and no draw offers or leaderboard for a table helper (Kings Cup)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import assert_no_sideways_scroll
from tests.browser.test_players_page import (
    DESKTOP,
    PHONE,
    TABLES,
    deal_the_cards,
    new_page,
    ranked_stack,
    scroll_width,
    sign_up,
)
from tests.browser.test_web_client import seat_view, wait_my_turn_or_end

pytestmark = pytest.mark.browser

__all__ = ["ranked_stack"]  # the module's stack (scoring and the leaderboard too)

VIEWS = [("en-GB", DESKTOP), ("ru-RU", PHONE)]


def start_from_lobby(page: Any, url: str, game: str, preset: str, clock: str = "", strength: str = "") -> str:
    page.goto(url + "/")
    page.wait_for_selector("#lobby")
    page.select_option("#game", game)
    page.select_option("#preset", preset)
    if strength:
        page.select_option("#strength", strength)
    if clock:
        page.select_option("#clock", clock)
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
    return str(page.url.rsplit("/", 1)[1])


def clocks(page: Any) -> dict[str, dict[str, Any]]:
    return {
        c["seat"]: c
        for c in page.eval_on_selector_all(
            "#players .clock",
            "els => els.map(e => ({seat: e.dataset.seat, running: e.dataset.running, ms: Number(e.dataset.ms), text: e.textContent}))",
        )
    }


@pytest.mark.parametrize(("locale", "viewport"), VIEWS, ids=["en-1280", "ru-390"])
def test_a_lobby_clock_for_every_game_shows_every_seat_counting_down(
    browser: Any, ranked_stack: str, artifacts_dir: Path, locale: str, viewport: dict[str, int]
) -> None:
    lang = locale[:2]
    context, page, errors = new_page(browser, viewport, locale)
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        offered = page.eval_on_selector_all("#clock option", "els => els.map(e => [e.value, e.textContent])")
        words = {"en": ("no clock", "5 min + 0 s a move", "your own…"), "ru": ("без часов", "5 мин + 0 с за ход", "свои…")}[lang]
        assert offered[0] == ["", words[0]] and ["5+0", words[1]] in offered and offered[-1] == ["custom", words[2]]
        assert [v for v, _ in offered] == ["", "5+0", "10+5", "15+10", "custom"]
        assert page.is_hidden("#clock-minutes") and scroll_width(page) <= viewport["width"]
        for game, (preset, drawn) in TABLES.items():
            match_id = start_from_lobby(page, ranked_stack, game, preset, "5+0")
            page.wait_for_selector(drawn)
            deal_the_cards(page)
            tc = httpx.get(f"{ranked_stack}/api/matches/{match_id}", timeout=30).json()
            seats = tc["seats"]
            for seat in seats:
                page.wait_for_selector(f'#players .clock[data-seat="{seat}"]')
            page.wait_for_function(
                "() => [...document.querySelectorAll('#players .clock')].some(e => e.dataset.running === 'true' && Number(e.dataset.ms) < 299_500)"
            )
            shown = clocks(page)
            assert set(shown) == set(seats), (game, shown)
            running = [s for s, c in shown.items() if c["running"] == "true"]
            assert running, (game, shown)
            first = shown[running[0]]["ms"]
            page.wait_for_function(
                "([s, ms]) => { const e = document.querySelector(`#players .clock[data-seat=\"${s}\"]`); return !e || e.dataset.running !== 'true' || Number(e.dataset.ms) < ms; }",
                arg=[running[0], first - 400],
            )
            for c in shown.values():
                assert re.fullmatch(r"[0-5]:\d\d", c["text"]), (game, c)
            assert scroll_width(page) <= viewport["width"], game
            page.screenshot(path=str(artifacts_dir / f"clock-{game}-{lang}-{viewport['width']}.png"))
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize(("locale", "viewport"), VIEWS, ids=["en-1280", "ru-390"])
def test_a_lobby_clock_runs_out_flashing_with_the_sound_switch_and_the_end_in_words(
    browser: Any, ranked_stack: str, artifacts_dir: Path, locale: str, viewport: dict[str, int]
) -> None:
    lang = locale[:2]
    context, page, errors = new_page(browser, viewport, locale)
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.fill("#player-name", f"slow-{lang}")
        page.select_option("#game", "ugolki")
        page.select_option("#preset", "halma-8x8-1234")
        page.select_option("#clock", "custom")
        assert page.is_visible("#clock-minutes") and page.is_visible("#clock-increment")
        page.fill("#clock-minutes", "0")
        page.click("#play-computer")
        bad = {"en": "The clock needs more than 0 minutes", "ru": "Часам нужно больше 0 минут"}[lang]
        assert page.inner_text("#lobby-message").startswith(bad)
        assert "#/play/" not in page.url
        page.fill("#clock-minutes", "0.25")  # 15 seconds
        page.fill("#clock-increment", "0")
        page.select_option("#strength", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
        match_id = page.url.rsplit("/", 1)[1]
        created = httpx.get(f"{ranked_stack}/api/matches/{match_id}", timeout=30).json()
        assert created["clock"]["remaining_ms"] == [15_000, 15_000], created["clock"]

        # The sound is off at first; the switch is remembered in this browser.
        page.wait_for_selector("#clock-sound-box:not([hidden])")
        assert not page.is_checked("#clock-sound")
        assert page.evaluate("localStorage.getItem('gh.pref.clock_sound')") is None
        page.check("#clock-sound")
        assert page.evaluate("localStorage.getItem('gh.pref.clock_sound')") == "true"
        page.reload()
        page.wait_for_selector("#clock-sound-box:not([hidden])")
        assert page.is_checked("#clock-sound")

        # The last 10 seconds of white's clock flash (and beep, the sound being on).
        low = page.wait_for_selector('#players .clock.low[data-seat="white"]', timeout=20_000)
        animation = low.evaluate("e => getComputedStyle(e).animationName")
        assert animation == "clock-flash", animation
        assert page.get_attribute('#players .clock[data-seat="black"]', "class") == "clock"  # not running
        page.wait_for_function("Number(document.querySelector('#clock-sound').dataset.beeps || 0) >= 2")
        page.screenshot(path=str(artifacts_dir / f"clock-low-{lang}-{viewport['width']}.png"))

        # Time out: the server's end sentence, in the page's language, said once.
        page.wait_for_selector("#after-game #end-reason", timeout=20_000)
        reason = page.inner_text("#end-reason")
        if lang == "en":
            assert re.fullmatch(r".+ wins: slow-en \(white\) ran out of time\.", reason), reason
        else:
            assert re.fullmatch(r"Побеждает .+: у игрока slow-ru \(белые\) кончилось время\.", reason), reason
        assert page.inner_text("#status") == reason
        lines = page.eval_on_selector_all("#messages p", "els => els.map(e => e.textContent)")
        assert lines[-1] == reason, lines
        assert page.locator('#players .clock.low').count() == 0
        assert page.is_hidden("#clock-sound-box")
        page.screenshot(path=str(artifacts_dir / f"clock-timeout-{lang}-{viewport['width']}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


class HeldReplies:
    """The page's match socket through the test: commands go on to the server, or (``hold``) are
    kept back so that the test answers them itself."""

    def __init__(self) -> None:
        self.hold = False
        self.held: list[str] = []
        self.page_side: Any = None

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.page_side = ws

        def from_page(message: Any) -> None:
            if self.hold:
                self.held.append(json.loads(message)["command_id"])
            else:
                server.send(message)

        ws.on_message(from_page)

    def refuse(self, command_id: str) -> None:
        reply = {"type": "rejected.v1", "code": "not_your_turn", "detail": "it is not your turn"}
        self.page_side.send(json.dumps({"type": "reply", "command_id": command_id, "reply": reply}))


@pytest.mark.parametrize(("locale", "viewport"), VIEWS, ids=["en-1280", "ru-390"])
def test_the_lobby_table_keeps_one_pending_move_line_replaced_by_the_reply(
    browser: Any, ranked_stack: str, artifacts_dir: Path, locale: str, viewport: dict[str, int]
) -> None:
    lang = locale[:2]
    words = {"en": ("You play ", "Move refused: "), "ru": ("Ваш ход: ", "Ход отклонён: ")}[lang]
    context, page, errors = new_page(browser, viewport, locale)
    socket = HeldReplies()
    page.route_web_socket(re.compile(r"/ws/matches/"), socket.route)
    client = httpx.Client(base_url=ranked_stack, timeout=30)
    try:
        match_id = start_from_lobby(page, ranked_stack, "ugolki", "halma-8x8-1234", "", "random")
        token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")

        def pending_lines() -> list[str]:
            return [
                x for x in page.eval_on_selector_all("#messages p", "els => els.map(e => e.textContent)")
                if x.endswith("…")
            ]

        def click_move(move: dict[str, Any]) -> None:
            path = move["command"]["path"]
            page.click(f'#board [data-sq="{path[0]}"]')
            page.click(f'#board [data-sq="{path[-1]}"]')

        # Accepted moves: each line goes once its reply is in (the log has the move).
        for _ in range(3):
            state = wait_my_turn_or_end(page, "white")
            legal = seat_view(client, match_id, token)["legal_moves"]
            click_move(legal[0])
            assert len(pending_lines()) <= 1
            wait_my_turn_or_end(page, "white", int(state["seq"]))
            page.wait_for_function("!document.querySelector('#messages p.pending')")
            assert pending_lines() == [], page.inner_text("#messages")
            assert legal[0]["label"].replace("-", "–") in page.inner_text("#table-log")  # the log's dash

        # Two moves on their way: one line, the newer; refused: the refusal sentence in its place.
        legal = seat_view(client, match_id, token)["legal_moves"]
        socket.hold = True
        click_move(legal[0])
        click_move(legal[1])
        assert pending_lines() == [f"{words[0]}{legal[1]['label']}…"], page.inner_text("#messages")
        for _ in range(40):
            if len(socket.held) == 2:
                break
            time.sleep(0.05)
        socket.refuse(socket.held[1])
        page.wait_for_function("!document.querySelector('#messages p.pending')")
        assert pending_lines() == []
        last = page.eval_on_selector_all("#messages p", "els => els.map(e => [e.className, e.textContent])")[-1]
        assert last[0] == "error" and last[1].startswith(words[1]), last
        page.screenshot(path=str(artifacts_dir / f"pending-refused-{lang}-{viewport['width']}.png"))
    finally:
        client.close()
        context.close()
    assert not errors, errors


def wait_listed(client: httpx.Client, match_id: str, status: str) -> None:
    for _ in range(120):
        rows = client.get("/api/match-summaries", params={"limit": 100}).json()["matches"]
        if any(m["match_id"] == match_id and m["status"] == status for m in rows):
            return
        time.sleep(0.25)
    pytest.fail(f"{match_id} never reached the match list as {status}")


@pytest.fixture(scope="module")
def listed(ranked_stack: str) -> Iterator[dict[str, str]]:
    """A rated match between two players with long names, finished and on the leaderboard; a
    match in progress with a seat token; an open seek."""
    client = httpx.Client(base_url=ranked_stack, timeout=30)
    a, b = "Maximiliana-Wolkenstein", "Konstantin-Konstantinopolsky"
    tokens = {a: sign_up(ranked_stack, a), b: sign_up(ranked_stack, b)}
    seek = {"game": "ugolki", "preset": "mini-3x3", "seats": 2, "ranked": True}
    tickets = {p: client.post("/api/queue", json=seek, headers={"Authorization": f"Bearer {tk}"}).json() for p, tk in tokens.items()}
    seat_token = ""
    for _ in range(120):
        st = client.get(f"/api/queue/{tickets[a]['ticket_id']}", headers={"Authorization": f"Bearer {tokens[a]}"}).json()
        if st.get("match_id") and st.get("token"):
            match_id, seat_token = st["match_id"], st["token"]
            break
        time.sleep(0.25)
    else:
        pytest.fail("the two seeks never made a match")
    done = client.post(f"/api/matches/{match_id}/commands", json={"command": {"type": "resign.v1"}}, headers={"Authorization": f"Bearer {seat_token}"})
    assert done.status_code == 200, done.text
    wait_listed(client, match_id, "finished")
    for _ in range(120):
        if client.get("/api/leaderboard/ugolki").json()["entries"]:
            break
        time.sleep(0.25)
    else:
        pytest.fail("the rated match never reached the leaderboard")
    running = client.post("/api/matches", json={"game": "kings-corner", "players": [a, b]}).json()
    wait_listed(client, running["match_id"], "running")
    c = sign_up(ranked_stack, "Anastasia-Przybyszewska")
    client.post("/api/queue", json={**seek, "preset": "halma-8x8-1234"}, headers={"Authorization": f"Bearer {c}"})
    yield {"player": a, "finished": match_id, "running": running["match_id"], "token": running["seats"][0]["token"]}
    client.close()


def assert_actions_first_and_on_screen(page: Any, rows: str, actions: str, what: str) -> None:
    """Every row's action is on the phone's screen and the first thing in its row."""
    boxes = page.eval_on_selector_all(
        rows,
        """(rows, actions) => rows.map(r => {
            const a = r.querySelector(actions);
            const cells = [...r.children].filter(c => c.getBoundingClientRect().height > 0);
            const box = a.getBoundingClientRect(), cell = a.closest('td,th').getBoundingClientRect();
            return {left: box.left, right: box.right, top: cell.top,
                    first: Math.min(...cells.map(c => c.getBoundingClientRect().top))};
        })""",
        actions,
    )
    assert boxes, what
    for box in boxes:
        assert 0 <= box["left"] and box["right"] <= PHONE["width"], (what, box)
        assert box["top"] <= box["first"] + 1, (what, box)
    assert scroll_width(page) <= PHONE["width"], what
    assert_no_sideways_scroll(page, what)


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_on_a_phone_every_lists_action_comes_first_and_inside_the_screen(
    browser: Any, ranked_stack: str, listed: dict[str, str], artifacts_dir: Path, locale: str
) -> None:
    lang = locale[:2]
    context, page, errors = new_page(browser, PHONE, locale)
    try:
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#lobby")
        page.evaluate(f"localStorage.setItem('gh.token.{listed['running']}', '{listed['token']}')")
        page.goto(ranked_stack + "/#/matches")  # the match list first
        page.goto(ranked_stack + "/")
        page.wait_for_selector("#recent tr[data-match]")
        page.wait_for_selector("#open-seeks [data-join]")
        assert_actions_first_and_on_screen(page, "#recent tr[data-match]", "td.actions a", "the lobby's recent matches")
        assert_actions_first_and_on_screen(page, "#open-seeks tr", "[data-join]", "the open seeks")
        resume = {"en": "resume", "ru": "продолжить"}[lang]
        assert page.inner_text(f'#recent tr[data-match="{listed["running"]}"] td.actions a >> nth=0') == resume
        page.screenshot(path=str(artifacts_dir / f"lists-lobby-{lang}-390.png"), full_page=True)

        page.goto(ranked_stack + "/#/matches")
        page.wait_for_selector(f'#all tr[data-match="{listed["finished"]}"]')
        assert_actions_first_and_on_screen(page, "#all tr[data-match]", "td.actions a", "the matches list")
        page.screenshot(path=str(artifacts_dir / f"lists-matches-{lang}-390.png"), full_page=True)

        page.goto(ranked_stack + "/#/leaderboard")
        page.wait_for_selector("#board-table table.standings")
        tabs = page.eval_on_selector_all(".tabs a", "els => els.map(e => e.getBoundingClientRect().right)")
        assert tabs and max(tabs) <= PHONE["width"], tabs
        assert_actions_first_and_on_screen(page, "#board-table tr:has(a)", "a", "the leaderboard")
        # every number of a row still shown, with its label (the column heads are not shown)
        labels = {"en": ("rating", "games", "won", "drawn", "lost"), "ru": ("рейтинг", "партий", "побед", "ничьих", "поражений")}[lang]
        for row in page.eval_on_selector_all(
            "#board-table tr:has(a)",
            """rows => rows.map(r => [...r.querySelectorAll('td[data-label]')].map(c => {
                const b = c.getBoundingClientRect();
                const shown = getComputedStyle(c, '::before').content !== 'none' && b.width > 0 && b.right <= innerWidth;
                return [c.dataset.label, shown]; }))""",
        ):
            assert [label for label, _ in row] == list(labels), row
            assert all(shown for _, shown in row), row
        page.screenshot(path=str(artifacts_dir / f"lists-leaderboard-{lang}-390.png"), full_page=True)

        page.goto(ranked_stack + f"/#/player/{listed['player']}")
        page.wait_for_selector("#player-matches tr[data-match]")
        assert_actions_first_and_on_screen(page, "#player-matches tr[data-match]", "td.actions a", "the player's matches")
        page.screenshot(path=str(artifacts_dir / f"lists-player-{lang}-390.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


def test_a_lobby_kings_cup_table_offers_no_draw_and_has_no_leaderboard(
    browser: Any, ranked_stack: str, artifacts_dir: Path
) -> None:
    """Kings Cup is a table helper (GET /api/games: helper): nobody wins, so there is no draw to
    offer and no leaderboard tab; the turn going on is worded as a draw, not a pass."""
    catalogue = httpx.get(f"{ranked_stack}/api/games", timeout=30).json()
    helpers = {g["game"] for g in catalogue if g["helper"]}
    assert helpers == {"kings-cup"}
    for locale, viewport in VIEWS:
        context, page, errors = new_page(browser, viewport, locale)
        try:
            start_from_lobby(page, ranked_stack, "kings-cup", "kings-cup-neutral", "")
            page.wait_for_selector(".kcup")
            page.wait_for_selector("#resign:not([hidden])")
            assert page.is_hidden("#offer-draw")
            deal_the_cards(page)
            # Play our moves (a draw, or whatever a drawn card asks: a seat to choose, a rule to
            # make) until a card is done with and the log says who draws next; the computer
            # players answer theirs.
            deadline = time.monotonic() + 60
            while not re.search(r"draws next|теперь тянет", page.inner_text("#table-log")):
                assert time.monotonic() < deadline, page.inner_text("#table-log")
                button = page.locator("#game .kc-actions button[data-move]")
                if button.count():
                    button.first.click()
                page.wait_for_timeout(200)
            log = page.inner_text("#table-log")
            assert "passes" not in log and "передаёт ход" not in log, log
            assert re.search(r"draws next|теперь тянет", log), log
            assert page.is_hidden("#offer-draw") and page.is_hidden("#accept-draw")
            # The server refuses a draw offer sent over the API too, in the page's language.
            match_id = page.url.rsplit("/", 1)[1]
            token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
            for kind in ("offer_draw.v1", "accept_draw.v1", "decline_draw.v1"):
                sent = httpx.post(
                    f"{ranked_stack}/api/matches/{match_id}/commands",
                    json={"command": {"type": kind}},
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
                assert sent.status_code == 409 and sent.json()["code"] == "no_draws_at_helper", sent.text
            said = page.evaluate("import('/web/i18n.js').then((m) => m.errorText('no_draws_at_helper', ''))")
            expected = "Этот помощник стола" if locale.startswith("ru") else "This table helper"
            assert said.startswith(expected), said

            # Another game still offers a draw.
            start_from_lobby(page, ranked_stack, "ugolki", "halma-8x8-1234", "")
            page.wait_for_selector("#offer-draw:not([hidden])")

            page.goto(ranked_stack + "/#/leaderboard")
            page.wait_for_selector(".tabs a")
            tabs = page.eval_on_selector_all(".tabs a", "els => els.map(e => e.getAttribute('href'))")
            assert "#/leaderboard/kings-cup" not in tabs
            assert len(tabs) == len(catalogue) - len(helpers)
        finally:
            context.close()
        assert not errors, errors
