"""The players' page: the bytes of JS and CSS it loads, and its time to the first drawn table.

Bytes: from ``web/index.html`` (its stylesheet and module script), every module reached by the
static ``import`` lines, for the lobby; for one table of a game, those plus ``web/games/<game>.js``
(the module ``app.js`` imports when the table's first view arrives) and what it imports.  Raw and
gzip (level 9), and the bytes on the wire as the gateway sends them (services/gateway/assets.py),
fetched once without an encoding (``wire_identity_bytes``) and once accepting gzip
(``wire_gzip_bytes``), each checked to decode to the file.  The page in Chromium must load the
same files: the bytes its resource timings list (``encodedBodySize``: as sent, Chromium accepts
gzip) are reported beside (``served``).

Time: ``gamehall up`` with the referee, the gateway and the bots service (as the browser tests
start it), headless Chromium (the Debian package, launched as ``tests/browser/conftest.py`` does);
per game a match against a computer player created over the API (its default preset at the
fewest seats it allows, the first seat a person's, the rest the game's default computer player;
the Kings Cup helper has no computer players: every seat a person's), then the table's URL
(``/#/play/<id>?token=...``) loaded ``--loads`` times with a cold cache (a new browser context
each) and as many with a warm one (one context, loaded once before).  Measured in the page from
navigation start (``performance.now()``) to the first frame after the game's renderer has drawn
into ``#game`` (an observer installed before the page's scripts run; ``dom_ms`` is when the
drawing appeared in the document, ``frame_ms`` the next animation frame; ``scripts_ms`` is the
end of DOMContentLoaded, when the page's modules have run, before any answer of the API); the
lobby the same way (its form with the game list filled).  Medians.  Prints one JSON line.

    .venv/bin/python bench/page_bench.py [--loads 5] [--games ugolki,king]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common.processes import UpProcess, free_port  # noqa: E402

WEB = ROOT / "web"
CHROMIUM = os.environ.get("GAMEHALL_CHROMIUM", "/usr/bin/chromium")
# as tests/browser/conftest.py launches it
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
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']""", re.M)
PAGE_ASSET = re.compile(r"""(?:href|src)="/web/([^"]+\.(?:js|css))\"""")

# Installed before the page's own scripts: the time of the first drawing in #game (a table) and
# of the lobby's filled game list, and of the animation frame after each.
OBSERVER = """
(() => {
  const marks = (window.__gh = {});
  const seen = (name, ready) => {
    if (marks[name] || !ready()) return;
    marks[name] = { dom: performance.now() };
    requestAnimationFrame(() => { marks[name].frame = performance.now(); });
  };
  const check = () => {
    seen("table", () => { const g = document.getElementById("game"); return g && g.firstElementChild && g.getBoundingClientRect().height > 0; });
    seen("lobby", () => document.querySelector("#new-table #game option") !== null);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();
"""


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def closure(start: list[str]) -> list[str]:
    """``start`` (paths under web/) and every module their static imports reach, in load order."""
    order: list[str] = []
    todo = list(start)
    while todo:
        rel = todo.pop(0)
        if rel in order:
            continue
        order.append(rel)
        if not rel.endswith(".js"):
            continue
        text = (WEB / rel).read_text(encoding="utf-8")
        base = Path(rel).parent
        for found in IMPORT.finditer(text):
            spec = found.group(1) or found.group(2)
            if spec.startswith("."):
                todo.append(os.path.normpath(base / spec))
    return order


def on_the_wire(url: str, rel: str, encoding: str) -> int:
    """The body bytes the gateway sends for ``web/<rel>`` to a client asking ``Accept-Encoding:
    <encoding>`` (as they come, not decoded), after checking they decode to the file."""
    with httpx.stream("GET", f"{url}/web/{rel}", headers={"Accept-Encoding": encoding}, timeout=30) as r:
        r.raise_for_status()
        body = b"".join(r.iter_raw())
        decoded = gzip.decompress(body) if r.headers.get("content-encoding") == "gzip" else body
    if decoded != (WEB / rel).read_bytes():
        raise RuntimeError(f"/web/{rel} with Accept-Encoding {encoding!r} does not decode to the file")
    return len(body)


