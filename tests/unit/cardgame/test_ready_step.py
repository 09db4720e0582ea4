"""``domain.core.cardgame.lifecycle.ReadyStep`` (the ready lifecycle as one phase step) and
``domain.core.cardgame.deal.step`` (the deal step).  Expected values are written from the
docstrings of ``lifecycle.py`` and ``deal.py``."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from domain.core.cardgame import deal, lifecycle, phases
from domain.core.cardgame.builder import Builder


class State(msgspec.Struct, frozen=True, kw_only=True):
    phase: str = "waiting"
    seats: tuple[str, ...] = ("p1", "p2", "p3")
    ready: tuple[bool, ...] = (False, False, False)
    round_no: int = 0
    out_round: tuple[int, ...] = (0, 0, 0)
    seeds: tuple[str, ...] = ("", "", "")
    hands: tuple[str, ...] = ()


class Ready(msgspec.Struct, frozen=True):
    client_seed: str = ""


class SeatReady(msgspec.Struct, frozen=True):
    seat: int
    client_seed: str


class Dealt(msgspec.Struct, frozen=True):
    round_no: int
    hands: tuple[str, ...]


class Drew(msgspec.Struct, frozen=True):
    seat: int


def evolve(s: State, e: Any) -> State:
    if isinstance(e, SeatReady):
        ready, seeds = lifecycle.mark_ready(s.ready, s.seeds, e.seat, e.client_seed, s.round_no)
        return msgspec.structs.replace(s, ready=ready, seeds=seeds)
    if isinstance(e, Dealt):
        return msgspec.structs.replace(
            s, phase="play", round_no=e.round_no, hands=e.hands, ready=(False,) * len(s.ready)
        )
    if isinstance(e, Drew):
        return msgspec.structs.replace(s, hands=(*s.hands, f"drew{e.seat}"))
    raise TypeError(type(e).__name__)


def ready_event(s: State, i: int, client_seed: str) -> SeatReady:
    return SeatReady(i, client_seed)


def draw(s: State) -> Dealt | str:
    return Dealt(s.round_no + 1, tuple(f"{seat}:{seed}" for seat, seed in zip(s.seats, s.seeds, strict=True)))


def deal_step(b: Builder[State, Any]) -> Rejected | None:
    return deal.step(b, draw)


STEP: lifecycle.ReadyStep[State, Any] = lifecycle.ReadyStep(
    ready_event=ready_event, deal=deal_step, out_of=lambda s: s.out_round
)


def _run(
    step: lifecycle.ReadyStep[State, Any], s: State, i: int, seed: str = ""
) -> tuple[Any, ...] | Rejected:
    b: Builder[State, Any] = Builder(s, evolve)
    problem = step(b, i, Ready(seed))
    return problem if problem is not None else b.result()


# ---------------------------------------------------------------- ReadyStep refusals
def test_ready_outside_waiting_and_scored_is_not_dealing() -> None:
    for phase in ("play", "over", "bidding"):
        assert _run(STEP, State(phase=phase), 0) == Rejected(
            code="not_dealing", detail="Ready is for the start of a round"
        )
    assert _run(STEP, State(phase="waiting"), 0) == (SeatReady(0, ""),)
    assert _run(STEP, State(phase="scored", round_no=2), 0) == (SeatReady(0, ""),)


def test_a_seat_that_is_out_is_not_dealing() -> None:
    s = State(phase="scored", round_no=3, out_round=(0, 2, 0))
    assert _run(STEP, s, 1) == Rejected(
        code="not_dealing", detail="a seat that is out takes no part in later rounds"
    )
    assert _run(STEP, s, 0) == (SeatReady(0, ""),)


def test_a_seat_ready_already_is_refused() -> None:
    s = State(ready=(False, True, False))
    assert _run(STEP, s, 1) == Rejected(code="already_ready", detail="this seat is ready already")
    assert _run(STEP, s, 2, "x") == (SeatReady(2, "x"),)


def test_a_client_seed_of_257_characters_is_too_long_but_256_is_not() -> None:
    assert _run(STEP, State(), 0, "s" * 257) == Rejected(
        code="client_seed_too_long", detail="at most 256 characters"
    )
    assert _run(STEP, State(), 0, "s" * 256) == (SeatReady(0, "s" * 256),)
    worded = lifecycle.ReadyStep(
        ready_event=ready_event, deal=deal_step, seed_too_long="a client seed has 256 characters at most"
    )
    assert _run(worded, State(), 1, "é" * 257) == Rejected(
        code="client_seed_too_long", detail="a client seed has 256 characters at most"
    )
    assert lifecycle.SEED_TOO_LONG == "at most 256 characters" and lifecycle.MAX_CLIENT_SEED == 256


# ---------------------------------------------------------------- ReadyStep events
def test_the_client_seed_is_recorded_only_before_the_first_deal() -> None:
    assert _run(STEP, State(round_no=0), 1, "mine") == (SeatReady(1, "mine"),)
    assert _run(STEP, State(phase="scored", round_no=1), 1, "mine") == (SeatReady(1, ""),)
    assert _run(STEP, State(phase="scored", round_no=4), 2, "mine") == (SeatReady(2, ""),)


def test_the_round_number_is_read_by_round_of() -> None:
    by_hands = lifecycle.ReadyStep(ready_event=ready_event, deal=deal_step, round_of=lambda s: len(s.hands))
    assert _run(by_hands, State(round_no=7), 0, "x") == (SeatReady(0, "x"),)
    assert _run(by_hands, State(round_no=0, hands=("h",)), 0, "x") == (SeatReady(0, ""),)


def test_a_state_without_rounds_records_the_seed() -> None:
    class Flat(msgspec.Struct, frozen=True):
        phase: str
        ready: tuple[bool, ...]

    got: list[tuple[int, str]] = []
    flat = lifecycle.ReadyStep(ready_event=lambda s, i, seed: got.append((i, seed)), deal=lambda b: None)
    b: Builder[Flat, Any] = Builder(Flat("waiting", (False, False)), lambda s, e: s)
    assert flat(b, 1, Ready("abc")) is None
    assert got == [(1, "abc")]


def test_the_deal_waits_for_every_seat_still_playing() -> None:
    # two of three ready: no deal yet
    assert _run(STEP, State(ready=(True, False, False)), 2, "c") == (SeatReady(2, "c"),)
    # the last one ready: its event, then the deal, folded on the state after the Ready
    s = State(ready=(True, False, True), seeds=("a", "", "c"))
    assert _run(STEP, s, 1, "b") == (SeatReady(1, "b"), Dealt(1, ("p1:a", "p2:b", "p3:c")))


def test_a_seat_that_is_out_is_not_waited_for() -> None:
    s = State(phase="scored", round_no=2, ready=(False, False, True), out_round=(0, 1, 0))
    assert _run(STEP, s, 0) == (SeatReady(0, ""), Dealt(3, ("p1:", "p2:", "p3:")))
    # without out_of the game is read as nobody out: seat 1 is still waited for
    assert _run(lifecycle.ReadyStep(ready_event=ready_event, deal=deal_step), s, 0) == (SeatReady(0, ""),)


def test_the_deals_rejection_passes_through() -> None:
    def refuse_deal(b: Builder[State, Any]) -> Rejected | None:
        return Rejected(code="seed_unavailable", detail="no server seed")

    step = lifecycle.ReadyStep(ready_event=ready_event, deal=refuse_deal)
    assert _run(step, State(ready=(True, True, False)), 2) == Rejected(
        code="seed_unavailable", detail="no server seed"
    )


def test_the_step_reads_phase_ready_and_out_with_the_games_readers() -> None:
    class Odd(msgspec.Struct, frozen=True):
        stage: str
        flags: tuple[bool, ...]
        gone: tuple[int, ...]

    step = lifecycle.ReadyStep(
        ready_event=ready_event,
        deal=lambda b: Rejected(code="dealt", detail=""),
        phase_of=lambda s: s.stage,
        ready_of=lambda s: s.flags,
        out_of=lambda s: s.gone,
    )

    def fold(s: Odd, e: SeatReady) -> Odd:
        return msgspec.structs.replace(s, flags=tuple(f or j == e.seat for j, f in enumerate(s.flags)))

    def go(s: Odd, i: int) -> Any:
        b: Builder[Odd, Any] = Builder(s, fold)
        return step(b, i, Ready()) or b.result()

    assert go(Odd("play", (False, False), (0, 0)), 0).code == "not_dealing"
    assert go(Odd("scored", (False, False), (0, 1)), 1).code == "not_dealing"
    assert go(Odd("scored", (True, False), (0, 0)), 0).code == "already_ready"
    assert go(Odd("scored", (False, False), (0, 0)), 0) == (SeatReady(0, ""),)
    assert go(Odd("scored", (False, False), (0, 1)), 0).code == "dealt"
    assert step.movers(Odd("scored", (False, True, False), (0, 0, 2))) == frozenset({0})


# ---------------------------------------------------------------- ReadyStep.movers and .phase
def test_the_movers_are_the_seats_still_playing_not_ready() -> None:
    assert STEP.movers(State(ready=(True, False, False))) == frozenset({1, 2})
    assert STEP.movers(State(ready=(False, False, False), out_round=(0, 0, 1))) == frozenset({0, 1})
    assert STEP.movers(State(ready=(True, True, False), out_round=(0, 0, 1))) == frozenset()


def test_the_phase_of_a_between_rounds_phase_runs_the_step() -> None:
    waiting = STEP.phase("waiting", Ready)
    assert waiting.name == "waiting" and waiting.commands == (Ready,)
    assert waiting.accepts(Ready("x")) and not waiting.accepts(SeatReady(0, ""))
    assert waiting.decide is STEP
    s = State(ready=(True, False, False), out_round=(0, 0, 0))
    assert waiting.movers(s) == frozenset({1, 2})
    assert waiting.legal(s, 1) == (Ready(),) and waiting.legal(s, 0) == ()
    assert waiting.legal(State(out_round=(0, 2, 0)), 1) == ()
    table = phases.Phases(table={"waiting": waiting, "scored": STEP.phase("scored", Ready)}, evolve=evolve)
    assert table.to_move(s) == frozenset({"p2", "p3"})
    assert table.legal_commands(s, "p3") == (Ready(),)
    assert table.decide(s, "p2", Ready("q")) == (SeatReady(1, "q"),)
    assert table.decide(State(phase="scored", round_no=1, ready=(True, True, False)), "p3", Ready("q")) == (
        SeatReady(2, ""),
        Dealt(2, ("p1:", "p2:", "p3:")),
    )


# ---------------------------------------------------------------- deal.step
def test_a_draw_that_cannot_be_made_is_seed_unavailable_with_its_reason() -> None:
    b: Builder[State, Any] = Builder(State(), evolve)
    ran: list[State] = []

    def after(b: Builder[State, Any]) -> Rejected | None:
        ran.append(b.state)
        return None

    got = deal.step(b, lambda s: "the server seed is not known", after)
    assert got == Rejected(code="seed_unavailable", detail="the server seed is not known")
    assert b.events == [] and b.state == State() and ran == []


def test_the_dealt_event_is_folded_then_after_runs_on_the_folded_state() -> None:
    b: Builder[State, Any] = Builder(State(seeds=("x", "y", "z")), evolve)
    seen: list[State] = []

    def after(b: Builder[State, Any]) -> Rejected | None:
        seen.append(b.state)
        b.emit(Drew(1))
        return None

    assert deal.step(b, draw, after) is None
    assert b.result() == (Dealt(1, ("p1:x", "p2:y", "p3:z")), Drew(1))
    assert seen[0].phase == "play" and seen[0].round_no == 1 and seen[0].hands == ("p1:x", "p2:y", "p3:z")
    assert b.state.hands == ("p1:x", "p2:y", "p3:z", "drew1")


def test_the_deal_step_without_after_emits_only_the_draw() -> None:
    b: Builder[State, Any] = Builder(State(round_no=4), evolve)
    assert deal.step(b, draw) is None
    assert b.result() == (Dealt(5, ("p1:", "p2:", "p3:")),)


def test_afters_rejection_is_the_steps() -> None:
    b: Builder[State, Any] = Builder(State(), evolve)
    no = Rejected(code="stuck", detail="after")
    assert deal.step(b, draw, lambda b: no) is no
    assert len(b.events) == 1


def test_draw_sees_the_builders_state() -> None:
    b: Builder[State, Any] = Builder(State(), evolve)
    b.emit(SeatReady(0, "first"))
    seen: list[State] = []

    def look(s: State) -> Dealt:
        seen.append(s)
        return Dealt(9, ())

    assert deal.step(b, look) is None
    assert seen == [State(ready=(True, False, False), seeds=("first", "", ""))]
