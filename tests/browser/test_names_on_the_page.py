"""How the page names presets and players, in English and Russian, at 1280 px and at 390 px: a
quick match that a computer player fills (matchmaking seats it as the player id
``bot:ugolki:<n>``) names it by its strength as the lobby does, in the head, the log, the end
sentence, the replay and the matches list; the rules help, the table's head, the replay and the
matches list name the preset by its title, never its id; and the replay's log names the players
exactly as the live table's log does."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import FULL_STACK, up_stack
from tests.browser.test_players_page import DESKTOP, PHONE, new_page, scroll_width

pytestmark = pytest.mark.browser

PRESET = "halma-8x8-1234"

WORDS = {
    "en": {
        "title": "Halma 8×8",
        "computer": "computer (casual)",
        "rules": "Rules: Ugolki (corners) — Halma 8×8",
    },
    "ru": {
        "title": "Гальма 8×8",
        "computer": "компьютер (любитель)",
        "rules": "Правила: Уголки — Гальма 8×8",
    },
}


@pytest.fixture(scope="module")
def listing_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gamehall up`` with quick computer players filling a quick-match table after 0.3 s, and
    scoring and the leaderboard (the matches list reads their read model)."""
    yield from up_stack(tmp_path_factory, "names-stack", FULL_STACK)


def heads(page: Any) -> list[str]:
    """Each seat in the match's head: the player's name and the seat in words (no clock)."""
    return list(
        page.eval_on_selector_all(
            "#players .player",
            "els => els.map(e => `${e.firstChild.textContent.trim()} · ${e.querySelector('small').textContent}`)",
        )
    )


def log_lines(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#table-log li", "els => els.map(e => e.textContent)"))


@pytest.mark.parametrize(
    "locale, viewport", [("en-GB", DESKTOP), ("ru-RU", DESKTOP), ("en-GB", PHONE), ("ru-RU", PHONE)]
)
def test_presets_by_title_and_computer_players_by_strength_live_and_in_the_replay(
    browser: Any, listing_stack: str, artifacts_dir: Path, locale: str, viewport: dict[str, int]
) -> None:
    lang = locale[:2]
    words = WORDS[lang]
    me = f"ann-{uuid.uuid4().hex[:6]}"
    context, page, errors = new_page(browser, viewport, locale)
    try:
        page.goto(listing_stack + "/")
        page.wait_for_selector("#lobby")
        page.fill("#player-name", me)
        page.select_option("#game", "ugolki")
        page.select_option("#preset", PRESET)
        page.click("#quick-match")
        # The queue's message names the preset by its title.
        page.wait_for_function("document.querySelector('#lobby-message').textContent.length > 0")
        assert PRESET not in page.inner_text("#lobby-message")
        page.wait_for_url("**/#/play/*", timeout=30_000)
        match_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#board .sq")
        page.wait_for_selector("#rules-help summary")
        page.wait_for_selector("#table-log li")

        # 1. The rules help and the table's head name the preset by its title.
        assert page.inner_text("#rules-help summary") == words["rules"]
        assert page.inner_text("#match-title small") == words["title"]
        assert words["title"] in log_lines(page)[0] and PRESET not in log_lines(page)[0]
        # 3. The computer player matchmaking seated is named by its strength.
        seated = page.eval_on_selector_all(
            "#players .player", "els => els.map(e => e.firstChild.textContent.trim())"
        )
        assert sorted(seated) == sorted([me, words["computer"]]), seated
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_selector('#status[data-status="finished"]')
        page.wait_for_selector("#end-reason")
        assert words["computer"] in page.inner_text("#end-reason")
        text = page.inner_text("body")
        assert "bot:" not in text and PRESET not in text, text
        assert scroll_width(page) <= viewport["width"]
        live_log = log_lines(page)
        live_heads = heads(page)
        page.screenshot(
            path=str(artifacts_dir / f"names-live-{lang}-{viewport['width']}.png"), full_page=True
        )

        # 2. The replay names the players as the live table does: its head, and its log up to the
        # decision shown (the whole log at the last one); the preset by its title.
        page.goto(f"{listing_stack}/#/replay/{match_id}")
        page.wait_for_selector("#step")
        page.click("#last")
        page.wait_for_function(f"document.querySelectorAll('#table-log li').length === {len(live_log)}")
        assert log_lines(page) == live_log
        assert heads(page) == live_heads
        assert page.inner_text("#replay-preset") == words["title"]
        page.wait_for_selector("#rules-help summary")
        assert page.inner_text("#rules-help summary") == words["rules"]
        page.click("#first")
        assert len(log_lines(page)) == 1 and words["title"] in log_lines(page)[0]
        page.click("#last")
        text = page.inner_text("body")
        assert "bot:" not in text and PRESET not in text, text
        assert words["computer"] in page.inner_text("#step")
        assert scroll_width(page) <= viewport["width"]
        page.screenshot(
            path=str(artifacts_dir / f"names-replay-{lang}-{viewport['width']}.png"), full_page=True
        )

        # The matches list and the player's page: the computer by its strength, the preset by title.
        page.goto(f"{listing_stack}/#/matches")
        row = f'#all tr[data-match="{match_id}"]'
        page.wait_for_selector(row)
        assert words["computer"] in page.inner_text(row) and words["title"] in page.inner_text(row)
        assert "bot:" not in page.inner_text("#all")
    finally:
        context.close()
    assert not errors, errors
