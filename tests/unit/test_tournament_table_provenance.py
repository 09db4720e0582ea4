"""Rated tournaments' tables: signed by the tournaments service's own key, accepted by the referee
only under a trusted tournaments key, never under a matchmaking key nor the other way round, and
confirmed by the audit as matchmaking's are (domain/matchmaking/provenance.py,
services/common/tablekeys.py; docs/audit.md "Where a ranked match came from")."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import msgspec
import pytest
from nacl.signing import SigningKey

from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.match import CreateMatch, SignedTable
from domain.core import match as match_layer
from domain.games import registry
from domain.matchmaking.provenance import (
    REFUSED,
    TOURNAMENT_SIGNING_LABEL,
    creation_problem,
    signed_table,
    signing_bytes,
    table_match_id,
)
from services.common.tablekeys import TableSigner, TableTrust, TrustedTableKeys, load_or_create
from tests.support import tables

UGOLKI = registry.get("ugolki")
PRESET = UGOLKI.default_preset
AT = 1_795_964_776_419
TOURNAMENT_SIGNER = TableSigner(SigningKey(bytes(range(1, 33))), "tournaments")
# matchmaking's own key given the tournaments role: the same secret, another signer
MM_AS_TOURNAMENT = TableSigner(SigningKey(tables.TEST_SEED), "tournaments")


def trust() -> TableTrust:
    return TableTrust(tables.trusted(), TrustedTableKeys([TOURNAMENT_SIGNER.public_key], signer="tournaments"))


def formed(tournament_id: str = "cup", table_id: str = "cup:1:1", at: int = AT) -> TableFormed:
    return TableFormed(
        table_id=table_id,
        game="ugolki",
        preset=PRESET,
        ranked=True,
        players=("ann", "bot:ugolki:1"),
        bots=(1,),
        formed_at=at,
        tournament_id=tournament_id,
    )


def a_table(by: TableSigner = TOURNAMENT_SIGNER, **changes: object) -> SignedTable:
    signed = signed_table(by.sign(formed()))
    return msgspec.structs.replace(signed, **changes) if changes else signed


def creation(signed: SignedTable) -> CreateMatch:
    return CreateMatch(
        preset=signed.preset,
        ruleset=msgspec.to_builtins(UGOLKI.presets[signed.preset].ruleset),
        seats=UGOLKI.seat_names(len(signed.players)),
        players=signed.players,
        token_hashes=tuple("0" * 64 for _ in signed.players),
        ranked=True,
        table=signed,
    )


def check(signed: SignedTable, keys: TableTrust | None = None, at: int = AT) -> Rejected | None:
    return creation_problem(UGOLKI, table_match_id(signed.table_id), creation(signed), (keys or trust()).check, at)


def refused_because(result: Rejected | None) -> str:
    assert isinstance(result, Rejected) and result.code == REFUSED, result
    return result.detail


# ------------------------------------------------------------------ what is signed
def test_a_tournament_table_says_who_signed_it_and_its_bytes_have_their_own_label() -> None:
    signed = a_table()
    assert (signed.signer, signed.tournament_id) == ("tournaments", "cup")
    assert signed.key_id == "tn-" + hashlib.sha256(TOURNAMENT_SIGNER.public_key).hexdigest()[:16]
    value = [TOURNAMENT_SIGNING_LABEL, "cup:1:1", "ugolki", PRESET, True, ["ann", "bot:ugolki:1"], [1], AT, "cup"]
    assert signing_bytes(signed) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    # the same fields as matchmaking's table are other bytes: one signature never serves both
    as_matchmaking = msgspec.structs.replace(signed, signer="matchmaking", tournament_id="")
    assert signing_bytes(as_matchmaking) != signing_bytes(signed)
    assert signing_bytes(msgspec.structs.replace(signed, tournament_id="other")) != signing_bytes(signed)


def test_a_matchmaking_table_is_signed_as_before() -> None:
    signed = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=AT, table_id="t-1")
    assert (signed.signer, signed.tournament_id) == ("matchmaking", "")
    assert signing_bytes(signed).startswith(b'["gamehall.table.v1","t-1",')


def test_a_signer_signs_only_its_own_tables() -> None:
    with pytest.raises(ValueError):
        TOURNAMENT_SIGNER.sign(formed(tournament_id="", table_id="q-1"))
    with pytest.raises(ValueError):
        tables.TEST_SIGNER.sign(formed())


# ------------------------------------------------------------------ the referee
def test_a_tournament_signed_table_and_its_exact_creation_pass() -> None:
    assert check(a_table()) is None


def test_a_matchmaking_table_still_passes_beside_the_tournament_keys() -> None:
    signed = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=AT, table_id="t-1")
    assert creation_problem(UGOLKI, table_match_id("t-1"), creation(signed), trust().check, AT) is None


def test_matchmakings_key_used_as_a_tournament_key_is_refused() -> None:
    # signed with matchmaking's secret as a tournament table: its key id is no trusted tournament key
    detail = refused_because(check(a_table(MM_AS_TOURNAMENT)))
    assert "not among the tournaments keys" in detail and "the tournaments service's" in detail
    # ... nor does claiming the tournament key's id help: the signature does not verify under it
    claimed = a_table(MM_AS_TOURNAMENT, key_id=TOURNAMENT_SIGNER.key_id)
    assert "does not verify with tournaments key" in refused_because(check(claimed))


def test_a_tournament_table_relabelled_as_matchmakings_is_refused() -> None:
    # the tournament's signature over the same seats, presented as a matchmaking table
    relabelled = a_table(signer="matchmaking", tournament_id="")
    detail = refused_because(check(relabelled))
    assert "is not a matchmaking key" in detail
    # even with matchmaking's key id named, the tournament's signature is not matchmaking's
    named = a_table(signer="matchmaking", tournament_id="", key_id=tables.TEST_SIGNER.key_id)
    assert "does not verify with matchmaking key" in refused_because(check(named))


def test_tournament_keys_never_check_a_matchmaking_table_and_the_other_way_round() -> None:
    tournament_keys = TrustedTableKeys([tables.TEST_SIGNER.public_key], signer="tournaments")
    matchmaking = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=AT, table_id="t-1")
    assert "not checked with tournaments keys" in (tournament_keys.check(matchmaking) or "")
    assert "not checked with matchmaking keys" in (tables.trusted().check(a_table()) or "")


def test_one_key_trusted_for_both_signers_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="both as a matchmaking and as a tournaments key"):
        TableTrust(tables.trusted(), TrustedTableKeys([tables.TEST_SIGNER.public_key], signer="tournaments"))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"tournament_id": ""}, "names no tournament"),
        ({"tournament_id": "other"}, "not a table of tournament 'other'"),
        ({"players": ("bot:ugolki:1", "ann")}, "in this order"),
        ({"signature": "00" * 64}, "does not verify"),
        ({"formed_at": AT + 1}, "does not verify"),
    ],
)
def test_a_forged_or_changed_tournament_table_is_refused(change: dict[str, object], words: str) -> None:
    signed = a_table(**change)
    bad = creation_problem(UGOLKI, table_match_id("cup:1:1"), creation(a_table()), trust().check, AT)
    assert bad is None
    command = creation(a_table()) if "players" in change else creation(signed)
    if "players" in change:
        command = msgspec.structs.replace(command, table=signed)
    assert words in refused_because(creation_problem(UGOLKI, table_match_id("cup:1:1"), command, trust().check, AT))


def test_an_unsigned_ranked_tournament_table_is_refused() -> None:
    unsigned = signed_table(formed())
    assert "is not a tournaments key" in refused_because(check(unsigned))
    # the gateway sends no table for an unsigned one: a ranked creation without a table
    bare = msgspec.structs.replace(creation(unsigned), table=None)
    assert "carries none" in refused_because(creation_problem(UGOLKI, "m1", bare, trust().check, AT))


def test_a_stranger_tournament_key_is_refused() -> None:
    stranger = TableSigner(SigningKey(bytes(32)), "tournaments")
    assert "not among the tournaments keys trusted here" in refused_because(check(a_table(stranger)))


# ------------------------------------------------------------------ the key file
def test_the_tournaments_key_is_made_once_private_with_its_public_key_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "tournaments.key"
    first = TableSigner.from_file(path, "tournaments")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first.key_id.startswith("tn-")
    pub = (tmp_path / "keys" / "tournaments.pub").read_text()
    assert pub.split("#")[0].strip() == first.public_key.hex() and first.key_id in pub
    assert bytes(load_or_create(path, "tournaments")) == bytes(TableSigner.from_file(path, "tournaments")._key)
    trusted = TrustedTableKeys.from_entries([str(tmp_path / "keys" / "tournaments.pub")], "tournaments")
    assert trusted.key_ids == (first.key_id,)


# ------------------------------------------------------------------ the audit
def test_the_audit_confirms_a_tournament_signed_ranked_match_and_names_its_signer() -> None:
    from domain.audit import audit
    from tests.support.bundles import chain

    at = 1_700_000_000_001  # the first envelope's recorded_at in tests.support.bundles.chain
    signed = signed_table(TOURNAMENT_SIGNER.sign(formed(at=at - 500)))
    command = creation(signed)
    events = match_layer.decide(UGOLKI, None, None, command)
    assert isinstance(events, tuple), events
    bundle = chain(table_match_id(signed.table_id), "ugolki", [(None, command, events)])
    report = audit(bundle, tables=trust().check)
    assert report.ok, report.problems
    assert (report.table_signed_by, report.table_signer, report.table_tournament) == (
        TOURNAMENT_SIGNER.key_id,
        "tournaments",
        "cup",
    )
    # matchmaking's keys alone do not confirm it
    wrong = audit(bundle, tables=tables.trusted().check)
    assert not wrong.ok and any("not checked with matchmaking keys" in p for p in wrong.problems)
