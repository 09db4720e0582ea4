"""The API's interactive pages, /docs (Swagger UI) and /redoc (ReDoc), render every operation in
headless Chromium with the network closed to everything but loopback: their scripts and styles
come from the gateway itself (docs/api.md)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from services.common.processes import UpProcess, free_port
from tests.browser.conftest import CHROMIUM_ARGS, chromium_or_skip

pytestmark = pytest.mark.browser

# No name resolves and every request goes to a proxy that does not exist, except loopback.
OFFLINE_ARGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>;127.0.0.1",
]
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="module")
def gateway_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = dict(
        os.environ,
        GAMEHALL_DATA_DIR=str(tmp_path_factory.mktemp("docs-stack")),
        GAMEHALL_HTTP_PORT=str(free_port()),
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=("referee", "gateway"))
    try:
        yield up.wait_url()
    finally:
        up.stop()


@pytest.fixture(scope="module")
def offline_browser() -> Iterator[Any]:
    executable = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS + OFFLINE_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def offline_page(offline_browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page whose every request to another host is recorded and failed."""
    context = offline_browser.new_context(viewport={"width": 1200, "height": 900})
    outside: list[str] = []

    def guard(route: Any) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort("internetdisconnected")

    context.route("**/*", guard)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    yield page, outside
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def operations(url: str) -> list[dict[str, Any]]:
    doc = httpx.get(f"{url}/openapi.json", timeout=10).json()
    return [
        {"method": method, "path": path, "summary": op.get("summary", "")}
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
    ]


def test_swagger_ui_renders_every_operation_offline(
    offline_page: tuple[Any, list[str]], gateway_url: str, artifacts_dir: Path
) -> None:
    page, outside = offline_page
    ops = operations(gateway_url)
    page.goto(f"{gateway_url}/docs")
    page.wait_for_selector(".opblock")
    blocks = page.locator(".opblock")
    assert blocks.count() == len(ops)
    shown = {
        (b.get_attribute("class").split("opblock-")[-1].split()[0], path)
        for b, path in (
            (blocks.nth(i), blocks.nth(i).locator(".opblock-summary-path").get_attribute("data-path"))
            for i in range(blocks.count())
        )
    }
    assert shown == {(op["method"], op["path"]) for op in ops}
    # An operation opens and shows its declared error answers.
    page.locator('.opblock-post .opblock-summary-path[data-path="/api/matches"]').click()
    page.wait_for_selector('.opblock-post.is-open tr.response[data-code="429"]')
    page.screenshot(path=str(artifacts_dir / "api-docs-swagger.png"), full_page=False)
    assert outside == [], outside


def test_redoc_renders_every_operation_offline(
    offline_page: tuple[Any, list[str]], gateway_url: str, artifacts_dir: Path
) -> None:
    page, outside = offline_page
    ops = operations(gateway_url)
    page.goto(f"{gateway_url}/redoc")
    page.wait_for_selector('[data-section-id^="operation/"]')
    sections = page.locator('[data-section-id^="operation/"]')
    assert sections.count() == len(ops)
    text = page.inner_text("redoc")
    for op in ops:
        assert op["summary"] in text
    page.screenshot(path=str(artifacts_dir / "api-docs-redoc.png"), full_page=False)
    assert outside == [], outside


def test_the_pages_name_no_other_host(gateway_url: str) -> None:
    """The HTML itself points only at the gateway's own paths."""
    for route in ("/docs", "/redoc"):
        html = httpx.get(gateway_url + route, timeout=10).text
        assert "/docs-assets/" in html
        assert "http://" not in html and "https://" not in html, route
