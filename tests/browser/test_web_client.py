"""The web client in headless Chromium: a table against the computer, an Ugolki match to the end
with a reload in the middle, the replay viewer, and a Kings in the Corner table."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.common.players import PublicFold, choose_command

pytestmark = pytest.mark.browser


def status(page: Any) -> dict[str, str]:
    return page.eval_on_selector(
        "#status", "el => ({status: el.dataset.status, seq: el.dataset.seq, turn: el.dataset.turn})"
    )


def wait_my_turn_or_end(page: Any, seat: str, after_seq: int = 0) -> dict[str, str]:
    page.wait_for_function(
        """([seat, after]) => {
            const el = document.querySelector('#status');
            if (!el || Number(el.dataset.seq) <= after) return false;
            return el.dataset.status === 'finished' || el.dataset.turn.split(',').includes(seat);
        }""",
        arg=[seat, after_seq],
        timeout=30_000,
    )
    return status(page)


def open_lobby(page: Any, url: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "ann")


def create_against_computer(page: Any, game: str, preset: str, strength: str) -> str:
    page.select_option("#game", game)
    page.select_option("#preset", preset)
    page.select_option("#strength", strength)
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def play_one_ugolki_move(
    page: Any, client: httpx.Client, match_id: str, token: str, rng: random.Random
) -> None:
    """Choose a move as a greedy player would, then make it with two clicks: the piece, and the
    square where the move ends."""
    fold = PublicFold("ugolki")
    fold.apply(client.get(f"/api/matches/{match_id}/events", params={"token": token}).json())
    command = choose_command("ugolki", fold, "white", "greedy", rng)
    path = command["path"]
    page.click(f'#board [data-sq="{path[0]}"]')
    page.click(f'#board [data-sq="{path[-1]}"]')


def seat_view(client: httpx.Client, match_id: str, token: str) -> dict[str, Any]:
    return client.get(f"/api/matches/{match_id}", params={"token": token}).json()


def test_lobby_table_against_the_computer_play_to_the_end_reload_and_replay(
    page: Any, stack_url: str, artifacts_dir: Path
) -> None:
    open_lobby(page, stack_url)
    assert page.locator("#game option").count() >= 2
    page.select_option("#game", "ugolki")
    page.select_option("#preset", "mini-3x3")
    assert "3x3" in page.inner_text("#preset-description")
    page.screenshot(path=str(artifacts_dir / "lobby.png"), full_page=True)

    match_id = create_against_computer(page, "ugolki", "mini-3x3", "greedy")
    page.wait_for_selector('#board [data-sq="a1"]')
    token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
    assert token and token.startswith("white.")
    client = httpx.Client(base_url=stack_url, timeout=30)
    rng = random.Random(7)

    # A refused move is explained, and nothing is stored.
    state = wait_my_turn_or_end(page, "white")
    page.click('#board [data-sq="a8"]')
    assert "click one of your pieces" in page.inner_text("#messages")

    moves = 0
    reloaded = False
    while state["status"] != "finished":
        seq = int(state["seq"])
        play_one_ugolki_move(page, client, match_id, token, rng)
        moves += 1
        state = wait_my_turn_or_end(page, "white", seq)
        if moves == 6 and not reloaded:
            page.screenshot(path=str(artifacts_dir / "ugolki-match.png"), full_page=True)
            history_before = page.locator("#movelist li").count()
            page.reload()
            state = wait_my_turn_or_end(page, "white")
            assert page.inner_text("#conn") == "live"
            assert int(state["seq"]) >= seq + 2
            assert page.locator("#movelist li").count() == history_before
            assert "You play white" in page.inner_text("#messages")
            reloaded = True
        assert moves < 200, "the match should have ended by now"
    assert reloaded
    final = client.get(f"/api/matches/{match_id}").json()
    assert final["status"] == "finished" and final["outcome"] is not None
    # The page says the result in the server's own words, whoever won.
    assert final["outcome_text"] and final["outcome_text"] in page.inner_text("#status")
    assert page.is_hidden("#resign")

    # The replay viewer steps through every decision of the match.
    page.click("#replay-link")
    page.wait_for_selector("#step")
    total = int(page.get_attribute("#step", "data-total"))
    assert total == final["seq"]
    assert page.get_attribute("#step", "data-step") == "0"
    page.click("#next")
    page.click("#next")
    assert page.get_attribute("#step", "data-step") == "2"
    assert page.locator("#board .piece").count() == 18
    page.click("#prev")
    assert page.get_attribute("#step", "data-step") == "1"
    page.click("#last")
    assert page.get_attribute("#step", "data-step") == str(total - 1)
    assert "decision" in page.inner_text("#step")
    page.fill("#slider", str(total // 2))
    page.dispatch_event("#slider", "input")
    assert page.get_attribute("#step", "data-step") == str(total // 2)
    page.screenshot(path=str(artifacts_dir / "replay.png"), full_page=True)
    export = client.get(page.get_attribute("#export-link", "href"))
    assert export.status_code == 200 and export.json()["match_id"] == match_id


def test_ugolki_board_offers_exactly_the_servers_legal_moves(page: Any, stack_url: str) -> None:
    """The squares marked for a piece are the ends of the view's legal moves from it (ugolki.md
    §4.3 and Decision D1: the server decides where a turn may end); a jump chain is played by
    clicking where it ends, and the board shows its path before."""
    open_lobby(page, stack_url)
    match_id = create_against_computer(page, "ugolki", "halma-8x8-1234", "random")
    token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
    client = httpx.Client(base_url=stack_url, timeout=30)
    wait_my_turn_or_end(page, "white")
    assert page.locator("#auto-finish").count() == 0 and page.locator("#end-turn").count() == 0
    page.click('#board [data-sq="g1"]')  # boxed in by its own pieces
    assert "has no legal move" in page.inner_text("#messages")
    legal = seat_view(client, match_id, token)["legal_moves"]
    page.click('#board [data-sq="e1"]')
    marked = set(page.eval_on_selector_all("#board .sq.dest", "els => els.map(e => e.dataset.sq)"))
    assert marked == {m["command"]["path"][-1] for m in legal if m["command"]["path"][0] == "e1"}
    page.click('#board [data-sq="h8"]')  # not a destination: refused before anything is sent
    assert "is not a legal move here" in page.inner_text("#messages")
    page.click('#board [data-sq="e1"]')  # clicking the piece again cancels
    assert page.locator("#board .sq.dest").count() == 0

    # Play until a jump chain of two or more jumps is on offer, then play it by its end square.
    for _ in range(30):
        state = wait_my_turn_or_end(page, "white")
        assert state["status"] != "finished"
        seq = int(state["seq"])
        legal = seat_view(client, match_id, token)["legal_moves"]
        chain = max(legal, key=lambda m: len(m["command"]["path"]))
        path = chain["command"]["path"]
        page.click(f'#board [data-sq="{path[0]}"]')
        if len(path) >= 3:
            page.hover(f'#board [data-sq="{path[-1]}"]')
            shown = page.eval_on_selector_all("#board .sq.path", "els => els.map(e => e.dataset.sq)")
            assert set(shown) == set(path[1:-1])
        page.click(f'#board [data-sq="{path[-1]}"]')
        wait_my_turn_or_end(page, "white", seq)
        history = seat_view(client, match_id, token)["game_view"]["history"]
        assert chain["label"] in history
        if len(path) >= 3:
            break
    else:
        pytest.fail("no jump chain of two jumps came up in 30 moves")


def test_kings_in_the_corner_table(page: Any, stack_url: str, artifacts_dir: Path) -> None:
    open_lobby(page, stack_url)
    match_id = create_against_computer(page, "kings-corner", "cardgames-zone", "heuristic")
    page.wait_for_selector(".kc .table-grid")
    token = page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")
    client = httpx.Client(base_url=stack_url, timeout=30)
    played = 0
    for _ in range(40):
        state = wait_my_turn_or_end(page, "p1")
        if state["status"] == "finished":
            break
        seq = int(state["seq"])
        mine = seat_view(client, match_id, token)
        legal = mine["legal_moves"]
        buttons = page.locator(".kc [data-move]")
        if mine["seq"] == seq:  # every legal move of the view is offered, under its label
            labels = page.eval_on_selector_all(".legal-list [data-move]", "els => els.map(e => e.dataset.label)")
            assert labels == [m["label"] for m in legal]
        cards = [m["command"] for m in legal if m["command"]["type"] == "kc_play_card.v1"]
        if page.locator('.kc-actions [data-type="kc_ready.v1"]').count():
            page.click('.kc-actions [data-type="kc_ready.v1"]')
        elif cards and not cards[0].get("as_card"):
            # A card from the hand: click it, then the highlighted pile.
            page.click(f'#hand [data-card="{cards[0]["card"]}"]')
            highlighted = page.eval_on_selector_all(".table-grid .pile.target", "els => els.map(e => e.dataset.slot)")
            assert set(highlighted) == {c["slot"] for c in cards if c["card"] == cards[0]["card"]}
            page.click(f'.table-grid [data-slot="{cards[0]["slot"]}"]')
        else:
            buttons.first.click()
        played += 1
        wait_my_turn_or_end(page, "p1", seq)
        if played == 8:
            page.screenshot(path=str(artifacts_dir / "kings-corner-match.png"), full_page=True)
    assert played >= 8
    view = httpx.get(f"{stack_url}/api/matches/{match_id}", timeout=30).json()
    assert view["seq"] > played
    hand = page.locator("#hand .card").count()
    mine = httpx.get(
        f"{stack_url}/api/matches/{match_id}",
        params={"token": page.evaluate(f"localStorage.getItem('gh.token.{match_id}')")},
        timeout=30,
    ).json()
    assert hand == len(mine["game_view"]["hand"])
    # The replay shows the table as a spectator saw it: no hand.
    page.click("#replay-link")
    page.wait_for_selector("#step")
    page.click("#next")
    page.click("#next")
    page.click("#next")
    assert page.locator(".table-grid .pile").count() == 8
    assert page.locator("#hand .card").count() == 0


def test_quick_match_and_leaderboard_pages(page: Any, stack_url: str) -> None:
    open_lobby(page, stack_url)
    page.fill("#player-name", "quinn")
    page.select_option("#game", "ugolki")
    page.select_option("#preset", "mini-3x3")
    page.click("#quick-match")
    page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"), timeout=30_000)
    page.wait_for_selector('#board [data-sq="a1"]')
    assert "quinn" in page.inner_text("#players")
    assert "You play" in page.inner_text("#messages")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("document.querySelector('#status').dataset.status === 'finished'")
    page.goto(stack_url + "/#/leaderboard/ugolki")
    page.wait_for_function("!document.querySelector('#board-table').textContent.includes('…')")
    assert page.locator(".tabs a").count() >= 2


def test_private_table_with_an_invite_link_and_a_dropped_connection(
    browser: Any, page: Any, stack_url: str
) -> None:
    """Two people at one table: the creator plays white, the invite link seats black; a dropped
    WebSocket reconnects and catches up with what it missed."""
    open_lobby(page, stack_url)
    page.select_option("#game", "ugolki")
    page.select_option("#preset", "halma-8x8-1234")
    page.click("#private-table")
    page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    invite = page.get_attribute("#invites [data-invite]", "data-invite")
    assert invite and f"#/play/{match_id}?token=black." in invite

    guest_context = browser.new_context(viewport={"width": 1000, "height": 800})
    guest = guest_context.new_page()
    try:
        guest.goto(invite)
        guest.wait_for_selector('#board [data-sq="a8"]')
        assert "You play black" in guest.inner_text("#messages")
        assert "token=" not in guest.url  # the token leaves the address bar
        # Black's board is turned round: a8 is at the bottom left.
        first = guest.eval_on_selector("#board .sq", "el => el.dataset.sq")
        assert first == "h1"

        state = wait_my_turn_or_end(page, "white")
        page.click('#board [data-sq="e1"]')
        page.click('#board [data-sq="d1"]')
        wait_my_turn_or_end(guest, "black", int(state["seq"]))

        # The guest's connection drops; white moves meanwhile; the guest catches up.
        guest.evaluate("window.gamehall.socket.ws.close()")
        guest.wait_for_function("document.querySelector('#conn').dataset.state === 'live'")
        guest.click('#board [data-sq="d8"]')
        guest.click('#board [data-sq="e8"]')
        after = wait_my_turn_or_end(page, "white", int(state["seq"]) + 1)
        assert page.locator("#movelist li").count() == 1
        assert "d8–e8" in page.inner_text("#movelist")
        page.evaluate("window.gamehall.socket.ws.close()")
        page.click('#board [data-sq="d1"]')  # clicks while reconnecting still reach the referee
        page.click('#board [data-sq="c1"]')
        wait_my_turn_or_end(guest, "black", int(after["seq"]))
        assert "d1–c1" in guest.inner_text("#movelist")
    finally:
        guest_context.close()


def clock_ms(page: Any, seat: str) -> int:
    return int(page.get_attribute(f'#players .clock[data-seat="{seat}"]', "data-ms") or "-1")


@pytest.mark.parametrize("game", ["ugolki", "kings-corner", "king", "thousand", "farkle-flip"])
def test_a_timed_match_shows_every_seats_clock_counting_down_for_the_seat_to_move(
    page: Any, stack_url: str, game: str
) -> None:
    """The head of every game's page shows each seat's time from the view's ``clock``; only the
    running seats' clocks count down (docs/api.md, the clock in every view)."""
    with httpx.Client(base_url=stack_url, timeout=30) as client:
        r = client.post(
            "/api/matches", json={"game": game, "time_control": {"move_s": 90, "on_timeout": "forfeit"}}
        )
        assert r.status_code == 201, r.text
        created = r.json()
        match_id, me = created["match_id"], created["seats"][0]
        view = seat_view(client, match_id, me["token"])
    running = view["clock"]["running"]
    assert running, view["clock"]
    page.goto(f"{stack_url}/#/play/{match_id}?token={me['token']}")
    for seat in view["seats"]:
        page.wait_for_selector(f'#players .clock[data-seat="{seat}"]')
    page.wait_for_function(
        "s => Number(document.querySelector(`#players .clock[data-seat=\"${s}\"]`).dataset.ms) < 90000",
        arg=running[0],
    )
    first = clock_ms(page, running[0])
    # at least half a second more, and below 89 s: the clock shows whole seconds rounded up, so
    # 89.4 s still reads 1:30
    below = min(first - 500, 89_000)
    page.wait_for_function(
        "([s, ms]) => Number(document.querySelector(`#players .clock[data-seat=\"${s}\"]`).dataset.ms) < ms",
        arg=[running[0], below],
    )
    text = page.inner_text(f'#players .clock[data-seat="{running[0]}"]')
    assert re.fullmatch(r"1:[0-2]\d", text), text
    for seat in view["seats"]:
        if seat not in running:
            assert clock_ms(page, seat) == 90_000
            assert page.inner_text(f'#players .clock[data-seat="{seat}"]') == "1:30"
    assert page.get_attribute(f'#players .clock[data-seat="{running[0]}"]', "data-running") == "true"


def test_an_untimed_match_shows_no_clock(page: Any, stack_url: str) -> None:
    with httpx.Client(base_url=stack_url, timeout=30) as client:
        created = client.post("/api/matches", json={"game": "ugolki"}).json()
    page.goto(f"{stack_url}/#/play/{created['match_id']}?token={created['seats'][0]['token']}")
    page.wait_for_selector('#players .player[data-seat="white"]')
    assert page.locator("#players .clock").count() == 0
