"""Disputes as pure rules: the state of a match's disputes is a fold of its dispute events, and
what a ruling does to a recorded outcome (docs/ranked.md "Disputes").

A dispute is ``open`` from ``DisputeOpened`` until its ``RulingIssued``, which closes it for
good (``ruled``); notes may be added only while it is open; a match has at most one open dispute
at a time.  A player of the match (a seat that is not a guest) or an operator may open one, only
on a finished match; only an operator adds notes and rules.  Every refusal is a
``Rejected(code, detail)``; the shell maps codes to HTTP statuses.

The effective result of a match is its recorded outcome with its latest ruling applied:
``upheld`` keeps the recorded outcome, ``amended`` replaces the ranks (and scores), ``void``
removes the match (``None``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from contracts.disputes import (
    MAX_NOTE,
    MAX_REASON,
    RULINGS,
    DisputeEvent,
    DisputeOpened,
    NoteAdded,
    RulingIssued,
)
from contracts.envelope import Rejected
from contracts.match import Outcome
from contracts.subjects import dispute_id_of

OPEN = "open"
RULED = "ruled"


class DisputeState(msgspec.Struct, frozen=True, kw_only=True):
    opened: DisputeOpened
    notes: tuple[NoteAdded, ...] = ()
    ruling: RulingIssued | None = None

    @property
    def dispute_id(self) -> str:
        return self.opened.dispute_id

    @property
    def status(self) -> str:
        return OPEN if self.ruling is None else RULED


class MatchFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What a dispute needs of the match, read from its log by the shell."""

    match_id: str
    game: str
    finished: bool
    seats: tuple[str, ...]
    players: tuple[str, ...]
    guests: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()

    def is_player(self, name: str) -> bool:
        """Whether the account ``name`` played a seat of the match.  Only a seat that had a
        credential counts: its player is the name of the account the credential named (names are
        unique and never change, so the name is that account's identity).  A guest seat's name is
        whatever its creator typed and grants nothing to an account that happens to carry it."""
        return any(
            player == name and seat not in self.guests
            for seat, player in zip(self.seats, self.players, strict=False)
        )


