"""The round lifecycle of a card game.

    waiting --(every active seat sends Ready; the first Ready may carry a client seed)--> deal
    deal --> play phases of the game (bidding, tricks, building ...) --> round scored
    scored --(every active seat sends Ready)--> deal of the next round
    scored, when the match is over --> over

``WAITING`` and ``SCORED`` are the phases between rounds (the only ones that take Ready); the
pause after scoring keeps the round's revealed hands on the table until every seat has seen
them.  Client seeds (rng_v1, ARCHITECTURE §4) are taken only before the first deal: once a card
has been dealt, a new client seed could steer the next shuffle.

Seats are indexes into the match's seats; ``out_round[i]`` is 0 while seat ``i`` still plays
and the round it dropped out in otherwise (elimination, resignation).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from contracts.envelope import Rejected

WAITING: Final = "waiting"  # before the first deal
SCORED: Final = "scored"  # a round has been scored; the next deal waits for Ready
OVER: Final = "over"  # the match is over
BETWEEN_ROUNDS: frozenset[str] = frozenset({WAITING, SCORED})
MAX_CLIENT_SEED: Final = 256  # characters


def active(out_round: Sequence[int]) -> tuple[int, ...]:
    """Seat indexes still playing."""
    return tuple(i for i, r in enumerate(out_round) if r == 0)


def ready_problem(
    phase: str, ready: Sequence[bool], out_round: Sequence[int], i: int, client_seed: str
) -> Rejected | None:
    """Why seat ``i`` may not send Ready now, or None.

    Codes: ``not_dealing`` (not between rounds, or the seat is out), ``already_ready``,
    ``client_seed_too_long``.
    """
    if phase not in BETWEEN_ROUNDS:
        return Rejected(code="not_dealing", detail="Ready is for the start of a round")
    if out_round[i] != 0:
        return Rejected(code="not_dealing", detail="a seat that is out takes no part in later rounds")
    if ready[i]:
        return Rejected(code="already_ready", detail="this seat is ready already")
    if len(client_seed) > MAX_CLIENT_SEED:
        return Rejected(code="client_seed_too_long", detail=f"at most {MAX_CLIENT_SEED} characters")
    return None


def recorded_seed(round_no: int, client_seed: str) -> str:
    """The client seed a Ready event records: only before the first deal (round 0)."""
    return client_seed if round_no == 0 else ""


def mark_ready(
    ready: tuple[bool, ...], client_seeds: tuple[str, ...], i: int, client_seed: str, round_no: int
) -> tuple[tuple[bool, ...], tuple[str, ...]]:
    """Fold a Ready of seat ``i``: its flag set, its client seed kept if no card was dealt yet."""
    ready = ready[:i] + (True,) + ready[i + 1 :]
    if round_no == 0:
        client_seeds = client_seeds[:i] + (client_seed,) + client_seeds[i + 1 :]
    return ready, client_seeds


def all_ready(ready: Sequence[bool], out_round: Sequence[int]) -> bool:
    """Every seat still playing has sent Ready: deal now."""
    return all(ready[j] for j in active(out_round))


def waiting_for(ready: Sequence[bool], out_round: Sequence[int]) -> frozenset[int]:
    """Seats still playing that have not sent Ready (the movers between rounds)."""
    return frozenset(j for j in active(out_round) if not ready[j])


def after_scoring(match_over: bool) -> str:
    """The phase after a round is scored."""
    return OVER if match_over else SCORED
