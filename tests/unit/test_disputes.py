"""Disputes as a fold of dispute events and what a ruling does to an outcome (docs/ranked.md
"Disputes"; issue 14 "Disputes")."""

from __future__ import annotations

import msgspec
import pytest

from contracts.codecs import dispute_decoder, encode
from contracts.disputes import NoteAdded
from contracts.match import Outcome
from contracts.subjects import dispute_id_of, match_id_of_dispute
from domain import disputes as d

MATCH = d.MatchFacts(
    match_id="abc123",
    game="ugolki",
    finished=True,
    seats=("white", "black"),
    players=("ann", "bob"),
    ranks=(1, 2),
    scores=(0.0, 3.0),
)
ANN = d.Actor(name="ann")
CAROL = d.Actor(name="carol")
OPERATOR = d.Actor(name="olga", operator=True)


def _opened(actor: d.Actor = ANN) -> dict[str, d.DisputeState]:
    return d.fold([d.opened(MATCH, {}, actor, "  he moved twice ", 10)])


def test_a_player_or_an_operator_opens_a_dispute_on_a_finished_match() -> None:
    assert d.open_problem(MATCH, {}, ANN, "moved twice") is None
    assert d.open_problem(MATCH, {}, OPERATOR, "report") is None
    state = _opened()[dispute_id_of("abc123", 1)]
    assert state.status == d.OPEN and state.opened.reason == "he moved twice"
    assert state.opened.ranks == (1, 2) and state.opened.opened_by == "ann"


@pytest.mark.parametrize(
    ("match", "actor", "reason", "code"),
    [
        (None, ANN, "x", "match_not_found"),
        (msgspec.structs.replace(MATCH, finished=False), ANN, "x", "match_not_finished"),
        (MATCH, CAROL, "x", "not_a_player"),
        (msgspec.structs.replace(MATCH, guests=("white",)), ANN, "x", "not_a_player"),
        (MATCH, ANN, "   ", "invalid_reason"),
        (MATCH, ANN, "x" * 2001, "invalid_reason"),
    ],
)
def test_opening_is_refused_with_a_typed_code(
    match: d.MatchFacts | None, actor: d.Actor, reason: str, code: str
) -> None:
    problem = d.open_problem(match, {}, actor, reason)
    assert problem is not None and problem.code == code


def test_one_open_dispute_per_match_and_a_new_one_after_the_ruling() -> None:
    disputes = _opened()
    problem = d.open_problem(MATCH, disputes, OPERATOR, "again")
    assert problem is not None and problem.code == "dispute_open"
    state = disputes[dispute_id_of("abc123", 1)]
    disputes = d.evolve(disputes, d.ruled(state, OPERATOR, "upheld", (), (), "fine", 20))
    assert d.open_problem(MATCH, disputes, ANN, "again") is None
    assert d.next_dispute_id("abc123", disputes) == "abc123-2"


def test_only_an_operator_adds_notes_and_rules() -> None:
    state = _opened()[dispute_id_of("abc123", 1)]
    for problem in (
        d.note_problem(state, ANN, "a note"),
        d.ruling_problem(state, ANN, "void", (), (), "mine"),
    ):
        assert problem is not None and problem.code == "not_an_operator"
    assert d.note_problem(state, OPERATOR, "a note") is None
    assert d.ruling_problem(state, OPERATOR, "void", (), (), "x") is None
    missing = d.ruling_problem(None, OPERATOR, "void", (), (), "x")
    assert missing is not None and missing.code == "dispute_not_found"


def test_a_ruled_dispute_is_closed_to_notes_and_rulings() -> None:
    disputes = _opened()
    state = disputes["abc123-1"]
    disputes = d.evolve(disputes, d.ruled(state, OPERATOR, "void", (), (), "x", 30))
    closed = disputes["abc123-1"]
    assert closed.status == d.RULED
    for problem in (
        d.ruling_problem(closed, OPERATOR, "upheld", (), (), "again"),
        d.note_problem(closed, OPERATOR, "late"),
    ):
        assert problem is not None and problem.code == "dispute_closed"
    with pytest.raises(ValueError, match="not open"):
        d.evolve(disputes, NoteAdded(dispute_id="abc123-1", match_id="abc123", author="olga", text="x", at=1))


