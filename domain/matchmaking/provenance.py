"""Where a ranked match comes from: only a signed table makes one (docs/audit.md "Where a
ranked match came from").

Two services form ranked tables, each signing with an Ed25519 key only it holds: matchmaking
(its ranked queues' tables) and the tournaments service (the games of a rated tournament).  The
signed table says which (``SignedTable.signer``), the bytes signed begin with a label of its own
per signer, and a key's id names its signer (``mm-``, ``tn-``), so a signature made for one
signer never verifies as the other's and a referee checks a table only against the keys it
trusts for that signer.  The gateway passes the signed table in the ``CreateMatch`` it sends; the
referee creates a ranked match only when that table's signature verifies under a key it trusts
and the creation is exactly the table (``creation_problem``), and records the table in
``MatchCreated`` so that an auditor can check it later.  Pure: the signature itself is checked by
the caller's ``verify`` (``services/common/tablekeys.py``); here are the signed bytes and the
comparison.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.match import CreateMatch, MatchCreated, SignedTable
from domain.core.decider import Decider

# The version label that opens the signed bytes: a later layout gets a new label, and a signature
# over one layout never verifies as another.
SIGNING_LABEL = "gamehall.table.v1"  # matchmaking's tables
TOURNAMENT_SIGNING_LABEL = "gamehall.tournament-table.v1"  # the tournaments service's
REFUSED = "ranked_needs_matchmaking"
# A table is turned into its match at once (the gateway gives up on it after 30 s, matchmaking
# frees its players after 60 s): a creation more than this away from the table's ``formed_at``
# (either way, for clocks of different machines) is refused.
TABLE_MAX_AGE_MS = 60_000
KEY_ID_PREFIX = "mm-"
# A key id's prefix per signer (``SignedTable.signer``), and the signer as sentences name it.
KEY_ID_PREFIXES = {"matchmaking": KEY_ID_PREFIX, "tournaments": "tn-"}
SIGNER_NAMES = {"matchmaking": "matchmaking", "tournaments": "the tournaments service"}

TableCheck = Callable[[SignedTable], str | None]


def signing_bytes(table: SignedTable) -> bytes:
    """The bytes a table's signer signs: the compact JSON array (no spaces, UTF-8, non-ASCII
    written as is; what Python's ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``
    writes), for matchmaking's tables

    ``["gamehall.table.v1", table_id, game, preset, ranked, [players...], [bots...], formed_at]``

    and for the tournaments service's

    ``["gamehall.tournament-table.v1", table_id, game, preset, ranked, [players...], [bots...],
    formed_at, tournament_id]``

    with the players in seat order and ``bots`` the seat indexes played by computer players."""
    fields: list[Any] = [
        table.table_id,
        table.game,
        table.preset,
        table.ranked,
        list(table.players),
        list(table.bots),
        table.formed_at,
    ]
    if table.signer == "tournaments":
        return msgspec.json.encode([TOURNAMENT_SIGNING_LABEL, *fields, table.tournament_id])
    return msgspec.json.encode([SIGNING_LABEL, *fields])


def key_id(public_key: bytes, signer: str = "matchmaking") -> str:
    """A table key's id: its signer's prefix (``mm-`` for matchmaking, ``tn-`` for the tournaments
    service) and the first 16 hex digits of the sha256 of its 32 raw public-key bytes (anyone
    holding the public key derives it)."""
    return KEY_ID_PREFIXES[signer] + hashlib.sha256(public_key).hexdigest()[:16]


def signer_problem(table: SignedTable) -> str | None:
    """What does not hold between a table's signer, its tournament and its key id, or None: a
    matchmaking table names no tournament; a tournament table names its tournament, whose id
    begins its table id (``<tournament_id>:<round>:<table>``); the key id is its signer's."""
    if table.signer == "tournaments":
        if not table.tournament_id:
            return f"table {table.table_id} is signed as a tournament table but names no tournament"
        if not table.table_id.startswith(table.tournament_id + ":"):
            return f"table {table.table_id} is not a table of tournament {table.tournament_id!r}"
    elif table.tournament_id:
        return f"table {table.table_id} names tournament {table.tournament_id!r} but is signed as matchmaking's"
    prefix = KEY_ID_PREFIXES.get(table.signer, "")
    if not table.key_id.startswith(prefix):
        return f"key {table.key_id!r} is not a {table.signer} key (its ids begin {prefix!r})"
    return None


def table_match_id(table_id: str) -> str:
    """The id of the match a table becomes (whichever gateway creates it): one table, one match."""
    return hashlib.sha256(f"table:{table_id}".encode()).hexdigest()[:16]


def signed_table(table: TableFormed) -> SignedTable:
    """What of a formed table is signed and travels with its match (never its queue tickets): a
    table with a ``tournament_id`` is the tournaments service's, any other matchmaking's."""
    return SignedTable(
        table_id=table.table_id,
        game=table.game,
        preset=table.preset,
        ranked=table.ranked,
        players=tuple(table.players),
        bots=tuple(table.bots),
        formed_at=table.formed_at,
        key_id=table.key_id,
        signature=table.signature,
        signer="tournaments" if table.tournament_id else "matchmaking",
        tournament_id=table.tournament_id,
    )


