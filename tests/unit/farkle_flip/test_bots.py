"""Farkle Flip computer players: legal moves only; the heuristic's banking threshold follows the
risk of a Farkle given the cards seen (issue 13)."""

from __future__ import annotations

import random

import msgspec

from contracts.games.farkle_flip import Draw, Lock, Place, Stop
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.bots import farkle_risk, heuristic_bot, search_bot, unseen
from domain.games.farkle_flip.phases import legal_commands
from domain.games.farkle_flip.state import Combo
from tests.unit.farkle_flip.helpers import area, rules, table


def centre(value: int) -> tuple[Combo, ...]:
    return (Combo(owner=0, cards=("5", "5", "5"), pattern="three_of_a_kind", value=value),)


def test_the_risk_counts_what_is_unseen() -> None:
    """Unseen = the deck composition minus every face-up, scored, set-aside or held card."""
    r = rules(deck_composition={"4": 6, "F": 4})
    s = table(
        draw="?? ?? ?? ??",
        areas=(area("4 4"), area("4")),
        ruleset=r,
        farkle_held=(1, 0),
        scored_pile=("4",),
        draws=1,
    )
    s = msgspec.structs.replace(s, centre=(Combo(owner=0, cards=("4", "4"), pattern="x", value=0),))
    pool = unseen(s)
    assert pool == {"F": 3}
    assert farkle_risk(s) == 1.0


def test_the_heuristic_banks_sooner_when_the_farkle_risk_is_higher() -> None:
    """The same 600 at stake: banked when most unseen cards are Farkle cards, drawn on when few are."""
    risky = rules(deck_composition={"1": 2, "F": 20})
    safe = rules(deck_composition={"1": 40, "F": 2})
    for ruleset, expected in ((risky, Stop()), (safe, Draw())):
        s = table(draw="?? ??", ruleset=ruleset, draws=1, on_board=(True, False), centre=centre(600))
        assert heuristic_bot(s, "p1", random.Random(1)) == expected


def test_the_heuristic_never_stops_below_the_entry_with_forfeit() -> None:
    """Stopping below the entry forfeits (F5): the heuristic draws on."""
    s = table(draw="?? ??", ruleset=rules(deck_composition={"1": 2, "F": 20}), draws=1, centre=centre(600))
    assert heuristic_bot(s, "p1", random.Random(1)) == Draw()


def test_the_heuristic_locks_the_best_combination_and_places_where_one_forms() -> None:
    s = table(draw="?? ??", areas=(area("2 2 2 6 6 6"),), draws=1)
    cmd = heuristic_bot(s, "p1", random.Random(1))
    assert isinstance(cmd, Lock) and cmd.pattern == "two_triplets"
    s = table(draw="?? ??", areas=((), area("3 3")), pending="3", draws=1)
    assert heuristic_bot(s, "p1", random.Random(1)) == Place(target="p2")


def test_every_bot_plays_only_legal_commands_on_its_information_state() -> None:
    r = random.Random(3)
    for name, bot in GAME.bots.items():
        s = table(draw="4 4 F 4 5", areas=(area("4 4"),), draws=0)
        for _ in range(4):
            if GAME.outcome(s) is not None or s.current != 0:
                break
            cmd = bot(s, "p1", r)
            assert cmd in legal_commands(s, "p1"), (name, cmd)
            for e in GAME.decide(s, "p1", cmd):  # type: ignore[union-attr]
                s = GAME.evolve(s, e)


def test_search_banks_a_big_centre_at_high_risk() -> None:
    s = table(
        draw="?? ?? ??",
        ruleset=rules(deck_composition={"1": 1, "F": 30}),
        draws=1,
        on_board=(True, False),
        centre=centre(2000),
    )
    assert search_bot(s, "p1", random.Random(2)) == Stop()


def test_the_best_combination_an_added_card_makes_in_an_area() -> None:
    """What place_target compares: the most one lock could score in the area with the card added."""
    from domain.games.farkle_flip.bots import _best_in_area

    s = table(n=3, areas=(area("3 3"), area("1 2 3 4 5"), area("2 2 2 2 6")))
    assert _best_in_area(s, 0, "3") == 300
    assert _best_in_area(s, 0, "4") == 0
    assert _best_in_area(s, 1, "6") == 1500  # a straight
    assert _best_in_area(s, 2, "6") == 1500  # four of a kind and a pair
    assert _best_in_area(s, 2, "1") == 1000
    assert _best_in_area(s, 1, "?") == 0


def test_rollouts_sample_the_draw_pile_from_the_unseen_cards() -> None:
    from collections import Counter

    from domain.games.farkle_flip.bots import _ROLLOUT_SEED, _sample_pile

    r = rules(deck_composition={"2": 5, "F": 3})
    s = table(draw="?? ?? ?? ??", areas=(area("2 2 2"),), ruleset=r, farkle_held=(1, 0))
    sim = _sample_pile(s, random.Random(4))
    assert len(sim.draw_pile) == 4 and sim.seed == _ROLLOUT_SEED
    assert Counter(sim.draw_pile) == Counter({"2": 2, "F": 2})
    empty = table(draw="", ruleset=r, scored_pile=("2", "F"))
    again = _sample_pile(empty, random.Random(4))
    assert again.draw_pile == () and again.seed == _ROLLOUT_SEED and again.scored_pile == ("2", "F")
