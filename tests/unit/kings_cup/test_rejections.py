"""Kings Cup table helper (rules/king.md §15.1): every refusal of decide, with the condition that
causes it and the detail the seat is shown, and the set-up before the cards are spread around the
cup (every seat ready, its client seed folded into rng_v1)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    ChooseSeat,
    CupDealt,
    CupEnded,
    DrawCard,
    MakeRule,
    Ready,
    RuleMade,
    SeatReady,
)
from domain.games.kings_cup import GAME
from domain.games.kings_cup.rules import PRESETS
from domain.games.kings_cup.state import CupState
from tests.unit.kings_cup.helpers import SEED, act, started


def refused(s: CupState, seat: str, cmd: object) -> tuple[str, str]:
    r = GAME.decide(s, seat, cmd)  # type: ignore[arg-type]
    assert isinstance(r, Rejected), r
    assert r.code in GAME.rejection_codes, r.code
    return r.code, r.detail


# ---------------------------------------------------------------- who may act at all


def test_something_that_is_not_a_kings_cup_command_is_malformed() -> None:
    """A typed error for bad input: an event sent as a command is not a command of the table."""
    s = started("3H 4C")
    assert refused(s, "p1", SeatReady(seat="p1")) == ("malformed", "not a Kings Cup command: SeatReady")


def test_a_seat_the_table_does_not_have_is_refused() -> None:
    """§15.1 'fix the turn order': only the table's own seats take part."""
    s = started("3H 4C")
    assert refused(s, "p9", DrawCard()) == ("not_your_turn", "'p9' is not a seat of this table")
    assert refused(s, "p9", Ready()) == ("not_your_turn", "'p9' is not a seat of this table")


def test_a_table_with_too_few_or_too_many_seats_refuses_everything() -> None:
    """The ruleset's players range (2-12 by default): a table outside it never starts."""
    for n, got in ((1, 1), (13, 13)):
        s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(n), SEED)
        problem = f"this ruleset takes 2-12 players, got {got}"
        assert refused(s, "p1", Ready(client_seed="a")) == ("invalid_seats", problem)
        assert refused(s, "p1", DrawCard()) == ("invalid_seats", problem)
        assert GAME.legal_commands(s, "p1") == ()
        assert GAME.to_move(s) == frozenset()


def test_only_the_drawer_acts_and_the_refusal_names_whose_turn_it_is() -> None:
    """§15.1: in turn, each player draws a card."""
    s = started("3H 4C 5D")
    assert refused(s, "p2", DrawCard()) == ("not_your_turn", "it is p1's turn")
    s, _ = act(s, "p1", DrawCard())
    assert refused(s, "p1", DrawCard()) == ("not_your_turn", "it is p2's turn")


# ---------------------------------------------------------------- the set-up


def test_the_cards_are_spread_once_every_seat_is_ready() -> None:
    """§15.1 'shuffle the 52 cards and fix the turn order': the spread follows the last Ready."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(3), SEED)
    assert refused(s, "p1", DrawCard()) == ("game_not_active", "the table is waiting")
    s, events = act(s, "p1", Ready(client_seed="a"))
    assert events == (SeatReady(seat="p1", client_seed="a"),) and s.status == "waiting"
    assert refused(s, "p1", Ready(client_seed="a")) == ("already_ready", "this seat is ready already")
    s, events = act(s, "p2", Ready(client_seed="b"))
    assert len(events) == 1 and s.status == "waiting"
    s, events = act(s, "p3", Ready())
    assert isinstance(events[-1], CupDealt) and s.status == "playing" and len(s.cup) == 52
    assert refused(s, "p1", Ready()) == ("not_dealing", "the cards are out already")


def test_a_client_seed_may_have_256_characters_and_no_more() -> None:
    """rng_v1: each seat's client seed is folded into the spread, at most 256 characters."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(2), SEED)
    assert refused(s, "p1", Ready(client_seed="x" * 257)) == (
        "client_seed_too_long",
        "client_seed is longer than 256 characters",
    )
    s, events = act(s, "p1", Ready(client_seed="x" * 256))
    assert events == (SeatReady(seat="p1", client_seed="x" * 256),)


