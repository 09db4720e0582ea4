"""What the rules allow (rules/kings-corner.md §5.2 helpers, A1-A6 conditions): card fitting,
placement and pile-move problems, the legal plays of a seat, and the DRAW / END_TURN checks.

Every ``*_problem`` function returns the rejection code (or ``Rejected``) of the first rule a move
breaks, or None; the enumerations (``hand_plays``, ``runs``, ``pile_moves``) list exactly the moves
whose problem is None, so ``legal_commands`` and ``decide`` never disagree.
"""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    DrawCard,
    EndTurn,
    KingsCornerCommand,
    KingsCornerRuleset,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
)
from domain.games.kings_corner.v1.state import (
    CORNERS,
    CROSS,
    FACES,
    FACTS,
    KING_FACES,
    N_CROSS,
    SLOT_INDEX,
    CardFacts,
    KCState,
)

_replace = msgspec.structs.replace


def reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def eff(state: KCState, cid: str) -> CardFacts:
    """A card's facts, a played joker's as its declared card."""
    f = FACTS[cid]
    if f.joker:
        for joker, face in state.declared:
            if joker == cid:
                return FACTS[face]
    return f


def fits(c: CardFacts, t: CardFacts, build: str) -> bool:
    if build == "down_alt_colour":
        return c.rank == t.rank - 1 and c.red != t.red
    if build == "down_in_suit":
        return c.rank == t.rank - 1 and c.suit == t.suit
    return c.rank == t.rank + 1 and c.suit == t.suit  # up_in_suit (provisional, robinson)


def build_of(ruleset: KingsCornerRuleset, slot: int) -> str:
    return ruleset.cross_build if slot < N_CROSS else ruleset.corner_build


def _closed(t: CardFacts, build: str) -> bool:
    return (t.rank == 1 and build != "up_in_suit") or (t.rank == 13 and build == "up_in_suit")


def place_problem(state: KCState, card: CardFacts, slot: int) -> str | None:
    """Why ``card`` (already resolved to its identity) may not go onto ``slot``, or None (A2)."""
    ruleset = state.ruleset
    pile = state.layout[slot]
    if slot >= N_CROSS and card.face in state.barred:
        return "card_barred"
    if pile:
        top = eff(state, pile[-1])
        build = build_of(ruleset, slot)
        if fits(card, top, build):
            return None
        return "pile_closed" if _closed(top, build) else "does_not_fit"
    if slot >= N_CROSS:
        return None if card.rank == 13 else "corner_needs_king"
    if ruleset.empty_cross_accepts == "any_except_king" and card.rank == 13:
        return "no_king_on_empty_cross"
    return None


Target = tuple[int, CardFacts | None, str, bool]  # slot, exposed card, build, is a corner


def _targets(state: KCState) -> list[Target]:
    ruleset = state.ruleset
    return [
        (slot, eff(state, pile[-1]) if pile else None, build_of(ruleset, slot), slot >= N_CROSS)
        for slot, pile in enumerate(state.layout)
    ]


def _takes(state: KCState, target: Target, f: CardFacts) -> bool:
    """place_problem(...) is None, for enumeration (same rules, no reason)."""
    _, top, build, corner = target
    if corner and f.face in state.barred:
        return False
    if top is not None:
        return fits(f, top, build)
    if corner:
        return f.rank == 13
    return not (f.rank == 13 and state.ruleset.empty_cross_accepts == "any_except_king")


def hand_plays(state: KCState, seat: int, first_only: bool = False) -> list[PlayCard]:
    """Every legal PLAY_CARD of ``seat`` on the current layout (jokers with each declaration)."""
    out: list[PlayCard] = []
    targets = _targets(state)
    if state.pending is not None:
        targets = [t for t in targets if not state.layout[t[0]]]
    for cid in dict.fromkeys(state.hands[seat]):
        if state.pending is not None and cid != state.pending:
            continue
        f = FACTS[cid]
        for t in targets:
            if f.joker:
                for face in _declarations(state, t):
                    out.append(PlayCard(card=cid, slot=SLOTS[t[0]], as_card=face))  # type: ignore[arg-type]
                    if first_only:
                        return out
            elif _takes(state, t, f):
                out.append(PlayCard(card=cid, slot=SLOTS[t[0]]))  # type: ignore[arg-type]
                if first_only:
                    return out
    return out


