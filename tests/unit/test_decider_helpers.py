"""``fold`` and ``auto_act`` of domain/core/decider.py.  ``auto_act`` is the timeout rule of King
(§12.3 TIMEOUT) and 1000 (§2.21.2 timeouts): it plays the command the rules name for a seat out of
time, decided like the seat's own command."""

from __future__ import annotations

from contracts.envelope import Rejected
from domain.core.decider import auto_act


def test_the_chosen_command_is_decided_for_the_seat_on_the_state() -> None:
    decided = []

    def decide(state, seat, command):  # type: ignore[no-untyped-def]
        decided.append((state, seat, command))
        return (f"{seat} played {command}",)

    timeout = auto_act(decide, lambda state, seat: f"the lowest card of {seat} in {state}")
    assert timeout("deal 3", "p2") == ("p2 played the lowest card of p2 in deal 3",)
    assert decided == [("deal 3", "p2", "the lowest card of p2 in deal 3")]


def test_a_seat_with_nothing_to_do_is_refused() -> None:
    def decide(state, seat, command):  # type: ignore[no-untyped-def]
        raise AssertionError("nothing is decided for a seat with nothing to do")

    timeout = auto_act(decide, lambda state, seat: None)
    assert timeout("deal 3", "p2") == Rejected(code="not_your_turn", detail="p2 has nothing to do")


def test_fold_applies_each_event_in_order() -> None:
    from domain.core.decider import fold
    from domain.games import registry

    ugolki = registry.get("ugolki")
    state = ugolki.initial_state(ugolki.presets[ugolki.default_preset].ruleset, ("white", "black"), None)
    first = ugolki.decide(state, "white", ugolki.legal_commands(state, "white")[0])
    assert isinstance(first, tuple)
    after_first = state
    for event in first:
        after_first = ugolki.evolve(after_first, event)
    second = ugolki.decide(after_first, "black", ugolki.legal_commands(after_first, "black")[0])
    assert isinstance(second, tuple)
    expected = state
    for event in (*first, *second):
        expected = ugolki.evolve(expected, event)
    assert fold(ugolki, state, (*first, *second)) == expected
    assert fold(ugolki, state, []) == state