def weigh(files: list[str], url: str) -> dict[str, Any]:
    raw = {f: (WEB / f).read_bytes() for f in files}
    js = [f for f in files if f.endswith(".js")]
    css = [f for f in files if f.endswith(".css")]
    return {
        "files": len(files),
        "js_bytes": sum(len(raw[f]) for f in js),
        "css_bytes": sum(len(raw[f]) for f in css),
        "raw_bytes": sum(len(b) for b in raw.values()),
        # each file compressed on its own (level 9), as a server sends them
        "gzip_bytes": sum(len(gzip.compress(b, 9, mtime=0)) for b in raw.values()),
        # what the gateway sends: to a client that asks for no encoding, and to one that accepts gzip
        "wire_identity_bytes": sum(on_the_wire(url, f, "identity") for f in files),
        "wire_gzip_bytes": sum(on_the_wire(url, f, "gzip, deflate, br") for f in files),
    }


def page_assets() -> list[str]:
    return PAGE_ASSET.findall((WEB / "index.html").read_text(encoding="utf-8"))


def chromium() -> str:
    if not Path(CHROMIUM).exists():
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure-chromium.sh")], check=False, timeout=900)
    if not Path(CHROMIUM).exists():
        raise SystemExit(
            f"Chromium is not installed at {CHROMIUM} (scripts/ensure-chromium.sh could not install it)"
        )
    return CHROMIUM


def create_match(url: str, game: dict[str, Any]) -> str:
    """A match of ``game`` (its default preset) at the fewest seats it allows, the first seat a
    person's, the others the game's default computer player; the first seat's table URL."""
    preset = next((p for p in game["presets"] if p["name"] == game.get("preset")), game["presets"][0])
    rules = preset.get("rules") or {}
    # the lowest number of players the default preset allows, as the lobby offers it
    n = max(game["seats"]["min"], rules.get("players") or rules.get("min_players") or game["seats"]["min"])
    seats = game["seat_names"][str(n)]
    body: dict[str, Any] = {
        "game": game["game"],
        "preset": preset["name"],
        "seats": n,
        "players": ["ann", *[f"cpu-{s}" for s in seats[1:]]],
    }
    if game.get("bots") and not game.get("helper"):
        body["bots"] = {s: game.get("default_bot") or game["bots"][0] for s in seats[1:]}
    else:
        body["players"] = ["ann", *[f"guest-{s}" for s in seats[1:]]]
    r = httpx.post(f"{url}/api/matches", json=body, timeout=30)
    if r.status_code != 201:
        raise RuntimeError(f"POST /api/matches {json.dumps(body)}: {r.status_code} {r.text}")
    created = r.json()
    mine = created["seats"][0]
    return f"{url}/#/play/{created['match_id']}?token={mine['token']}"


def load(page: Any, url: str, mark: str) -> dict[str, Any]:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function(f"window.__gh && window.__gh.{mark} && window.__gh.{mark}.frame")
    got = page.evaluate(
        f"""() => ({{
          dom: window.__gh.{mark}.dom, frame: window.__gh.{mark}.frame,
          dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
          assets: performance.getEntriesByType("resource")
            .filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname))
            .map((e) => [new URL(e.name).pathname, e.encodedBodySize, e.transferSize]),
        }})"""
    )
    return got


