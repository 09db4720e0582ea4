"""Kings Cup table helper (rules/king.md §15.1): the spread around the cup, each card's rule,
standing roles (question master, mates, Kings' rules), the end on the fourth King or deck out."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    CardDrawn,
    ChooseSeat,
    CupDealt,
    CupEnded,
    DrawCard,
    MakeRule,
    Ready,
    RuleMade,
    TurnPassed,
)
from contracts.match import CreateMatch
from domain.core import match
from domain.core import rng as rng_v1
from domain.games.kings_cup import GAME
from domain.games.kings_cup.deal import verify_chance
from domain.games.kings_cup.rules import NEUTRAL, PRESETS
from domain.games.kings_cup.view import redact, view
from tests.unit.kings_cup.helpers import SEED, act, code, started


def test_the_cards_are_spread_from_rng_v1_and_their_order_is_hidden_s15_1() -> None:
    """§15.1 'what the server can do': shuffle the 52 cards and fix the turn order."""
    s = GAME.initial_state(PRESETS["kings-cup-neutral"], ("p1", "p2"), SEED)
    s, _ = act(s, "p1", Ready(client_seed="a"))
    before = s
    s, events = act(s, "p2", Ready(client_seed="b"))
    dealt = events[-1]
    assert isinstance(dealt, CupDealt) and sorted(dealt.order) == sorted(set(dealt.order)) and dealt.size == 52
    folded = msgspec.structs.replace(before, client_seeds=("a", "b"))
    assert verify_chance(folded, dealt) is None
    assert verify_chance(folded, msgspec.structs.replace(dealt, order=dealt.order[::-1])) is not None
    for viewer in ("p1", "p2", None):
        shown = redact(dealt, viewer)
        assert isinstance(shown, CupDealt) and set(shown.order) == {"??"}
    assert view(s, "p1").cards_left == 52


def test_each_drawn_card_shows_the_rule_sets_text_and_play_passes_left() -> None:
    """§15.1: reveal each drawn card and show the active preset's rule text for it."""
    s = started("3H 4C 5D")
    s, events = act(s, "p1", DrawCard())
    drawn = events[0]
    assert isinstance(drawn, CardDrawn) and (drawn.title, drawn.text) == (NEUTRAL["3"].title, NEUTRAL["3"].text)
    assert events[1] == TurnPassed(seat="p1", next_seat="p2")
    assert code(s, "p1", DrawCard()) == "not_your_turn"
    v = view(s, "p2")
    assert v.last is not None and v.last.card == "3H" and v.helper and v.notice


def test_neutral_wording_replaces_the_crude_labels_rec() -> None:
    """§15.1 [rec]: G's offensive 4 and 6 labels are replaced with neutral ones."""
    assert NEUTRAL["4"].title == "Floor" and NEUTRAL["6"].title == "Neighbours"
    assert all("women" not in r.text.lower() and "men " not in r.text.lower() for r in NEUTRAL.values())


def test_a_two_makes_the_drawer_choose_who_drinks() -> None:
    s = started("2H 4C 5D")
    s, _ = act(s, "p1", DrawCard())
    assert s.awaiting == "choose_seat"
    assert code(s, "p1", DrawCard()) == "answer_first"
    assert code(s, "p1", ChooseSeat(seat="p1")) == "no_such_seat"
    s, events = act(s, "p1", ChooseSeat(seat="p3"))
    assert isinstance(events[-1], TurnPassed) and s.current == 1


def test_mates_are_one_directional_and_chain_source_h() -> None:
    """§15.1 'mate' links, as a directed graph with chaining (H, L368)."""
    s = started("8H 8C 5D 6D")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", ChooseSeat(seat="p2"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p2", ChooseSeat(seat="p3"))
    v = view(s, None)
    assert v.mates == {"p1": ("p2",), "p2": ("p3",)}
    assert v.drinks_with == {"p1": ("p2", "p3"), "p2": ("p3",)}


def test_a_queen_makes_the_question_master_until_the_next_queen() -> None:
    s = started("QH 5C QD 4D")
    s, _ = act(s, "p1", DrawCard())
    assert view(s, None).question_master == "p1"
    s, _ = act(s, "p2", DrawCard())
    assert view(s, None).question_master == "p1"
    s, _ = act(s, "p3", DrawCard())
    assert view(s, None).question_master == "p3"


