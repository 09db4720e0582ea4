"""Farkle Flip computer players: legal moves only; the heuristic's banking threshold follows the
risk of a Farkle given the cards seen (issue 13)."""

from __future__ import annotations

import random

import msgspec

from contracts.games.farkle_flip import Draw, Lock, Place, Stop
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.bots import farkle_risk, heuristic_bot, search_bot, unseen
from domain.games.farkle_flip.engine import legal_commands
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
