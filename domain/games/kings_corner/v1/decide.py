"""The decide steps of each phase (rules/kings-corner.md §5.3-§5.6) on an event builder.

Every step works on a ``Builder``: each event it emits is folded at once, so the follow-ups of an
action (going out, the end of the turn, the automatic draw of the next turn, a blocked round,
scoring) are computed on the state they really apply to.  ``phases.py`` says which step runs in
which phase.
"""

from __future__ import annotations

from typing import Any

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardPlayed,
    DrawCard,
    KingsCornerCommand,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    Ready,
    RunPlayed,
    SeatReady,
    TurnEnded,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.scoring import next_seat
from domain.games.kings_corner.deal import deal
from domain.games.kings_corner.decide import B, _draw, _resolve
from domain.games.kings_corner.legal import (
    build_of,
    fits,
    hand_plays,
    has_legal_action,
    king_pile_problem,
    pile_problem,
    place_problem,
    reject,
)
from domain.games.kings_corner.state import CROSS, FACTS, N_CROSS, SLOT_INDEX
from domain.games.kings_corner.v1.legal import draw_problem, end_turn_problem
from domain.games.kings_corner.v1.scoring import score_round


def decide_ready(b: B, i: int, command: KingsCornerCommand) -> Rejected | None:
    """Phases ``waiting`` and ``scored``: a seat's Ready; the last one deals the next round."""
    assert isinstance(command, Ready)
    state = b.state
    problem = lifecycle.ready_problem(state.phase, state.ready, state.out_round, i, command.client_seed)
    if problem is not None:
        return problem
    b.emit(
        SeatReady(
            seat=state.seats[i], client_seed=lifecycle.recorded_seed(state.round_no, command.client_seed)
        )
    )
    if lifecycle.all_ready(b.state.ready, b.state.out_round):
        dealt = deal(b.state)
        if isinstance(dealt, str):
            return reject("seed_unavailable", dealt)
        b.emit(dealt)
        _turn_start(b)
    return None


def decide_place(b: B, i: int, command: KingsCornerCommand) -> Rejected | None:
    """Phase ``place`` (V16): only the pending card, to an empty slot."""
    s = b.state
    if s.current != i:
        return reject("not_your_turn", f"it is {s.seats[s.current]}'s turn")
    if not isinstance(command, PlayCard):
        return reject("pending_placement", f"{s.pending} must first go to an empty slot")
    return _play_card(b, i, command)


def decide_play(b: B, i: int, command: KingsCornerCommand) -> Rejected | None:
    """Phase ``play``: A1-A6 of the current seat."""
    s = b.state
    if s.current != i:
        return reject("not_your_turn", f"it is {s.seats[s.current]}'s turn")
    return _decide_action(b, i, command)


def _turn_start(b: B) -> None:
    """§5.3 Turn start: the automatic draws of `start` and `start_if_stuck` timing."""
    s = b.state
    ruleset = s.ruleset
    if not s.stock:
        return
    if ruleset.draw_timing == "start" or (
        ruleset.draw_timing == "start_if_stuck" and not hand_plays(s, s.current, first_only=True)
    ):
        _draw(b, ruleset.draw_count, "turn_start")
        if not b.state.stock:
            _check_blocked(b)


def _decide_action(b: B, i: int, command: Any) -> Rejected | None:
    s = b.state
    ruleset = s.ruleset
    if isinstance(command, PlayCard):
        return _play_card(b, i, command)
    if isinstance(command, PlayRun):
        return _play_run(b, i, command)
    if isinstance(command, MovePile):
        src, dst = SLOT_INDEX[command.from_slot], SLOT_INDEX[command.to_slot]
        why = pile_problem(s, src, dst)
        if why is not None:
            return reject(why, f"pile {command.from_slot} cannot move onto {command.to_slot}")
        b.emit(PileMoved(seat=s.seats[i], from_slot=command.from_slot, to_slot=command.to_slot))
        return None
    if isinstance(command, MoveKingPile):
        src, dst = SLOT_INDEX[command.from_slot], SLOT_INDEX[command.to_slot]
        why = king_pile_problem(s, src, dst)
        if why is not None:
            return reject(why, f"pile {command.from_slot} cannot move to corner {command.to_slot}")
        b.emit(
            PileMoved(seat=s.seats[i], from_slot=command.from_slot, to_slot=command.to_slot, king_pile=True)
        )
        return None
    if isinstance(command, DrawCard):
        problem = draw_problem(s, i)
        if problem is not None:
            return problem
        if ruleset.draw_timing == "end":
            _end_turn(b, i, draw=True)
            return None
        _draw(b, 1, "until_playable")
        if not b.state.stock:
            _check_blocked(b)
        return None
    problem = end_turn_problem(s, i)
    if problem is not None:
        return problem
    draw = bool(s.stock) and (
        ruleset.draw_timing == "end"
        or (ruleset.draw_timing == "start_if_stuck" and s.drawn == 0 and s.played == 0)
    )
    _end_turn(b, i, draw=draw)
    return None


