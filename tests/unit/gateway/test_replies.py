"""The typed replies (contracts.api's response models) answer what the routes built before they
were typed: the same keys in the same order, no key added, integers kept integers; and they
agree with the structs the client library decodes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from fastapi.encoders import jsonable_encoder
from pydantic import TypeAdapter

from contracts import api
from services.gateway import edge
from services.gateway.api.games import games_catalogue


def answered(model: Any, value: Any, exclude_unset: bool = False) -> str:
    """What FastAPI writes for ``value`` through ``model`` (python-mode serialization, then the
    plain JSON response's ``json.dumps``)."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    dumped = adapter.dump_python(adapter.validate_python(value), mode="json", exclude_unset=exclude_unset)
    return json.dumps(dumped, ensure_ascii=False, separators=(",", ":"))


def plain(value: Any) -> str:
    return json.dumps(jsonable_encoder(value), ensure_ascii=False, separators=(",", ":"))


def test_the_catalogue_is_answered_as_it_was_built_in_both_languages() -> None:
    for lang in ("en", "ru"):
        catalogue = games_catalogue(lang)
        assert answered(list[api.GameInfo], catalogue) == plain(catalogue)


def test_a_seated_computer_has_no_detail_and_a_refused_one_keeps_it() -> None:
    reply = {
        "match_id": "m1",
        "game": "ugolki",
        "preset": "classic",
        "seats": [{"seat": "white", "token": "white.x", "websocket": "ws://h:1/ws/matches/m1?token=white.x"}],
        "bots": [
            {"seat": "black", "strength": "easy", "status": "seated"},
            {"seat": "red", "strength": "easy", "status": "refused", "detail": "no"},
        ],
        "invites": [{"seat": "white", "url": "/#/play/m1?token=white.x"}],
        "view": "/api/matches/m1",
        "websocket": "ws://h:1/ws/matches/m1",
    }
    assert answered(api.MatchCreated, reply, exclude_unset=True) == plain(reply)


def finished_row(**extra: Any) -> dict[str, Any]:
    return {
        "match_id": "m1",
        "game": "ugolki",
        "preset": "classic",
        "season": "2026",
        "ranked": True,
        "rated": True,
        "model": "glicko2",
        "seats": ["white", "black"],
        "players": ["a", "b"],
        "ranks": [1, 2],
        "scores": [1, 0.5],
        "draw": False,
        "reason": "resigned",
        "moves": 12,
        "finished_at": 1_700_000_000_000,
        "status": "",
        "ruling": None,
        "effective_ranks": [1, 2],
        **extra,
    }


def test_finished_matches_keep_their_keys_integers_and_small_floats() -> None:
    everyone = {"matches": [finished_row()], "next_cursor": None}
    assert answered(api.FinishedPage, everyone, exclude_unset=True) == plain(everyone)
    mine = {
        "player": "a",
        "matches": [finished_row(seat_index=0, rank=1, rating_before=1500, rating_after=1512.25e-7)],
        "next_cursor": "c",
    }
    assert answered(api.FinishedPage, mine, exclude_unset=True) == plain(mine)


def test_a_leaderboard_keeps_its_numbers() -> None:
    entry = {
        "rank": 1,
        "player": "a",
        "family": "classic",
        "model": "glicko2",
        "rating": 1500,
        "rd": 350.5,
        "volatility": 6e-05,
        "score": 3,
        "games": 1,
        "wins": 1,
        "draws": 0,
        "losses": 0,
        "last_match_id": "m1",
        "title": "Classic",
    }
    board = {
        "game": "ugolki",
        "season": "",
        "preset_family": None,
        "entries": [entry],
        "game_title": "Ugolki",
        "division": None,
        "divisions": [],
    }
    assert answered(api.Leaderboard, board) == plain(board)


def test_the_replies_agree_with_the_client_librarys_structs() -> None:
    pairs = [(api.MatchCreated, api.MatchCreatedReply), (api.DecisionOut, api.Decision)]
    for model, struct in pairs:
        assert list(model.model_fields) == list(struct.__struct_fields__), model
    assert list(api.ErrorBody.__struct_fields__) == ["code", "detail", "retry_after"]
    for name in ("MatchCreatedReply", "Decision"):
        assert isinstance(getattr(api, name), type(msgspec.Struct))


def test_the_bodies_limits_are_the_edges() -> None:
    assert api.MAX_PLAYER_NAME == edge.MAX_PLAYER_NAME
    assert api.MAX_COMMAND_ID == edge.MAX_COMMAND_ID


def test_the_client_library_exports_every_reply_type_with_its_wire_type() -> None:
    """docs/api.md: replies are ``accepted.v1`` / ``rejected.v1``; the client library names both,
    and each decoded reply says its ``type`` as the wire does."""
    import msgspec

    from contracts.api import CommandReply
    from gamehall import client

    assert {"Accepted", "CommandRejected", "CommandReply", "ApiError"} <= set(client.__all__)
    for wire in ({"type": "accepted.v1", "match_id": "m", "seq": 3, "command_id": "c"},
                 {"type": "rejected.v1", "code": "illegal_move", "detail": "no", "status": 409}):
        reply = msgspec.convert(wire, type=CommandReply)
        assert reply.type == wire["type"] and msgspec.to_builtins(reply)["type"] == wire["type"]
    refused = client.ApiError(409, "illegal_move", "no").rejected
    assert refused.type == "rejected.v1" and (refused.code, refused.status) == ("illegal_move", 409)
