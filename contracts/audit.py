"""The audit bundle: a match's stored envelopes, byte for byte, and what is needed to re-check them."""

from __future__ import annotations

import msgspec

from contracts.certificate import SignedCertificate


class StoredEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    stream_seq: int
    data: str  # the exact stored bytes (UTF-8 JSON text); the hash chain covers these bytes


class AuditBundle(msgspec.Struct, frozen=True, kw_only=True, tag="audit_bundle.v1"):
    match_id: str
    game: str
    rules_version: str
    exported_at: int  # unix ms
    head_hash: str  # sha256 of the last envelope's bytes: pins the end of the chain
    envelopes: tuple[StoredEnvelope, ...]
    # The referee's signed certificate of a finished match (absent while it runs).
    certificate: SignedCertificate | None = None


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    game: str
    rules_version: str
    ok: bool
    problems: tuple[str, ...]
    listing: tuple[str, ...]
    envelopes: int
    redecided: int  # decisions re-decided by the pinned rules and found identical
    finished: bool
    outcome: dict[str, object] | None = None
    notes: tuple[str, ...] = ()
    certified_by: str | None = None  # key id of a certificate that checked out
    # A ranked match's table whose signature checked out: the signing key's id, who signed it
    # (``matchmaking`` or ``tournaments``) and, for a rated tournament's game, its tournament.
    table_signed_by: str | None = None
    table_signer: str = ""
    table_tournament: str = ""
    sealed: int = 0  # sealed decisions in the log (docs/audit.md "Sealed decisions")
    opened: int = 0  # ... opened with the key of the revealed server seed and checked
    # Decisions not re-decided because they draw chance and the server seed is not revealed
    # (the game answers ``seed_unavailable``); their seat's turn is still checked.
    need_seed: int = 0
    # Decisions not re-decided because a sealed decision before them could not be opened, so the
    # state they were made in is not fully known; their seat's turn is still checked.
    unknown_state: int = 0
    turns_checked: int = 0  # game moves whose seat was checked to be one the rules let move then
    checked: tuple[str, ...] = ()  # what the audit checked and found to hold, in words
    unchecked: tuple[str, ...] = ()  # what it could not check, in words (empty: everything)
