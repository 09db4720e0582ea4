"""``domain.core.cardgame.phases.Phases`` (a card game's Decider field), ``closed``, ``refusing``,
``nobody``, ``nothing``, ``own_commands`` and ``Decider.__post_init__``.  Expected values are
written from the docstrings of ``phases.py`` and ``decider.py``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

from contracts.envelope import Rejected
from domain.core import decider as decider_mod
from domain.core.cardgame import phases
from domain.core.cardgame.builder import Builder
from domain.games import registry


@dataclass(frozen=True)
class Table:
    phase: str = "play"
    seats: tuple[str, ...] = ("p1", "p2", "p3")
    turn: int = 0
    log: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Play:
    card: int = 0


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Bid:
    value: int = 0


def evolve(s: Table, e: Any) -> Table:
    return dataclasses.replace(s, log=(*s.log, e), turn=(s.turn + 1) % len(s.seats))


def _play_step(b: Builder[Table, Any], i: int, c: Any) -> Rejected | None:
    if isinstance(c, Play) and c.card < 0:
        return Rejected(code="bad_card", detail="no such card")
    b.emit(("played", i, c))
    # the builder folds at once: the second event sees the state after the first
    b.emit(("next", b.state.turn))
    return None


PLAY: phases.Phase[Table, Any, Any] = phases.Phase(
    "play",
    (Play, Pass),
    lambda s: frozenset({s.turn}),
    lambda s, i: (Play(3), Pass(), Play(1)) if i == s.turn else (),
    _play_step,
)


def _bid_step(b: Builder[Table, Any], i: int, c: Any) -> Rejected | None:
    b.emit(("bid", i, c.value))
    return None


BIDDING: phases.Phase[Table, Any, Any] = phases.Phase(
    "bidding", (Bid,), lambda s: frozenset({0, 2}), lambda s, i: (Bid(2), Bid(1)), _bid_step
)

TABLE = {"play": PLAY, "bidding": BIDDING, "over": phases.closed("over")}


def _phases(**kw: Any) -> phases.Phases[Table, Any, Any]:
    return phases.Phases(table=TABLE, evolve=evolve, **kw)


# ---------------------------------------------------------------- decide
def test_an_accepted_command_is_run_on_a_builder_of_the_state() -> None:
    p = _phases()
    assert p.decide(Table(turn=1), "p2", Play(5)) == (("played", 1, Play(5)), ("next", 2))
    assert p.decide(Table(phase="bidding"), "p3", Bid(4)) == (("bid", 2, 4),)


def test_the_phase_steps_rejection_is_returned_and_its_events_dropped() -> None:
    assert _phases().decide(Table(), "p1", Play(-1)) == Rejected(code="bad_card", detail="no such card")


def test_a_seat_not_in_the_match_is_not_your_turn_naming_it_and_the_seat_word() -> None:
    assert _phases().decide(Table(), "p9", Play()) == Rejected(
        code="not_your_turn", detail="'p9' is not a seat of this match"
    )
    assert _phases(seat_word="table").decide(Table(), "zed", Play()) == Rejected(
        code="not_your_turn", detail="'zed' is not a seat of this table"
    )


def test_a_command_its_phase_does_not_take_is_wrong_phase_by_default() -> None:
    assert _phases().decide(Table(), "p1", Bid(1)) == Rejected(
        code="wrong_phase", detail="Bid is not taken in phase play"
    )
    assert _phases().decide(Table(phase="bidding"), "p1", Pass()) == Rejected(
        code="wrong_phase", detail="Pass is not taken in phase bidding"
    )


def test_refuse_gives_the_games_own_rejection_of_a_command_out_of_phase() -> None:
    seen: list[tuple[Table, Any]] = []

    def refuse(s: Table, c: Any) -> Rejected:
        seen.append((s, c))
        return Rejected(code="not_now", detail=f"{s.phase}:{type(c).__name__}")

    s = Table(phase="bidding")
    assert _phases(refuse=refuse).decide(s, "p2", Play()) == Rejected(code="not_now", detail="bidding:Play")
    assert seen == [(s, Play())]
    # an accepted command never reaches refuse
    assert _phases(refuse=refuse).decide(s, "p2", Bid(1)) == (("bid", 1, 1),)
    assert len(seen) == 1


def test_guard_sees_the_seat_index_before_the_phase_is_consulted() -> None:
    calls: list[tuple[int, Any]] = []

    def guard(s: Table, i: int, c: Any) -> Rejected | None:
        calls.append((i, c))
        return Rejected(code="malformed", detail="odd card") if getattr(c, "card", 0) % 2 else None

    p = _phases(guard=guard)
    # the guard's answer comes before wrong_phase (Play is not taken in bidding)
    assert p.decide(Table(phase="bidding"), "p3", Play(1)) == Rejected(code="malformed", detail="odd card")
    assert calls == [(2, Play(1))]
    # None from the guard: the phase decides
    assert p.decide(Table(phase="bidding"), "p2", Play(2)) == Rejected(
        code="wrong_phase", detail="Play is not taken in phase bidding"
    )
    assert p.decide(Table(), "p1", Play(2)) == (("played", 0, Play(2)), ("next", 1))
    # a seat not in the match never reaches the guard
    calls.clear()
    assert p.decide(Table(), "nobody", Play(1)).code == "not_your_turn"  # type: ignore[union-attr]
    assert calls == []


def test_screen_comes_before_the_seat_check() -> None:
    def screen(c: Any) -> Rejected | None:
        return None if isinstance(c, (Play, Pass, Bid)) else Rejected(code="malformed", detail="what")

    p = _phases(screen=screen)
    assert p.decide(Table(), "stranger", "junk") == Rejected(code="malformed", detail="what")
    assert p.decide(Table(), "stranger", Play()) == Rejected(
        code="not_your_turn", detail="'stranger' is not a seat of this match"
    )
    assert p.decide(Table(), "p1", Pass()) == (("played", 0, Pass()), ("next", 1))


def test_screen_comes_before_the_guard_and_the_guard_before_refuse() -> None:
    order: list[str] = []

    def screen(c: Any) -> Rejected | None:
        order.append("screen")
        return Rejected(code="screened", detail="") if c == "junk" else None

    def guard(s: Table, i: int, c: Any) -> Rejected | None:
        order.append("guard")
        return Rejected(code="guarded", detail="") if c == "odd" else None

    def refuse(s: Table, c: Any) -> Rejected:
        order.append("refuse")
        return Rejected(code="refused", detail="")

    p = _phases(screen=screen, guard=guard, refuse=refuse)
    assert p.decide(Table(), "p1", "junk").code == "screened"  # type: ignore[union-attr]
    assert order == ["screen"]
    order.clear()
    assert p.decide(Table(), "p1", "odd").code == "guarded"  # type: ignore[union-attr]
    assert order == ["screen", "guard"]
    order.clear()
    assert p.decide(Table(), "p1", "even").code == "refused"  # type: ignore[union-attr]
    assert order == ["screen", "guard", "refuse"]


def test_own_commands_screens_out_another_games_command() -> None:
    screen = phases.own_commands((Play, Pass), "Counting")
    assert screen(Play()) is None and screen(Pass()) is None
    assert screen(Bid()) == Rejected(code="malformed", detail="not a Counting command: Bid")
    p = _phases(screen=screen)
    assert p.decide(Table(), "p7", 3) == Rejected(code="malformed", detail="not a Counting command: int")


def test_phase_of_and_seats_of_read_the_state_as_the_game_says() -> None:
    p = _phases(phase_of=lambda s: "bidding" if s.turn == 2 else "play", seats_of=lambda s: ("n", "e", "s"))
    # phase field says "play", phase_of says bidding
    assert p.decide(Table(turn=2), "s", Bid(9)) == (("bid", 2, 9),)
    assert p.decide(Table(turn=2), "p3", Bid(9)).code == "not_your_turn"  # type: ignore[union-attr]
    assert p.phase(Table(turn=2)) is BIDDING and p.phase(Table(turn=1)) is PLAY
    assert p.to_move(Table(turn=1)) == frozenset({"e"})
    assert p.legal_commands(Table(turn=1), "e") == (Play(3), Pass(), Play(1))


def test_a_closed_phase_refuses_everything_and_nobody_moves() -> None:
    over = phases.closed("over")
    assert over.name == "over" and over.commands == ()
    assert not over.accepts(Play()) and not over.accepts(object())
    s = Table(phase="over")
    assert over.movers(s) == frozenset() and over.legal(s, 0) == ()
    assert _phases().decide(s, "p1", Play()) == Rejected(
        code="wrong_phase", detail="Play is not taken in phase over"
    )
    assert _phases(refuse=lambda s, c: Rejected(code="game_over", detail="")).decide(
        s, "p2", Pass()
    ) == Rejected(code="game_over", detail="")
    assert _phases().to_move(s) == frozenset()
    assert _phases().legal_commands(s, "p1") == ()


def test_a_refusing_phase_answers_every_command_with_its_refusal() -> None:
    got: list[Table] = []

    def refusal(s: Table) -> Rejected:
        got.append(s)
        return Rejected(code="invalid_seats", detail=f"{len(s.seats)} seats")

    bad = phases.refusing("unplayable", refusal)
    assert bad.name == "unplayable" and bad.accepts(Play()) and bad.accepts("anything")
    s = Table(phase="unplayable", seats=("a", "b"))
    p = phases.Phases(table={"unplayable": bad}, evolve=evolve)
    for command in (Play(), Bid(), "anything"):
        assert p.decide(s, "a", command) == Rejected(code="invalid_seats", detail="2 seats")
    assert got == [s, s, s]
    assert p.to_move(s) == frozenset() and p.legal_commands(s, "a") == () and p.legal_commands(s, "b") == ()
    assert bad.movers(s) == frozenset() and bad.legal(s, 1) == ()


def test_nobody_and_nothing() -> None:
    assert phases.nobody(Table()) == frozenset()
    assert phases.nothing(Table(), 0) == ()


# ---------------------------------------------------------------- legal_commands and to_move
def test_legal_commands_of_a_seat_not_in_the_match_are_empty() -> None:
    p = _phases()
    assert p.legal_commands(Table(), "p4") == ()
    assert p.legal_commands(Table(phase="bidding"), "") == ()


def test_legal_commands_keep_the_phases_order_without_a_sort_key() -> None:
    p = _phases()
    got = p.legal_commands(Table(turn=1), "p2")
    assert got == (Play(3), Pass(), Play(1)) and isinstance(got, tuple)
    assert p.legal_commands(Table(turn=1), "p1") == ()
    assert p.legal_commands(Table(phase="bidding"), "p1") == (Bid(2), Bid(1))


def test_legal_commands_are_sorted_by_order() -> None:
    p = _phases(order=lambda c: (type(c).__name__, getattr(c, "card", 0), getattr(c, "value", 0)))
    got = p.legal_commands(Table(turn=2), "p3")
    assert got == (Pass(), Play(1), Play(3)) and isinstance(got, tuple)
    assert p.legal_commands(Table(phase="bidding"), "p2") == (Bid(1), Bid(2))
    assert p.legal_commands(Table(), "p9") == ()


def test_legal_commands_ask_the_phase_for_the_seats_index() -> None:
    asked: list[int] = []

    def legal(s: Table, i: int) -> tuple[Any, ...]:
        asked.append(i)
        return (Bid(i),)

    one = phases.Phase("x", (Bid,), phases.nobody, legal, _bid_step)
    p = phases.Phases(table={"x": one}, evolve=evolve)
    assert p.legal_commands(Table(phase="x"), "p3") == (Bid(2),)
    assert p.legal_commands(Table(phase="x"), "p1") == (Bid(0),)
    assert asked == [2, 0]


def test_to_move_maps_the_phases_mover_indexes_to_seats() -> None:
    p = _phases()
    assert p.to_move(Table(turn=0)) == frozenset({"p1"})
    assert p.to_move(Table(turn=2)) == frozenset({"p3"})
    assert p.to_move(Table(phase="bidding")) == frozenset({"p1", "p3"})


def test_an_unknown_phase_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        _phases().decide(Table(phase="nowhere"), "p1", Play())


def test_run_decides_on_a_fresh_builder() -> None:
    assert phases.run(PLAY, Table(turn=2), evolve, 2, Pass()) == (("played", 2, Pass()), ("next", 0))
    assert phases.run(PLAY, Table(), evolve, 0, Play(-3)) == Rejected(code="bad_card", detail="no such card")


# ---------------------------------------------------------------- Decider.__post_init__
def _decider_fields(**over: Any) -> dict[str, Any]:
    game = registry.GAMES["ugolki"]  # a real game's record as the template
    fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
    fields.update(phases=None, decide=None, legal_commands=None, to_move=None)
    fields.update(over)
    return fields


def test_a_decider_with_phases_takes_its_three_functions() -> None:
    p = _phases()
    game = decider_mod.Decider(**_decider_fields(phases=p))
    assert game.decide == p.decide and game.legal_commands == p.legal_commands and game.to_move == p.to_move
    assert game.decide(Table(), "p1", Pass()) == (("played", 0, Pass()), ("next", 1))
    assert game.to_move(Table(phase="bidding")) == frozenset({"p1", "p3"})


def test_a_decider_keeps_a_function_it_is_given_beside_phases() -> None:
    def mine(s: Any) -> frozenset[str]:
        return frozenset({"me"})

    p = _phases()
    game = decider_mod.Decider(**_decider_fields(phases=p, to_move=mine))
    assert game.to_move is mine and game.decide == p.decide and game.legal_commands == p.legal_commands


def test_a_decider_without_phases_or_its_functions_names_what_is_missing() -> None:
    fields = _decider_fields()
    name = fields["contract"].name
    with pytest.raises(TypeError, match=rf"^{name}: give phases or decide, legal_commands, to_move$"):
        decider_mod.Decider(**fields)
    with pytest.raises(TypeError, match=rf"^{name}: give phases or legal_commands$"):
        decider_mod.Decider(**_decider_fields(decide=lambda s, seat, c: (), to_move=lambda s: frozenset()))
    with pytest.raises(TypeError, match=rf"^{name}: give phases or decide, to_move$"):
        decider_mod.Decider(**_decider_fields(legal_commands=lambda s, seat: ()))
    given = decider_mod.Decider(
        **_decider_fields(
            decide=lambda s, seat, c: (), legal_commands=lambda s, seat: (), to_move=lambda s: frozenset()
        )
    )
    assert given.phases is None and given.legal_commands(None, "p1") == ()


def test_seated_names_the_invalid_phase_while_the_ruleset_cannot_seat_the_table() -> None:
    """``seated(field)``: "invalid" while ``seat_problem`` is set, else the state's ``field``."""
    from types import SimpleNamespace

    from domain.core.cardgame.phases import seated

    assert seated()(SimpleNamespace(seat_problem=None, phase="play")) == "play"
    assert seated("status")(SimpleNamespace(seat_problem=None, status="waiting", phase="x")) == "waiting"
    assert seated()(SimpleNamespace(seat_problem="needs 2-6 seats", phase="play")) == "invalid"
    assert seated()(SimpleNamespace(seat_problem="", phase="play")) == "invalid"