def test_without_the_server_seed_the_cards_cannot_be_spread() -> None:
    """rng_v1: the spread needs the server's seed; without it the last Ready is refused, typed."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(2), None)
    s, _ = act(s, "p1", Ready())
    assert refused(s, "p2", Ready()) == ("seed_unavailable", "the server seed is not available")
    assert s.status == "waiting"


# ---------------------------------------------------------------- drawing and answering a card


def test_a_finished_table_refuses_every_move() -> None:
    """§15.1 (G L359): the fourth King ends the game."""
    s = started("KH 5C 4D", kings=3)
    s, events = act(s, "p1", DrawCard())
    assert events[-1] == CupEnded(reason="fourth_king", seat="p1")
    for seat in ("p1", "p2"):
        assert refused(s, seat, DrawCard()) == ("game_not_active", "the table is finished")
    assert refused(s, "p1", MakeRule(text="late")) == ("game_not_active", "the table is finished")


def test_a_card_that_picks_a_seat_is_answered_before_the_next_draw() -> None:
    """§15.1 card 2 'You' (the drawer picks who drinks) and 8 'Mate' (the drawer picks a mate)."""
    for cup, effect in (("2H 4C 5D", "choose_seat"), ("8H 4C 5D", "mate")):
        s = started(cup)
        s, _ = act(s, "p1", DrawCard())
        assert s.awaiting == effect
        assert refused(s, "p1", DrawCard()) == ("answer_first", f"answer the card first ({effect})")
        assert refused(s, "p1", MakeRule(text="No pointing")) == ("answer_first", f"this card needs {effect}")
        assert refused(s, "p2", ChooseSeat(seat="p3")) == ("not_your_turn", "it is p1's turn")
        seats = "['p1', 'p2', 'p3']"
        assert refused(s, "p1", ChooseSeat(seat="p1")) == ("no_such_seat", f"choose another seat of {seats}")
        assert refused(s, "p1", ChooseSeat(seat="p9")) == ("no_such_seat", f"choose another seat of {seats}")
        s, _ = act(s, "p1", ChooseSeat(seat="p2"))
        assert s.awaiting is None and s.current == 1


def test_a_king_is_answered_with_a_rule_not_with_a_seat() -> None:
    """§15.1 card K: make a rule."""
    s = started("KH 4C 5D")
    s, _ = act(s, "p1", DrawCard())
    assert s.awaiting == "new_rule"
    assert refused(s, "p1", DrawCard()) == ("answer_first", "answer the card first (new_rule)")
    assert refused(s, "p1", ChooseSeat(seat="p2")) == ("answer_first", "this card needs new_rule")


def test_there_is_nothing_to_answer_before_a_card_is_drawn() -> None:
    """§15.1: a card's action follows its draw; a card without a choice needs no answer."""
    s = started("3H 4C 5D")
    assert refused(s, "p1", ChooseSeat(seat="p2")) == ("nothing_to_answer", "draw a card")
    assert refused(s, "p1", MakeRule(text="No pointing")) == ("nothing_to_answer", "draw a card")
    s, _ = act(s, "p1", DrawCard())  # "Me": nothing to answer, the turn passes
    assert refused(s, "p2", ChooseSeat(seat="p1")) == ("nothing_to_answer", "draw a card")


def test_a_rule_is_said_and_has_at_most_max_rule_length_characters() -> None:
    """§15.1 card K (G L358): make a rule; the ruleset bounds its length (200 by default)."""
    s = started("KH 4C 5D")
    s, _ = act(s, "p1", DrawCard())
    assert refused(s, "p1", MakeRule(text="")) == ("empty_rule", "say the rule")
    assert refused(s, "p1", MakeRule(text=" \t ")) == ("empty_rule", "say the rule")
    assert refused(s, "p1", MakeRule(text="x" * 201)) == ("rule_too_long", "a rule has at most 200 characters")
    _, events = act(s, "p1", MakeRule(text="  " + "x" * 200 + "  "))
    assert events[0] == RuleMade(seat="p1", text="x" * 200)
    short = started("KH 4C 5D", rules=msgspec.structs.replace(PRESETS["kings-cup-neutral"], max_rule_length=5))
    short, _ = act(short, "p1", DrawCard())
    assert refused(short, "p1", MakeRule(text="Hop on")) == ("rule_too_long", "a rule has at most 5 characters")
    _, events = act(short, "p1", MakeRule(text="Hop!"))
    assert events[0] == RuleMade(seat="p1", text="Hop!")


def test_a_king_may_cancel_only_a_standing_rule_and_only_when_rules_add_up() -> None:
    """§15.1 (H L380): a new rule may cancel an existing one; with G and I (replace) the next King's
    rule replaces the old one, and there is nothing to pick."""
    s = started("KH KC KD 4D", preset="kings-cup-stacking-rules")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="No pointing"))
    s, _ = act(s, "p2", DrawCard())
    none = ("no_such_rule", "there is no such rule to cancel")
    assert refused(s, "p2", MakeRule(text="", cancel=1)) == none  # one rule stands: index 0 only
    assert refused(s, "p2", MakeRule(text="", cancel=-1)) == none
    s, events = act(s, "p2", MakeRule(text="Speak in rhymes", cancel=0))
    assert events[0] == RuleMade(seat="p2", text="Speak in rhymes", cancelled="No pointing", cancelled_index=0)
    assert s.made == ((1, "Speak in rhymes"),)

    g = started("KH KC 4D")
    g, _ = act(g, "p1", DrawCard())
    g, _ = act(g, "p1", MakeRule(text="No pointing"))
    g, _ = act(g, "p2", DrawCard())
    assert refused(g, "p2", MakeRule(text="", cancel=0)) == none
    assert refused(g, "p2", MakeRule(text="Whisper", cancel=0)) == none
