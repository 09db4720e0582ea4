"""Clocks composed around every game by the match layer (docs/audit.md "Clocks"): time controls,
clocks from the decisions' stamps only, timeouts as a platform command, each game's timeout rule."""

from __future__ import annotations

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.match import ClaimTimeout, CreateMatch, MatchEnded, Outcome, TimeControl, TimedOut
from domain.core import match as match_layer
from domain.core.matchlog import Folded, fold_decision
from domain.games import registry

UGOLKI = registry.get("ugolki")
T0 = 1_700_000_000_000


def create(game=UGOLKI, tc: TimeControl | None = TimeControl(base_s=2), seats: int | None = None) -> CreateMatch:
    preset = game.default_preset
    n = seats or match_layer.default_seats_of(game, preset)
    ruleset = match_layer.resolve_ruleset(game, preset, {}, n)
    assert not isinstance(ruleset, Rejected), ruleset
    names = game.seat_names(n)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=names,
        players=tuple(f"p-{s}" for s in names),
        token_hashes=tuple("a" * 64 for _ in names),
        seed_commitment="c" * 64 if game.chance else "",
        time_control=tc,
    )


class Match:
    """A match decided and folded the way the referee and the audit do (stamped decisions)."""

    def __init__(self, game=UGOLKI, tc: TimeControl | None = TimeControl(base_s=2), seats=None) -> None:
        self.game = game
        self.seed = b"\x07" * 32 if game.chance else None
        self.folded = Folded()
        self.decide(None, create(game, tc, seats), T0)

    @property
    def state(self) -> match_layer.MatchState:
        assert self.folded.state is not None
        return self.folded.state

    def decide(self, seat, command, at):
        decided = match_layer.decide_and_evolve(self.game, self.folded.state, seat, command, self.seed, at)
        if isinstance(decided, Rejected):
            return decided
        events, state = decided
        # The fold from stored envelopes gives the same state as the referee's hot path.
        refolded = fold_decision(self.game, self.folded, self.folded.seq + 1, events, self.seed, at=at, seat=seat)
        assert refolded.state == state
        self.folded = refolded
        return events

    def play(self, at: int):
        (seat,) = match_layer.to_move(self.game, self.state)
        move = self.game.legal_commands(self.state.game_state, seat)[0]
        events = self.decide(seat, move, at)
        assert not isinstance(events, Rejected), events
        return seat


@pytest.mark.parametrize(
    "tc",
    [
        TimeControl(),
        TimeControl(base_s=1, move_s=1),
        TimeControl(move_s=5, increment_s=1),
        TimeControl(base_s=-1),
        TimeControl(base_s=10**9),
    ],
)
def test_a_bad_time_control_is_refused_at_creation(tc: TimeControl) -> None:
    refused = match_layer.decide(UGOLKI, None, None, create(tc=tc))
    assert isinstance(refused, Rejected) and refused.code == "invalid_time_control"


def test_fischer_clock_charges_the_mover_and_adds_the_increment() -> None:
    m = Match(tc=TimeControl(base_s=60, increment_s=2))
    assert m.state.clock is not None and m.state.clock.running == ("white",)
    assert match_layer.deadline(m.state, "white") == T0 + 60_000
    assert match_layer.deadline(m.state, "black") is None
    m.play(T0 + 10_000)  # white thought 10 s, gets 2 back
    assert m.state.clock.remaining_ms == (52_000, 60_000)
    assert match_layer.deadline(m.state, "black") == T0 + 10_000 + 60_000
    m.play(T0 + 40_000)  # black thought 30 s
    assert m.state.clock.remaining_ms == (52_000, 32_000)
    view = match_layer.view(UGOLKI, m.state, None, "m", m.folded.seq)
    assert view.clock is not None and view.clock.deadlines == (T0 + 40_000 + 52_000, 0)
    assert view.clock.since == T0 + 40_000 and view.clock.running == ("white",)


def test_per_move_clock_gives_every_turn_the_same_time() -> None:
    m = Match(tc=TimeControl(move_s=5))
    m.play(T0 + 4_000)
    assert match_layer.deadline(m.state, "black") == T0 + 4_000 + 5_000
    m.play(T0 + 8_999)
    assert match_layer.deadline(m.state, "white") == T0 + 8_999 + 5_000


def test_a_draw_offer_does_not_earn_the_increment() -> None:
    from contracts.match import OfferDraw

    m = Match(tc=TimeControl(base_s=60, increment_s=5))
    assert not isinstance(m.decide("white", OfferDraw(), T0 + 1_000), Rejected)
    assert m.state.clock.remaining_ms == (59_000, 60_000)


