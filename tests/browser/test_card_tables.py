"""The card tables in headless Chromium against computer seats (issues 11-13 and 15): King, 1000,
Farkle Flip and Kings Cup played through the page, move by move, with the score sheet, the log of
every seat's actions, the hint of the others' last moves, the rules in words and the end reason in
words; and Ugolki's warnings before a rule-based loss."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_web_client import create_against_computer, open_lobby, wait_my_turn_or_end

pytestmark = pytest.mark.browser

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a reason code such as fourth_king or leave_home


def token_of(page: Any, match_id: str) -> str:
    token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
    assert token
    return str(token)


def seat_view(client: httpx.Client, match_id: str, token: str, at_least: int) -> dict[str, Any]:
    """The seat's view over HTTP once it has caught up with the page (seq ``at_least``)."""
    for _ in range(50):
        view = client.get(f"/api/matches/{match_id}", params={"token": token}).json()
        if view["seq"] >= at_least:
            return view
    raise AssertionError("the HTTP view never caught up with the page")


def play_through_page(
    page: Any,
    client: httpx.Client,
    match_id: str,
    seat: str,
    click: Callable[[Any, dict[str, Any], random.Random], None],
    moves: int,
    done: Callable[[], bool] = lambda: False,
) -> int:
    """Play up to ``moves`` of the seat's moves by clicking the page (``click`` chooses among the
    view's legal moves and makes it); the number played.  Stops when the match ends or ``done``."""
    token = token_of(page, match_id)
    rng = random.Random(11)
    played = 0
    while played < moves:
        state = wait_my_turn_or_end(page, seat)
        if state["status"] == "finished" or done():
            break
        seq = int(state["seq"])
        view = seat_view(client, match_id, token, seq)
        if view["seq"] != seq or not view["legal_moves"]:
            page.wait_for_timeout(100)
            continue
        click(page, view, rng)
        played += 1
        wait_my_turn_or_end(page, seat, seq)
    return played


def check_log_and_hint(page: Any) -> None:
    """The log lists what the computer seats did, and the hint line shows their latest moves."""
    entries = page.eval_on_selector_all("#table-log li", "els => els.map(e => [e.dataset.seat, e.textContent])")
    assert any(seat and "computer" in text for seat, text in entries), entries[-10:]
    assert not any("undefined" in text or "[object" in text for _, text in entries)


def check_rules_help(page: Any) -> None:
    page.wait_for_selector("#rules-help")
    text = page.inner_text("#rules-help")
    assert "How to win" in text or "Rules" in text


def resign_and_check_the_end(page: Any, seat: str) -> str:
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#after-game #end-reason")
    reason = page.inner_text("#end-reason")
    assert "resigned" in reason and not CODE.search(reason), reason
    assert page.is_visible("#rematch") and page.is_visible("#new-game")
    return reason


# ---------------------------------------------------------------- King
def click_king(page: Any, view: dict[str, Any], rng: random.Random) -> None:
    legal = view["legal_moves"]
    plays = [m for m in legal if m["command"]["type"] == "king_play.v1"]
    other = [m for m in legal if m["command"]["type"] != "king_play.v1"]
    if plays:
        card = rng.choice(plays)["command"]["card"]
        page.click(f'#hand [data-card="{card}"]')
    else:
        page.click(f'.king-actions [data-move="{rng.randrange(len(other))}"]')


def test_king_table_against_the_computer(page: Any, stack_url: str, artifacts_dir: Path) -> None:
    open_lobby(page, stack_url)
    page.select_option("#game", "king")
    assert "How to win" in page.text_content("#preset-help")  # the lobby shows the preset's help
    match_id = create_against_computer(page, "king", "king-4p-short", "random")
    page.wait_for_selector(".king .king-table")
    check_rules_help(page)
    client = httpx.Client(base_url=stack_url, timeout=30)
    rows = lambda: page.locator(".king-sheet tr").count() > 2  # noqa: E731 - header, a deal, totals
    played = play_through_page(page, client, match_id, "p1", click_king, 40, done=rows)
    assert played >= 8
    page.wait_for_function("document.querySelectorAll('.king-sheet tr').length > 2")
    check_log_and_hint(page)
    assert "Since your move" in page.inner_text("#last-moves") or page.inner_text("#last-moves") == ""
    page.screenshot(path=str(artifacts_dir / "king-table.png"), full_page=True)
    resign_and_check_the_end(page, "p1")
    page.screenshot(path=str(artifacts_dir / "king-ended.png"), full_page=True)


