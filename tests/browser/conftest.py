"""Browser tests: the real page in headless Chromium (the Debian package) against a running stack."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.common.processes import UpProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("GAMEHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_or_skip() -> str:
    if not Path(CHROMIUM).exists():
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure-chromium.sh")], check=False, timeout=900)
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"Chromium is not installed at {CHROMIUM} and scripts/ensure-chromium.sh could not install it"
        )
    return CHROMIUM


FULL_STACK = ("referee", "gateway", "matchmaking", "bots", "scoring", "leaderboard")


def up_stack(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    services: tuple[str, ...] = ("referee", "gateway", "matchmaking", "bots"),
    fill_ms: int = 300,
    data_dir: Path | None = None,
) -> Iterator[str]:
    """``gamehall up`` of ``services`` in a data folder of its own (``data_dir``, else a new one
    named ``name``), computer players that think 30 ms and fill a quick-match table after
    ``fill_ms``; yields its URL, stops it after."""
    env = dict(
        os.environ,
        GAMEHALL_DATA_DIR=str(data_dir or tmp_path_factory.mktemp(name)),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_BOT_THINK_MS="30",
        GAMEHALL_MM_BOT_FILL_MS=str(fill_ms),
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=services)
    try:
        yield up.wait_url()
    finally:
        up.stop()


@pytest.fixture(scope="module")
def stack_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gamehall up`` with the referee, the gateway, matchmaking and the bots service (quick
    computer players, who fill a quick-match table after 0.3 s)."""
    yield from up_stack(tmp_path_factory, "stack")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# Every element that scrolls sideways (its content wider than its box, with overflow-x auto or
# scroll), and the page itself: what a player would have to swipe to read.
SIDEWAYS = """() => {
  const out = [...document.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}: ${e.scrollWidth} > ${e.clientWidth}`);
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) out.push(`the page: ${page.scrollWidth} > ${page.clientWidth}`);
  return out;
}"""


def assert_no_sideways_scroll(page: Any, what: str) -> None:
    """Neither the page nor any panel or table in it scrolls sideways."""
    scrolling = page.evaluate(SIDEWAYS)
    assert not scrolling, f"{what} scrolls sideways: {scrolling}"
