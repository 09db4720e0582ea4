"""Farkle Flip game records (rules/records.md): actions read and written, the set-up dealt from a
record's deck, reshuffles as further deal entries, one score row per turn, and live matches
replayed from their records."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.farkle_flip import Draw, GameDealt, Lock, PileReshuffled, Place, Ready, Stop
from contracts.match import CreateMatch
from domain.core import match as match_layer
from domain.core import rng
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.record import RECORD
from domain.games.farkle_flip.rules import PRESETS, deck
from tests.unit.farkle_flip.helpers import area, table


@pytest.mark.parametrize(
    ("action", "command"),
    [
        (["draw", 0], Draw()),
        (["place", 0, 1], Place(target="p2")),
        (
            ["lock", 1, 0, [0, 2, 3], "three_of_a_kind"],
            Lock(owner="p1", cards=(0, 2, 3), pattern="three_of_a_kind"),
        ),
        (["stop", 1], Stop()),
        (["ready", 0], Ready()),
    ],
)
def test_actions_of_records_md(action: list[Any], command: Any) -> None:
    s = table()
    assert RECORD.parse_action(s, "p1", action) == command
    assert RECORD.format_action(s, s.seats[action[1]], command) == action


@pytest.mark.parametrize(
    "action",
    [
        [],
        ["roll", 0],
        ["place", 0],
        ["place", 0, 7],
        ["lock", 0, 0, "0,1,2", "straight"],
        ["lock", 0, 0, [0], 3],
        ["draw", 0, 1],
    ],
)
def test_unreadable_actions_are_bad_action(action: list[Any]) -> None:
    result = RECORD.parse_action(table(), "p1", action)
    assert isinstance(result, Rejected) and result.code == "bad_action" and result.detail


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ([3], "starts with its name"),
        (["place", 0, "p2"], "target_seat must be a seat index"),
        (["lock", 0, 5, [0], "straight"], "owner_seat must be a seat index"),
        (["lock", 0, 0, [True], "straight"], "list of positions"),
        (["lock", 0, 0, [0], None], "pattern name"),
    ],
)
def test_bad_actions_say_what_is_wrong(action: list[Any], words: str) -> None:
    result = RECORD.parse_action(table(), "p1", action)
    assert isinstance(result, Rejected) and words in result.detail


def test_the_set_up_deals_from_the_records_deck_from_the_first_dealers_left_ff2() -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], GAME.seat_names(3), None)
    assert RECORD.wants_deal(s)
    order = list(deck(s.rules))[::-1]
    events = RECORD.deal(s, {"deck": order, "first_dealer": 1})
    assert isinstance(events, tuple)
    dealt = events[-1]
    assert isinstance(dealt, GameDealt) and dealt.dealer == "p2" and dealt.first_seat == "p3"
    assert dealt.dealt == (order[1], order[2], order[0])  # p3 first, then p1, then p2
    for e in events:
        s = GAME.evolve(s, e)
    assert s.status == "playing" and not RECORD.wants_deal(s)
    bad = RECORD.deal(GAME.initial_state(s.rules, s.seats, None), {"deck": order[:-1]})
    assert isinstance(bad, Rejected) and bad.code == "bad_action"


def test_a_reshuffle_entry_is_used_by_the_next_draw_even_after_a_bank() -> None:
    """records.md: each later deal entry is the scored pile's order when it is next shuffled; a
    bank between the empty draw pile and that draw adds its cards to the pile first."""
    s = table(draw="", areas=(area("3 3 3"),), scored_pile=("2", "5"), draws=1, on_board=(True, False))
    assert RECORD.wants_deal(s)
    live_order = ["3", "2", "3", "5", "3"]  # the pile after p1 banks three 3s
    for e in RECORD.deal(s, {"deck": live_order}):  # type: ignore[union-attr]
        s = GAME.evolve(s, e)
    assert not RECORD.wants_deal(s)
    for cmd in (Lock(owner="p1", cards=(0, 1, 2), pattern="three_of_a_kind"), Stop()):
        for e in GAME.decide(s, "p1", cmd):  # type: ignore[union-attr]
            s = GAME.evolve(s, e)
    events = GAME.decide(s, "p2", Draw())
    assert isinstance(events, tuple) and isinstance(events[0], PileReshuffled)
    assert list(events[0].order) == live_order
    wrong = msgspec.structs.replace(s, given_order=("6", "6", "6", "6", "6"))
    refused = GAME.decide(wrong, "p2", Draw())
    assert isinstance(refused, Rejected) and refused.code == "bad_deal"


def _live_match(preset: str, n: int, seed: bytes, rng_seed: int) -> tuple[list[Any], list[list[Any]], Any]:
    seats = GAME.seat_names(n)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(PRESETS[preset]),
        seats=seats,
        players=seats,
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng.commitment(seed),
    )
    created = match_layer.decide(GAME, None, None, create, seed)
    assert not isinstance(created, Rejected)
    state = match_layer.evolve(GAME, None, created[0], seed)
    r = random.Random(rng_seed)
    deals: list[Any] = []
    actions: list[list[Any]] = []
    while state.outcome is None:
        seat = r.choice(match_layer.to_move(GAME, state))
        cmd = GAME.bots["heuristic" if r.random() < 0.7 else "random"](state.game_state, seat, r)
        if not isinstance(cmd, Ready):
            actions.append(RECORD.format_action(state.game_state, seat, cmd))
        events = match_layer.decide(GAME, state, seat, cmd, seed)
        assert not isinstance(events, Rejected)
        for e in events:
            entry = RECORD.deal_entry(e)
            if entry is not None:
                if not deals:
                    entry["first_dealer"] = seats.index(e.dealer)
                deals.append(entry)
            state = match_layer.evolve(GAME, state, e, seed)
    return deals, actions, state


def _replay(preset: str, n: int, deals: list[Any], actions: list[list[Any]]) -> Any:
    state = GAME.initial_state(PRESETS[preset], GAME.seat_names(n), None)
    pending = list(deals)
    for action in actions:
        if RECORD.wants_deal(state) and pending:
            events = RECORD.deal(state, pending.pop(0))
            assert isinstance(events, tuple), events
            for e in events:
                state = GAME.evolve(state, e)
        seat = GAME.seat_names(n)[action[1]]
        cmd = RECORD.parse_action(state, seat, action)
        assert not isinstance(cmd, Rejected), cmd
        events = GAME.decide(state, seat, cmd)
        assert isinstance(events, tuple), (action, events)
        for e in events:
            state = GAME.evolve(state, e)
    assert not pending
    return state


@pytest.mark.parametrize(
    ("preset", "n", "k"),
    [
        ("farkle-flip-placeholder", 2, 1),
        ("farkle-flip-placeholder", 3, 2),
        ("farkle-flip-placeholder-must-continue", 2, 3),
        ("farkle-flip-placeholder-last-placed", 4, 4),
    ],
)
def test_a_live_match_replays_from_its_record(preset: str, n: int, k: int) -> None:
    """The record of a live match (deck, reshuffles, actions) replays to the same scores and places."""
    deals, actions, live = _live_match(preset, n, hashlib.sha256(f"{preset}{k}".encode()).digest(), k)
    replayed = _replay(preset, n, deals, actions)
    assert replayed.status == "finished"
    assert replayed.banked == live.game_state.banked and replayed.ranks == live.game_state.ranks
    rows = RECORD.scores(replayed)
    assert rows == RECORD.scores(live.game_state) and rows[-1] == replayed.banked
    for before, after in zip(rows, rows[1:], strict=False):
        assert sum(1 for a, b in zip(before, after, strict=True) if a != b) <= 1  # one seat per turn


def test_reshuffles_are_recorded_as_further_deal_entries() -> None:
    """A long match reshuffles: its record holds the start deck and one entry per reshuffle."""
    preset = "farkle-flip-placeholder"
    deals, actions, live = _live_match(preset, 3, hashlib.sha256(f"{preset}2".encode()).digest(), 2)
    assert live.game_state.reshuffles >= 1
    assert len(deals) == 1 + live.game_state.reshuffles
    assert all(len(d["deck"]) < 106 for d in deals[1:])
    assert _replay(preset, 3, deals, actions).reshuffles == live.game_state.reshuffles