def test_a_move_after_the_deadline_is_refused_and_the_timeout_is_due() -> None:
    m = Match()
    seat = "white"
    move = UGOLKI.legal_commands(m.state.game_state, seat)[0]
    late = m.decide(seat, move, T0 + 2_000)
    assert isinstance(late, Rejected) and late.code == "out_of_time"
    early = m.decide(None, ClaimTimeout(seat=seat, deadline=T0 + 2_000, at=T0 + 1_999), T0 + 1_999)
    assert isinstance(early, Rejected) and early.code == "not_due"
    wrong = m.decide(None, ClaimTimeout(seat=seat, deadline=T0 + 1_000, at=T0 + 2_500), T0 + 2_500)
    assert isinstance(wrong, Rejected) and wrong.code == "not_due"
    other = m.decide(None, ClaimTimeout(seat="black", deadline=T0 + 2_000, at=T0 + 2_500), T0 + 2_500)
    assert isinstance(other, Rejected) and other.code == "not_due"  # black's clock does not run
    by_seat = m.decide("black", ClaimTimeout(seat=seat, deadline=T0 + 2_000, at=T0 + 2_500), T0 + 2_500)
    assert isinstance(by_seat, Rejected) and by_seat.code == "not_a_seat"
    events = m.decide(None, ClaimTimeout(seat=seat, deadline=T0 + 2_000, at=T0 + 2_100), T0 + 2_100)
    assert not isinstance(events, Rejected)
    assert events[0] == TimedOut(seat="white", deadline=T0 + 2_000, at=T0 + 2_100)
    assert events[1] == MatchEnded(outcome=Outcome(ranks=(2, 1), reason="timeout"))
    assert m.state.outcome is not None and match_layer.deadlines(m.state) == {}
    again = m.decide(None, ClaimTimeout(seat=seat, deadline=T0 + 2_000, at=T0 + 2_200), T0 + 2_200)
    assert isinstance(again, Rejected) and again.code == "match_over"


def test_ugolki_loses_on_time_the_opponent_can_always_still_win() -> None:
    """ugolki.md (docs/audit.md "Clocks"): Ugolki has no timeout rule of its own; the seat out of
    time loses, since the other side's pieces can always still reach the house."""
    assert UGOLKI.timeout is None
    m = Match()
    m.play(T0 + 500)
    events = m.decide(None, ClaimTimeout(seat="black", deadline=T0 + 2_500, at=T0 + 2_600), T0 + 2_600)
    assert not isinstance(events, Rejected)
    assert m.state.outcome == Outcome(ranks=(1, 2), reason="timeout")


def _timeout_through_match(game, seats: int | None = None, plays: int = 0):
    m = Match(game, tc=TimeControl(move_s=30), seats=seats)
    at = T0
    for _ in range(plays):
        at += 100
        movers = match_layer.to_move(game, m.state)
        seat = movers[0]
        cmd = game.legal_commands(m.state.game_state, seat)[0]
        assert not isinstance(m.decide(seat, cmd, at), Rejected)
    movers = match_layer.to_move(game, m.state)
    seat = movers[0]
    due = match_layer.deadline(m.state, seat)
    assert due is not None
    before = m.state.game_state
    events = m.decide(None, ClaimTimeout(seat=seat, deadline=due, at=due), due)
    assert not isinstance(events, Rejected), events
    return m, seat, before, events


def test_king_timeout_auto_acts_by_section_12_3() -> None:
    """king.md §12.3 TIMEOUT (with K8): the referee plays the auto-act for the seat."""
    from domain.games.king.queries import timeout_command

    king = registry.get("king")
    m, seat, before, events = _timeout_through_match(king)
    expected = king.decide(before, seat, timeout_command(before, seat))
    assert isinstance(events[0], TimedOut) and events[0].seat == seat
    assert tuple(events[1 : 1 + len(expected)]) == expected
    assert m.state.outcome is None  # the game goes on


def test_thousand_timeout_plays_the_2_21_2_default() -> None:
    """thousand-and-farkle-flip.md §2.21.2 timeouts: the seat's default action is decided."""
    from domain.games.thousand.timeout import lowest_legal

    game = registry.get("thousand")
    m, seat, before, events = _timeout_through_match(game, plays=3)
    expected = game.decide(before, seat, lowest_legal(before, seat))
    assert tuple(events[1 : 1 + len(expected)]) == expected


def test_kings_corner_timeout_makes_the_seat_ready_between_rounds() -> None:
    """kings-corner.md §5.4 TIMEOUT (D4): a seat waited for to deal is made ready."""
    from contracts.games.kings_corner import SeatReady

    kc = registry.get("kings-corner")
    m, seat, _before, events = _timeout_through_match(kc)
    assert isinstance(events[1], SeatReady) and events[1].seat == seat