@pytest.mark.parametrize(
    ("ruling", "ranks", "scores"),
    [
        ("overturned", (), ()),
        ("upheld", (2, 1), ()),
        ("void", (), (1.0, 2.0)),
        ("amended", (), ()),
        ("amended", (1, 2, 3), ()),
        ("amended", (2, 3), ()),
        ("amended", (2, 2), ()),
        ("amended", (2, 1), (1.0,)),
        ("amended", (1, 2), ()),  # the recorded result
    ],
)
def test_malformed_rulings_are_refused(ruling: str, ranks: tuple[int, ...], scores: tuple[float, ...]) -> None:
    state = _opened()["abc123-1"]
    problem = d.ruling_problem(state, OPERATOR, ruling, ranks, scores, "because")
    assert problem is not None and problem.code == "invalid_ruling"


def test_what_a_ruling_does_to_the_recorded_outcome() -> None:
    original = Outcome(ranks=(1, 2), scores=(0.0, 3.0), reason="home")
    state = _opened()["abc123-1"]
    amended = d.ruled(state, OPERATOR, "amended", (2, 1), (), "illegal jump", 40)
    assert d.apply_ruling(original, None) == original
    assert d.apply_ruling(original, d.ruled(state, OPERATOR, "upheld", (), (), "ok", 40)) == original
    assert d.apply_ruling(original, d.ruled(state, OPERATOR, "void", (), (), "fixed", 40)) is None
    result = d.apply_ruling(original, amended)
    assert result is not None and result.ranks == (2, 1) and result.scores == (0.0, 3.0) and not result.draw
    drawn = d.apply_ruling(original, d.ruled(state, OPERATOR, "amended", (1, 1), (1.0, 1.0), "x", 40))
    assert drawn is not None and drawn.draw and drawn.scores == (1.0, 1.0)
    void = d.ruled(state, OPERATOR, "void", (), (), "x", 41)
    assert d.effective_outcome(original, [amended, void]) is None
    assert d.effective_outcome(original, [void, amended]) == result
    assert d.effective_outcome(original, []) == original


def test_dispute_events_round_trip_and_ids_name_their_match() -> None:
    disputes = _opened()
    state = disputes["abc123-1"]
    events = [state.opened, d.ruled(state, OPERATOR, "amended", (2, 1), (), "x", 50)]
    decoded = [dispute_decoder.decode(encode(e)) for e in events]
    assert decoded == events
    assert d.fold(decoded)["abc123-1"].ruling == events[1]
    assert match_id_of_dispute("abc123-1") == "abc123"
    assert match_id_of_dispute("a-b-12") == "a-b"
    assert match_id_of_dispute("abc123") == "" and match_id_of_dispute("x.y-1") == ""


def test_reading_a_dispute_is_for_operators_and_the_seats_that_had_a_credential() -> None:
    """A guest seat's name is whatever its creator typed: an account that happens to carry it
    reads nothing of the match's disputes (issue 22)."""
    guests = msgspec.structs.replace(MATCH, guests=("white",))
    assert d.may_read(MATCH, ANN) and d.may_read(MATCH, d.Actor(name="bob"))
    assert not d.may_read(guests, ANN)  # "ann" sat at white as a guest
    assert d.may_read(guests, d.Actor(name="bob"))  # black had a credential
    assert not d.may_read(MATCH, CAROL) and not d.may_read(None, ANN)
    assert not d.may_read(MATCH, d.Actor(name="ANN"))  # the account's exact name, nothing else
    assert d.may_read(guests, OPERATOR) and d.may_read(None, OPERATOR)
