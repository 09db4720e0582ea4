"""The players' page in Russian has no English left: at ?lang=ru (a Russian browser) the test walks
the lobby, every game's table against computer players (a few moves, the rules help, the log and
the end sentence after a resignation), the matches list, a replay, the leaderboards, a player's
own page (a rated match, the rating chart, the season) and the errors a page shows (a refused
move, a bad clock, a seat link that is not valid for a full table, a match that does not exist),
the tournaments (the list, a Swiss and fair tables with their pairings, crosstables and standings,
a tournament that does not exist), and reads every text a player sees: the rendered text of the
page and the visible buttons' labels and titles.  No word in Latin letters may remain but the allowed ones
below (names, card ids and notation)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domain.games.king.rules import GAME_NAMES
from tests.browser.conftest import FULL_STACK, up_stack
from tests.support.tournament_records import Recorder, store_on_stack

pytestmark = pytest.mark.browser

# Each game with a quick preset and what shows that its table is drawn.
TABLES = {
    "ugolki": ("halma-8x8-1234", "#board .sq"),
    "kings-corner": ("cardgames-zone", ".kc .table-grid"),
    "king": ("king-4p-short", ".king-table"),
    "thousand": ("classic", ".kc-status"),
    "farkle-flip": ("farkle-flip-placeholder", ".ff-areas"),
    "kings-cup": ("kings-cup-neutral", ".kcup"),
    "draughts": ("russian", "#board .sq"),
    "tablut": ("tablut-seed", "#board .sq"),
}

# What may stay in Latin letters on a Russian page, and why:
# - names: the players the test signs up, the tournaments' ids and the match ids (hex) in the
#   head of a table and in links.  A preset's id is no name: every page names a preset by its
#   title ("Правила: Уголки — Гальма 8×8"), so an id such as "halma-8x8-1234" or "classic" on a
#   Russian page is a leak (the test collects the ids to say so, below);
PROPER = {
    "gamehall",  # the site's own name (the page title, the header)
    "API",  # the header's link to the API reference: the usual name in Russian too
    # the sources of the rules, named as they name themselves (the catalogue keeps them in both
    # languages, tests/unit/test_preset_catalogue.py): a club, sites, rule authors
    *("Gambiter", "cardgames.zone", "pagat", "Stofka", "Klepek", "Crestanello", "Becker", "Freeman"),
    *("LuckForFree", "Min2Win"),  # online sites' boards (the preset titles "LuckForFree 3×4")
    *("Farkle", "Flip", "Kings", "Cup"),  # games' own names: Farkle Flip, Kings Cup
}
# - card ids as the tables and the log give them: a rank and a suit letter or sign ("QS", "10H",
#   "Q♠", a deck's copy "7H2"), and the jokers;
CARD = re.compile(r"(?:(?:10|[2-9AJQKT])[SHDC♠♥♦♣]\d?|🃏[RB]|[RB]J\d?)+|[AJQKT]")
# - board notation: squares (e5, j10), moves and captures (c3-d4, c3:e5:g3, e2-c2xd2), Draughts'
#   numbered squares need no letters at all;
SQUARE = r"[a-l](?:1[0-2]|[1-9])"
NOTATION = re.compile(rf"{SQUARE}(?:[-–:x×]+{SQUARE})*|[a-l]|\d+(?:[-–:x]\d+)+")
# - Kings in the Corner's piles, which stay as the game writes them (like card ids): N, NE...;
PILE = re.compile(r"[NS][EW]?|[EW]")
# - references into the rules files: a clause or a mode (D3, FF3, K16, W1, S4, L579), a numbered
#   section of a source (Rozaliev's "47.v") and King's sources by letter ("как у F", "(D, B)").
CLAUSE = re.compile(r"[A-Z]{1,2}\d+|\d+\.[a-z]|[A-F]")
# - King's deals by the ids the rules file gives them (NT, NH... "сдача 1 (NT)", "заказать NH"),
#   which the table keeps as it keeps card ids, beside the deal's name in words;
KING_GAMES = set(GAME_NAMES)
# - the numbered seats of the card games (p1, p2...): ids, like notation, the same in every
#   language (the seats that are words, white or attackers, are said in Russian).
SEAT_ID = re.compile(r"p\d+")

LATIN = re.compile(r"[A-Za-z]")
# A token is what lies between spaces and punctuation (a hyphen or a colon inside it stays: it is
# part of notation or of a Russian word).
SPLIT = re.compile(r"[\s,;!?()\[\]{}«»\"'“”„…·—/|=<>+*#&%]+")


def latin_words(text: str, names: set[str]) -> set[str]:
    """The tokens of ``text`` in Latin letters that are none of the allowed ones."""
    out = set()
    for raw in SPLIT.split(text):
        token = raw.strip(":-–.")
        if not LATIN.search(token) or token in names or token in PROPER or token in KING_GAMES:
            continue
        if any(p.fullmatch(token) for p in (CARD, NOTATION, PILE, CLAUSE, SEAT_ID)):
            continue
        out.add(token)
    return out


@pytest.fixture(scope="module")
def ru_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gamehall up`` with scoring and the leaderboard (the matches list and the leaderboards
    have rows), computer players that think 30 ms, and two tournaments stored on its
    GH_TOURNAMENTS: a Swiss in its second round and fair tables of King after a round."""
    data_dir = tmp_path_factory.mktemp("ru-stack")
    running = up_stack(tmp_path_factory, "ru-stack", FULL_STACK, fill_ms=600_000, data_dir=data_dir)
    url = next(running)
    try:
        swiss = Recorder("ru-swiss").open(["ann", "bob", "dana", "vera"], "swiss", rounds=2, tie_breaks=("buchholz", "sonneborn_berger"))
        swiss.close().play_round()
        swiss.play_round(games=1)
        fair = Recorder("ru-fair").open(TOURNAMENT_PLAYERS, "fair_tables", game="king", preset="king-4p-classic", rounds=2, table_size=3)
        fair.close().play_round()
        store_on_stack(data_dir, swiss, fair)
        yield url
    finally:
        running.close()


