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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Final, Generic, TypeVar

from contracts.envelope import Rejected
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.phases import Phase

S = TypeVar("S")
E = TypeVar("E")

WAITING: Final = "waiting"  # before the first deal
SCORED: Final = "scored"  # a round has been scored; the next deal waits for Ready
OVER: Final = "over"  # the match is over
BETWEEN_ROUNDS: frozenset[str] = frozenset({WAITING, SCORED})
MAX_CLIENT_SEED: Final = 256  # characters
SEED_TOO_LONG: Final = f"at most {MAX_CLIENT_SEED} characters"  # the detail of client_seed_too_long


def active(out_round: Sequence[int]) -> tuple[int, ...]:
    """Seat indexes still playing."""
    return tuple(i for i, r in enumerate(out_round) if r == 0)


def ready_problem(
    phase: str,
    ready: Sequence[bool],
    out_round: Sequence[int],
    i: int,
    client_seed: str,
    seed_too_long: str = SEED_TOO_LONG,
) -> Rejected | None:
    """Why seat ``i`` may not send Ready now, or None.

    Codes: ``not_dealing`` (not between rounds, or the seat is out), ``already_ready``,
    ``client_seed_too_long`` (with the detail ``seed_too_long``).
    """
    if phase not in BETWEEN_ROUNDS:
        return Rejected(code="not_dealing", detail="Ready is for the start of a round")
    if out_round[i] != 0:
        return Rejected(code="not_dealing", detail="a seat that is out takes no part in later rounds")
    if ready[i]:
        return Rejected(code="already_ready", detail="this seat is ready already")
    if len(client_seed) > MAX_CLIENT_SEED:
        return Rejected(code="client_seed_too_long", detail=seed_too_long)
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


def _ready_flags(state: Any) -> Sequence[bool]:
    return state.ready  # type: ignore[no-any-return]


def _round_no(state: Any) -> int:
    return getattr(state, "round_no", 0)


def _all_play(state: Any) -> Sequence[int]:
    return (0,) * len(state.ready)


@dataclass(frozen=True)
class ReadyStep(Generic[S, E]):
    """The ready lifecycle of every card game as one phase step: a seat's ``Ready`` (checked by
    ``ready_problem``), its ``ready_event(state, i, client_seed)`` (the client seed as
    ``recorded_seed`` keeps it), and, once every seat still playing is ready, the game's
    ``deal(builder)`` step (usually ``domain.core.cardgame.deal.step``).

    ``phase_of``, ``ready_of``, ``out_of`` and ``round_of`` read the state's phase, ready flags,
    ``out_round`` (default: nobody out) and round number (0 before the first deal; default: the
    state's ``round_no``, 0 for a game without rounds); ``seed_too_long`` is the detail of
    ``client_seed_too_long``.
    ``phase(name, ready_type)`` is the ``Phase`` of a between-rounds phase that runs this step.
    """

    ready_event: Callable[[S, int, str], E]
    deal: Callable[[Builder[S, E]], Rejected | None]
    phase_of: Callable[[S], str] = attrgetter("phase")
    ready_of: Callable[[S], Sequence[bool]] = _ready_flags
    out_of: Callable[[S], Sequence[int]] = _all_play
    round_of: Callable[[S], int] = _round_no
    seed_too_long: str = SEED_TOO_LONG

    def __call__(self, b: Builder[S, E], i: int, command: Any) -> Rejected | None:
        s = b.state
        problem = ready_problem(
            self.phase_of(s), self.ready_of(s), self.out_of(s), i, command.client_seed, self.seed_too_long
        )
        if problem is not None:
            return problem
        b.emit(self.ready_event(s, i, recorded_seed(self.round_of(s), command.client_seed)))
        if all_ready(self.ready_of(b.state), self.out_of(b.state)):
            return self.deal(b)
        return None

    def movers(self, state: S) -> frozenset[int]:
        return waiting_for(self.ready_of(state), self.out_of(state))

    def phase(self, name: str, ready_type: type[Any]) -> Phase[S, Any, E]:
        def legal(state: S, i: int) -> tuple[Any, ...]:
            return (ready_type(),) if i in self.movers(state) else ()

        return Phase(name, (ready_type,), self.movers, legal, self)
