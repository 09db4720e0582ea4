"""The card tables' marks in headless Chromium against computer seats, in English and Russian at
desktop and phone width: score sheets headed by the player's name and seat (computer players by
the strength the lobby names), a legend for the sheets' marks, no seat to act once the match is
over, the playable cards outlined (and a selected card's piles marked), and every seat's last
move on the table."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import assert_no_sideways_scroll
from tests.browser.test_web_client import create_against_computer, wait_my_turn_or_end

pytestmark = pytest.mark.browser

SETUPS = [("en", 1280), ("en", 390), ("ru", 1280), ("ru", 390)]
IDS = [f"{lang}-{width}" for lang, width in SETUPS]
COMPUTER = {"en": "computer (beginner)", "ru": "компьютер (новичок)"}
OVER = {"en": "the match is over", "ru": "партия окончена"}


@pytest.fixture(params=SETUPS, ids=IDS)
def table_page(
    request: pytest.FixtureRequest, browser: Any, stack_url: str
) -> Iterator[tuple[Any, str, int]]:
    lang, width = request.param
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale="ru-RU" if lang == "ru" else "en-GB"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    yield page, lang, width
    context.close()
    finish_all(stack_url)
    assert not errors, f"JavaScript errors on the page: {errors}"


OPEN: list[tuple[str, str]] = []  # (match_id, token) of the tables a test has not finished


def finish_all(url: str) -> None:
    """Resign every table the test left running: the computer players' sockets to the gateway are
    limited per address, and the next tests need theirs."""
    with httpx.Client(base_url=url, timeout=30) as client:
        while OPEN:
            match_id, token = OPEN.pop()
            n = 0
            while view_of(client, match_id, token)["status"] != "finished" and n < 20:
                n += 1
                client.post(
                    f"/api/matches/{match_id}/commands",
                    params={"token": token},
                    json={"command": {"type": "resign.v1"}, "command_id": f"resign-{n}-{time.monotonic()}"},
                )
                time.sleep(0.05)


def start(page: Any, url: str, game: str, preset: str, seats: int = 0) -> tuple[str, str, httpx.Client]:
    """A table of ann (p1) against beginner computer players, made in the lobby (the test's
    earlier tables resigned first); ``seats`` players, else the lobby's first choice."""
    finish_all(url)
    page.goto(url + "/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "ann")
    if seats:
        page.select_option("#game", game)
        page.select_option("#preset", preset)
        page.select_option("#seats", str(seats))
        page.select_option("#strength", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
        match_id = page.url.rsplit("/", 1)[1]
    else:
        match_id = create_against_computer(page, game, preset, "random")
    token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
    assert token
    OPEN.append((match_id, str(token)))
    return match_id, str(token), httpx.Client(base_url=url, timeout=30)


def view_of(client: httpx.Client, match_id: str, token: str) -> dict[str, Any]:
    return dict(client.get(f"/api/matches/{match_id}", params={"token": token}).json())


def play_until(
    client: httpx.Client,
    match_id: str,
    token: str,
    done: Callable[[dict[str, Any]], bool],
    choose: Callable[[list[dict[str, Any]]], dict[str, Any]] = lambda legal: legal[0],
    limit: float = 40.0,
) -> dict[str, Any]:
    """Play ann's moves over HTTP (``choose`` among the legal ones) until ``done(view)``."""
    deadline = time.monotonic() + limit
    n = 0
    while time.monotonic() < deadline:
        view = view_of(client, match_id, token)
        if done(view):
            return view
        if view["status"] == "finished":
            break
        if view["legal_moves"]:
            n += 1
            command = choose(view["legal_moves"])["command"]
            client.post(
                f"/api/matches/{match_id}/commands",
                params={"token": token},
                json={"command": command, "command_id": f"t{n}-{time.monotonic()}"},
            )
        else:
            time.sleep(0.05)
    raise AssertionError("the table never reached the state the test waits for")


def shown(page: Any, seq: int) -> None:
    """The page has drawn the view of decision ``seq`` (or a later one)."""
    try:
        page.wait_for_function("n => Number(document.querySelector('#status').dataset.seq) >= n", arg=seq)
    except Exception as e:
        state = page.evaluate(
            "[location.hash, document.querySelector('#status')?.dataset.seq, document.querySelector('#conn')?.dataset.state, document.querySelector('#status')?.textContent]"
        )
        raise AssertionError(f"the page never showed decision {seq}: {state}") from e


def fits(page: Any, width: int) -> None:
    """The table fits the page: nothing on it, the score sheets included, scrolls sideways."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, "the table is wider than the page"
    assert_no_sideways_scroll(page, f"the table at {width} px")


def headers(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, "els => els.map(e => e.textContent.trim())"))


# ---------------------------------------------------------------- 1. score sheets people can read
def test_score_sheets_head_columns_with_name_and_seat_and_explain_their_marks(
    table_page: tuple[Any, str, int], stack_url: str, artifacts_dir: Path
) -> None:
    page, lang, width = table_page
    bot = COMPUTER[lang]

    # King: four columns, the three computer players told apart by their seats.
    match_id, token, client = start(page, stack_url, "king", "king-4p-short")
    page.wait_for_selector(".king-sheet")
    heads = headers(page, ".king-sheet tr:first-child th")
    assert heads[2:6] == ["ann · p1", f"{bot} · p2", f"{bot} · p3", f"{bot} · p4"], heads
    assert page.is_visible("#king-legend") and "✓" in page.inner_text("#king-legend")
    assert "king.legend" not in page.inner_text("#king-legend")
    fits(page, width)

    # 1000: the columns, and a legend for every mark the sheet shows (a written-off deal's W).
    match_id, token, client = start(page, stack_url, "thousand", "classic")
    marked = lambda v: any(ms for d in v["game_view"]["sheet"] for ms in d["marks"].values())  # noqa: E731
    # Ann bids whenever she may and writes the deal off once she declares: a W on the first
    # deals, whatever the cards (playing the first listed move, a mark could take many deals).
    def steer(legal: list[dict[str, Any]]) -> dict[str, Any]:
        for kind in ("thousand_write_off.v1", "thousand_bid.v1"):
            for m in legal:
                if m["command"].get("type") == kind:
                    return m
        return legal[0]

    view = play_until(client, match_id, token, marked, choose=steer, limit=90)
    shown(page, view["seq"])
    page.wait_for_selector("#sheet-legend")
    heads = headers(page, "#sheet tr:first-child th")
    assert heads[2:5] == ["ann · p1", f"{bot} · p2", f"{bot} · p3"], heads
    legend = page.inner_text("#sheet-legend")
    marks = {m for d in view["game_view"]["sheet"] for ms in d["marks"].values() for m in ms}
    signs = page.eval_on_selector_all("#sheet td .mark", "els => els.map(e => e.textContent)")
    assert marks and signs
    for sign in signs:
        assert sign in legend, (sign, legend)
    if any(view["game_view"]["writeoffs"].values()):  # the count's mark, in the page's letters
        assert {"en": "Wn", "ru": "Р с числом"}[lang] in legend, legend
    # nothing of the sheet is cut off or hidden: on a phone a deal takes two lines
    cells = page.eval_on_selector_all(
        "#sheet td", "els => els.map(e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; })"
    )
    assert cells and all(0 <= left and right <= width for left, right in cells), cells
    assert "th.mark" not in legend and "th.count" not in legend
    meaning = {"en": "wrote the deal off", "ru": "расписал раздачу"}[lang]
    assert "write_off" not in marks or meaning in legend, legend
    page.screenshot(path=str(artifacts_dir / f"marks-thousand-sheet-{lang}-{width}.png"), full_page=True)
    fits(page, width)

    # Farkle Flip at five seats: the columns of the round-by-round sheet; on a phone, where five
    # columns do not fit, a card a seat with the same numbers.
    match_id, token, client = start(page, stack_url, "farkle-flip", "farkle-flip-placeholder", seats=5)
    view = play_until(client, match_id, token, lambda v: bool(v["game_view"]["sheet"]))
    shown(page, view["seq"])
    page.wait_for_selector("#ff-sheet-cards" if width < 640 else "#ff-sheet")
    heads = headers(page, "#ff-sheet tr:first-child th")
    assert heads[1:] == ["ann · p1", *(f"{bot} · p{i}" for i in range(2, 6))], heads
    if width < 640:
        cards = page.eval_on_selector_all("#ff-sheet-cards li", "els => els.map(e => e.textContent)")
        assert [c.split(":")[0] for c in cards] == heads[1:], cards
    fits(page, width)


# ---------------------------------------------------------------- 2. a finished match: no one to act
def resign(page: Any) -> None:
    page.wait_for_selector("#resign:not([hidden])")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#after-game #end-reason")


def no_one_to_act(page: Any) -> None:
    marked = page.eval_on_selector_all("#game .to-move", "els => els.map(e => e.outerHTML.slice(0, 80))")
    assert not marked, f"a seat is still highlighted after the end: {marked}"


def test_a_finished_match_shows_no_one_to_act_on_any_card_table(
    table_page: tuple[Any, str, int], stack_url: str, artifacts_dir: Path
) -> None:
    page, lang, width = table_page

    # King, resigned in the middle of a deal while it is ann's card to play.
    match_id, token, client = start(page, stack_url, "king", "king-4p-short")
    playing = lambda v: v["game_view"]["phase"] == "playing" and v["game_view"]["to_act"] == "p1"  # noqa: E731
    view = play_until(client, match_id, token, playing)
    shown(page, view["seq"])
    page.wait_for_selector('.king-seat.to-move[data-seat="p1"]')
    resign(page)
    no_one_to_act(page)
    assert page.locator("#king-turn").count() == 0
    assert page.inner_text(".king-status") == OVER[lang]
    page.screenshot(path=str(artifacts_dir / f"marks-king-ended-{lang}-{width}.png"), full_page=True)

    # The other card tables, resigned on ann's turn.
    for game, preset, turn in [
        ("thousand", "classic", None),
        ("kings-corner", "cardgames-zone", "#kc-turn"),
        ("farkle-flip", "farkle-flip-placeholder", "#ff-turn"),
        ("kings-cup", "kings-cup-neutral", "#kcup-turn"),
    ]:
        match_id, token, client = start(page, stack_url, game, preset)
        wait_my_turn_or_end(page, "p1")
        resign(page)
        no_one_to_act(page)
        if turn:
            assert page.inner_text(turn) == "—", (game, page.inner_text(turn))
        fits(page, width)


# ---------------------------------------------------------------- 3. playable cards outlined
def outlined(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("#hand .card.playable", "els => els.map(e => e.dataset.card)"))


def wait_outlined(page: Any, cards: set[str]) -> None:
    page.wait_for_function(
        "want => { const got = [...document.querySelectorAll('#hand .card.playable')].map(e => e.dataset.card).sort(); return JSON.stringify(got) === JSON.stringify(want); }",
        arg=sorted(cards),
    )


def test_playable_cards_are_outlined_and_a_selected_cards_piles_marked(
    table_page: tuple[Any, str, int], stack_url: str, artifacts_dir: Path
) -> None:
    page, lang, width = table_page

    # Kings in the Corner: on a turn with a card to play (ending turns until there is one).
    match_id, token, client = start(page, stack_url, "kings-corner", "cardgames-zone")
    plays = lambda v: [m for m in v["legal_moves"] if m["command"]["type"] == "kc_play_card.v1"]  # noqa: E731

    def end_turn(legal: list[dict[str, Any]]) -> dict[str, Any]:
        actions = ("kc_ready.v1", "kc_end_turn.v1", "kc_draw.v1")
        return next((m for m in legal if m["command"]["type"] in actions), legal[0])

    view = play_until(client, match_id, token, lambda v: bool(plays(v)), end_turn)
    shown(page, view["seq"])
    playable = {m["command"]["card"] for m in plays(view)}
    wait_outlined(page, playable)
    hand = set(view["game_view"]["hand"])
    card = sorted(playable)[0]
    page.click(f'#hand [data-card="{card}"]')
    slots = {m["command"]["slot"] for m in plays(view) if m["command"]["card"] == card}
    marked = set(page.eval_on_selector_all(".pile.target", "els => els.map(e => e.dataset.slot)"))
    assert marked == slots, (marked, slots)
    page.screenshot(path=str(artifacts_dir / f"marks-kings-corner-hand-{lang}-{width}.png"), full_page=True)
    stuck = sorted(hand - playable)
    if stuck:
        page.click(f'#hand [data-card="{stuck[0]}"]')
        assert page.locator(".pile.target").count() == 0
    fits(page, width)

    # King: the cards that may be played in this trick.
    match_id, token, client = start(page, stack_url, "king", "king-4p-short")
    kplays = lambda v: [m for m in v["legal_moves"] if m["command"]["type"] == "king_play.v1"]  # noqa: E731
    view = play_until(client, match_id, token, lambda v: bool(kplays(v)))
    shown(page, view["seq"])
    wait_outlined(page, {m["command"]["card"] for m in kplays(view)})
    fits(page, width)

    # 1000: ann passes the auction, and as a defender has the cards she may play outlined.
    match_id, token, client = start(page, stack_url, "thousand", "classic")
    kind = lambda m: m["command"]["type"].removeprefix("thousand_").rsplit(".", 1)[0]  # noqa: E731

    def passing(legal: list[dict[str, Any]]) -> dict[str, Any]:
        return next(
            (m for m in legal if kind(m) in ("pass", "keep_hand", "ready", "decline_blind")), legal[0]
        )

    tplays = lambda v: [m for m in v["legal_moves"] if kind(m) == "play"]  # noqa: E731
    view = play_until(client, match_id, token, lambda v: bool(tplays(v)), passing)
    shown(page, view["seq"])
    wait_outlined(page, {m["command"]["card"] for m in tplays(view)})
    page.screenshot(path=str(artifacts_dir / f"marks-thousand-hand-{lang}-{width}.png"), full_page=True)
    fits(page, width)


# ---------------------------------------------------------------- 4. every seat's last move
def last_moves_match_the_log(page: Any, seats: list[str]) -> None:
    """Each seat's box says its latest decision as the log has it."""
    for seat in seats:
        page.wait_for_function(
            """seat => {
                const box = document.querySelector(`[data-last-of="${seat}"]`);
                const log = [...document.querySelectorAll(`#table-log li[data-seat="${seat}"]`)].pop();
                if (!box || !log || !box.textContent) return false;
                const said = box.textContent.replace(/^[^:]*:\\s*/, '');
                return said.length > 0 && log.textContent.includes(said);
            }""",
            arg=seat,
        )


def test_every_seats_last_move_is_on_the_table(
    table_page: tuple[Any, str, int], stack_url: str, artifacts_dir: Path
) -> None:
    page, lang, width = table_page
    word = {"en": "last:", "ru": "последний ход:"}[lang]

    match_id, token, client = start(page, stack_url, "king", "king-4p-short")
    view = play_until(client, match_id, token, lambda v: len(v["game_view"]["tricks"]) >= 1)
    shown(page, view["seq"])
    last_moves_match_the_log(page, ["p1", "p2", "p3", "p4"])
    assert word in page.inner_text('.king-seat[data-seat="p2"] .last-move')
    page.screenshot(path=str(artifacts_dir / f"marks-king-last-moves-{lang}-{width}.png"), full_page=True)
    fits(page, width)

    for game, preset, seats in [
        ("thousand", "classic", ["p2", "p3"]),
        ("kings-corner", "cardgames-zone", ["p2"]),
        ("farkle-flip", "farkle-flip-placeholder", ["p1", "p2"]),
    ]:
        match_id, token, client = start(page, stack_url, game, preset)
        view = play_until(client, match_id, token, lambda v: v["seq"] > 8)
        shown(page, view["seq"])
        last_moves_match_the_log(page, seats)
        fits(page, width)