# ---------------------------------------------------------------- 1000
def click_thousand(page: Any, view: dict[str, Any], rng: random.Random) -> None:
    legal = view["legal_moves"]
    kind = lambda m: m["command"]["type"].removeprefix("thousand_").rsplit(".", 1)[0]  # noqa: E731
    gives = [m for m in legal if kind(m) == "give_cards"]
    plain = [m for m in legal if kind(m) == "play" and m["command"]["announce"] == "none"]
    if gives:
        move = gives[0]
        for card in move["command"]["gifts"].values():
            page.click(f'#hand [data-card="{card}"]')
        page.click(f'#pass-box [data-move="{move["label"]}"]')
    elif plain and len(plain) == len([m for m in legal if kind(m) == "play"]):
        page.click(f'#hand [data-card="{rng.choice(plain)["command"]["card"]}"]')
    else:
        bids = [m for m in legal if kind(m) == "pass"] or legal  # pass the auction when allowed
        move = bids[0] if kind(bids[0]) == "pass" else rng.choice(legal)
        if kind(move) == "play" and move["command"]["announce"] == "none":
            page.click(f'#hand [data-card="{move["command"]["card"]}"]')
        else:
            page.click(f'[data-move="{move["label"]}"]')


def test_thousand_table_against_the_computer(page: Any, stack_url: str, artifacts_dir: Path) -> None:
    open_lobby(page, stack_url)
    match_id = create_against_computer(page, "thousand", "classic", "random")
    page.wait_for_selector(".thousand #sheet")
    check_rules_help(page)
    client = httpx.Client(base_url=stack_url, timeout=30)
    rows = lambda: page.locator("#sheet tr").count() > 2  # noqa: E731 - header, a deal, now
    played = play_through_page(page, client, match_id, "p1", click_thousand, 40, done=rows)
    assert played >= 3
    page.wait_for_function("document.querySelectorAll('#sheet tr').length > 2", timeout=30_000)
    check_log_and_hint(page)
    page.screenshot(path=str(artifacts_dir / "thousand-table.png"), full_page=True)
    resign_and_check_the_end(page, "p1")


# ---------------------------------------------------------------- Farkle Flip
def click_farkle(page: Any, view: dict[str, Any], rng: random.Random) -> None:
    legal = view["legal_moves"]
    by = lambda t: [m for m in legal if m["command"]["type"] == t]  # noqa: E731
    simple = [m for m in legal if m["command"]["type"] in ("ff_draw.v1", "ff_stop.v1", "ff_ready.v1")]
    if by("ff_lock.v1"):
        lock = max(by("ff_lock.v1"), key=lambda m: len(m["command"]["cards"]))["command"]
        for pos in lock["cards"]:
            page.click(f'[data-owner="{lock["owner"]}"][data-pos="{pos}"]')
        page.click('[data-exact="0"]')
    elif by("ff_place.v1"):
        page.click(f'[data-place="{rng.choice(by("ff_place.v1"))["command"]["target"]}"]')
    else:
        stop = by("ff_stop.v1")
        move = stop[0] if stop and view["game_view"]["turn_total"] and rng.random() < 0.5 else simple[0]
        if move["command"]["type"] == "ff_stop.v1" and by("ff_draw.v1") and not view["game_view"]["turn_total"]:
            move = by("ff_draw.v1")[0]
        page.click(f'[data-simple="{simple.index(move)}"]')


