"""Computer players for Farkle Flip: pure (state, seat, rng) -> command, on the seat's information
state (the draw pile is ``??`` there, so they count what is still unseen from the deck composition)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from contracts.envelope import Rejected
from contracts.games.farkle_flip import FACES, FARKLE, Draw, FarkleFlipCommand, Lock, Place, Ready, Stop
from domain.core.decider import Bot
from domain.games.farkle_flip.evolve import evolve
from domain.games.farkle_flip.legal import lock_commands, stop_outcome
from domain.games.farkle_flip.phases import decide, legal_commands
from domain.games.farkle_flip.rules import find_pattern
from domain.games.farkle_flip.state import FFState


def random_bot(state: FFState, seat: str, rng: random.Random) -> FarkleFlipCommand:
    return rng.choice(legal_commands(state, seat))


def unseen(state: FFState) -> Counter[str]:
    """What the draw pile holds (as a multiset): the deck minus every card that is face up or
    scored.  When the draw pile is empty the next draw takes the reshuffled scored pile."""
    if not state.draw_pile:
        return Counter(state.scored_pile)
    left = Counter({k: n for k, n in state.rules.deck_composition.items() if n})
    seen: Counter[str] = Counter()
    for area in state.areas:
        seen.update(v for v, _ in area)
    for combo in state.centre:
        seen.update(combo.cards)
    seen.update(state.scored_pile)
    seen.update(state.set_aside)
    seen[FARKLE] += sum(state.farkle_held)
    if state.pending is not None:
        seen[state.pending] += 1
    left.subtract(seen)
    return +left


def farkle_risk(state: FFState) -> float:
    pool = unseen(state)
    total = sum(pool.values())
    return pool[FARKLE] / total if total else 0.0


def _lock_value(state: FFState, lock: Lock) -> int:
    area = state.areas[state.seats.index(lock.owner)]
    pattern = find_pattern(state.rules, lock.pattern)
    if pattern is None:
        return 0
    values = tuple(area[k][0] for k in lock.cards)
    if pattern.face_values:
        return pattern.face_values.get(values[0], 0)
    return pattern.value


def best_lock(state: FFState) -> Lock | None:
    locks = lock_commands(state)
    if not locks:
        return None
    return max(locks, key=lambda c: (_lock_value(state, c), -len(c.cards)))


def _best_in_area(state: FFState, o: int, extra: str) -> int:
    """The most one lock could score in area ``o`` with ``extra`` added (ignoring lost groups)."""
    counts = Counter(v for v, _ in state.areas[o])
    counts[extra] += 1
    best = 0
    for p in state.rules.patterns:
        if len(p.groups) == 1:
            for f in FACES:
                if counts[f] >= p.groups[0] and (not p.face_values or f in p.face_values):
                    best = max(best, p.face_values.get(f, 0) if p.face_values else p.value)
        else:
            sizes = sorted((counts[f] for f in FACES if counts[f]), reverse=True)
            if len(sizes) >= len(p.groups) and all(a >= b for a, b in zip(sizes, p.groups, strict=False)):
                best = max(best, p.value)
    return best


def place_target(state: FFState, seat: str) -> Place:
    """The area where the pending card makes the best combination now; otherwise the own area."""
    assert state.pending is not None
    me = state.seats.index(seat)
    scores = [
        (_best_in_area(state, o, state.pending) - _best_in_area(state, o, "?"), o == me, -o)
        for o in range(len(state.seats))
    ]
    best = max(scores)
    return Place(target=state.seats[-best[2]])


def heuristic_bot(state: FFState, seat: str, rng: random.Random, gain: float = 150.0) -> FarkleFlipCommand:
    """Place where a combination forms, lock the best combination, then bank when the points at
    stake outweigh the expected gain of another draw at the current Farkle risk:
    stop when p * at_stake > (1 - p) * gain (p = Farkle cards / unseen cards)."""
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError(f"{seat} has no legal command")
    if isinstance(legal[0], Ready):
        return legal[0]
    if state.pending is not None:
        return place_target(state, seat)
    lock = best_lock(state)
    if lock is not None:
        return lock
    return draw_or_stop(state, legal, gain)


def draw_or_stop(state: FFState, legal: tuple[FarkleFlipCommand, ...], gain: float) -> FarkleFlipCommand:
    can_draw = any(isinstance(c, Draw) for c in legal)
    can_stop = any(isinstance(c, Stop) for c in legal)
    if not can_draw:
        return Stop()
    if not can_stop:
        return Draw()
    stopped = stop_outcome(state)
    if isinstance(stopped, Rejected) or stopped.result != "banked":
        return Draw()  # nothing to bank, or a forfeit: drawing risks at most a held Farkle card (+100)
    p = farkle_risk(state)
    at_stake = stopped.points
    return Stop() if p * at_stake > (1 - p) * gain else Draw()


# ---------------------------------------------------------------- Monte Carlo
ROLLOUTS = 24
_ROLLOUT_SEED = bytes(32)  # the rollouts' own reshuffles; never the match's seed


def _sample_pile(state: FFState, rng: random.Random) -> FFState:
    """The state with the hidden draw pile replaced by a random order of what is unseen."""
    pool = unseen(state)
    if not state.draw_pile:
        return msgspec.structs.replace(state, seed=_ROLLOUT_SEED)
    cards = [k for k, n in sorted(pool.items()) for _ in range(n)]
    rng.shuffle(cards)
    cards = cards[: len(state.draw_pile)]
    return msgspec.structs.replace(state, draw_pile=tuple(cards), seed=_ROLLOUT_SEED)


def _rollout_turn(state: FFState, seat: str, rng: random.Random, gain: float) -> float:
    """Play the rest of the turn with the heuristic; the points it banks (a bust: the Farkle card
    held is worth half its value later)."""
    i = state.seats.index(seat)
    before = state.banked[i]
    held = state.farkle_held[i]
    for _ in range(200):
        if state.status != "playing" or state.current != i:
            break
        cmd = heuristic_bot(state, seat, rng, gain)
        events = decide(state, seat, cmd)
        if isinstance(events, Rejected):
            break
        for e in events:
            state = evolve(state, e)
    points = float(state.banked[i] - before)
    if state.farkle_held[i] > held:
        points += 0.5 * state.rules.farkle_value
    return points


def search_bot(state: FFState, seat: str, rng: random.Random) -> FarkleFlipCommand:
    """Monte Carlo: like the heuristic for placing and locking, but at a draw-or-stop choice it
    compares the bank now with the mean result of ``ROLLOUTS`` sampled continuations of the turn
    (draw piles drawn from the unseen cards, the heuristic playing on)."""
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError(f"{seat} has no legal command")
    if isinstance(legal[0], Ready):
        return legal[0]
    if state.pending is not None:
        return place_target(state, seat)
    lock = best_lock(state)
    if lock is not None:
        return lock
    can_draw = any(isinstance(c, Draw) for c in legal)
    can_stop = any(isinstance(c, Stop) for c in legal)
    if not (can_draw and can_stop):
        return Draw() if can_draw else Stop()
    stopped = stop_outcome(state)
    if isinstance(stopped, Rejected) or stopped.result != "banked":
        return Draw()
    now = float(stopped.points)
    total = 0.0
    for _ in range(ROLLOUTS):
        sim = _sample_pile(state, rng)
        events = decide(sim, seat, Draw())
        if isinstance(events, Rejected):
            return Stop()
        for e in events:
            sim = evolve(sim, e)
        total += _rollout_turn(sim, seat, rng, 150.0)
    return Draw() if total / ROLLOUTS > now else Stop()


BOTS: dict[str, Bot[FFState, FarkleFlipCommand]] = {
    "random": random_bot,
    "heuristic": heuristic_bot,
    "search": search_bot,
}
