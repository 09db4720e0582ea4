"""Signed matchmaking tables for tests that create ranked matches without running matchmaking.

Only a table signed by a trusted matchmaking key becomes a ranked match
(domain/matchmaking/provenance.py).  Tests of what happens after creation (scoring, disputes,
clocks) sign their tables with ``TEST_SIGNER``: a referee trusts it through ``trusted()``, and a
stack started on a data folder trusts it once ``install_key(data_dir)`` wrote it there as
matchmaking's own key.  tests/integration/test_ranked_provenance.py and the e2e ranked demo go
through the real matchmaking instead.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from contracts.integration import TableFormed
from contracts.match import SignedTable
from domain.games import registry
from domain.matchmaking.provenance import signed_table, table_match_id
from services.common import commands
from services.common.tablekeys import TableSigner, TrustedTableKeys, load_or_create

TEST_SEED = bytes(range(32))
TEST_SIGNER = TableSigner(SigningKey(TEST_SEED))


def trusted() -> TrustedTableKeys:
    return TrustedTableKeys([TEST_SIGNER.public_key])


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def table(
    game: str,
    players: tuple[str, ...],
    preset: str | None = None,
    ranked: bool = True,
    bots: tuple[int, ...] = (),
    formed_at: int | None = None,
    table_id: str | None = None,
    signer: TableSigner = TEST_SIGNER,
) -> SignedTable:
    """A table of ``players`` signed by ``signer``."""
    formed = TableFormed(
        table_id=table_id or uuid.uuid4().hex,
        game=game,
        preset=preset or registry.get(game).default_preset,
        ranked=ranked,
        players=players,
        bots=bots,
        formed_at=now_ms() if formed_at is None else formed_at,
    )
    return signed_table(signer.sign(formed))


def install_key(data_dir: Path) -> TableSigner:
    """Make ``TEST_SIGNER`` matchmaking's key in ``data_dir`` (so its referees trust it)."""
    path = Path(data_dir) / "keys" / "matchmaking.key"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(TEST_SEED.hex() + "\n")
    path.chmod(0o600)
    load_or_create(path)  # writes the public key beside it
    return TEST_SIGNER


async def create_ranked(
    nc: Any,
    game: str,
    players: tuple[str, ...],
    preset: str | None = None,
    signer: TableSigner = TEST_SIGNER,
    **kwargs: Any,
) -> commands.CreatedMatch | commands.Rejected:
    """A ranked match of ``players`` for a freshly signed table, as the gateway creates it."""
    signed = table(game, players, preset, signer=signer)
    return await commands.create_match(
        nc,
        game,
        signed.preset,
        players=players,
        ranked=True,
        guests=(),
        match_id=table_match_id(signed.table_id),
        table=signed,
        **kwargs,
    )