TOURNAMENT_PLAYERS = ["ann", "bob", "dana", "vera", "gleb", "egor"]
TOURNAMENT_NAMES = {*TOURNAMENT_PLAYERS, "ru-swiss", "ru-fair", "no-such-tournament"}  # players and ids


# Every text a player sees: the rendered text of the page (closed <details> stay unread: the
# rules help and the log are opened first; the table of a preset's raw rule parameters stays
# closed, it lists the rules file's keys) and the visible controls' labels, titles and
# placeholders.  The language switch is left out: it names each language in that language
# ("EN", "English", "Language / Язык") so that a reader of either finds it.
SEEN = """() => {
  const sw = document.getElementById('lang-switch');
  if (sw) sw.hidden = true;
  const out = [document.body.innerText, document.title];
  if (sw) sw.hidden = false;
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  for (const el of document.querySelectorAll('button, [title], [aria-label], input[placeholder], select')) {
    if (!visible(el) || el.closest('#lang-switch')) continue;
    if (el.tagName === 'BUTTON') out.push(el.innerText);
    for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    if (el.tagName === 'SELECT') for (const o of el.options) out.push(o.textContent);
  }
  return out.join('\\n');
}"""


class Reader:
    """Reads the page at each step and keeps the Latin words found, with where."""

    def __init__(self, page: Any, names: set[str]) -> None:
        self.page = page
        self.names = names
        self.found: dict[str, set[str]] = {}
        self.context: dict[str, str] = {}

    def read(self, where: str) -> None:
        self.page.evaluate(
            "document.querySelectorAll('details.rules-help, #rules details, #table-log-box').forEach(d => d.open = true)"
        )
        text = self.page.evaluate(SEEN)
        for word in latin_words(text, self.names):
            self.found.setdefault(word, set()).add(where)
            if word not in self.context:  # the line it was found in
                lines = (
                    line for line in text.splitlines() if word in SPLIT.split(line) or f" {word}" in line
                )
                self.context[word] = next(lines, "")[:160]


def preset_ids(url: str) -> set[str]:
    games = httpx.get(f"{url}/api/games", params={"lang": "ru"}, timeout=30).json()
    return {p["name"] for g in games for p in g["presets"]}


def view_of(client: httpx.Client, match_id: str, token: str) -> dict[str, Any]:
    return dict(client.get(f"/api/matches/{match_id}", params={"token": token}).json())


def send(client: httpx.Client, match_id: str, token: str, command: dict[str, Any]) -> None:
    client.post(
        f"/api/matches/{match_id}/commands",
        params={"token": token},
        json={"command": command, "command_id": f"ru-{time.monotonic_ns()}"},
    )


