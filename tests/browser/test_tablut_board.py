"""The Tablut board (web/games/tablut.js) in headless Chromium against the real stack: the board
from the start position with its throne and corners, a move played with two clicks by each side
and a capture marked, the king's escape routes and check after a defenders' move, the server's
warnings, the phone width of 360 px and the Russian page.

The API starts a Tablut match from its preset's start position only (the ruleset has no set
position), so the routes are reached by playing from the start in the edge-escape preset."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
CORNERS = {"a1", "a9", "i1", "i9"}


def create_match(url: str, preset: str = "tablut-seed") -> dict[str, Any]:
    """A Tablut match with both seats for people (no computer moves in between)."""
    body: dict[str, Any] = {"game": "tablut", "preset": preset, "players": ["ann", "bob"]}
    r = httpx.post(f"{url}/api/matches", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    created["tokens"] = {s["seat"]: s["token"] for s in created["seats"]}
    return created


def seat_view(url: str, match_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    return httpx.get(f"{url}/api/matches/{match_id}", params=params, timeout=30).json()


def send_move(url: str, match_id: str, token: str, move: str) -> None:
    r = httpx.post(
        f"{url}/api/matches/{match_id}/commands",
        json={"command": {"type": "tablut_move.v1", "move": move}},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert r.status_code == 200, r.text


def poll(condition: Callable[[], Any], timeout: float = 20.0) -> Any:
    """The first true value of ``condition()``, asked again until the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.05)


def history(url: str, match_id: str) -> list[str]:
    return list(seat_view(url, match_id)["game_view"]["history"])


def open_seat(page: Any, url: str, match_id: str, token: str | None) -> None:
    page.goto(f"{url}/#/play/{match_id}" + (f"?token={token}" if token else ""))
    page.wait_for_selector("#board .sq")
    page.wait_for_function("document.querySelector('#tb-status')?.textContent")


def squares(page: Any, selector: str) -> set[str]:
    return set(
        page.eval_on_selector_all(f"#board {selector}", "els => els.map(e => e.closest('.sq').dataset.sq)")
    )


def wait_squares(page: Any, selector: str, expected: set[str]) -> None:
    page.wait_for_function(
        "([sel, want]) => { const got = [...document.querySelectorAll(`#board ${sel}`)].map(e => e.closest('.sq').dataset.sq).sort(); return JSON.stringify(got) === JSON.stringify(want); }",
        arg=[selector, sorted(expected)],
    )


def targets_in_view(url: str, match_id: str, token: str, origin: str) -> set[str]:
    plays = seat_view(url, match_id, token)["game_view"]["plays"]
    return {p["to"] for p in plays if p["from"] == origin}


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