def test_kings_corner_timeout_ends_the_turn_with_its_draw() -> None:
    """kings-corner.md §5.4 TIMEOUT: the server sends END_TURN, with any mandatory draw."""
    from contracts.games.kings_corner import TurnEnded
    from domain.games.kings_corner.timeout import timeout

    kc = registry.get("kings-corner")
    m = Match(kc, tc=TimeControl(move_s=30), seats=2)
    at = T0
    while m.state.game_state.phase != "play":
        at += 10
        seat = match_layer.to_move(kc, m.state)[0]
        assert not isinstance(m.decide(seat, kc.legal_commands(m.state.game_state, seat)[0], at), Rejected)
    seat = match_layer.to_move(kc, m.state)[0]
    events = timeout(m.state.game_state, seat)
    assert not isinstance(events, Rejected)
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert len(ended) == 1 and ended[0].seat == seat
    after = m.state.game_state
    for e in events:
        after = kc.evolve(after, e)
    assert seat not in kc.to_move(after)


def test_kings_corner_timeout_plays_obliged_kings_to_the_first_empty_corner() -> None:
    """kings-corner.md §5.4 TIMEOUT under ``enforce``: each obliged king goes to the first empty
    corner in the order NE, SE, SW, NW before END_TURN."""
    from contracts.games.kings_corner import CORNER_SLOTS, CardPlayed, TurnEnded
    from domain.games.kings_corner.legal import SLOT_INDEX, king_obliged
    from domain.games.kings_corner.state import FACTS
    from domain.games.kings_corner.timeout import timeout

    kc = registry.get("kings-corner")
    enforce = [p for p, pr in kc.presets.items() if pr.ruleset.mandatory_kings == "enforce"]
    assert enforce, "a preset with mandatory_kings=enforce"
    for preset in enforce:
        ruleset = kc.presets[preset].ruleset
        for seed in range(40):
            state = kc.initial_state(ruleset, kc.seat_names(2), bytes([seed]) * 32)
            # Make both seats ready through the game's own decide.
            for s in kc.seat_names(2):
                for e in kc.decide(state, s, kc.legal_commands(state, s)[0]):
                    state = kc.evolve(state, e)
            if state.phase != "play" or not king_obliged(state, state.current):
                continue
            seat = state.seats[state.current]
            empty = [c for c in CORNER_SLOTS if not state.layout[SLOT_INDEX[c]]]
            events = timeout(state, seat)
            assert not isinstance(events, Rejected), events
            kings = [e for e in events if isinstance(e, CardPlayed) and FACTS[e.card].rank == 13]
            assert kings and kings[0].slot == empty[0]
            after = state
            for e in events:
                after = kc.evolve(after, e)
            assert not king_obliged(after, state.current)
            assert any(isinstance(e, TurnEnded) for e in events) or after.phase != "play"
            return
    pytest.skip("no dealt position with an obliged king in the seeds tried")


def test_kings_corner_timeout_under_until_playable_waives_the_play_and_draws_one() -> None:
    """kings-corner.md §5.4 TIMEOUT under ``until_playable``: the play requirement is waived and,
    with cards in the stock and nothing played or merged, exactly one card is drawn; the turn ends."""
    from contracts.games.kings_corner import CardsDrawn, TurnEnded
    from domain.games.kings_corner.legal import end_turn_problem
    from domain.games.kings_corner.rules import DRAW_TILL_PLAY
    from domain.games.kings_corner.timeout import timeout

    kc = registry.get("kings-corner")
    for seed in range(40):
        state = kc.initial_state(DRAW_TILL_PLAY, kc.seat_names(2), bytes([seed]) * 32)
        for s in kc.seat_names(2):
            for e in kc.decide(state, s, kc.legal_commands(state, s)[0]):
                state = kc.evolve(state, e)
        if state.phase != "play":
            continue
        problem = end_turn_problem(state, state.current)
        if problem is None or problem.code != "must_play_first":
            continue
        seat = state.seats[state.current]
        stock = len(state.stock)
        events = timeout(state, seat)
        assert not isinstance(events, Rejected), events
        draws = [e for e in events if isinstance(e, CardsDrawn) and e.seat == seat]
        assert len(draws) == 1 and draws[0].count == 1 and draws[0].reason == "until_playable"
        ended = [e for e in events if isinstance(e, TurnEnded)]
        assert len(ended) == 1 and ended[0].seat == seat
        after = state
        for e in events:
            after = kc.evolve(after, e)
        assert after.current != state.current and len(after.stock) <= stock - 1
        return
    raise AssertionError("no dealt position that requires a play first in the seeds tried")
