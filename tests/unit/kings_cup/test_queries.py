"""Kings Cup table helper (rules/king.md §15.1): what each seat may do in each state, the end and its
outcome, what is hidden, the check of the spread and of each draw, what the table shows (each drawn
card's rule from the active rule set, the standing roles, the cup) and the moves in words."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    CardDrawn,
    CardRule,
    ChooseSeat,
    CupDealt,
    CupEnded,
    DrawCard,
    DrawnCard,
    MakeRule,
    Ready,
    RuleMade,
    StandingRule,
    TurnPassed,
)
from domain.games.kings_cup import GAME
from domain.games.kings_cup.deal import verify_chance
from domain.games.kings_cup.legal import SPOKEN_RULE
from domain.games.kings_cup.rules import NEUTRAL, PRESETS
from domain.games.kings_cup.state import CupState
from domain.games.kings_cup.view import describe, hidden, view
from tests.unit.kings_cup.helpers import SEED, act, started


def four_kings() -> tuple[CupState, list[CupState]]:
    """Three seats draw KH KC KD (each makes a rule), then p1 draws the fourth King, KS."""
    s = started("KH KC KD KS 5C")
    after: list[CupState] = []
    for seat in ("p1", "p2", "p3"):
        s, _ = act(s, seat, DrawCard())
        s, _ = act(s, seat, MakeRule(text=f"rule of {seat}"))
        after.append(s)
    s, _ = act(s, "p1", DrawCard())
    return s, after


# ---------------------------------------------------------------- legal commands per state


def test_legal_commands_while_the_table_waits_for_ready() -> None:
    """§15.1: the cards are spread once every seat is ready; until then each seat says Ready once."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(3), SEED)
    assert [GAME.legal_commands(s, p) for p in ("p1", "p2", "p3")] == [(Ready(),)] * 3
    s, _ = act(s, "p2", Ready())
    assert GAME.legal_commands(s, "p2") == () and GAME.legal_commands(s, "p1") == (Ready(),)
    assert GAME.legal_commands(s, "p9") == ()
    v = view(s, "p1")
    assert v.status == "waiting" and v.current is None
    assert v.ready == ("p2",) and v.to_move == ("p1", "p3")


def test_legal_commands_while_cards_are_drawn() -> None:
    """§15.1: in turn, each player draws a card and does its action (2 'You', 8 'Mate', K a rule)."""
    s = started("2H 8C KD 5S")
    assert GAME.legal_commands(s, "p1") == (DrawCard(),)
    assert GAME.legal_commands(s, "p2") == () and GAME.legal_commands(s, "p9") == ()
    s, _ = act(s, "p1", DrawCard())
    assert GAME.legal_commands(s, "p1") == (ChooseSeat(seat="p2"), ChooseSeat(seat="p3"))
    s, _ = act(s, "p1", ChooseSeat(seat="p3"))
    s, _ = act(s, "p2", DrawCard())
    assert GAME.legal_commands(s, "p2") == (ChooseSeat(seat="p1"), ChooseSeat(seat="p3"))
    s, _ = act(s, "p2", ChooseSeat(seat="p1"))
    s, _ = act(s, "p3", DrawCard())
    assert GAME.legal_commands(s, "p3") == (MakeRule(text=SPOKEN_RULE),)
    assert GAME.legal_commands(s, "p1") == ()


