"""Only matchmaking makes ranked matches: the signed bytes of a table, the signature check and the
referee's comparison of a creation with its table (domain/matchmaking/provenance.py,
services/common/tablekeys.py; docs/audit.md "Where a ranked match came from")."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import msgspec
import pytest
from nacl.signing import SigningKey, VerifyKey

from contracts.envelope import Rejected
from contracts.match import CreateMatch, MatchCreated, SignedTable
from domain.core import match as match_layer
from domain.games import registry
from domain.matchmaking import provenance
from domain.matchmaking.provenance import (
    REFUSED,
    TABLE_MAX_AGE_MS,
    creation_problem,
    signing_bytes,
    table_match_id,
)
from services.common.tablekeys import (
    TableSigner,
    TrustedTableKeys,
    load_or_create,
    public_file,
    read_key_file,
)
from tests.support import tables

UGOLKI = registry.get("ugolki")
PRESET = UGOLKI.default_preset
AT = 1_795_964_776_419


def a_table(**changes: object) -> SignedTable:
    base = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=AT, table_id="t-1")
    return msgspec.structs.replace(base, **changes) if changes else base


def creation(signed: SignedTable | None, game=UGOLKI, **changes: object) -> CreateMatch:  # type: ignore[no-untyped-def]
    preset = signed.preset if signed is not None else game.default_preset
    players = signed.players if signed is not None else ("ann", "bob")
    base = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(game.presets[preset].ruleset),
        seats=game.seat_names(len(players)),
        players=players,
        token_hashes=tuple("0" * 64 for _ in players),
        ranked=True,
        guests=(),
        table=signed,
        seed_commitment="c" * 64 if game.chance else "",
    )
    return msgspec.structs.replace(base, **changes) if changes else base


def check(command: CreateMatch, match_id: str | None = None, at: int = AT, keys=None, game=UGOLKI):  # type: ignore[no-untyped-def]
    keys = keys or tables.trusted()
    mid = match_id or (table_match_id(command.table.table_id) if command.table else "m1")
    return creation_problem(game, mid, command, keys.check, at)


def refused_because(result: Rejected | None) -> str:
    assert isinstance(result, Rejected) and result.code == REFUSED, result
    return result.detail


# ------------------------------------------------------------------ the signed bytes
def test_the_signed_bytes_are_the_labelled_compact_json_array_of_the_table() -> None:
    table = SignedTable(
        table_id="t-9",
        game="ugolki",
        preset="classic",
        ranked=True,
        players=("ann", "Боб"),
        bots=(1,),
        formed_at=AT,
        key_id="mm-x",
        signature="ff",
    )
    expected = '["gamehall.table.v1","t-9","ugolki","classic",true,["ann","Боб"],[1],1795964776419]'
    assert signing_bytes(table) == expected.encode()
    # what the doc tells an outside auditor to compute
    value = ["gamehall.table.v1", "t-9", "ugolki", "classic", True, ["ann", "Боб"], [1], AT]
    assert signing_bytes(table) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize("name", ['quote " and \\ back', "tab\tnew\nline\x01", "emoji 😀 / < >"])
def test_any_player_name_is_written_as_pythons_json_writes_it(name: str) -> None:
    table = a_table(players=(name, "bob"))
    value = ["gamehall.table.v1", "t-1", "ugolki", PRESET, True, [name, "bob"], [], AT]
    assert signing_bytes(table) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def test_the_key_and_signature_are_not_part_of_the_signed_bytes_but_every_other_field_is() -> None:
    table = a_table()
    assert signing_bytes(msgspec.structs.replace(table, key_id="other", signature="00")) == signing_bytes(
        table
    )
    for change in (
        {"table_id": "t-2"},
        {"game": "king"},
        {"preset": "mini-3x3"},
        {"ranked": False},
        {"players": ("bob", "ann")},
        {"bots": (1,)},
        {"formed_at": AT + 1},
    ):
        assert signing_bytes(msgspec.structs.replace(table, **change)) != signing_bytes(table), change


def test_a_key_id_is_mm_and_16_hex_digits_of_the_public_keys_sha256() -> None:
    public = tables.TEST_SIGNER.public_key
    assert tables.TEST_SIGNER.key_id == "mm-" + hashlib.sha256(public).hexdigest()[:16]


def test_a_signature_verifies_with_any_ed25519_library_from_the_fields_alone() -> None:
    table = a_table()
    VerifyKey(tables.TEST_SIGNER.public_key).verify(signing_bytes(table), bytes.fromhex(table.signature))


# ------------------------------------------------------------------ the signature check
def test_a_table_signed_by_a_trusted_key_verifies() -> None:
    assert tables.trusted().check(a_table()) is None


def test_a_table_signed_by_an_untrusted_key_is_refused_naming_the_key() -> None:
    stranger = TableSigner(SigningKey(bytes(32)))
    forged = tables.table("ugolki", ("ann", "bob"), PRESET, signer=stranger)
    problem = tables.trusted().check(forged)
    assert problem is not None and stranger.key_id in problem and "not among" in problem
    # even when it claims the trusted key's id
    claimed = msgspec.structs.replace(forged, key_id=tables.TEST_SIGNER.key_id)
    assert "does not verify" in (tables.trusted().check(claimed) or "")


@pytest.mark.parametrize("signature", ["", "zz", "00" * 64, "ab" * 10])
def test_a_missing_or_malformed_signature_is_refused_not_raised(signature: str) -> None:
    problem = tables.trusted().check(a_table(signature=signature))
    assert problem is not None and "does not verify" in problem


def test_a_changed_field_breaks_the_signature() -> None:
    assert "does not verify" in (tables.trusted().check(a_table(players=("bob", "ann"))) or "")


def test_no_trusted_key_trusts_nothing() -> None:
    problem = TrustedTableKeys().check(a_table())
    assert problem is not None and "(none)" in problem


# ------------------------------------------------------------------ keys on disk
def test_matchmakings_key_is_made_once_private_with_its_public_key_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "matchmaking.key"
    first = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = load_or_create(path)
    assert bytes(again) == bytes(first)
    assert read_key_file(public_file(path)) == [bytes(first.verify_key)]
    trusted = TrustedTableKeys.from_entries([str(public_file(path))])
    signed = tables.table("ugolki", ("ann", "bob"), signer=TableSigner(first))
    assert trusted.check(signed) is None


def test_a_referee_trusts_a_key_file_written_after_it_started(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "matchmaking.key"
    trusted = TrustedTableKeys.from_entries([str(public_file(path))])  # matchmaking not started yet
    assert trusted.key_ids == ()
    signer = TableSigner(load_or_create(path))
    assert trusted.check(tables.table("ugolki", ("ann", "bob"), signer=signer)) is None
    assert trusted.key_ids == (signer.key_id,)
    # a key file that became unreadable keeps the keys read before
    public_file(path).write_text("not a key\n")
    stranger = TableSigner(SigningKey(bytes(32)))
    assert "not among" in (trusted.check(tables.table("ugolki", ("a", "b"), signer=stranger)) or "")
    assert trusted.check(tables.table("ugolki", ("ann", "bob"), signer=signer)) is None


def test_keys_are_given_as_hex_or_files_and_a_bad_entry_stops_the_process(tmp_path: Path) -> None:
    hex_key = tables.TEST_SIGNER.public_key.hex()
    assert TrustedTableKeys.from_entries([hex_key]).key_ids == (tables.TEST_SIGNER.key_id,)
    with pytest.raises(ValueError, match="64 hex digits"):
        TrustedTableKeys.from_entries([hex_key[:-2]])
    bad = tmp_path / "keys.pub"
    bad.write_text(f"# comment\n{hex_key}\nnot a key\n")
    with pytest.raises(ValueError, match="line 3"):
        TrustedTableKeys.from_entries([str(bad)])


# ------------------------------------------------------------------ the referee's comparison
def test_a_ranked_creation_without_a_table_is_refused() -> None:
    detail = refused_because(check(creation(None), "m1"))
    assert "matchmaking" in detail and "POST /api/queue" in detail


def test_an_unranked_creation_without_a_table_is_unchanged() -> None:
    assert check(creation(None, ranked=False), "m1") is None


def test_a_table_helper_is_never_ranked_so_needs_no_table() -> None:
    cup = registry.get("kings-cup")
    command = creation(None, game=cup, ranked=True)
    assert check(command, "m1", game=cup) is None
    created = match_layer.decide(cup, None, None, command)
    assert isinstance(created, tuple) and not created[0].ranked


def test_a_genuine_table_and_its_exact_creation_pass() -> None:
    assert check(creation(a_table())) is None


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": ("bob", "ann")}, "in this order"),
        (
            {
                "preset": "gambiter-classic",
                "ruleset": msgspec.to_builtins(UGOLKI.presets["gambiter-classic"].ruleset),
            },
            "preset",
        ),
        ({"ranked": False}, "ranked"),
        (
            {
                "seats": ("white", "black", "red"),
                "players": ("ann", "bob", "cid"),
                "token_hashes": ("0" * 64,) * 3,
            },
            "seats",
        ),
    ],
)
def test_a_creation_that_is_not_exactly_its_table_is_refused(change: dict[str, object], words: str) -> None:
    command = msgspec.structs.replace(creation(a_table()), **change)
    assert words in refused_because(check(command, table_match_id("t-1")))


def test_a_table_of_another_game_is_refused() -> None:
    king = registry.get("king")
    table = tables.table("ugolki", ("ann", "bob", "cid", "dan"), PRESET, formed_at=AT, table_id="t-3")
    command = creation(
        None,
        game=king,
        preset=king.default_preset,
        players=table.players,
        seats=king.seat_names(4),
        token_hashes=("0" * 64,) * 4,
        table=table,
    )
    assert "for 'ugolki'" in refused_because(check(command, table_match_id("t-3"), game=king))


def test_a_table_becomes_one_match_only_its_own_id() -> None:
    command = creation(a_table())
    assert "becomes match" in refused_because(check(command, "another-match"))


def test_a_changed_ruleset_is_not_the_presets_own() -> None:
    ruleset = {**msgspec.to_builtins(UGOLKI.presets[PRESET].ruleset), "leave_home_moves": 7}
    assert "own ruleset" in refused_because(check(creation(a_table(), ruleset=ruleset)))


def test_an_old_table_is_refused_and_a_fresh_one_within_the_limit_passes() -> None:
    command = creation(a_table())
    assert check(command, at=AT + TABLE_MAX_AGE_MS) is None
    assert "within 60 s" in refused_because(check(command, at=AT + TABLE_MAX_AGE_MS + 1))
    assert "within 60 s" in refused_because(check(command, at=AT - TABLE_MAX_AGE_MS - 1))


def test_the_signature_is_checked_last_and_names_the_problem() -> None:
    stranger = TableSigner(SigningKey(bytes(32)))
    table = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=AT, table_id="t-1", signer=stranger)
    assert "not matchmaking's" in refused_because(check(creation(table)))


def test_an_unranked_creation_with_a_table_must_match_it_too() -> None:
    casual = a_table(ranked=False)
    assert "does not verify" in refused_because(check(creation(casual, ranked=False)))


def test_every_presets_own_ruleset_passes_for_every_game() -> None:
    for game in registry.GAMES.values():
        if game.helper:
            continue
        for name in game.presets:
            n = match_layer.default_seats_of(game, name)
            ruleset = match_layer.resolve_ruleset(game, name, {}, n)
            players = tuple(f"p{i}" for i in range(n))
            table = tables.table(game.name, players, name, formed_at=AT, table_id=f"t-{game.name}-{name}")
            command = CreateMatch(
                preset=name,
                ruleset=msgspec.to_builtins(ruleset),
                seats=game.seat_names(n),
                players=players,
                token_hashes=("0" * 64,) * n,
                ranked=True,
                guests=(),
                table=table,
            )
            assert check(command, game=game) is None, (game.name, name)


def test_the_match_records_its_table_for_auditors() -> None:
    table = a_table()
    created = match_layer.decide(UGOLKI, None, None, creation(table))
    assert isinstance(created, tuple) and isinstance(created[0], MatchCreated)
    assert created[0].table == table and created[0].ranked


def test_a_match_created_before_tables_were_signed_still_decodes() -> None:
    event = msgspec.json.decode(
        b'{"type":"match_created.v1","game":"ugolki","rules_version":"1","preset":"classic","ruleset":{},'
        b'"ruleset_hash":"x","seats":["white","black"],"players":["a","b"],"token_hashes":["0","1"],"ranked":true}',
        type=MatchCreated,
    )
    assert event.table is None


def test_the_refusal_code_is_a_declared_match_layer_code() -> None:
    from contracts.match import MATCH_REJECTION_CODES

    assert provenance.REFUSED in MATCH_REJECTION_CODES


# ------------------------------------------------------------------ the audit
def ranked_bundle(table: SignedTable | None, ranked: bool = True):  # type: ignore[no-untyped-def]
    from tests.support.bundles import chain

    command = creation(table, ranked=ranked) if table is not None else creation(None, ranked=ranked)
    events = match_layer.decide(UGOLKI, None, None, command)
    assert isinstance(events, tuple), events
    mid = table_match_id(table.table_id) if table is not None else "m-casual"
    return chain(mid, "ugolki", [(None, command, events)])


CHAINED_AT = 1_700_000_000_001  # the first envelope's recorded_at in tests.support.bundles.chain


def test_the_audit_confirms_a_ranked_match_of_a_signed_table() -> None:
    from domain.audit import audit

    table = tables.table("ugolki", ("ann", "bob"), PRESET, formed_at=CHAINED_AT - 500, table_id="t-a")
    report = audit(ranked_bundle(table), tables=tables.trusted().check)
    assert report.ok and report.table_signed_by == tables.TEST_SIGNER.key_id, report.problems
    unchecked = audit(ranked_bundle(table))
    assert unchecked.ok and unchecked.table_signed_by is None
    assert any("signature not checked" in n for n in unchecked.notes)


def test_the_audit_fails_a_ranked_match_of_no_table_or_of_another_key() -> None:
    from domain.audit import audit

    bare = audit(ranked_bundle(None), tables=tables.trusted().check)
    assert not bare.ok and any("records no signed table" in p for p in bare.problems)
    assert not audit(ranked_bundle(None)).ok  # whether or not keys are given
    stranger = TableSigner(SigningKey(bytes(32)))
    theirs = tables.table(
        "ugolki", ("ann", "bob"), PRESET, formed_at=CHAINED_AT, table_id="t-b", signer=stranger
    )
    report = audit(ranked_bundle(theirs), tables=tables.trusted().check)
    assert not report.ok and any("envelope #1" in p and "not among" in p for p in report.problems)


def test_the_audit_of_a_casual_match_without_a_table_is_unchanged() -> None:
    from domain.audit import audit

    report = audit(ranked_bundle(None, ranked=False), tables=tables.trusted().check)
    assert report.ok and report.table_signed_by is None and not report.notes
