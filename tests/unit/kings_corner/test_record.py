"""Kings in the Corner game records (rules/records.md): reading and writing actions, dealing from a
record's deck, the running totals, and a live match replayed from its record."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardsDrawn,
    DrawCard,
    EndTurn,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    SeatReady,
)
from contracts.match import CreateMatch, Resign
from domain.core import match as match_layer
from domain.core import rng
from domain.games.kings_corner import GAME
from domain.games.kings_corner.deal import full_deck
from domain.games.kings_corner.record import RECORD
from domain.games.kings_corner.rules import PRESETS

from .conftest import SEED

ADAPTER = RECORD


def _fresh(preset: str = "cardgames-zone", n: int = 2) -> Any:
    return GAME.initial_state(PRESETS[preset], GAME.seat_names(n), None)


@pytest.mark.parametrize(
    ("action", "command"),
    [
        (["play_card", 0, "QS", "N"], PlayCard(card="QS", slot="N")),
        (["play_card", 1, "RJ", "NE", "KH"], PlayCard(card="RJ", slot="NE", as_card="KH")),
        (["play_run", 0, ["9H", "8S"], "E"], PlayRun(cards=("9H", "8S"), slot="E")),
        (["move_pile", 1, "E", "N"], MovePile(from_slot="E", to_slot="N")),
        (["move_king_pile", 0, "W", "SW"], MoveKingPile(from_slot="W", to_slot="SW")),
        (["draw", 0], DrawCard()),
        (["end_turn", 1], EndTurn()),
        (["ready", 1], Ready()),
        (["resign", 0], Resign()),
    ],
)
def test_actions_of_records_md(action: list[Any], command: Any) -> None:
    """records.md "Actions per game", kings-corner; format_action is the inverse."""
    state = _fresh()
    seat = GAME.seat_names(2)[action[1]]
    assert ADAPTER.parse_action(state, seat, action) == command
    assert ADAPTER.format_action(state, seat, command) == action


def test_a_command_of_another_game_cannot_be_written_as_an_action() -> None:
    """format_action names the type it was given: a record never holds a foreign command."""
    from contracts.games.ugolki import MovePiece

    with pytest.raises(TypeError, match="not a Kings in the Corner command: MovePiece"):
        ADAPTER.format_action(_fresh(), "p1", MovePiece(path=("a1", "a2")))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "action",
    [
        [],
        [3, 0],
        ["fly", 0],
        ["play_card", 0, "QS"],
        ["play_card", 0, "QS", "X"],
        ["play_card", 0, 7, "N"],
        ["play_card", 0, "", "N"],
        ["play_card", 0, "RJ", "N", 5],
        ["play_card", 0, "QS", "N", "KH", "x"],
        ["play_run", 0, "9H", "E"],
        ["play_run", 0, ["9H", 8], "E"],
        ["play_run", 0, ["9H"], "Q"],
        ["move_pile", 0, "E"],
        ["move_pile", 0, "E", "Z"],
        ["move_king_pile", 0, "Z", "NE"],
        ["draw", 0, "extra"],
    ],
)
def test_unreadable_actions_are_bad_action(action: list[Any]) -> None:
    result = ADAPTER.parse_action(_fresh(), "p1", action)
    assert isinstance(result, Rejected) and result.code == "bad_action" and result.detail
    assert "bad_action" in GAME.rejection_codes


def test_a_record_deal_is_dealt_like_an_rng_v1_shuffle() -> None:
    """records.md: the referee deals from the recorded deck exactly as from an rng_v1 shuffle."""
    live = GAME.initial_state(PRESETS["cardgames-zone"], ("p1", "p2"), SEED)
    live = GAME.evolve(live, GAME.decide(live, "p1", Ready())[0])  # type: ignore[index]
    events = GAME.decide(live, "p2", Ready())
    assert isinstance(events, tuple)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    entry = ADAPTER.deal_entry(dealt)
    dealer = GAME.seat_names(2).index(dealt.dealer)
    # The first deal names its dealer too: an export moves it to the record's first_dealer.
    assert entry == {"deck": list(dealt.order), "first_dealer": dealer}
    assert ADAPTER.deal_entry(SeatReady(seat="p1")) is None
    state = _fresh()
    assert ADAPTER.wants_deal(state)
    replayed = ADAPTER.deal(state, {**entry, "first_dealer": dealer})  # type: ignore[misc, arg-type]
    assert isinstance(replayed, tuple)
    assert replayed[:2] == (SeatReady(seat="p1"), SeatReady(seat="p2"))
    assert replayed[2:] == events[1:]  # the deal and the first turn's automatic draw
    after = GAME.initial_state(PRESETS["cardgames-zone"], ("p1", "p2"), None)
    for e in replayed:
        after = GAME.evolve(after, e)
    assert not ADAPTER.wants_deal(after) and after.phase == "play"


def test_the_first_dealer_defaults_to_seat_0_and_later_rounds_pass_left() -> None:
    deck = list(full_deck(PRESETS["pagat-classic"]))
    events = ADAPTER.deal(_fresh("pagat-classic", 3), {"deck": deck})
    assert isinstance(events, tuple)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt.dealer == "p1" and dealt.first_seat == "p2" and dealt.hands[1][0] == deck[0]
    events = ADAPTER.deal(_fresh("pagat-classic", 3), {"deck": deck, "first_dealer": 2})
    assert isinstance(events, tuple)
    assert next(e for e in events if isinstance(e, RoundDealt)).dealer == "p3"


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ({}, "deck"),
        ({"deck": "AS 2S"}, "deck"),
        ({"deck": ["AS"] * 52}, "once"),
        ({"deck": list(full_deck(PRESETS["cardgames-zone"]))[:-1]}, "once"),
        ({"deck": [*list(full_deck(PRESETS["cardgames-zone"]))[:-1], "RJ"]}, "once"),
        ({"deck": list(full_deck(PRESETS["cardgames-zone"])), "first_dealer": 2}, "first_dealer"),
        ({"deck": list(full_deck(PRESETS["cardgames-zone"])), "first_dealer": True}, "first_dealer"),
    ],
)
def test_a_deal_entry_that_does_not_fit_is_refused(entry: dict[str, Any], why: str) -> None:
    result = ADAPTER.deal(_fresh(), entry)
    assert isinstance(result, Rejected) and result.code == "bad_action" and why in result.detail


def _live_match(preset: str, n: int, seed: bytes, rng_seed: int) -> tuple[list[Any], list[list[Any]], Any]:
    """A live match by the heuristic bot: its deal entries, its record actions and its final state."""
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
    bot = GAME.bots["heuristic"]
    while state.outcome is None:
        seat = r.choice(match_layer.to_move(GAME, state))
        cmd = bot(state.game_state, seat, r)
        actions.append(ADAPTER.format_action(state.game_state, seat, cmd))
        events = match_layer.decide(GAME, state, seat, cmd, seed)
        assert not isinstance(events, Rejected)
        for e in events:
            entry = ADAPTER.deal_entry(e)
            if entry is not None:
                if not deals:
                    entry["first_dealer"] = seats.index(e.dealer)
                deals.append(entry)
            state = match_layer.evolve(GAME, state, e, seed)
    return deals, actions, state


def _replay(preset: str, n: int, deals: list[Any], actions: list[list[Any]]) -> Any:
    """A replay as records.md describes it, with the adapter's pure functions only."""
    state = GAME.initial_state(PRESETS[preset], GAME.seat_names(n), None)
    pending = list(deals)
    for action in actions:
        if ADAPTER.wants_deal(state) and pending:
            events = ADAPTER.deal(state, pending.pop(0))
            assert isinstance(events, tuple), events
            for e in events:
                state = GAME.evolve(state, e)
        seat = GAME.seat_names(n)[action[1]]
        cmd = ADAPTER.parse_action(state, seat, action)
        assert not isinstance(cmd, Rejected), cmd
        if isinstance(cmd, Ready):
            continue  # records.md: accepted, changes nothing
        events = GAME.decide(state, seat, cmd)
        assert isinstance(events, tuple), (action, events)
        for e in events:
            state = GAME.evolve(state, e)
    assert not pending
    return state