def test_with_rules_that_add_up_a_king_may_also_cancel_each_standing_rule() -> None:
    """§15.1 (H L380): a new rule may cancel an existing one; G and I replace it (nothing to pick)."""
    s = started("KH KC KD 4D", preset="kings-cup-stacking-rules")
    s, _ = act(s, "p1", DrawCard())
    assert GAME.legal_commands(s, "p1") == (MakeRule(text=SPOKEN_RULE),)
    s, _ = act(s, "p1", MakeRule(text="No pointing"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p2", MakeRule(text="Speak in rhymes"))
    s, _ = act(s, "p3", DrawCard())
    legal = GAME.legal_commands(s, "p3")
    assert legal == (MakeRule(text=SPOKEN_RULE), MakeRule(text="", cancel=0), MakeRule(text="", cancel=1))
    for cmd in legal:
        assert not isinstance(GAME.decide(s, "p3", cmd), Rejected), cmd
    _, events = act(s, "p3", legal[2])
    assert events[0].cancelled == "Speak in rhymes"  # type: ignore[attr-defined]

    g = started("KH KC 4D")
    g, _ = act(g, "p1", DrawCard())
    g, _ = act(g, "p1", MakeRule(text="No pointing"))
    g, _ = act(g, "p2", DrawCard())
    assert GAME.legal_commands(g, "p2") == (MakeRule(text=SPOKEN_RULE),)


def test_nobody_may_act_once_the_fourth_king_is_drawn() -> None:
    """§15.1 (G L359): the fourth King ends the game, the drawer's turn included."""
    s, _ = four_kings()
    assert s.status == "finished"
    assert [GAME.legal_commands(s, p) for p in ("p1", "p2", "p3")] == [(), (), ()]
    assert GAME.to_move(s) == frozenset()


# ---------------------------------------------------------------- the end


def test_the_fourth_king_drawn_in_play_ends_the_game_and_its_drawer_takes_the_cup() -> None:
    """§15.1 (G L359): the first three Kings pour into the cup, the fourth King drinks it and ends
    the game; a helper table has no winner (everyone shares the result, a draw)."""
    s, after = four_kings()
    assert [view(a, None).cup for a in after] == [1, 2, 3]
    assert [a.status for a in after] == ["playing"] * 3
    v = view(s, "p2")
    assert (v.kings, v.cup, v.status, v.result, v.current, v.to_move) == (4, 3, "finished", "fourth_king", None, ())
    assert v.last == DrawnCard(seat="p1", card="KS", title=NEUTRAL["K"].title, text=NEUTRAL["K"].text)
    assert v.cards_left == 1
    out = GAME.outcome(s)
    assert out is not None
    assert (out.ranks, out.reason, out.draw) == ((1, 1, 1), "the fourth King, drawn by p1", True)


def test_when_the_deck_runs_out_every_card_is_drawn_and_nobody_wins() -> None:
    """§15.1 (I L401): the game ends when all cards have been drawn (kings-cup-deck-out)."""
    s = started("KH 5C", preset="kings-cup-deck-out", kings=3)
    assert GAME.outcome(s) is None and view(s, None).result is None
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="Whisper"))
    s, events = act(s, "p2", DrawCard())
    assert events[-1] == CupEnded(reason="deck_out", seat="p2")
    out = GAME.outcome(s)
    assert out is not None
    assert (out.ranks, out.reason, out.draw) == ((1, 1, 1), "every card drawn", True)
    assert view(s, None).result == "deck_out" and view(s, None).cup == 3


# ---------------------------------------------------------------- hidden information and chance


def test_the_cards_around_the_cup_are_hidden_from_every_seat() -> None:
    """§15.1: the cards lie face down around the cup; what is hidden is exactly the cards left."""
    s = started("3H 4C 5D")
    assert hidden(s, "p1") == frozenset({"3H", "4C", "5D"}) == hidden(s, "p2")
    s, _ = act(s, "p1", DrawCard())
    assert hidden(s, "p2") == frozenset({"4C", "5D"})
    seen = msgspec.structs.replace(s, cup=("??", "??"))  # a seat's information state
    assert hidden(seen, "p2") == frozenset()


def test_a_spread_that_does_not_follow_from_rng_v1_is_reported() -> None:
    """§15.1 'shuffle the 52 cards and fix the turn order' with rng_v1: a tampered spread or first
    drawer is named; without the server seed the check says so."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], GAME.seat_names(3), SEED)
    for p in ("p1", "p2"):
        s, _ = act(s, p, Ready(client_seed=p))
    ready = GAME.evolve(s, GAME.decide(s, "p3", Ready(client_seed="p3"))[0])  # type: ignore[index]
    dealt = GAME.decide(s, "p3", Ready(client_seed="p3"))[-1]  # type: ignore[index]
    assert isinstance(dealt, CupDealt) and verify_chance(ready, dealt) is None
    wrong = "spread: the order around the cup does not follow from rng_v1"
    swapped = (dealt.order[1], dealt.order[0], *dealt.order[2:])
    assert verify_chance(ready, msgspec.structs.replace(dealt, order=swapped)) == wrong
    other = next(p for p in ("p1", "p2", "p3") if p != dealt.first_seat)
    assert verify_chance(ready, msgspec.structs.replace(dealt, first_seat=other)) == wrong
    unseeded = msgspec.structs.replace(ready, seed=None)
    assert verify_chance(unseeded, dealt) == "spread: the server seed is not available"


def test_a_draw_must_be_the_next_card_around_the_cup() -> None:
    """§15.1: each player draws the next card; a drawn card that is not it is reported."""
    s = started("3H 4C")
    s1, (drawn, passed) = act(s, "p1", DrawCard())
    assert isinstance(drawn, CardDrawn) and verify_chance(s, drawn) is None
    assert verify_chance(s, passed) is None  # type: ignore[arg-type]
    forged = msgspec.structs.replace(drawn, card="4C")
    assert verify_chance(s, forged) == "draw by p1: 4C is not the next card around the cup"
    second = GAME.decide(s1, "p2", DrawCard())
    assert not isinstance(second, Rejected) and verify_chance(s1, second[0]) is None
    empty = msgspec.structs.replace(s1, cup=())
    late = msgspec.structs.replace(drawn, seat="p2", card="5D")
    assert verify_chance(empty, late) == "draw by p2: 5D is not the next card around the cup"


# ---------------------------------------------------------------- what the table shows


def test_each_drawn_card_shows_the_text_of_the_active_rule_set() -> None:
    """§15.1: reveal each drawn card and show the active preset's rule text for it (a rule set of
    the operator's own wording is shown as it is)."""
    base = PRESETS["kings-cup-neutral"]
    own = dict(base.card_rules)
    own["3"] = CardRule(title="Song", text="Sing a line of a song.")
    own["4"] = CardRule(title="Sky", text="Look up.")
    rules = msgspec.structs.replace(base, card_rules=own, rule_set="house")
    s = started("3H 4C 5D", rules=rules)
    v = view(s, "p1")
    assert (v.status, v.current, v.to_move, v.last, v.drawn, v.awaiting) == ("playing", "p1", ("p1",), None, (), None)
    assert v.card_rules == own and v.rule_set == "house" and v.cards_left == 3
    s, events = act(s, "p1", DrawCard())
    assert events[0] == CardDrawn(
        seat="p1", card="3H", rank="3", title="Song", text="Sing a line of a song.", effect="none", kings=0
    )
    s, _ = act(s, "p2", DrawCard())
    v = view(s, "p3")
    song = DrawnCard(seat="p1", card="3H", title="Song", text="Sing a line of a song.")
    sky = DrawnCard(seat="p2", card="4C", title="Sky", text="Look up.")
    assert v.drawn == (song, sky) and v.last == sky and v.current == "p3" and v.to_move == ("p3",)