def test_the_board_from_the_start_moves_by_clicking_and_a_capture(
    page: Any, new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path
) -> None:
    created = create_match(stack_url)
    match_id, tokens = created["match_id"], created["tokens"]
    open_seat(page, stack_url, match_id, tokens["attackers"])
    assert page.locator("#board .sq").count() == 81
    assert page.locator("#board .piece").count() == 25
    assert page.locator("#board .piece.attacker").count() == 16
    assert page.locator("#board .piece.defender").count() == 8
    assert squares(page, ".piece.king") == {"e5"}
    assert page.eval_on_selector("#board .sq", "el => el.dataset.sq") == "a9"  # rank 9 at the top
    assert squares(page, ".sq.throne") == {"e5"}
    assert squares(page, ".sq.corner") == CORNERS
    assert "throne" in page.get_attribute('#board [data-sq="e5"]', "aria-label")
    assert "corner" in page.get_attribute('#board [data-sq="i9"]', "aria-label")
    gv = seat_view(stack_url, match_id, tokens["attackers"])["game_view"]
    assert page.inner_text("#tb-status") == gv["status_text"] == "The attackers to move"
    assert page.locator("#board .sq.route").count() == 0 and page.inner_text("#tb-check") == ""

    # A piece selected: exactly the target squares of its plays are marked.
    page.click('#board [data-sq="d1"]')
    targets = targets_in_view(stack_url, match_id, tokens["attackers"], "d1")
    assert squares(page, ".sq.dest") == targets == {"c1", "b1", "d2", "d3", "d4"}
    assert squares(page, ".piece.selected") == {"d1"}
    assert page.inner_text("#tb-hint") == "Click a marked square."
    page.click('#board [data-sq="d1"]')  # clicking it again cancels
    assert page.locator("#board .sq.dest").count() == 0
    page.click('#board [data-sq="e1"]')  # a piece with no move: refused before anything is sent
    assert "has no legal move" in page.inner_text("#messages")
    page.click('#board [data-sq="e5"]')  # not the attackers' piece
    assert "click one of your pieces" in page.inner_text("#messages")

    page.click('#board [data-sq="d1"]')
    page.click('#board [data-sq="c1"]')
    poll(lambda: history(stack_url, match_id) == ["d1-c1"])
    wait_squares(page, ".sq.last", {"d1", "c1"})
    assert page.get_attribute('#board [data-sq="c1"] .piece', "data-piece") == "t"
    assert page.locator('#board [data-sq="d1"] .piece').count() == 0
    assert "d1–c1" in page.inner_text("#movelist")
    page.wait_for_function("document.querySelector('#tb-status').textContent.includes('defenders')")
    page.click('#board [data-sq="e2"]')  # not the attackers' turn any more
    assert "not your turn" in page.inner_text("#messages")

    # The defenders answer with two clicks too: e3 along rank 3 to i3.
    defenders = new_page()
    open_seat(defenders, stack_url, match_id, tokens["defenders"])
    defenders.click('#board [data-sq="e3"]')
    assert squares(defenders, ".sq.dest") == targets_in_view(stack_url, match_id, tokens["defenders"], "e3")
    assert "i3" in squares(defenders, ".sq.dest")
    defenders.click('#board [data-sq="i3"]')
    poll(lambda: history(stack_url, match_id) == ["d1-c1", "e3-i3"])
    wait_squares(page, ".sq.last", {"e3", "i3"})

    # The attackers take i3 between e2's piece landing on i2 and the one on i4.
    page.click('#board [data-sq="e2"]')
    assert "i2" in squares(page, ".sq.dest")
    page.hover('#board [data-sq="i2"]')
    assert squares(page, ".sq.would-take") == {"i3"}
    page.click('#board [data-sq="i2"]')
    poll(lambda: history(stack_url, match_id) == ["d1-c1", "e3-i3", "e2-i2xi3"])
    wait_squares(page, ".sq.last", {"e2", "i2"})
    assert squares(page, ".sq.taken") == {"i3"}
    assert page.locator("#board .piece.defender").count() == 7
    assert "taken in the last move" in page.get_attribute('#board [data-sq="i3"]', "aria-label")
    assert "e3–i3" in page.inner_text("#movelist") and "e2–i2xi3" in page.inner_text("#movelist")
    page.screenshot(path=str(artifacts_dir / "tablut-board.png"), full_page=True)

    # A spectator sees the same board and offers no move.
    spectator = new_page()
    open_seat(spectator, stack_url, match_id, None)
    assert squares(spectator, ".sq.taken") == {"i3"}
    spectator.click('#board [data-sq="e4"]')
    assert spectator.locator("#board .sq.dest").count() == 0


def test_the_kings_routes_and_check_after_a_defenders_move(
    page: Any, new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path
) -> None:
    """Edge escape: with i4 emptied and e4 stepped aside, the king's e5-e4 opens rank 4 to the
    edge square i4, which is check (§8.7)."""
    created = create_match(stack_url, "tablut-edge")
    match_id, tokens = created["match_id"], created["tokens"]
    for seat, move in [("attackers", "i4-i3"), ("defenders", "e4-c4"), ("attackers", "i3-i2")]:
        send_move(stack_url, match_id, tokens[seat], move)
    open_seat(page, stack_url, match_id, tokens["defenders"])
    assert squares(page, ".sq.throne") == {"e5"}
    assert page.locator("#board .sq.corner").count() == 0  # corners are ordinary in this preset
    assert page.locator("#board .sq.route").count() == 0
    page.click('#board [data-sq="e5"]')
    assert squares(page, ".sq.dest") == targets_in_view(stack_url, match_id, tokens["defenders"], "e5")
    page.click('#board [data-sq="e4"]')
    poll(lambda: history(stack_url, match_id)[-1:] == ["e5-e4+"])
    gv = seat_view(stack_url, match_id, tokens["attackers"])["game_view"]
    assert gv["check"] and gv["king_routes"] == ["i4"]

    attackers = new_page()
    open_seat(attackers, stack_url, match_id, tokens["attackers"])
    wait_squares(attackers, ".sq.route", {"i4"})
    assert squares(attackers, ".sq.check") == {"e4"}  # the king's square
    assert attackers.inner_text("#tb-check") == "Check: the king can escape to i4."
    assert attackers.inner_text("#tb-status") == gv["status_text"]
    assert "the king's escape route" in attackers.get_attribute('#board [data-sq="i4"]', "aria-label")
    assert "e5–e4+" in attackers.inner_text("#movelist")
    attackers.screenshot(path=str(artifacts_dir / "tablut-check.png"), full_page=True)
    # The defenders' own page shows the same routes once the view after the move arrives.
    wait_squares(page, ".sq.route", {"i4"})

    # The attackers close the route: the marks go.
    attackers.click('#board [data-sq="i2"]')
    attackers.click('#board [data-sq="i4"]')
    poll(lambda: len(history(stack_url, match_id)) == 5)
    assert seat_view(stack_url, match_id)["game_view"]["king_routes"] == []
    wait_squares(attackers, ".sq.route", set())
    assert attackers.inner_text("#tb-check") == ""


