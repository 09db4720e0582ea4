"""King in portable game records (rules/records.md): export a played match, referee it again."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from contracts.envelope import Rejected
from contracts.games.king import Dealt, Play
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.evolve import evolve
from domain.games.king.phases import decide
from domain.games.king.record import RECORD, parse_action
from domain.games.king.rules import PRESETS


def export(preset: str, seed: int) -> tuple[dict[str, Any], Any]:
    """A random match of ``preset`` and its record (deals, actions), with its final state."""
    r = PRESETS[preset]
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, hashlib.sha256(b"%d" % seed).digest())
    rng = random.Random(seed)
    deals: list[dict[str, Any]] = []
    actions: list[list[Any]] = []
    while GAME.outcome(s) is None:
        seat = rng.choice(sorted(GAME.to_move(s)))
        cmd = GAME.bots["heuristic"](s, seat, rng)
        before = s
        events = decide(s, seat, cmd)
        assert not isinstance(events, Rejected)
        for e in events:
            if isinstance(e, Dealt):
                entry = RECORD.deal_entry(e)
                assert entry is not None
                deals.append(entry)
            s = evolve(s, e)
        if before.phase not in ("waiting", "scored"):
            actions.append(RECORD.format_action(before, seat, cmd))
    record = {
        "game": "king",
        "preset": preset,
        "first_dealer": s.first_dealer,
        "deals": deals,
        "actions": actions,
    }
    return record, s


def replay(record: dict[str, Any]) -> Any:
    r = PRESETS[record["preset"]]
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, None)
    deals = list(record["deals"])
    first = True
    for i, action in enumerate(record["actions"]):
        while RECORD.wants_deal(s):
            entry = dict(deals.pop(0))
            if first:
                entry["first_dealer"] = record["first_dealer"]
                first = False
            events = RECORD.deal(s, entry)
            assert not isinstance(events, Rejected), events
            for e in events:
                s = evolve(s, e)
        seat = seats[action[1]]
        cmd = RECORD.parse_action(s, seat, action)
        assert not isinstance(cmd, Rejected), (i, cmd)
        events = decide(s, seat, cmd)
        if isinstance(events, Rejected):
            return (i, events.code)
        for e in events:
            s = evolve(s, e)
    return s


@pytest.mark.parametrize("preset", ["king-4p-classic", "king-4p-trading", "king-atomic", "king-4p-ordered"])
def test_a_record_referees_to_the_recorded_outcome(preset: str) -> None:
    """records.md: the same rules code judges the record; deals in dealing order (§6.3)."""
    record, live = export(preset, seed=3)
    again = replay(record)
    assert again.sheet == live.sheet and again.totals == live.totals and again.ranks == live.ranks
    assert RECORD.scores(again) == tuple(row.totals for row in live.sheet)


def test_an_illegal_action_is_named_by_its_index() -> None:
    """records.md: an illegal action stops the replay with its index and rejection code."""
    record, _ = export("king-4p-short", seed=1)
    k = next(i for i, a in enumerate(record["actions"]) if a[0] == "play")
    bad = dict(record)
    bad["actions"] = [
        *record["actions"][:k],
        ["play", record["actions"][k][1], "ZZ"],
        *record["actions"][k + 1 :],
    ]
    assert replay(bad) == (k, "card_not_in_hand")


def test_a_deal_must_hold_the_deck() -> None:
    """records.md: a deal entry that is not the ruleset's deck, dealt as the rules deal, is refused."""
    s = initial_state(PRESETS["king-4p-classic"], GAME.seat_names(4), None)
    out = RECORD.deal(s, {"hands": [["AS"] * 8] * 4})
    assert isinstance(out, Rejected) and out.code == "bad_action"
    assert isinstance(RECORD.deal(s, {"hands": "no"}), Rejected)


def test_actions_parse_by_their_rules_names() -> None:
    """records.md: King's action names are §12.3's."""
    s = initial_state(PRESETS["king-4p-classic"], GAME.seat_names(4), None)
    assert parse_action(s, "p1", ["play", 0, "QS"]) == Play(card="QS")
    for bad in (["play", 0], ["declare", 0, "NOPE"], ["bid", 0, "3"], ["choose_trump", 0, "X"], ["fly", 0]):
        out = parse_action(s, "p1", bad)
        assert isinstance(out, Rejected) and out.code == "bad_action", bad