def _declarations(state: KCState, target: Target) -> list[str]:
    candidates = KING_FACES if target[1] is None and target[3] else FACES
    return [c for c in candidates if _takes(state, target, FACTS[c])]


def pile_problem(state: KCState, src: int, dst: int) -> str | None:
    """Why the whole pile at ``src`` may not move onto ``dst`` (A4), or None."""
    if src == dst:
        return "same_slot"
    if src >= N_CROSS:
        return "corner_pile_immovable"
    if not state.layout[src] or not state.layout[dst]:
        return "empty_slot"
    ruleset = state.ruleset
    if build_of(ruleset, src) != build_of(ruleset, dst):
        return "mixed_build"
    build = build_of(ruleset, dst)
    top = eff(state, state.layout[dst][-1])
    if not fits(eff(state, state.layout[src][0]), top, build):
        return "pile_closed" if _closed(top, build) else "does_not_fit"
    if dst >= N_CROSS and any(eff(state, c).face in state.barred for c in state.layout[src]):
        return "card_barred"
    return None


def king_pile_problem(state: KCState, src: int, dst: int) -> str | None:
    """Why the cross pile at ``src`` may not move into the empty corner ``dst`` (A5), or None."""
    ruleset = state.ruleset
    if not ruleset.king_pile_to_corner:
        return "king_pile_move_disabled"
    if src >= N_CROSS:
        return "not_a_cross_slot"
    if dst < N_CROSS:
        return "not_a_corner"
    pile = state.layout[src]
    if not pile:
        return "empty_slot"
    if eff(state, pile[0]).rank != 13:
        return "not_a_king_pile"
    if state.layout[dst]:
        return "corner_occupied"
    if ruleset.corner_build != ruleset.cross_build:
        for below, above in zip(pile, pile[1:], strict=False):
            if not fits(eff(state, above), eff(state, below), ruleset.corner_build):
                return "mixed_build"
    if any(eff(state, c).face in state.barred for c in pile):
        return "card_barred"
    return None


def pile_moves(state: KCState) -> list[MovePile | MoveKingPile]:
    out: list[MovePile | MoveKingPile] = []
    ruleset = state.ruleset
    tops = [eff(state, p[-1]) if p else None for p in state.layout]
    for src in CROSS:
        if not state.layout[src]:
            continue
        base = eff(state, state.layout[src][0])
        for dst in range(8):
            top = tops[dst]
            if top is not None:
                if (
                    dst != src
                    and fits(base, top, build_of(ruleset, dst))
                    and pile_problem(state, src, dst) is None
                ):
                    out.append(MovePile(from_slot=SLOTS[src], to_slot=SLOTS[dst]))  # type: ignore[arg-type]
            elif dst >= N_CROSS and base.rank == 13 and king_pile_problem(state, src, dst) is None:
                out.append(MoveKingPile(from_slot=SLOTS[src], to_slot=SLOTS[dst]))  # type: ignore[arg-type]
    return out


def has_legal_action(state: KCState, seat: int) -> bool:
    """§5.2 legal_actions(seat) is non-empty (as if it were that seat's turn; no DRAW/END_TURN)."""
    if state.pending is not None and state.current == seat:
        return True
    scratch = state if state.pending is None else _replace(state, pending=None)
    return bool(hand_plays(scratch, seat, first_only=True)) or bool(pile_moves(scratch))


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


def king_obliged(state: KCState, seat: int) -> bool:
    """mandatory_kings: the seat holds a king that could start an empty corner."""
    if not any(not state.layout[c] for c in CORNERS):
        return False
    return any(FACTS[c].rank == 13 and FACTS[c].face not in state.barred for c in state.hands[seat])


def any_empty_slot_takes(state: KCState, cid: str) -> bool:
    f = FACTS[cid]
    for target in _targets(state):
        if target[1] is not None:
            continue
        if f.joker:
            if _declarations(state, target):
                return True
        elif _takes(state, target, f):
            return True
    return False


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


def place_moves(state: KCState, i: int) -> tuple[KingsCornerCommand, ...]:
    """Phase ``place`` (V16): the pending card to each empty slot that takes it."""
    return tuple(hand_plays(state, i))
