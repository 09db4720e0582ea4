"""Farkle Flip chance is rng_v1 with documented labels (ARCHITECTURE §4): anyone can re-derive the
set-up (labels ``dealer`` and ``deck``) and each reshuffle (label ``reshuffle:<n>`` over the scored
pile sorted) from the revealed seed and the client seeds; the audit names a wrong card."""

from __future__ import annotations

import msgspec

from contracts.games.farkle_flip import CardDrawn, GameDealt, PileReshuffled
from domain.core import rng
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.deal import deal, reshuffle, verify_chance
from domain.games.farkle_flip.rules import PRESETS, deck
from tests.unit.farkle_flip.helpers import SEED, table


def _ready(seeds: tuple[str, ...]) -> object:
    s = GAME.initial_state(PRESETS["farkle-flip-placeholder"], GAME.seat_names(len(seeds)), SEED)
    return msgspec.structs.replace(s, client_seeds=seeds, ready=(True,) * len(seeds))


def test_the_set_up_follows_the_documented_labels() -> None:
    s = _ready(("a", "b", "c"))
    d = deal(s)  # type: ignore[arg-type]
    assert isinstance(d, GameDealt)
    key = rng.derive_key(SEED, ("a", "b", "c"))
    dealer = rng.Stream(key, b"dealer").randbelow(3)
    order = rng.shuffle(key, b"deck", deck(PRESETS["farkle-flip-placeholder"]))
    assert d.dealer == ("p1", "p2", "p3")[dealer] and d.deck == order
    assert d.draw_size == 106 - 3 and "" not in d.dealt
    assert d.first_seat == ("p1", "p2", "p3")[(dealer + 1) % 3]


def test_a_reshuffle_follows_its_label_over_the_sorted_pile() -> None:
    s = table(draw="", scored_pile=("5", "F", "2", "2"), reshuffles=2)
    s = msgspec.structs.replace(s, client_seeds=("x", "y"))
    got = reshuffle(s, "p1")
    assert isinstance(got, PileReshuffled)
    key = rng.derive_key(SEED, ("x", "y"))
    assert got.order == rng.shuffle(key, b"reshuffle:3", ["2", "2", "5", "F"])
    assert (got.seat, got.reshuffle_no, got.size) == ("p1", 3, 4)
    assert reshuffle(msgspec.structs.replace(s, seed=None), "p1") == "the server seed is not available"
    assert deal(msgspec.structs.replace(s, seed=None)) == "the server seed is not available"


def test_the_audit_names_what_does_not_follow_from_the_seed() -> None:
    s = _ready(("a", "b"))
    d = deal(s)  # type: ignore[arg-type]
    assert isinstance(d, GameDealt)
    assert verify_chance(s, d) is None  # type: ignore[arg-type]
    swapped = msgspec.structs.replace(d, deck=(d.deck[1], d.deck[0], *d.deck[2:]))
    problem = verify_chance(s, swapped)  # type: ignore[arg-type]
    assert problem is not None and "card 1" in problem
    other_dealer = msgspec.structs.replace(d, dealer="p2" if d.dealer == "p1" else "p1")
    assert "dealer" in (verify_chance(s, other_dealer) or "")  # type: ignore[arg-type]
    played = table(draw="4 5")
    assert verify_chance(played, CardDrawn(seat="p1", card="4")) is None
    wrong = verify_chance(played, CardDrawn(seat="p1", card="5"))
    assert wrong is not None and "draw pile gives 4" in wrong
    assert "empty" in (verify_chance(table(draw=""), CardDrawn(seat="p1", card="4")) or "")


def test_outcomes_name_how_the_game_ended_and_ties_are_no_draw_unless_all_share() -> None:
    s = msgspec.structs.replace(
        table(), status="finished", ranks=(1, 2), end_reason="final_round", banked=(10200, 9000)
    )
    out = GAME.outcome(s)
    assert (
        out is not None
        and out.reason == "final round played"
        and not out.draw
        and out.scores == (10200.0, 9000.0)
    )
    tied = msgspec.structs.replace(s, ranks=(1, 1), end_reason="piles_empty")
    out = GAME.outcome(tied)
    assert out is not None and out.draw and out.reason == "both piles empty for a full cycle of turns (FF3)"
    assert GAME.outcome(table()) is None