@pytest.mark.parametrize(
    ("preset", "n"), [("cardgames-zone", 3), ("classic-chips", 2), ("freeman-jokers", 3)]
)
def test_a_live_match_replays_from_its_record(preset: str, n: int) -> None:
    """The record of a live match (deal entries + actions) replays to the same totals and places."""
    seed = hashlib.sha256(preset.encode()).digest()
    deals, actions, live = _live_match(preset, n, seed, 3)
    replayed = _replay(preset, n, deals, actions)
    assert replayed.phase == "over"
    assert replayed.totals == live.game_state.totals and replayed.ranks == live.game_state.ranks
    assert ADAPTER.scores(replayed) == ADAPTER.scores(live.game_state)
    rows = ADAPTER.scores(replayed)
    assert len(rows) == len(deals) and rows[-1] == replayed.totals


def test_scores_are_running_totals_per_round() -> None:
    from contracts.games.kings_corner import RoundEnded, SeatResult

    def ended(k: int, totals: dict[str, int]) -> RoundEnded:
        seats = tuple(
            SeatResult(seat=s, hand=(), points=0, balance_change=0, total=t) for s, t in totals.items()
        )
        return RoundEnded(round_no=k, result="blocked", winner=None, seats=seats)

    state = _fresh("cz-elimination-25", 3)
    state = GAME.evolve(state, ended(1, {"p1": 3, "p2": 30, "p3": 1}))
    state = GAME.evolve(state, ended(2, {"p1": 5, "p3": 9}))  # p2 no longer plays
    assert ADAPTER.scores(state) == ((3, 30, 1), (5, 30, 9))
    assert ADAPTER.scores(_fresh()) == ()


