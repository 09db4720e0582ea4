"""Disputes of finished matches: events on the disputes stream (``GH_DISPUTES``).

Every event of the disputes of one match is stored on ``dispute.<match_id>``
(``contracts.subjects.dispute_subject``), appended with the expected last subject sequence, so
two operators ruling at once cannot both succeed.  The match log is never edited: a ruling is a
new fact beside it, and scoring folds it into ratings and standings (docs/ranked.md "Disputes").

A dispute's id is ``<match_id>-<n>`` (``n`` counts the match's disputes from 1).
"""

from __future__ import annotations

from typing import Literal

import msgspec

Ruling = Literal["upheld", "amended", "void"]
RULINGS: tuple[str, ...] = ("upheld", "amended", "void")
MAX_REASON = 2000
MAX_NOTE = 4000


class DisputeOpened(msgspec.Struct, frozen=True, kw_only=True, tag="dispute.opened.v1"):
    dispute_id: str
    match_id: str
    game: str
    opened_by: str  # the account name of the player or operator who opened it
    by_operator: bool
    reason: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    ranks: tuple[int, ...]  # the outcome as the match log records it, seat order
    scores: tuple[float, ...] = ()
    opened_at: int  # unix ms


class NoteAdded(msgspec.Struct, frozen=True, kw_only=True, tag="dispute.note.v1"):
    dispute_id: str
    match_id: str
    author: str  # an operator's account name
    text: str
    at: int


class RulingIssued(msgspec.Struct, frozen=True, kw_only=True, tag="dispute.ruling.v1"):
    """The operator's decision; it closes the dispute.

    ``upheld``: the result stands as recorded.  ``amended``: ``ranks`` (and ``scores`` when the
    game has them) replace the recorded outcome, one entry per seat in seat order.  ``void``:
    the match does not count (no rating effect, no standings)."""

    dispute_id: str
    match_id: str
    game: str
    ruling: Ruling
    reason: str
    ruled_by: str  # an operator's account name
    ruled_at: int
    ranks: tuple[int, ...] = ()  # amended only
    scores: tuple[float, ...] = ()  # amended only (optional)


DisputeEvent = DisputeOpened | NoteAdded | RulingIssued
