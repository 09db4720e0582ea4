"""What every seat sees of Farkle Flip (§3.9 Visibility), the notation of moves, the set-up
commands, and the record adapter's checks of a deal entry."""

from __future__ import annotations

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    AreaCard,
    CentreCombination,
    Draw,
    Lock,
    PileOrderGiven,
    Place,
    Ready,
    Stop,
)
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.legal import canonical
from domain.games.farkle_flip.record import RECORD
from domain.games.farkle_flip.rules import PLACEHOLDER_NOTE, PRESETS, deck
from domain.games.farkle_flip.state import Combo
from domain.games.farkle_flip.view import describe, redact, view
from tests.unit.farkle_flip.helpers import SEED, area, rules, table


def test_the_view_shows_every_area_lost_groups_the_centre_and_the_pending_card() -> None:
    s = table(
        n=3,
        draw="4 5 6",
        areas=(area("2 2") + area("4 4 4", 3), area("6"), ()),
        banked=(1200, 0, 300),
        on_board=(True, False, True),
        farkle_held=(0, 2, 0),
        centre=(Combo(owner=1, cards=("5", "5", "5"), pattern="three_of_a_kind", value=500),),
        pending="3",
        draws=2,
        scored_pile=("1", "1"),
        set_aside=("F",),
        trigger=0,
        remaining=(1, 2),
        dry_turns=1,
    )
    v = view(s, "p2")
    assert [p.seat for p in v.players] == ["p1", "p2", "p3"]
    assert v.players[0].area == (
        AreaCard(value="2"),
        AreaCard(value="2"),
        AreaCard(value="4", lost_group=3),
        AreaCard(value="4", lost_group=3),
        AreaCard(value="4", lost_group=3),
    )
    assert [(p.banked, p.on_board, p.farkle_held) for p in v.players] == [
        (1200, True, 0),
        (0, False, 2),
        (300, True, 0),
    ]
    assert v.centre == (
        CentreCombination(owner="p2", cards=("5", "5", "5"), pattern="three_of_a_kind", value=500),
    )
    assert v.turn_total == 500 and v.pending == "3" and v.pending_targets == ("p1", "p2", "p3")
    assert (v.draws, v.draw_pile, v.scored_pile, v.set_aside) == (2, 3, 2, ("F",))
    assert (v.final_trigger, v.final_round, v.dry_turns) == ("p1", ("p2", "p3"), 1)
    assert (v.current, v.to_move, v.dealer, v.status) == ("p1", ("p1",), "p3", "playing")
    assert (v.target, v.entry, v.farkle_value) == (10000, 1000, 100)
    assert v.scoring_note == PLACEHOLDER_NOTE and v.scoring_table == "placeholder" and not v.scoring_official
    assert v.patterns == PRESETS["farkle-flip-placeholder"].patterns
    assert view(s, None) == v  # nothing differs by viewer: the only secret is the pile order
    assert view(msgspec.structs.replace(s, pending=None), "p1").pending_targets == ()


def test_a_waiting_table_shows_who_is_ready() -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], ("p1", "p2"), SEED)
    s = GAME.evolve(s, GAME.decide(s, "p2", Ready())[0])  # type: ignore[index]
    v = view(s, "p1")
    assert (v.status, v.ready, v.to_move, v.current, v.dealer) == ("waiting", ("p2",), ("p1",), None, None)
    assert all(p.area == () and p.banked == 0 for p in v.players)


def test_a_custom_table_not_marked_official_is_still_labelled_placeholder() -> None:
    v = view(table(ruleset=rules(scoring_table="club-draft")), "p1")
    assert "PLACEHOLDER" in v.scoring_note and "club-draft" in v.scoring_note


def test_notation_of_moves() -> None:
    assert describe(Draw()) == "draw"
    assert describe(Place(target="p2")) == "place p2"
    assert describe(Lock(owner="p1", cards=(0, 2, 3), pattern="straight")) == "lock p1 0,2,3 straight"
    assert describe(Stop()) == "stop"
    assert describe(Ready()) == "ready"


