"""What the rules allow (rules/kings-corner.md §5.2 helpers, A1-A6 conditions): card fitting,
placement and pile-move problems, the legal plays of a seat, and the DRAW / END_TURN checks.

Every ``*_problem`` function returns the rejection code (or ``Rejected``) of the first rule a move
breaks, or None; the enumerations (``hand_plays``, ``runs``, ``pile_moves``) list exactly the moves
whose problem is None, so ``legal_commands`` and ``decide`` never disagree.
"""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    DrawCard,
    EndTurn,
    KingsCornerCommand,
    PlayCard,
    PlayRun,
)
from domain.games.kings_corner.legal import (
    build_of,
    fits,
    hand_plays,
    has_legal_action,
    king_obliged,
    pile_moves,
    reject,
)
from domain.games.kings_corner.state import (
    FACTS,
    N_CROSS,
    SLOT_INDEX,
    KCState,
)


def runs(state: KCState, seat: int, singles: list[PlayCard] | None = None) -> list[PlayRun]:
    """Every legal PLAY_RUN (two cards or more, no jokers) of ``seat``; ``singles`` = its hand plays."""
    if not state.ruleset.run_play_action or state.pending is not None:
        return []
    if singles is None:
        singles = hand_plays(state, seat)
    hand = [c for c in dict.fromkeys(state.hands[seat]) if not FACTS[c].joker]
    barred = state.barred
    out: list[PlayRun] = []

    def extend(chain: list[str], slot: str, build: str, corner: bool) -> None:
        last = FACTS[chain[-1]]
        for cid in hand:
            f = FACTS[cid]
            if fits(f, last, build) and cid not in chain and not (corner and f.face in barred):
                chain.append(cid)
                out.append(PlayRun(cards=tuple(chain), slot=slot))  # type: ignore[arg-type]
                extend(chain, slot, build, corner)
                chain.pop()

    for play in singles:
        if play.as_card is None:
            index = SLOT_INDEX[play.slot]
            extend([play.card], play.slot, build_of(state.ruleset, index), index >= N_CROSS)
    return sorted(out, key=lambda r: (SLOT_INDEX[r.slot], r.cards))


def draw_problem(s: KCState, i: int) -> Rejected | None:
    """A1 DRAW: why the current seat may not draw now, or None."""
    ruleset = s.ruleset
    if s.pending is not None:
        return reject("pending_placement", f"{s.pending} must first go to an empty slot")
    timing = ruleset.draw_timing
    if timing in ("start", "start_if_stuck"):
        return reject("draw_not_allowed", f"under {timing} timing the server draws for you")
    if not s.stock:
        return reject("stock_empty", "the stock is empty: end the turn instead")
    if timing == "end":
        if ruleset.mandatory_kings == "enforce" and king_obliged(s, i):
            return reject("kings_must_be_played", "a king must go to the empty corner first")
        return None
    if has_legal_action(s, i):
        return reject("play_available", "you can play: draw only when nothing can be laid out")
    return None


def end_turn_problem(s: KCState, i: int) -> Rejected | None:
    """A6 END_TURN: why the current seat may not end its turn now, or None."""
    ruleset = s.ruleset
    if s.pending is not None:
        return reject("pending_placement", f"{s.pending} must first go to an empty slot")
    if ruleset.mandatory_kings == "enforce" and king_obliged(s, i):
        return reject("kings_must_be_played", "a king must go to the empty corner first")
    if ruleset.draw_timing == "until_playable" and not ruleset.optional_play:
        if s.stock and s.played + s.merges == 0:
            return reject("must_play_first", "play or merge at least once (draw until you can)")
    return None


def play_moves(state: KCState, i: int) -> tuple[KingsCornerCommand, ...]:
    """Phase ``play``: every legal command of the current seat ``i``."""
    singles = hand_plays(state, i)
    out: list[KingsCornerCommand] = [*singles, *runs(state, i, singles), *pile_moves(state)]
    if draw_problem(state, i) is None:
        out.append(DrawCard())
    if end_turn_problem(state, i) is None:
        out.append(EndTurn())
    return tuple(out)