def test_the_servers_warnings_are_shown(page: Any, stack_url: str) -> None:
    """The start position a second time: the repetition warning (§8.4) in the server's words."""
    created = create_match(stack_url)
    match_id, tokens = created["match_id"], created["tokens"]
    for seat, move in [
        ("attackers", "d1-c1"),
        ("defenders", "e3-d3"),
        ("attackers", "c1-d1"),
        ("defenders", "d3-e3"),
    ]:
        send_move(stack_url, match_id, tokens[seat], move)
    warnings = seat_view(stack_url, match_id)["game_view"]["warnings"]
    assert warnings
    open_seat(page, stack_url, match_id, tokens["attackers"])
    page.wait_for_function("document.querySelector('#warnings').textContent")
    assert page.inner_text("#warnings") == "\n".join(warnings)


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_board_fits_a_360_px_phone(
    new_page: Callable[..., Any], stack_url: str, artifacts_dir: Path, locale: str
) -> None:
    created = create_match(stack_url)
    page = new_page(PHONE, locale)
    open_seat(page, stack_url, created["match_id"], created["tokens"]["attackers"])
    page.click('#board [data-sq="d1"]')
    assert squares(page, ".sq.dest") == {"c1", "b1", "d2", "d3", "d4"}
    width = int(page.evaluate("document.scrollingElement.scrollWidth"))
    page.screenshot(path=str(artifacts_dir / f"tablut-{locale[:2]}-360.png"), full_page=True)
    assert width <= PHONE["width"], f"the page is {width} px wide on a 360 px phone"
    right = float(page.eval_on_selector("#board", "el => el.getBoundingClientRect().right"))
    assert right <= PHONE["width"], "the board does not fit"
    cell = page.eval_on_selector('#board [data-sq="e5"]', "el => el.getBoundingClientRect().width")
    assert cell >= 30, "the squares are too small to tap"


def test_the_russian_page_says_the_boards_words_in_russian(
    new_page: Callable[..., Any], stack_url: str
) -> None:
    created = create_match(stack_url)
    page = new_page(locale="ru-RU")
    open_seat(page, stack_url, created["match_id"], created["tokens"]["attackers"])
    assert page.get_attribute("#board", "aria-label") == "Доска для таблута"
    assert page.inner_text(".tablut h3") == "Ходы"
    assert page.inner_text("#tb-status") == "Ход: нападающие"  # the server's sentence, in Russian
    e5 = page.get_attribute('#board [data-sq="e5"]', "aria-label")
    assert "король" in e5 and "трон" in e5
    assert "угол" in page.get_attribute('#board [data-sq="a1"]', "aria-label")
    assert "нападающий" in page.get_attribute('#board [data-sq="d1"]', "aria-label")
    page.click('#board [data-sq="e1"]')
    assert "нет хода" in page.inner_text("#messages")
    page.click('#board [data-sq="d1"]')
    assert "пойти сюда" in page.get_attribute('#board [data-sq="d4"]', "aria-label")
    assert page.inner_text("#tb-hint") == "Выберите отмеченное поле."
    page.click('#board [data-sq="c1"]')
    poll(lambda: seat_view(stack_url, created["match_id"])["game_view"]["history"] == ["d1-c1"])
    page.wait_for_function("document.querySelector('#tb-status').textContent.includes('защитники')")