class Actor(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    operator: bool = False


def may_read(match: MatchFacts | None, actor: Actor) -> bool:
    """Operators read every dispute; a player of the match (:meth:`MatchFacts.is_player`, never a
    guest seat's name) reads the match's disputes."""
    return actor.operator or (match is not None and match.is_player(actor.name))


def evolve(disputes: dict[str, DisputeState], event: DisputeEvent) -> dict[str, DisputeState]:
    """The disputes of a match after one event (a new dict; events out of order are a bug)."""
    out = dict(disputes)
    if isinstance(event, DisputeOpened):
        if event.dispute_id in out:
            raise ValueError(f"dispute {event.dispute_id} opened twice")
        out[event.dispute_id] = DisputeState(opened=event)
        return out
    state = out.get(event.dispute_id)
    if state is None or state.ruling is not None:
        raise ValueError(f"{type(event).__name__} for dispute {event.dispute_id}, which is not open")
    if isinstance(event, NoteAdded):
        out[event.dispute_id] = msgspec.structs.replace(state, notes=(*state.notes, event))
    else:
        out[event.dispute_id] = msgspec.structs.replace(state, ruling=event)
    return out


def fold(events: Iterable[DisputeEvent]) -> dict[str, DisputeState]:
    """Every dispute of a match, in the order they were opened."""
    disputes: dict[str, DisputeState] = {}
    for event in events:
        disputes = evolve(disputes, event)
    return disputes


def next_dispute_id(match_id: str, disputes: dict[str, DisputeState]) -> str:
    return dispute_id_of(match_id, len(disputes) + 1)


def _text_problem(text: str, limit: int, what: str, code: str) -> Rejected | None:
    if not text.strip():
        return Rejected(code=code, detail=f"a {what} is required")
    if len(text) > limit:
        return Rejected(code=code, detail=f"a {what} has at most {limit} characters")
    return None


def open_problem(
    match: MatchFacts | None, disputes: dict[str, DisputeState], actor: Actor, reason: str
) -> Rejected | None:
    """Why ``actor`` may not open a dispute on ``match`` now (None: they may)."""
    bad = _text_problem(reason, MAX_REASON, "reason", "invalid_reason")
    if bad is not None:
        return bad
    if match is None:
        return Rejected(code="match_not_found", detail="no such match")
    if not actor.operator and not match.is_player(actor.name):
        return Rejected(code="not_a_player", detail="only a player of the match or an operator opens a dispute on it")
    if not match.finished:
        return Rejected(code="match_not_finished", detail="only a finished match can be disputed")
    for state in disputes.values():
        if state.ruling is None:
            return Rejected(
                code="dispute_open", detail=f"dispute {state.dispute_id} of this match is open; add to it instead"
            )
    return None


def opened(match: MatchFacts, disputes: dict[str, DisputeState], actor: Actor, reason: str, at: int) -> DisputeOpened:
    return DisputeOpened(
        dispute_id=next_dispute_id(match.match_id, disputes),
        match_id=match.match_id,
        game=match.game,
        opened_by=actor.name,
        by_operator=actor.operator,
        reason=reason.strip(),
        seats=match.seats,
        players=match.players,
        ranks=match.ranks,
        scores=match.scores,
        opened_at=at,
    )


def _operator_open(state: DisputeState | None, actor: Actor, what: str) -> Rejected | None:
    if not actor.operator:
        return Rejected(code="not_an_operator", detail=f"only an operator {what}")
    if state is None:
        return Rejected(code="dispute_not_found", detail="no such dispute")
    if state.ruling is not None:
        return Rejected(
            code="dispute_closed",
            detail=f"dispute {state.dispute_id} was ruled {state.ruling.ruling} and is closed",
        )
    return None


def note_problem(state: DisputeState | None, actor: Actor, text: str) -> Rejected | None:
    return _operator_open(state, actor, "adds notes to a dispute") or _text_problem(
        text, MAX_NOTE, "note", "invalid_note"
    )


def ruling_problem(
    state: DisputeState | None,
    actor: Actor,
    ruling: str,
    ranks: Sequence[int],
    scores: Sequence[float],
    reason: str,
) -> Rejected | None:
    """Why this ruling is refused (None: it may be issued)."""
    closed = _operator_open(state, actor, "rules on a dispute")
    if closed is not None:
        return closed
    assert state is not None
    if ruling not in RULINGS:
        return Rejected(code="invalid_ruling", detail=f"a ruling is one of {', '.join(RULINGS)}")
    bad = _text_problem(reason, MAX_REASON, "reason", "invalid_reason")
    if bad is not None:
        return bad
    seats = len(state.opened.seats)
    if ruling != "amended":
        if ranks or scores:
            return Rejected(code="invalid_ruling", detail=f"a ruling '{ruling}' takes no ranks or scores")
        return None
    if len(ranks) != seats:
        return Rejected(code="invalid_ruling", detail=f"an amended result has one rank per seat ({seats})")
    if any(not 1 <= r <= seats for r in ranks) or min(ranks) != 1:
        return Rejected(code="invalid_ruling", detail=f"ranks are 1 (best) to {seats}, and some seat is 1")
    if scores and len(scores) != seats:
        return Rejected(code="invalid_ruling", detail=f"scores, when given, are one per seat ({seats})")
    if tuple(ranks) == state.opened.ranks and (not scores or tuple(scores) == state.opened.scores):
        return Rejected(code="invalid_ruling", detail="that is the recorded result: rule 'upheld' instead")
    return None


def ruled(
    state: DisputeState,
    actor: Actor,
    ruling: str,
    ranks: Sequence[int],
    scores: Sequence[float],
    reason: str,
    at: int,
) -> RulingIssued:
    return RulingIssued(
        dispute_id=state.dispute_id,
        match_id=state.opened.match_id,
        game=state.opened.game,
        ruling=ruling,  # type: ignore[arg-type]  # checked by ruling_problem
        reason=reason.strip(),
        ruled_by=actor.name,
        ruled_at=at,
        ranks=tuple(ranks),
        scores=tuple(float(s) for s in scores),
    )


def apply_ruling(original: Outcome, ruling: RulingIssued | None) -> Outcome | None:
    """The outcome that counts after ``ruling`` (None: the match is void)."""
    if ruling is None or ruling.ruling == "upheld":
        return original
    if ruling.ruling == "void":
        return None
    ranks = ruling.ranks
    return Outcome(
        ranks=ranks,
        scores=ruling.scores or original.scores,
        reason=f"amended by ruling {ruling.dispute_id}",
        draw=len(set(ranks)) == 1,
    )


def effective_outcome(original: Outcome, rulings: Sequence[RulingIssued]) -> Outcome | None:
    """The latest ruling decides (an earlier one was overruled by a later dispute)."""
    return apply_ruling(original, rulings[-1] if rulings else None)