def new_context(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(OBSERVER)
    context.set_default_timeout(30_000)
    return context


def timings(browser: Any, url: str, mark: str, loads: int) -> dict[str, Any]:
    cold: list[dict[str, Any]] = []
    for _ in range(loads):
        context = new_context(browser)
        try:
            cold.append(load(context.new_page(), url, mark))
        finally:
            context.close()
    context = new_context(browser)
    try:
        page = context.new_page()
        load(page, url, mark)
        warm = [load(page, url, mark) for _ in range(loads)]
    finally:
        context.close()

    def med(runs: list[dict[str, Any]], key: str) -> float:
        return round(statistics.median(r[key] for r in runs), 1)

    first = cold[0]["assets"]
    return {
        "cold_frame_ms": med(cold, "frame"),
        "cold_dom_ms": med(cold, "dom"),
        "warm_frame_ms": med(warm, "frame"),
        "warm_dom_ms": med(warm, "dom"),
        "cold_scripts_ms": med(cold, "dcl"),
        "warm_scripts_ms": med(warm, "dcl"),
        "cold_range_ms": [round(min(r["frame"] for r in cold), 1), round(max(r["frame"] for r in cold), 1)],
        "warm_range_ms": [round(min(r["frame"] for r in warm), 1), round(max(r["frame"] for r in warm), 1)],
        "served_files": sorted({p.removeprefix("/web/") for p, _, _ in first}),
        "served_bytes": sum(size for _, size, _ in first),
        "warm_transfer_bytes": statistics.median(sum(t for _, _, t in r["assets"]) for r in warm),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--loads", type=int, default=5, help="cold and warm loads of each page (medians reported)"
    )
    ap.add_argument(
        "--games", default="", help="only these games, comma-separated (default: every listed game)"
    )
    a = ap.parse_args()
    load_start = round(os.getloadavg()[0], 2)
    lobby_files = closure(page_assets())
    result: dict[str, Any] = {"page_loads": a.loads}
    executable = chromium()
    data = Path(tempfile.mkdtemp(prefix="gh-page-"))
    env = dict(
        os.environ,
        GAMEHALL_DATA_DIR=str(data),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_BOT_THINK_MS="30",
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=("referee", "gateway", "bots"))
    try:
        url = up.wait_url(timeout=180)
        result["page_lobby"] = weigh(lobby_files, url)
        catalogue = httpx.get(f"{url}/api/games", timeout=30).json()
        wanted = [g for g in a.games.split(",") if g]
        games = [g for g in catalogue if not wanted or g["game"] in wanted]
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                lobby = timings(browser, f"{url}/#/", "lobby", a.loads)
                result["page_lobby"].update(lobby)
                say(f"lobby: {json.dumps(result['page_lobby'])}")
                tables: dict[str, Any] = {}
                for game in games:
                    name = game["game"]
                    files = (
                        closure([*lobby_files, f"games/{name}.js"])
                        if (WEB / "games" / f"{name}.js").exists()
                        else lobby_files
                    )
                    found = weigh(files, url)
                    found.update(timings(browser, create_match(url, game), "table", a.loads))
                    missing = set(files) - set(found["served_files"])
                    extra = set(found["served_files"]) - set(files)
                    if missing or extra:
                        say(
                            f"{name}: the page loaded {sorted(extra)} beyond the imports, not {sorted(missing)}"
                        )
                    say(f"{name}: {json.dumps(found)}")
                    tables[name] = found
            finally:
                browser.close()
        result["page_tables"] = tables
        frames = [t["cold_frame_ms"] for t in tables.values()]
        result["page_table_cold_ms_median"] = round(statistics.median(frames), 1) if frames else None
        result["page_table_warm_ms_median"] = (
            round(statistics.median(t["warm_frame_ms"] for t in tables.values()), 1) if tables else None
        )
        result["page_table_max_raw_bytes"] = max((t["raw_bytes"] for t in tables.values()), default=None)
        result["page_table_max_gzip_bytes"] = max((t["gzip_bytes"] for t in tables.values()), default=None)
        for way in ("identity", "gzip"):
            result[f"page_table_max_wire_{way}_bytes"] = max(
                (t[f"wire_{way}_bytes"] for t in tables.values()), default=None
            )
    finally:
        up.stop()
        shutil.rmtree(data, ignore_errors=True)
    result["page_loadavg_1m"] = [load_start, round(os.getloadavg()[0], 2)]
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