def _play_card(b: B, i: int, command: PlayCard) -> Rejected | None:
    s = b.state
    cid = command.card
    if cid not in s.hands[i]:
        return reject("card_not_in_hand", f"{cid!r} is not in your hand")
    slot = SLOT_INDEX[command.slot]
    if s.pending is not None and (cid != s.pending or s.layout[slot]):
        return reject("pending_placement", f"{s.pending} must go to an empty slot")
    f = _resolve(cid, command.as_card)
    if isinstance(f, Rejected):
        return f
    problem = place_problem(s, f, slot)
    if problem is not None:
        return reject(problem, f"{cid} cannot go to {command.slot}")
    b.emit(
        CardPlayed(
            seat=s.seats[i],
            card=cid,
            slot=command.slot,
            as_card=command.as_card if f is not FACTS[cid] else None,
        )
    )
    _after_play(b, i)
    return None


def _play_run(b: B, i: int, command: PlayRun) -> Rejected | None:
    s = b.state
    if not s.ruleset.run_play_action:
        return reject("runs_disabled", "this ruleset plays cards one at a time")
    run = command.cards
    if len(run) < 2 or len(set(run)) != len(run):
        return reject("bad_run", "a run is two or more different cards")
    for cid in run:
        if cid not in s.hands[i]:
            return reject("card_not_in_hand", f"{cid!r} is not in your hand")
        if FACTS[cid].joker:
            return reject("bad_run", "jokers are played one at a time")
    slot = SLOT_INDEX[command.slot]
    problem = place_problem(s, FACTS[run[0]], slot)
    if problem is not None:
        return reject(problem, f"{run[0]} cannot go to {command.slot}")
    build = build_of(s.ruleset, slot)
    for below, above in zip(run, run[1:], strict=False):
        if not fits(FACTS[above], FACTS[below], build):
            return reject("bad_run", f"{above} does not follow {below}")
        if slot >= N_CROSS and FACTS[above].face in s.barred:
            return reject("card_barred", f"{above} may not enter a corner")
    b.emit(RunPlayed(seat=s.seats[i], cards=run, slot=command.slot))
    _after_play(b, i)
    return None


def _after_play(b: B, i: int) -> None:
    """§5.6 going out, checked after every A2 and A3."""
    s = b.state
    if s.hands[i]:
        return
    rule = s.ruleset.going_out
    if rule == "after_stock_exhausted" and s.stock:
        _draw(b, 1, "going_out")
        if b.state.pending is None:
            _end_turn(b, i, draw=False)  # this draw replaces the end-of-turn draw
        return
    if rule == "draw3_if_open_cross" and s.stock and any(not s.layout[c] for c in CROSS):
        _draw(b, 3, "open_cross")
        if not b.state.stock:
            _check_blocked(b)
        return
    _end_round(b, winner=i)


def _end_turn(b: B, i: int, draw: bool) -> None:
    s = b.state
    ruleset = s.ruleset
    king_penalty = 0
    if ruleset.mandatory_kings == "penalty3":
        king_penalty = 3 * sum(1 for c in s.hands[i] if c in s.kings_seen)
    fee = ruleset.idle_fee if ruleset.settlement != "penalty" and s.played == 0 else 0
    if draw:
        _draw(b, ruleset.draw_count, "turn_end")
    nxt = next_seat(s.out_round, i)
    b.emit(TurnEnded(seat=s.seats[i], next_seat=s.seats[nxt], king_penalty=king_penalty, idle_fee=fee))
    if _check_blocked(b):
        return
    _turn_start(b)


def _check_blocked(b: B) -> bool:
    """§5.6 Blocked: stock empty and (nobody can act, or a full cycle of idle turns)."""
    s = b.state
    if s.stock or not s.in_round:
        return False
    active = s.active()
    if s.idle >= len(active) or not any(has_legal_action(s, j) for j in active):
        _end_round(b, winner=None)
        return True
    return False


def _end_round(b: B, winner: int | None) -> None:
    b.emit(score_round(b.state, winner))