def test_a_draw_recorded_live_is_the_top_of_the_stock() -> None:
    deck = list(full_deck(PRESETS["cardgames-zone"]))
    events = ADAPTER.deal(_fresh(), {"deck": deck})
    assert isinstance(events, tuple)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    draw = next(e for e in events if isinstance(e, CardsDrawn))
    assert draw.cards == dealt.stock[:1] and draw.reason == "turn_start"


@pytest.mark.parametrize(
    ("action", "detail"),
    [
        ([], "an action starts with its name"),
        ([3, 0], "an action starts with its name"),
        (["fly", 0], "unknown action 'fly'"),
        (["play_card", 0, "QS"], "play_card takes 2-3 argument(s) after the seat"),
        (["move_pile", 0, "E"], "move_pile takes 2 argument(s) after the seat"),
        (["draw", 0, "extra"], "draw takes 0 argument(s) after the seat"),
        (["play_card", 0, "", "N"], "card must be a card id"),
        (["play_card", 0, "QS", "X"], "slot must be one of N E S W NE SE SW NW"),
        (["play_card", 0, "RJ", "N", 5], "declared card must be a card id"),
        (["play_run", 0, "9H", "E"], "play_run takes a list of card ids"),
        (["play_run", 0, ["9H", "8S"], "Q"], "slot must be one of N E S W NE SE SW NW"),
        (["move_pile", 0, "Z", "N"], "from_slot must be one of N E S W NE SE SW NW"),
        (["move_pile", 0, "E", "Z"], "to_slot must be one of N E S W NE SE SW NW"),
        (["move_king_pile", 0, "W", "X"], "to_slot must be one of N E S W NE SE SW NW"),
    ],
)
def test_an_unreadable_action_is_refused_with_what_was_expected(action: list[Any], detail: str) -> None:
    """records.md: an illegal action answers its code and a detail; for an action that cannot be
    read, the detail names the argument at fault and what it must be."""
    assert ADAPTER.parse_action(_fresh(), "p1", action) == Rejected(code="bad_action", detail=detail)


def test_a_first_dealer_who_left_before_the_first_deal_passes_the_deal_left() -> None:
    """§5.8 E26 and D3: a seat that no longer plays is skipped for dealing duty; the deal passes
    to the next seat on the left that still plays (p2), who is dealt in, and p3 plays first."""
    state = _fresh("pagat-classic", 3)
    resigned = GAME.resign(state, "p1")
    assert isinstance(resigned, tuple)
    for event in resigned:
        state = GAME.evolve(state, event)
    events = ADAPTER.deal(state, {"deck": list(full_deck(PRESETS["pagat-classic"])), "first_dealer": 0})
    assert isinstance(events, tuple)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt.dealer == "p2" and dealt.first_seat == "p3"
    assert dealt.hand_sizes == (0, 7, 7)