def test_a_records_reshuffle_order_is_hidden_like_the_deck() -> None:
    shown = redact(PileOrderGiven(order=("2", "F")), "p1")
    assert shown == PileOrderGiven(order=("??", "??"))


def test_set_up_commands_ff2() -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], ("p1", "p2"), SEED)
    too_long = GAME.decide(s, "p1", Ready(client_seed="x" * 257))
    assert isinstance(too_long, Rejected) and too_long.code == "client_seed_too_long"
    events = GAME.decide(s, "p1", Ready(client_seed="x" * 256))
    assert isinstance(events, tuple) and len(events) == 1  # p2 is not ready: no deal yet
    s = GAME.evolve(s, events[0])
    again = GAME.decide(s, "p1", Ready())
    assert isinstance(again, Rejected) and again.code == "already_ready"
    early = GAME.decide(s, "p1", Draw())
    assert isinstance(early, Rejected) and early.code == "game_not_active"
    no_seed = msgspec.structs.replace(s, seed=None)
    missing = GAME.decide(no_seed, "p2", Ready())
    assert isinstance(missing, Rejected) and missing.code == "seed_unavailable"
    events = GAME.decide(s, "p2", Ready(client_seed="y"))
    assert isinstance(events, tuple) and len(events) == 2
    for e in events:
        s = GAME.evolve(s, e)
    assert s.client_seeds == ("x" * 256, "y") and s.status == "playing"
    late = GAME.decide(s, "p1", Ready())
    assert isinstance(late, Rejected) and late.code == "not_dealing"
    nobody = GAME.decide(s, "p9", Draw())
    assert isinstance(nobody, Rejected) and nobody.code == "not_your_turn"
    garbage = GAME.decide(s, "p1", "draw")  # type: ignore[arg-type]
    assert isinstance(garbage, Rejected) and garbage.code == "malformed"


def test_a_ruleset_that_cannot_seat_the_table_refuses_every_command() -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder-party-5000"], ("p1", "p2"), SEED)
    assert (
        s.seat_problem is not None and GAME.to_move(s) == frozenset() and GAME.legal_commands(s, "p1") == ()
    )
    refused = GAME.decide(s, "p1", Ready())
    assert isinstance(refused, Rejected) and refused.code == "invalid_seats"


def test_canonical_keeps_the_last_placed_card_and_lost_tags_apart() -> None:
    s = table(areas=(area("4 4") + area("4 4", 1) + area("4"),), draws=1, last_placed=(0, 4))
    lock = Lock(owner="p1", cards=(1, 3, 4), pattern="three_of_a_kind")
    assert canonical(s, lock) == Lock(owner="p1", cards=(0, 2, 4), pattern="three_of_a_kind")
    assert canonical(s, Lock(owner="p9", cards=(0,), pattern="x")) == Lock(
        owner="p9", cards=(0,), pattern="x"
    )
    assert canonical(s, Lock(owner="p1", cards=(0, 9), pattern="x")) == Lock(
        owner="p1", cards=(0, 9), pattern="x"
    )
    assert canonical(s, Draw()) == Draw()


@pytest.mark.parametrize("first", [-1, 3, "1", True, 1.0])
def test_a_records_first_dealer_must_be_a_seat_index(first: object) -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], ("p1", "p2", "p3"), None)
    bad = RECORD.deal(s, {"deck": list(deck(s.rules)), "first_dealer": first})
    assert isinstance(bad, Rejected) and bad.code == "bad_action" and "first_dealer" in bad.detail


def test_a_records_first_dealer_defaults_to_seat_0() -> None:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], ("p1", "p2", "p3"), None)
    events = RECORD.deal(s, {"deck": list(deck(s.rules))})
    assert isinstance(events, tuple) and events[-1].dealer == "p1"  # type: ignore[attr-defined]
    for bad in ({"deck": "1 2 3"}, {"deck": [1, 2]}, {}):
        refused = RECORD.deal(s, bad)
        assert isinstance(refused, Rejected) and "deck" in refused.detail
    wrong = RECORD.deal(s, {"deck": ["1"] * 106})
    assert isinstance(wrong, Rejected) and "106" in wrong.detail