def needs_table(game: Decider[Any, Any, Any, Any, Any], command: CreateMatch) -> bool:
    """Whether the creation makes a rated match (a table helper is never rated)."""
    return command.ranked and not game.helper


def creation_problem(
    game: Decider[Any, Any, Any, Any, Any],
    match_id: str,
    command: CreateMatch,
    verify: TableCheck,
    at: int,
) -> Rejected | None:
    """Why the referee refuses this creation for its table, or None.

    A ranked creation needs a table; a creation with a table (ranked or not) must be exactly that
    table: its game, preset (and the preset's own ruleset), ranked flag, seat count, players in
    seat order and match id (``table_match_id``), within ``TABLE_MAX_AGE_MS`` of ``formed_at``, and
    the table's signature must verify (``verify``: None when it does, else why not).  The cheap
    comparisons come first, the signature last."""
    table = command.table
    if table is None:
        if not needs_table(game, command):
            return None
        return _refused(
            "a ranked match is created only for a signed table (a matchmaking table or a rated tournament's), "
            "and this creation carries none "
            "(players get ranked matches by joining a ranked queue: POST /api/queue, or a rated tournament)"
        )
    problem = _mismatch(game, match_id, command, table, at)
    if problem is None:
        bad = verify(table)
        if bad is not None:
            problem = f"the table's signature is not {SIGNER_NAMES[table.signer]}'s: {bad}"
    return None if problem is None else _refused(problem)


def _refused(detail: str) -> Rejected:
    return Rejected(code=REFUSED, detail=detail)


def _mismatch(
    game: Decider[Any, Any, Any, Any, Any], match_id: str, command: CreateMatch, table: SignedTable, at: int
) -> str | None:
    problem = table_mismatch(
        table,
        match_id,
        game.name,
        command.preset,
        command.ranked,
        tuple(command.players),
        len(command.seats),
        at,
    )
    if problem is not None:
        return problem
    base = game.presets.get(table.preset)
    if base is not None:
        try:
            ruleset = msgspec.convert(command.ruleset, game.ruleset_type)
        except (msgspec.ValidationError, ValueError):
            ruleset = None
        if ruleset != base.ruleset:
            return f"a table's match is played with preset {table.preset!r}'s own ruleset, unchanged"
    return None


def table_mismatch(
    table: SignedTable,
    match_id: str,
    game: str,
    preset: str,
    ranked: bool,
    players: tuple[str, ...],
    seats: int,
    at: int,
) -> str | None:
    """How a match (its id, game, preset, ranked flag, players and seat count, created at ``at``)
    differs from the table it was created for (or the table's signer from its tournament and key,
    ``signer_problem``), or None."""
    signer = signer_problem(table)
    if signer is not None:
        return signer
    if table.ranked != ranked:
        kind = "a ranked" if table.ranked else "an unranked"
        return f"table {table.table_id} is {kind} table, the match says ranked={ranked}"
    if table.game != game:
        return f"table {table.table_id} is for {table.game!r}, the match for {game!r}"
    if table.preset != preset:
        return f"table {table.table_id} is for preset {table.preset!r}, the match for {preset!r}"
    if seats != len(table.players):
        return f"table {table.table_id} has {len(table.players)} seats, the match {seats}"
    if players != tuple(table.players):
        return f"table {table.table_id} seats {list(table.players)} in this order, the match {list(players)}"
    expected = table_match_id(table.table_id)
    if match_id != expected:
        return f"table {table.table_id} becomes match {expected}, not {match_id}"
    if abs(at - table.formed_at) > TABLE_MAX_AGE_MS:
        return (
            f"table {table.table_id} was formed at {table.formed_at}, {abs(at - table.formed_at) // 1000} s "
            f"from the match's creation; a table becomes its match within {TABLE_MAX_AGE_MS // 1000} s"
        )
    return None


def recorded_problem(match_id: str, created: MatchCreated, at: int, verify: TableCheck | None) -> str | None:
    """What an auditor finds wrong with a stored match's provenance (``at``: its first envelope's
    ``recorded_at``), or None: a ranked match must record a table, and a recorded table must be the
    match's own and (with ``verify``) carry its signer's signature."""
    table = created.table
    if table is None:
        if created.ranked:
            return (
                "the match is ranked but records no signed table: "
                "it was created neither by matchmaking nor for a rated tournament"
            )
        return None
    problem = table_mismatch(
        table, match_id, created.game, created.preset, created.ranked, created.players, len(created.seats), at
    )
    if problem is None and verify is not None:
        bad = verify(table)
        if bad is not None:
            problem = f"the table's signature is not {SIGNER_NAMES[table.signer]}'s: {bad}"
    return problem