def test_the_view_shows_what_the_drawer_still_answers() -> None:
    """§15.1 cards 2 and 8: the drawer picks a seat; the table shows the pending choice."""
    s = started("8H 5C 5D")
    s, _ = act(s, "p1", DrawCard())
    v = view(s, "p2")
    assert (v.awaiting, v.current, v.to_move) == ("mate", "p1", ("p1",))
    assert v.last == DrawnCard(seat="p1", card="8H", title=NEUTRAL["8"].title, text=NEUTRAL["8"].text)
    s, _ = act(s, "p1", ChooseSeat(seat="p3"))
    assert view(s, "p2").awaiting is None


def test_a_seat_may_have_several_mates_and_the_view_lists_each() -> None:
    """§15.1 'mate' links as a directed graph with chaining (H, L368): p1 picks p2, later p3."""
    s = started("8H 5C 5D 8C 4D")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", ChooseSeat(seat="p2"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p3", DrawCard())
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", ChooseSeat(seat="p3"))
    v = view(s, None)
    assert v.mates == {"p1": ("p2", "p3")} and v.drinks_with == {"p1": ("p2", "p3")}


def test_the_view_names_who_holds_each_standing_rule() -> None:
    """§15.1: track the current rule, or the list of rules (H), each with the seat that made it."""
    s = started("KH KC 4D", preset="kings-cup-stacking-rules")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="No pointing"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p2", MakeRule(text="Speak in rhymes"))
    assert view(s, None).rules == (
        StandingRule(seat="p1", text="No pointing"),
        StandingRule(seat="p2", text="Speak in rhymes"),
    )


def test_the_question_master_is_the_last_seat_to_draw_a_queen() -> None:
    """§15.1 card Q: the drawer becomes question master until the next Queen."""
    s = started("5H QC 5D")
    assert view(s, None).question_master is None
    s, _ = act(s, "p1", DrawCard())
    assert view(s, None).question_master is None
    s, _ = act(s, "p2", DrawCard())
    assert view(s, None).question_master == "p2"


# ---------------------------------------------------------------- moves in words


def test_moves_in_words() -> None:
    """The moves as the table's log shows them."""
    assert describe(Ready(client_seed="abc")) == "ready"
    assert describe(DrawCard()) == "draw"
    assert describe(ChooseSeat(seat="p2")) == "choose p2"
    assert describe(MakeRule(text="No pointing")) == "rule: No pointing"
    assert describe(MakeRule(text="", cancel=1)) == "cancel rule 1"
    assert describe(MakeRule(text="Whisper", cancel=0)) == "rule: Whisper"


def test_a_passed_turn_goes_to_the_left() -> None:
    """§15.1: in turn, each player draws (the seat after the last one is the first again)."""
    s = started("3H 4C 5D 6S")
    for seat, nxt in (("p1", "p2"), ("p2", "p3"), ("p3", "p1")):
        s, events = act(s, seat, DrawCard())
        assert events[-1] == TurnPassed(seat=seat, next_seat=nxt)


def test_a_king_cancels_one_rule_even_when_another_has_the_same_text() -> None:
    """§15.1 (H L380): a new rule may cancel *an* existing one: of two standing rules with the same
    text, only the one picked lapses, and the view still names the seat holding the other."""
    s = started("KH KC KD 4D", preset="kings-cup-stacking-rules")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="No pointing"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p2", MakeRule(text="No pointing"))
    s, events = act(s, "p3", DrawCard())
    before = s
    s, events = act(s, "p3", MakeRule(text="", cancel=0))
    assert events[0] == RuleMade(seat="p3", text="", cancelled="No pointing", cancelled_index=0)
    assert view(s, None).rules == (StandingRule(seat="p2", text="No pointing"),)
    # an event recorded before the index was kept cancels by text, as it did then
    old = GAME.evolve(before, RuleMade(seat="p3", text="", cancelled="No pointing"))
    assert view(old, None).rules == ()
