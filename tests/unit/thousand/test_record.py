"""1000 game records (rules/records.md): a live match replays from its record with the same
scores after every dealing, redeals included; bad actions and deals are refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from contracts.envelope import Rejected
from domain.games.thousand import GAME
from domain.games.thousand.record import RECORD
from domain.games.thousand.rules import PRESETS
from tests.unit.thousand.support import act


def live(preset: str, seed: int, limit: int = 4000) -> tuple[Any, list[dict[str, Any]], list[list[Any]]]:
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players())
    state = GAME.initial_state(rules, seats, seed.to_bytes(32, "big"))
    r = random.Random(seed)
    deals: list[dict[str, Any]] = []
    actions: list[list[Any]] = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            break
        seat = sorted(GAME.to_move(state))[0]
        cmd = GAME.bots["heuristic"](state, seat, r)
        events = GAME.decide(state, seat, cmd)
        assert not isinstance(events, Rejected)
        if state.phase not in ("waiting", "next_deal"):
            actions.append(RECORD.format_action(state, seat, cmd))
        for e in events:
            entry = RECORD.deal_entry(e)
            if entry is not None:
                entry.pop("first_dealer")
                deals.append(entry)
            state = GAME.evolve(state, e)
    return state, deals, actions


def replay(preset: str, deals: list[dict[str, Any]], actions: list[list[Any]], first_dealer: int) -> Any:
    rules = PRESETS[preset]
    state = GAME.initial_state(rules, GAME.seat_names(rules.players()), None)
    todo = list(deals)
    todo[0] = {**todo[0], "first_dealer": first_dealer}

    def feed(state: Any) -> Any:
        while RECORD.wants_deal(state) and todo and GAME.outcome(state) is None:
            assert RECORD.deal is not None
            events = RECORD.deal(state, todo.pop(0))
            assert not isinstance(events, Rejected), events
            for e in events:
                state = GAME.evolve(state, e)
        return state

    state = feed(state)
    for i, action in enumerate(actions):
        seat = state.seats[action[1]]
        cmd = RECORD.parse_action(state, seat, action)
        assert not isinstance(cmd, Rejected), (i, cmd)
        state = feed(act(state, seat, cmd))
    return state


def test_gamehall_rules_replay_referees_an_exported_record() -> None:
    """domain.records: the export of a live match (with its first dealer) replays to the same result."""
    import msgspec

    from contracts.match import CreateMatch
    from domain import records
    from domain.core import match as match_layer
    from domain.core import rng

    seed = bytes(range(32))
    rules = PRESETS["classic"]
    seats = GAME.seat_names(3)
    create = CreateMatch(
        preset="classic",
        ruleset=msgspec.to_builtins(rules),
        seats=seats,
        players=seats,
        token_hashes=("0" * 64,) * 3,
        seed_commitment=rng.commitment(seed),
    )
    created = match_layer.decide(GAME, None, None, create, seed)
    assert not isinstance(created, Rejected)
    state = match_layer.evolve(GAME, None, created[0], seed)
    decisions: list[Any] = [(None, create, created)]
    r = random.Random(2)
    while state.outcome is None:
        seat = match_layer.to_move(GAME, state)[0]
        cmd = GAME.bots["heuristic"](state.game_state, seat, r)
        events = match_layer.decide(GAME, state, seat, cmd, seed)
        assert not isinstance(events, Rejected)
        decisions.append((seat, cmd, events))
        for e in events:
            state = match_layer.evolve(GAME, state, e, seed)
    record = msgspec.json.decode(msgspec.json.encode(records.to_record(decisions)))
    first_deal = next(e for _, _, evs in decisions for e in evs if type(e).__name__ == "DealDealt")
    assert record["first_dealer"] == seats.index(first_deal.dealer)
    assert "first_dealer" not in record["deals"][0]
    replayed = records.replay(record)
    assert isinstance(replayed, records.Replayed), replayed
    assert replayed.finished and replayed.ranks == state.outcome.ranks
    assert list(replayed.totals) == list(state.game_state.scores)


@pytest.mark.parametrize("preset", ["classic", "online", "simple", "classic-4p-sitout", "classic-golden-kon"])
def test_a_live_match_replays_from_its_record(preset: str) -> None:
    done, deals, actions = live(preset, 11)
    again = replay(preset, deals, actions, _first_dealer(done))
    assert again.scores == done.scores and again.deal_rows == done.deal_rows
    assert RECORD.scores(again) == done.deal_rows
    # one row per dealing, redeals included (the last deal may still be in play)
    in_play = 0 if GAME.outcome(done) is not None or done.phase == "next_deal" else 1
    assert len(done.deal_rows) == len(deals) - in_play
    assert GAME.outcome(again) == GAME.outcome(done)


def _first_dealer(state: Any) -> int:
    """The dealer rotates once per scored deal from the first dealer."""
    return (state.dealer - len(state.sheet)) % len(state.seats)


def test_claim_redeal_reasons_name_their_window() -> None:
    from tests.unit.thousand.support import CLASSIC, deal

    weak = ("9S 9C 9D JS JC QS JH", "KH QH AH 10H KD QD AD", "9H JD 10D 10S AS KS QC")
    s = deal(CLASSIC, weak)
    cmd = RECORD.parse_action(s, "p1", ["claim_redeal", 0, "weak_before_bid"])
    assert not isinstance(cmd, Rejected) and RECORD.format_action(s, "p1", cmd) == [
        "claim_redeal",
        0,
        "weak_before_bid",
    ]
    wrong = RECORD.parse_action(s, "p1", ["claim_redeal", 0, "weak_after_passing"])
    assert isinstance(wrong, Rejected) and wrong.code == "redeal_not_allowed"
    for bad in (
        ["claim_redeal", 0],
        ["bid", 0, "105"],
        ["give_cards", 0, [[9, "AS"]], False],
        ["fly", 0],
        [],
    ):
        result = RECORD.parse_action(s, "p1", bad)
        assert isinstance(result, Rejected) and result.code == "bad_action", bad


def test_a_deal_entry_must_hold_the_24_cards() -> None:
    rules = PRESETS["classic"]
    state = GAME.initial_state(rules, ("p1", "p2", "p3"), None)
    assert RECORD.deal is not None
    bad = RECORD.deal(state, {"hands": [["AS"] * 7, [], []], "talon": []})
    assert isinstance(bad, Rejected) and bad.code == "bad_action"
    bad = RECORD.deal(state, {"hands": "x"})
    assert isinstance(bad, Rejected)