def test_farkle_flip_table_against_the_computer(page: Any, stack_url: str, artifacts_dir: Path) -> None:
    open_lobby(page, stack_url)
    page.select_option("#game", "farkle-flip")
    match_id = create_against_computer(page, "farkle-flip", "farkle-flip-placeholder", "random")
    page.wait_for_selector(".ff .ff-areas")
    check_rules_help(page)
    client = httpx.Client(base_url=stack_url, timeout=30)
    rows = lambda: page.locator("#ff-sheet tr").count() > 3  # noqa: E731 - header, two rounds, total
    played = play_through_page(page, client, match_id, "p1", click_farkle, 60, done=rows)
    # Two rounds can pass in two moves of ours when every seat busts on its first card.
    assert played >= 2
    assert rows(), "two rounds were played through the page and scored on the sheet"
    check_log_and_hint(page)
    page.screenshot(path=str(artifacts_dir / "farkle-flip-table.png"), full_page=True)
    resign_and_check_the_end(page, "p1")


# ---------------------------------------------------------------- Kings Cup
def click_cup(page: Any, view: dict[str, Any], rng: random.Random) -> None:
    page.click(f'.kcup [data-move="{rng.randrange(len(view["legal_moves"]))}"]')


def test_kings_cup_table_to_the_end(page: Any, stack_url: str, artifacts_dir: Path) -> None:
    open_lobby(page, stack_url)
    page.select_option("#game", "kings-cup")
    match_id = create_against_computer(page, "kings-cup", "kings-cup-neutral", "random")
    page.wait_for_selector(".kcup")
    check_rules_help(page)
    client = httpx.Client(base_url=stack_url, timeout=30)
    play_through_page(page, client, match_id, "p1", click_cup, 120)
    page.wait_for_selector("#after-game #end-reason", timeout=30_000)
    reason = page.inner_text("#end-reason")
    assert ("fourth King" in reason or "every card" in reason) and not CODE.search(reason), reason
    check_log_and_hint(page)
    page.screenshot(path=str(artifacts_dir / "kings-cup-ended.png"), full_page=True)
    # A rematch is a new table of the same kind.
    page.click("#rematch")
    page.wait_for_function("id => location.hash.startsWith('#/play/') && !location.hash.endsWith(id)", arg=match_id)
    page.wait_for_selector(".kcup")
    rematch = page.url.rsplit("/", 1)[1]
    again = client.get(f"/api/matches/{rematch}").json()
    assert again["game"] == "kings-cup" and again["preset"] == "kings-cup-neutral" and again["status"] == "running"


# ---------------------------------------------------------------- Ugolki
def test_ugolki_warns_before_a_rule_based_loss_and_shows_the_last_move(page: Any, stack_url: str) -> None:
    """rules/ugolki.md §6.2 and §6.4: the leave-home countdown and the long-game judgement, as the
    server words them; the computer's last move is highlighted on the board."""
    open_lobby(page, stack_url)
    match_id = create_against_computer(page, "ugolki", "halma-8x8-1234", "random")
    client = httpx.Client(base_url=stack_url, timeout=30)
    state = wait_my_turn_or_end(page, "white")
    warnings = page.inner_text("#warnings")
    assert "White: 10 pieces still at home, 40 moves left" in warnings
    assert "After Black's move 80" in warnings and "80 moves left" in warnings
    check_rules_help(page)
    assert "Leave home in time" in page.inner_text("#rules-help")
    token = token_of(page, match_id)
    move = seat_view(client, match_id, token, int(state["seq"]))["legal_moves"][0]["command"]["path"]
    page.click(f'#board [data-sq="{move[0]}"]')
    page.click(f'#board [data-sq="{move[-1]}"]')
    wait_my_turn_or_end(page, "white", int(state["seq"]))
    last = seat_view(client, match_id, token, int(state["seq"]) + 2)["game_view"]["last_move"]
    marked = set(page.eval_on_selector_all("#board .sq.last", "els => els.map(e => e.dataset.sq)"))
    assert marked == {last[0], last[-1]}
    assert "computer" in page.inner_text("#last-moves")
    assert "39 moves left" in page.inner_text("#warnings")
