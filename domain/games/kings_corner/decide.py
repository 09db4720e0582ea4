"""The decide steps of each phase (rules/kings-corner.md §5.3-§5.6) on an event builder.

Every step works on a ``Builder``: each event it emits is folded at once, so the follow-ups of an
action (going out, the end of the turn, the automatic draw of the next turn, a blocked round,
scoring) are computed on the state they really apply to.  ``phases.py`` says which step runs in
which phase.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    CardPlayed,
    CardsDrawn,
    DrawCard,
    EndTurn,
    KingPenaltyCharged,
    KingsCornerCommand,
    KingsCornerEvent,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    RunPlayed,
    SeatResigned,
    TurnEnded,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.scoring import next_seat, standings
from domain.games.kings_corner.deal import deal
from domain.games.kings_corner.evolve import evolve
from domain.games.kings_corner.legal import (
    build_of,
    draw_problem,
    end_turn_problem,
    fits,
    hand_plays,
    has_legal_action,
    king_obliged,
    king_pile_problem,
    pile_problem,
    place_problem,
    reject,
)
from domain.games.kings_corner.scoring import score_round
from domain.games.kings_corner.state import CORNERS, CROSS, FACTS, N_CROSS, SLOT_INDEX, CardFacts, KCState

B = Builder[KCState, KingsCornerEvent]


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


def _draw(b: B, count: int, reason: Any) -> None:
    s = b.state
    got = s.stock[: min(count, len(s.stock))]
    if got:
        b.emit(CardsDrawn(seat=s.seats[s.current], cards=got, count=len(got), reason=reason))


def turn_start(b: B) -> None:
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


def _resolve(cid: str, as_card: str | None) -> CardFacts | Rejected:
    f = FACTS[cid]
    if f.joker:
        if as_card is None:
            return reject("joker_needs_declaration", "say which card the joker stands for (as_card)")
        if (
            not isinstance(as_card, str)
            or as_card not in FACTS
            or FACTS[as_card].joker
            or FACTS[as_card].face != as_card
        ):
            return reject("bad_declaration", f"{as_card!r} is not a card a joker can stand for")
        return FACTS[as_card]
    if as_card is not None and as_card != cid:
        return reject("bad_declaration", "only a joker is declared as another card")
    return f


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
    if ruleset.mandatory_kings == "penalty3":
        # D1: the charge is private to the seat until the round is scored
        king_penalty = 3 * sum(1 for c in s.hands[i] if c in s.kings_seen)
        if king_penalty:
            b.emit(KingPenaltyCharged(seat=s.seats[i], points=king_penalty))
    fee = ruleset.idle_fee if ruleset.settlement != "penalty" and s.played == 0 else 0
    if draw:
        _draw(b, ruleset.draw_count, "turn_end")
    nxt = next_seat(s.out_of_turns(), i)
    b.emit(TurnEnded(seat=s.seats[i], next_seat=s.seats[nxt], idle_fee=fee))
    if _check_blocked(b):
        return
    turn_start(b)


def _check_blocked(b: B) -> bool:
    """§5.6 Blocked: stock empty and (nobody can act, or a full cycle of idle turns)."""
    s = b.state
    if s.stock or not s.in_round:
        return False
    playing = s.turn_seats()
    if s.idle >= len(playing) or not any(has_legal_action(s, j) for j in playing):
        _end_round(b, winner=None)
        return True
    return False


def _end_round(b: B, winner: int | None) -> None:
    b.emit(score_round(b.state, winner))


def resign(state: KCState, seat: str) -> tuple[KingsCornerEvent, ...] | Rejected:
    """RESIGN (§5.4 meta action, Decision D3).

    The seat takes no more turns, keeps its hand and scores it when the round is scored, and is
    ranked last.  When fewer than two seats would be left playing, the match ends (in a two-seat
    match, RESIGN ends the match).  A current seat's turn passes at once to the next seat, whose
    turn starts as usual (with the automatic draw of its timing); a seat leaving between rounds is
    dealt no more cards (and the next deal starts if every seat left is ready).
    """
    if seat not in state.seats:
        return reject("not_your_turn", f"{seat!r} is not a seat of this match")
    if state.phase == lifecycle.OVER:
        return reject("round_not_active", "the match is over")
    i = state.seats.index(seat)
    if state.out_of_turns()[i]:
        return reject("seat_out", f"{seat} is out of the match already")
    left = tuple(j for j in lifecycle.active(state.out_of_turns()) if j != i)
    b: B = Builder(state, evolve)
    if len(left) < 2 and state.in_round and state.decisions_1202:
        # D9: the round in play is scored at once as a blocked round (every hand as it stands), and
        # the match ends with the resigning seat last whatever the points.
        b.emit(SeatResigned(seat=seat))
        ended = score_round(b.state, None)
        b.emit(msgspec.structs.replace(ended, match_over=True, reason="resignation"))
        return b.result()
    if len(left) < 2:
        resigned = tuple(1 + max(state.resigned) if j == i else r for j, r in enumerate(state.resigned))
        lower = state.ruleset.winner == "lowest_total"
        ranks = standings(state.totals, state.out_round, lower_is_better=lower, resigned=resigned)
        b.emit(SeatResigned(seat=seat, match_over=True, ranks=ranks))
        return b.result()
    b.emit(SeatResigned(seat=seat))
    if state.in_round:
        if not _check_blocked(b) and state.current == i:
            turn_start(b)
    elif lifecycle.all_ready(b.state.ready, b.state.out_round):
        dealt = deal(b.state)
        if isinstance(dealt, str):
            return reject("seed_unavailable", dealt)
        b.emit(dealt)
        turn_start(b)
    return b.result()


def timeout(state: KCState, seat: str) -> tuple[KingsCornerEvent, ...] | Rejected:
    """TIMEOUT (§5.4 meta action, Decision D4): the current seat's time ran out.

    The server sends END_TURN with any mandatory draw.  Where END_TURN would be refused it first
    does the compulsory step: a pending V16 card goes to the first empty slot (in slot order) that
    takes it [decision: §5.4 names no slot]; under ``enforce`` each obliged king goes to the first
    empty corner in the order NE, SE, SW, NW; under ``until_playable`` the play requirement is
    waived and, if the stock is not empty and nothing was played or merged, one card is drawn.
    For the platform's turn clock; nothing in the match layer calls it yet.
    """
    if seat not in state.seats or not state.in_round or state.seats[state.current] != seat:
        return reject("not_your_turn", f"{seat!r} is not the seat to move")
    i = state.current
    b: B = Builder(state, evolve)
    while b.state.in_round and b.state.current == i and b.state.pending is not None:
        pending = b.state.pending
        slot = next(p.slot for p in hand_plays(b.state, i) if p.card == pending)
        _play_card(b, i, PlayCard(card=pending, slot=slot, as_card=None))
    s = b.state
    if not s.in_round or s.current != i:
        return b.result()
    if s.ruleset.mandatory_kings == "enforce":
        while b.state.in_round and b.state.current == i and king_obliged(b.state, i):
            s = b.state
            king = next(c for c in s.hands[i] if FACTS[c].rank == 13 and FACTS[c].face not in s.barred)
            corner = next(c for c in CORNERS if not s.layout[c])
            _play_card(b, i, PlayCard(card=king, slot=SLOTS[corner]))  # type: ignore[arg-type]
        if not b.state.in_round or b.state.current != i:
            return b.result()
    s = b.state
    if s.ruleset.draw_timing == "until_playable" and end_turn_problem(s, i) is not None:
        if s.stock:
            _draw(b, 1, "until_playable")
        _end_turn(b, i, draw=False)
        return b.result()
    problem = _decide_action(b, i, EndTurn())
    assert problem is None, problem
    return b.result()