def test_a_kings_rule_lasts_until_the_next_king_sources_g_i() -> None:
    """§15.1 (G L358, I L415): the rule is replaced by the next King."""
    s = started("KH 5C KD 4D")
    s, _ = act(s, "p1", DrawCard())
    assert code(s, "p1", MakeRule(text="  ")) == "empty_rule"
    assert code(s, "p1", MakeRule(text="x" * 201)) == "rule_too_long"
    s, _ = act(s, "p1", MakeRule(text="No first names"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p3", DrawCard())
    s, events = act(s, "p3", MakeRule(text="Left hand only"))
    assert isinstance(events[0], RuleMade) and events[0].cancelled == "No first names"
    assert [r.text for r in view(s, None).rules] == ["Left hand only"]
    assert view(s, None).cup == 2


def test_stacking_rules_add_up_and_a_king_may_cancel_one_source_h() -> None:
    """§15.1 (H L380): a new rule may cancel an existing one; rules add up."""
    s = started("KH KC KD 4D", preset="kings-cup-stacking-rules")
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="No pointing"))
    s, _ = act(s, "p2", DrawCard())
    s, _ = act(s, "p2", MakeRule(text="Speak in rhymes"))
    assert [r.text for r in view(s, None).rules] == ["No pointing", "Speak in rhymes"]
    s, _ = act(s, "p3", DrawCard())
    assert code(s, "p3", MakeRule(text="", cancel=5)) == "no_such_rule"
    s, _ = act(s, "p3", MakeRule(text="", cancel=0))
    assert [r.text for r in view(s, None).rules] == ["Speak in rhymes"]


def test_the_fourth_king_ends_the_game_source_g() -> None:
    """§15.1 (G L359): the player who draws the fourth King takes the cup, which ends the game."""
    s = started("KH 5C 4D", kings=3)
    s, events = act(s, "p1", DrawCard())
    assert events[-1] == CupEnded(reason="fourth_king", seat="p1")
    out = GAME.outcome(s)
    assert out is not None and out.ranks == (1, 1, 1) and "p1" in out.reason
    assert code(s, "p2", DrawCard()) == "game_not_active"


def test_deck_out_preset_plays_every_card_source_i() -> None:
    """§15.1 (I L401): the game ends when all cards have been drawn (the fourth King does not end it)."""
    s = started("KH 5C", preset="kings-cup-deck-out", kings=3)
    s, events = act(s, "p1", DrawCard())
    assert not any(isinstance(e, CupEnded) for e in events)
    s, _ = act(s, "p1", MakeRule(text="Whisper"))
    s, events = act(s, "p2", DrawCard())
    assert events[-1] == CupEnded(reason="deck_out", seat="p2")


def test_a_helper_table_is_never_rated() -> None:
    """Issue 13: not rated; the match layer creates it unranked whatever is asked."""
    assert GAME.helper
    seats = ("p1", "p2")
    created = match.decide(
        GAME,
        None,
        None,
        CreateMatch(
            preset="kings-cup-neutral",
            ruleset=msgspec.to_builtins(PRESETS["kings-cup-neutral"]),
            seats=seats,
            players=("ann", "bob"),
            token_hashes=("a" * 64, "b" * 64),
            seed_commitment=rng_v1.commitment(SEED),
            ranked=True,
        ),
    )
    assert not isinstance(created, Rejected) and created[0].ranked is False


def test_rule_sets_are_checked() -> None:
    base = PRESETS["kings-cup-neutral"]
    rules = dict(base.card_rules)
    del rules["7"]
    assert msgspec.structs.replace(base, card_rules=rules).validate() is not None
    for name, preset in PRESETS.items():
        assert preset.validate() is None, name


def test_quick_match_does_not_offer_a_helper_table() -> None:
    """Issue 13: Kings Cup is not offered in quick match (the matchmaker refuses the queue)."""
    from contracts.matchmaking import JoinQueue
    from services.matchmaking.app import Matchmaker

    mm = Matchmaker()
    reply = mm.join(JoinQueue(player="ann", game="kings-cup", preset="kings-cup-neutral"), 1500.0, 0)
    assert isinstance(reply, Rejected) and reply.code == "not_offered"
    other = mm.join(JoinQueue(player="bob", game="farkle-flip", preset="farkle-flip-placeholder"), 1500.0, 0)
    assert not isinstance(other, Rejected)
