"""State of a Kings Cup table (rules/king.md §15.1) and its set-up.

The phases are the ``status`` values: ``waiting`` (until every seat has sent Ready), ``playing``
(one seat draws, then answers its card), ``finished``; a table whose seats the ruleset does not
take is ``invalid`` (``seat_problem``) whatever its status (``phases.py``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.kings_cup import KingsCupRuleset
from domain.core import cards

Status = Literal["waiting", "playing", "finished"]


class CupState(msgspec.Struct, frozen=True, kw_only=True):
    rules: KingsCupRuleset
    seats: tuple[str, ...]
    seed: bytes | None
    seat_problem: str | None = None
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    status: Status = "waiting"
    cup: tuple[str, ...] = ()  # face down, next first ("??" in a seat's information state)
    current: int = -1
    awaiting: str | None = None  # the effect the drawer still has to answer
    kings: int = 0
    drawn: tuple[tuple[int, str], ...] = ()  # (seat, card) in order
    question_master: int = -1
    mates: tuple[tuple[int, int], ...] = ()  # (seat, mate)
    made: tuple[tuple[int, str], ...] = ()  # standing rules (seat, text)
    end_reason: str = ""
    ended_by: int = -1


def rank_of(card: str) -> str:
    return cards.parse(card).rank


def initial_state(rules: KingsCupRuleset, seats: tuple[str, ...], seed: bytes | None) -> CupState:
    n = len(seats)
    return CupState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
    )
