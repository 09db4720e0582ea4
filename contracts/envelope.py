"""Envelopes: what is stored per decision and what crosses the wire per command.

Every stored decision is one ``EventEnvelope``; ``prev_hash`` chains it to the previous
envelope's stored bytes (see ``domain.core.audit``).  ``events`` holds the game's and the
match's own tagged events; decoders are built per game in ``contracts.codecs``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

E = TypeVar("E")
C = TypeVar("C")


class EventEnvelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True, tag="event_envelope.v1"):
    match_id: str
    game: str
    rules_version: str
    seq: int  # 1-based decision number within the match
    command_id: str
    correlation_id: str
    recorded_at: int  # unix milliseconds, stamped by the referee (shell), never read by rules
    prev_hash: str
    seat: str | None = None  # who issued the command; None for the system
    # The command as decided (builtins, never the seat token): the audit re-decides it and
    # compares the result with ``events``.
    command: Any = None
    events: tuple[E, ...]
    # A sealed decision (docs/audit.md "Sealed decisions"): ``events`` holds what a spectator may
    # see of them, ``command`` is None, and this is the base64 of the XSalsa20-Poly1305 box of the
    # ``SealedDecision`` (the command and the full events) under the match's seal key.  UNSET (not
    # encoded at all) for a decision with nothing hidden: those are stored exactly as before.
    sealed: str | msgspec.UnsetType = msgspec.UNSET


class SealedDecision(msgspec.Struct, Generic[E], frozen=True, kw_only=True, tag="sealed_decision.v1"):
    """The plaintext of a sealed envelope: the decided command and every event in full."""

    command: Any = None
    events: tuple[E, ...]


class CommandEnvelope(msgspec.Struct, Generic[C], frozen=True, kw_only=True, tag="command_envelope.v1"):
    command_id: str
    match_id: str
    game: str
    correlation_id: str = ""
    seat: str | None = None
    token: str = ""  # the seat's secret token; the referee compares its hash with the recorded one
    command: C


class Rejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected.v1"):
    """A refused command. ``code`` is a stable snake_case identifier per game."""

    code: str
    detail: str = ""


class Accepted(msgspec.Struct, frozen=True, kw_only=True, tag="accepted.v1"):
    match_id: str
    seq: int
    command_id: str
    duplicate: bool = False  # True when the command id had already been decided
    events: tuple[Any, ...] = ()  # the decision's events as stored (builtins), redacted for the caller
    finished: bool = False

    @property
    def type(self) -> str:
        """The reply's type as it is on the wire: ``accepted.v1``."""
        return "accepted.v1"


Reply = Accepted | Rejected