def seq_shown(page: Any, seq: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#status').dataset.seq) >= n", arg=seq, timeout=30_000
    )


def sign_up(client: httpx.Client, name: str) -> str:
    reply = client.post("/api/accounts", json={"name": name})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["token"])


def rated_match(client: httpx.Client) -> None:
    """A rated Ugolki match of two signed-up players over HTTP (bob resigns): the leaderboard and
    the matches list have a row with its result."""
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    seek = {"game": "ugolki", "preset": "mini-3x3", "seats": 2, "ranked": True}
    tickets = []
    for token in (ann, bob):
        joined = client.post("/api/queue", json=seek, headers={"Authorization": f"Bearer {token}"})
        assert joined.status_code == 200, joined.text
        tickets.append((token, joined.json()["ticket_id"]))
    token, ticket = tickets[1]
    for _ in range(100):
        state = client.get(f"/api/queue/{ticket}", headers={"Authorization": f"Bearer {token}"}).json()
        if state.get("match_id") and state.get("token"):
            send(client, state["match_id"], state["token"], {"type": "resign.v1"})
            return
        time.sleep(0.2)
    pytest.fail("the rated match never started")


def test_every_page_in_russian_says_no_english_word(browser: Any, ru_stack: str) -> None:
    client = httpx.Client(base_url=ru_stack, timeout=30)
    rated_match(client)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    names = {"ann", "bob", "dana"} | TOURNAMENT_NAMES
    presets = preset_ids(ru_stack)
    assert not presets & names, "a preset id the test would take for a name"
    reader = Reader(page, names)
    try:
        # The lobby, every game and its presets' rules help.
        page.goto(ru_stack + "/?lang=ru")
        page.wait_for_selector("#lobby")
        page.wait_for_function("!document.querySelector('#open-seeks').textContent.includes('…')")
        page.fill("#player-name", "dana")
        reader.read("lobby")
        for game in TABLES:
            page.select_option("#game", game)
            reader.read(f"lobby: {game}")
            # the preset's description line says the rules in words, not the preset's id
            said = page.inner_text("#preset-description")
            assert said and not latin_words(said, names), (game, said)

        # A bad clock of your own: the page's refusal, and the server's for a clock too long.
        page.select_option("#game", "ugolki")
        page.select_option("#clock", "custom")
        page.fill("#clock-minutes", "0")
        page.click("#play-computer")
        page.wait_for_function("document.querySelector('#lobby-message').className === 'error'")
        reader.read("lobby: a bad clock")
        page.fill("#clock-minutes", "100000")
        page.click("#play-computer")
        page.wait_for_function(
            "document.querySelector('#lobby-message').className === 'error' && !document.querySelector('#lobby-message').textContent.startsWith('Часам')"
        )
        reader.read("lobby: a clock the server refuses")
        page.select_option("#clock", "")

        for game, (preset, drawn) in TABLES.items():
            page.goto(ru_stack + "/?lang=ru")
            page.wait_for_selector("#lobby")
            page.select_option("#game", game)
            page.select_option("#preset", preset)
            page.select_option("#strength", index=0)
            page.click("#play-computer")
            page.wait_for_url(re.compile(r"#/play/[0-9a-f]+$"))
            match_id = page.url.rsplit("/", 1)[1]
            names.add(match_id)
            token = str(page.evaluate(f"localStorage.getItem('gh.token.{match_id}')"))
            page.wait_for_selector(drawn)
            page.wait_for_selector("#rules-help")
            seq_shown(page, 1)
            reader.read(f"{game}: the table")
            # A few moves: the buttons the table draws (a ready button is clicked), else the view's
            # legal moves; the table and its log after each.
            moves = 0
            deadline = time.monotonic() + 25
            while moves < 4 and time.monotonic() < deadline:
                view = view_of(client, match_id, token)
                if view["status"] == "finished":
                    break
                if not view["legal_moves"]:
                    time.sleep(0.1)
                    continue
                seq_shown(page, view["seq"])
                if moves == 0 and game == "ugolki":  # a move the rules refuse, sent by the page
                    page.evaluate("window.gamehall.socket.send({type: 'move_piece.v1', path: ['a1', 'h8']})")
                    page.wait_for_selector("#messages p.error")
                    reader.read(f"{game}: a refused move")
                send(client, match_id, token, view["legal_moves"][-1]["command"])
                moves += 1
                seq_shown(page, view["seq"] + 1)
                reader.read(f"{game}: after a move")
            page.once("dialog", lambda dialog: dialog.accept())
            if page.is_visible("#resign"):
                page.click("#resign")
            else:
                send(client, match_id, token, {"type": "resign.v1"})
            page.wait_for_selector("#after-game #end-reason")
            reader.read(f"{game}: the end")
            if game == "draughts":  # its replay, at the start and at the end
                page.goto(f"{ru_stack}/?lang=ru#/replay/{match_id}")
                page.wait_for_selector("#step")
                reader.read("replay: the start")
                page.click("#next")
                reader.read("replay: a move")
                page.click("#last")
                reader.read("replay: the end")

        # A full table and a seat link that is not one of its seats: watched, with the refusal.
        page.goto(f"{ru_stack}/?lang=ru#/play/{match_id}?token=not-a-seat")
        page.wait_for_selector("#messages p.error")
        reader.read("a seat link that is not valid")
        # A match that does not exist: its table and its replay.
        names.add("0123456789abcdef0123456789abcdef")
        page.goto(f"{ru_stack}/?lang=ru#/play/0123456789abcdef0123456789abcdef")
        page.wait_for_selector("#messages p.error")
        reader.read("a match that does not exist")
        page.goto(f"{ru_stack}/?lang=ru#/replay/0123456789abcdef0123456789abcdef")
        page.wait_for_selector(".error-panel")
        reader.read("the replay of a match that does not exist")

        # The matches list (every match above, with its result) and the leaderboards.
        for _ in range(120):
            rows = client.get("/api/match-summaries", params={"limit": 100}).json()["matches"]
            if sum(m["status"] == "finished" for m in rows) >= len(TABLES) + 1:
                break
            time.sleep(0.25)
        page.goto(f"{ru_stack}/?lang=ru#/matches")
        page.wait_for_selector("#all tr[data-match]")
        reader.read("matches")
        for _ in range(60):
            if client.get("/api/leaderboard/ugolki").json()["entries"]:
                break
            time.sleep(0.5)
        page.goto(f"{ru_stack}/?lang=ru#/leaderboard")
        page.wait_for_selector("#board-table table.standings")
        reader.read("leaderboards")
        for tab in page.eval_on_selector_all(".tabs a", "els => els.map(e => e.getAttribute('href'))"):
            page.goto(f"{ru_stack}/?lang=ru{tab}")
            page.wait_for_selector("#board-table")
            page.wait_for_function("!document.querySelector('#board-table').textContent.includes('…')")
            reader.read(f"leaderboards {tab}")
        # The tournaments: the list, a Swiss in its second round (a game still to play), fair
        # tables with the evenness, a tournament that does not exist.
        page.goto(f"{ru_stack}/?lang=ru#/tournaments")
        page.wait_for_selector("tr[data-tournament='ru-swiss']")
        reader.read("tournaments")
        for tournament, drawn in (("ru-swiss", "#tournament-crosstable td.cell"), ("ru-fair", "#tournament-evenness")):
            page.goto(f"{ru_stack}/?lang=ru#/tournament/{tournament}")
            page.wait_for_selector(drawn)
            page.wait_for_selector("#tournament-conn[data-state='live']")
            reader.read(f"tournament {tournament}")
        page.goto(f"{ru_stack}/?lang=ru#/tournament/no-such-tournament")
        page.wait_for_function("!document.querySelector('#tournament').textContent.includes('…')")
        reader.read("a tournament that does not exist")
        # A player's own page: ann's rated match, her rating chart and the season in force.
        page.goto(f"{ru_stack}/?lang=ru#/player/ann")
        page.wait_for_selector(".rating-chart svg circle.pt")
        page.wait_for_selector("#season-list li[data-season]")
        page.wait_for_selector("#player-matches tr[data-match]")
        reader.read("a player's page")
        # The lobby again: the recent matches with their results, a quick match refused while
        # your match is on (ann is at none: dana has every table above finished).
        page.goto(ru_stack + "/?lang=ru")
        page.wait_for_selector("#recent tr[data-match]")
        reader.read("lobby: recent matches")
    finally:
        client.close()
        context.close()
    assert not errors, errors
    leaks = "\n".join(
        f"{word!r}{' (a preset id)' if word in presets else ''} ({len(where)} places: {min(where)}): "
        f"{reader.context[word]!r}"
        for word, where in sorted(reader.found.items())
    )
    assert not reader.found, f"Latin words on the Russian page:\n{leaks}"
