"""The gateway answers in Russian when asked (issue 15): ``?lang=ru`` on the rules help, the match
view (Ugolki's warnings, the end reason), the games catalogue (titles, families, descriptions), the
matches list, the replay and the match WebSocket; any other language is the typed error 422
``unsupported_language``.  Without ``?lang`` the Accept-Language header decides; ``?lang`` wins."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests.support.listing import listed

pytestmark = pytest.mark.integration

CYRILLIC = re.compile("[\u0400-\u04ff]")


def new_match(client: httpx.Client) -> dict:
    created = client.post("/api/matches", json={"game": "ugolki", "preset": "gambiter-classic", "players": ["ann", "bob"]})
    assert created.status_code == 201, created.text
    return created.json()


def test_rules_help_in_russian_and_english(client: httpx.Client) -> None:
    mid = new_match(client)["match_id"]
    ru = client.get(f"/api/matches/{mid}/rules", params={"lang": "ru"}).json()
    en = client.get(f"/api/matches/{mid}/rules").json()
    assert ru["title"] == "Уголки" and en["title"] == "Ugolki (corners)"
    assert ru["preset"] == en["preset"] == "gambiter-classic"  # preset names stay as the rules give them
    # and the preset is told to players by its title in the language asked
    assert (ru["preset_title"], en["preset_title"]) == ("Gambiter, классика", "Gambiter classic")
    assert all(CYRILLIC.search(line) for line in (ru["goal"], *ru["win"], *ru["lose"], *ru["special"]))
    assert any("после 40-го хода чёрных" in line for line in ru["lose"])
    assert client.get(f"/api/matches/{mid}/rules", params={"lang": "en"}).json() == en


def test_the_view_words_its_warnings_and_end_reason_in_russian(client: httpx.Client) -> None:
    created = new_match(client)
    mid = created["match_id"]
    view = client.get(f"/api/matches/{mid}", params={"lang": "ru"}).json()
    texts = [w["text"] for w in view["game_view"]["warnings"]]
    assert texts and all(CYRILLIC.search(t) for t in texts), texts
    assert texts[0].startswith("Белые: дома ещё 10 шашек; осталось 40 ходов, чтобы вывести все 10")
    black = next(s["token"] for s in created["seats"] if s["seat"] == "black")
    resigned = client.post(
        f"/api/matches/{mid}/commands",
        json={"command": {"type": "resign.v1"}},
        headers={"Authorization": f"Bearer {black}"},
    )
    assert resigned.status_code == 200, resigned.text
    ru = client.get(f"/api/matches/{mid}", params={"lang": "ru"}).json()
    en = client.get(f"/api/matches/{mid}").json()
    assert ru["outcome_text"] == "Побеждает ann (белые): игрок bob (чёрные) сдался."
    assert en["outcome_text"] == "ann (white) wins: bob (black) resigned."
    finished = lambda m: m["status"] == "finished"  # noqa: E731
    assert listed(client, mid, finished, lang="ru")["outcome_text"] == ru["outcome_text"]
    assert listed(client, mid, finished)["outcome_text"] == en["outcome_text"]
    replay = client.get(f"/api/matches/{mid}/replay", params={"lang": "ru"}).json()["frames"]
    assert replay[-1]["view"]["outcome_text"] == ru["outcome_text"]
    assert replay[0]["view"]["game_view"]["warnings"][0]["text"].startswith("Белые: дома ещё")
    english = client.get(f"/api/matches/{mid}/replay").json()["frames"]
    assert english[-1]["view"]["outcome_text"] == en["outcome_text"]


def test_the_matches_list_titles_the_game_and_preset_in_the_language_asked(client: httpx.Client) -> None:
    mid = new_match(client)["match_id"]
    mine_ru = listed(client, mid, lang="ru")
    mine_en = listed(client, mid)
    assert (mine_ru["title"], mine_ru["preset_title"], mine_ru["preset"]) == ("Уголки", "Gambiter, классика", "gambiter-classic")
    assert (mine_en["title"], mine_en["preset_title"]) == ("Ugolki (corners)", "Gambiter classic")


@pytest.mark.parametrize(
    ("header", "title"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8", "Уголки"),
        ("ru", "Уголки"),
        ("en-GB,ru;q=0.5", "Ugolki (corners)"),
        ("de;q=0.3, ru;q=0.7", "Уголки"),
        ("ru;q=0, en", "Ugolki (corners)"),
        ("fr", "Ugolki (corners)"),
        ("", "Ugolki (corners)"),
    ],
)
def test_without_lang_the_accept_language_header_decides(client: httpx.Client, header: str, title: str) -> None:
    games = client.get("/api/games", headers={"Accept-Language": header}).json()
    assert next(g for g in games if g["game"] == "ugolki")["title"] == title


def test_lang_wins_over_accept_language(client: httpx.Client) -> None:
    mid = new_match(client)["match_id"]
    russian = {"Accept-Language": "ru-RU,ru"}
    assert client.get(f"/api/matches/{mid}/rules", headers=russian).json()["title"] == "Уголки"
    assert client.get(f"/api/matches/{mid}/rules", params={"lang": "en"}, headers=russian).json()["title"] == (
        "Ugolki (corners)"
    )
    english = client.get("/api/games", params={"lang": "ru"}, headers={"Accept-Language": "en"}).json()
    assert next(g for g in english if g["game"] == "ugolki")["title"] == "Уголки"
    view = client.get(f"/api/matches/{mid}", headers=russian).json()
    assert view["game_view"]["warnings"][0]["text"].startswith("Белые: дома ещё")


def test_the_catalogue_helps_every_preset_in_russian(client: httpx.Client) -> None:
    games = client.get("/api/games", params={"lang": "ru"}).json()
    for game in games:
        for preset in game["presets"]:
            assert CYRILLIC.search(preset["help"]["goal"]), (game["game"], preset["name"])


@pytest.mark.parametrize(
    "path",
    ["/api/games", "/api/matches/{mid}", "/api/matches/{mid}/rules", "/api/matches/{mid}/replay", "/api/match-summaries"],
)
@pytest.mark.parametrize("lang", ["de", "RU", "ru-RU", "x" * 300])
def test_any_other_language_is_a_typed_422(client: httpx.Client, path: str, lang: str) -> None:
    mid = new_match(client)["match_id"] if "{mid}" in path else ""
    response = client.get(path.format(mid=mid), params={"lang": lang})
    assert response.status_code == 422, response.text
    assert response.json() == {"code": "unsupported_language", "detail": "lang must be one of: en, ru"}


def test_the_websocket_sends_views_in_the_language_asked(gateway: str, client: httpx.Client) -> None:
    created = new_match(client)
    base = gateway.replace("http://", "ws://") + f"/ws/matches/{created['match_id']}"
    with ws_connect(f"{base}?lang=ru", open_timeout=10) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
        view = next(f["view"] for f in frames if f["type"] == "view")
        assert view["game_view"]["warnings"][0]["text"].startswith("Белые: дома ещё")
    with ws_connect(base, open_timeout=10, additional_headers={"Accept-Language": "ru-RU"}) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
        view = next(f["view"] for f in frames if f["type"] == "view")
        assert view["game_view"]["warnings"][0]["text"].startswith("Белые: дома ещё")
    with ws_connect(f"{base}?lang=de", open_timeout=10) as ws:
        frame = json.loads(ws.recv(timeout=10))
        assert frame == {"type": "error", "code": "unsupported_language", "detail": "lang must be one of: en, ru"}
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400


def test_events_and_legal_moves_come_with_their_words_in_the_language_asked(
    gateway: str, client: httpx.Client
) -> None:
    """Each decision a viewer gets carries, beside its events, each event's line of the log as that
    viewer may see it (``texts``), and the view labels its legal moves, in the language asked for:
    GET events, the replay and the WebSocket's events frame."""
    created = client.post(
        "/api/matches", json={"game": "kings-corner", "preset": "pagat-classic", "players": ["ann", "bob"]}
    )
    assert created.status_code == 201, created.text
    mid, seat = created.json()["match_id"], created.json()["seats"][0]
    auth = {"Authorization": f"Bearer {seat['token']}"}
    ru = client.get(f"/api/matches/{mid}", params={"lang": "ru"}, headers=auth).json()
    en = client.get(f"/api/matches/{mid}", headers=auth).json()
    assert [m["label"] for m in ru["legal_moves"]] == ["Готов к раздаче"]
    assert [m["label"] for m in en["legal_moves"]] == ["Ready for the deal"]
    sent = client.post(
        f"/api/matches/{mid}/commands", json={"command": ru["legal_moves"][0]["command"]}, headers=auth
    )
    assert sent.status_code == 200, sent.text
    events_ru = client.get(f"/api/matches/{mid}/events", params={"lang": "ru"}, headers=auth).json()
    events_en = client.get(f"/api/matches/{mid}/events", headers=auth).json()
    assert [d["texts"] for d in events_ru][:2] == [
        ["партия создана (Классика)"],
        [f"{seat['seat']} готов"],
    ]
    assert [d["texts"] for d in events_en][:2] == [
        ["match created (Classic)"],
        [f"{seat['seat']} is ready"],
    ]
    assert all(len(d["texts"]) == len(d["events"]) for d in events_ru)
    replay = client.get(f"/api/matches/{mid}/replay", params={"lang": "ru"}).json()
    assert replay["frames"][0]["texts"] == ["партия создана (Классика)"]
    base = gateway.replace("http://", "ws://") + f"/ws/matches/{mid}"
    with ws_connect(f"{base}?lang=ru", open_timeout=10) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
        decisions = next(f["events"] for f in frames if f["type"] == "events")
        assert [d["texts"] for d in decisions] == [d["texts"] for d in events_ru]
        other = created.json()["seats"][1]
        ready = {"command": {"type": "kc_ready.v1"}}
        sent = client.post(f"/api/matches/{mid}/commands", json=ready, headers={"Authorization": f"Bearer {other['token']}"})
        assert sent.status_code == 200, sent.text
        later = []  # the hub's frames for the next decision: its lines in Russian, as this seat sees them
        while not any(f["type"] == "events" and f["events"] for f in later):
            later.append(json.loads(ws.recv(timeout=10)))
        texts = [t for f in later if f["type"] == "events" for d in f["events"] for t in d["texts"]]
        assert texts[0] == f"{other['seat']} готов" and all(CYRILLIC.search(t) for t in texts if t), texts
