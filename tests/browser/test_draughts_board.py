"""The Russian draughts board (web/games/draughts.js) in headless Chromium against the real stack:
the board from the start position, a move played with two clicks, a capture that can go two ways
built landing square by landing square (the Turkish strike's pieces crossed until the move ends),
the board turned round for Black, the phone width of 360 px and the Russian page."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def create_match(url: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A draughts match with both seats for people (no computer moves in between)."""
    body: dict[str, Any] = {"game": "draughts", "preset": "russian", "players": ["ann", "bob"]}
    if rules:
        body["rules"] = rules
    r = httpx.post(f"{url}/api/matches", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    created["tokens"] = {s["seat"]: s["token"] for s in created["seats"]}
    return created


def seat_view(url: str, match_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    return httpx.get(f"{url}/api/matches/{match_id}", params=params, timeout=30).json()


def poll(condition: Callable[[], Any], timeout: float = 20.0) -> Any:
    """The first true value of ``condition()``, asked again until the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.05)


def open_seat(page: Any, url: str, match_id: str, token: str | None) -> None:
    page.goto(f"{url}/#/play/{match_id}" + (f"?token={token}" if token else ""))
    page.wait_for_selector("#board .sq")
    page.wait_for_function("document.querySelector('#dr-status')?.textContent")


def squares(page: Any, selector: str) -> set[str]:
    return set(
        page.eval_on_selector_all(f"#board {selector}", "els => els.map(e => e.closest('.sq').dataset.sq)")
    )


def wait_squares(page: Any, selector: str, expected: set[str]) -> None:
    page.wait_for_function(
        "([sel, want]) => { const got = [...document.querySelectorAll(`#board ${sel}`)].map(e => e.closest('.sq').dataset.sq).sort(); return JSON.stringify(got) === JSON.stringify(want); }",
        arg=[selector, sorted(expected)],
    )


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Pages in contexts of their own (another viewport, another language); no script errors."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] | None = None, locale: str = "en-GB") -> Any:
        context = browser.new_context(viewport=viewport or {"width": 1200, "height": 900}, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(20_000)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_the_board_from_the_start_and_a_move_with_two_clicks(
    page: Any, new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path
) -> None:
    created = create_match(stack_url)
    match_id, tokens = created["match_id"], created["tokens"]
    open_seat(page, stack_url, match_id, tokens["white"])
    assert page.locator("#board .sq").count() == 64
    assert page.locator("#board .sq.dark").count() == 32
    assert page.locator("#board .piece").count() == 24
    assert (
        page.locator("#board .piece.white").count() == 12
        and page.locator("#board .piece.black").count() == 12
    )
    assert squares(page, ".sq.dark .piece") == squares(page, ".piece")  # every piece on a dark square
    assert page.eval_on_selector("#board .sq", "el => el.dataset.sq") == "a8"  # White at the bottom
    assert "White to move" in page.inner_text("#dr-status")
    assert page.locator("#board .sq.capturer").count() == 0  # no capture to make

    # A piece selected: exactly the landing squares of its plays are marked.
    plays = seat_view(stack_url, match_id, tokens["white"])["game_view"]["plays"]
    page.click('#board [data-sq="c3"]')
    assert squares(page, ".sq.dest") == {p["path"][1] for p in plays if p["path"][0] == "c3"} == {"b4", "d4"}
    assert squares(page, ".piece.selected") == {"c3"}
    page.click('#board [data-sq="c3"]')  # clicking it again cancels
    assert page.locator("#board .sq.dest").count() == 0
    page.click('#board [data-sq="a1"]')  # a piece with no move: refused before anything is sent
    assert "has no legal move" in page.inner_text("#messages")

    page.click('#board [data-sq="c3"]')
    page.click('#board [data-sq="d4"]')
    poll(lambda: seat_view(stack_url, match_id)["game_view"]["history"] == ["c3-d4"])
    wait_squares(page, ".sq.last", {"c3", "d4"})
    assert page.get_attribute('#board [data-sq="d4"] .piece', "data-piece") == "w"
    assert page.locator('#board [data-sq="c3"] .piece').count() == 0
    assert "c3–d4" in page.inner_text("#movelist")
    page.wait_for_function("document.querySelector('#dr-status').textContent.includes('Black')")
    page.click('#board [data-sq="e3"]')  # not White's turn any more
    assert "not your turn" in page.inner_text("#messages")
    page.screenshot(path=str(artifacts_dir / "draughts-board.png"), full_page=True)

    # Black's board is turned round, and Black answers with two clicks too.
    black = new_page()
    open_seat(black, stack_url, match_id, tokens["black"])
    assert black.eval_on_selector("#board .sq", "el => el.dataset.sq") == "h1"
    assert black.locator("#board .sq.dark").count() == 32
    black.click('#board [data-sq="f6"]')
    assert squares(black, ".sq.dest") == {"e5", "g5"}
    black.click('#board [data-sq="g5"]')
    poll(lambda: seat_view(stack_url, match_id)["game_view"]["history"] == ["c3-d4", "f6-g5"])
    wait_squares(page, ".sq.last", {"f6", "g5"})

    # A spectator sees White at the bottom and offers no move.
    spectator = new_page()
    open_seat(spectator, stack_url, match_id, None)
    assert spectator.eval_on_selector("#board .sq", "el => el.dataset.sq") == "a8"
    spectator.click('#board [data-sq="e3"]')
    assert spectator.locator("#board .sq.dest").count() == 0


def test_a_capture_two_ways_is_built_landing_square_by_landing_square(
    page: Any, new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path
) -> None:
    """c3 must take d4 and land on e5, then take d6 (to c7) or f6 (to g7): every landing square is
    marked, e5 is clicked first, the jumped piece stays on the board crossed, and the move is sent
    once the path is unique."""
    created = create_match(stack_url, {"start_fen": "W:Wc3,a1:Bd4,f6,d6"})
    match_id, tokens = created["match_id"], created["tokens"]
    open_seat(page, stack_url, match_id, tokens["white"])
    assert page.locator("#board .piece").count() == 5
    gv = seat_view(stack_url, match_id, tokens["white"])["game_view"]
    assert gv["capture_required"] and gv["capturing"] == ["c3"]
    assert squares(page, ".sq.capturer") == {"c3"}
    assert squares(page, ".piece.can-capture") == {"c3"}
    assert "must capture" in page.inner_text("#dr-status")

    page.click('#board [data-sq="a1"]')  # it could step, but a capture is required
    assert "A capture is required" in page.inner_text("#messages")
    assert page.locator("#board .sq.dest").count() == 0

    page.click('#board [data-sq="c3"]')
    assert squares(page, ".sq.dest") == {"e5"}
    assert squares(page, ".sq.later") == {"c7", "g7"}
    assert page.locator("#board .sq.dead").count() == 0
    page.click('#board [data-sq="e5"]')
    assert squares(page, ".sq.dest") == {"c7", "g7"}
    assert squares(page, ".sq.step") == {"e5"}
    assert squares(page, ".sq.dead") == {"d4"}  # taken, still on the board (the Turkish strike)
    assert page.locator('#board [data-sq="d4"] .piece').count() == 1
    assert seat_view(stack_url, match_id)["game_view"]["history"] == []  # nothing sent yet
    page.screenshot(path=str(artifacts_dir / "draughts-capture.png"), full_page=True)

    page.click('#board [data-sq="g7"]')
    poll(lambda: seat_view(stack_url, match_id)["game_view"]["history"] == ["c3:e5:g7"])
    wait_squares(page, ".sq.last", {"c3", "g7"})
    assert squares(page, ".sq.last-hop") == {"e5"}
    assert squares(page, ".sq.taken") == {"d4", "f6"}
    assert page.locator("#board .sq.dead").count() == 0
    assert squares(page, ".piece") == {"a1", "g7", "d6"}

    # The replay draws the same board, marks included, and offers no move.
    page.click("#replay-link")
    page.wait_for_selector("#step")
    page.click("#last")
    wait_squares(page, ".sq.taken", {"d4", "f6"})
    page.click('#board [data-sq="d6"]')
    assert page.locator("#board .sq.dest").count() == 0

    # A spectator of a position with a capture sees the capturing piece ringed too.
    other = create_match(stack_url, {"start_fen": "W:Wc3:Bd4,f6"})
    spectator = new_page()
    open_seat(spectator, stack_url, other["match_id"], None)
    assert squares(spectator, ".sq.capturer") == {"c3"}


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_board_fits_a_360_px_phone(
    new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path, locale: str
) -> None:
    created = create_match(stack_url)
    page = new_page(PHONE, locale)
    open_seat(page, stack_url, created["match_id"], created["tokens"]["white"])
    page.click('#board [data-sq="e3"]')
    assert squares(page, ".sq.dest") == {"d4", "f4"}
    width = int(page.evaluate("document.scrollingElement.scrollWidth"))
    page.screenshot(path=str(artifacts_dir / f"draughts-{locale[:2]}-360.png"), full_page=True)
    assert width <= PHONE["width"], f"the page is {width} px wide on a 360 px phone"
    right = float(page.eval_on_selector("#board", "el => el.getBoundingClientRect().right"))
    assert right <= PHONE["width"], "the board does not fit"
    cell = page.eval_on_selector('#board [data-sq="e3"]', "el => el.getBoundingClientRect().width")
    assert cell >= 30, "the squares are too small to tap"


def test_the_russian_page_says_the_boards_words_in_russian(
    new_page: Callable[..., Any], stack_url: str
) -> None:
    created = create_match(stack_url, {"start_fen": "W:Wc3,a1:Bd4,f6,d6"})
    page = new_page(locale="ru-RU")
    open_seat(page, stack_url, created["match_id"], created["tokens"]["white"])
    assert page.get_attribute("#board", "aria-label") == "Доска для шашек"
    assert page.inner_text(".draughts h3") == "Ходы"
    assert "бить обязательно" in page.inner_text("#dr-status")  # the server's sentence, in Russian
    assert "белая шашка" in page.get_attribute('#board [data-sq="c3"]', "aria-label")
    assert "может бить" in page.get_attribute('#board [data-sq="c3"]', "aria-label")
    page.click('#board [data-sq="a1"]')
    assert "Бить обязательно" in page.inner_text("#messages")
    page.click('#board [data-sq="c3"]')
    assert "встать сюда" in page.get_attribute('#board [data-sq="e5"]', "aria-label")
    assert page.inner_text("#dr-hint") == "Выберите отмеченное поле."
    page.click('#board [data-sq="e5"]')
    assert "побита" in page.get_attribute('#board [data-sq="d4"]', "aria-label")
    assert page.inner_text("#dr-hint") == "Взятие продолжается: выберите следующее поле."
    page.click('#board [data-sq="c7"]')
    poll(lambda: seat_view(stack_url, created["match_id"])["game_view"]["history"] == ["c3:e5:c7"])
    page.wait_for_function("document.querySelector('#dr-status').textContent.includes('чёрные')")


def test_kings_and_the_servers_warnings_are_shown(page: Any, stack_url: str) -> None:
    """Two white kings against one black king: the balance rule's countdown (§7.5) in the
    server's words, and the kings drawn as kings."""
    created = create_match(stack_url, {"start_fen": "W:WKa1,Kc1:BKh8"})
    open_seat(page, stack_url, created["match_id"], created["tokens"]["white"])
    warnings = seat_view(stack_url, created["match_id"])["game_view"]["warnings"]
    assert warnings
    assert page.inner_text("#warnings") == "\n".join(warnings)
    assert squares(page, ".piece.king") == {"a1", "c1", "h8"}
    assert "black king" in page.get_attribute('#board [data-sq="h8"]', "aria-label")
