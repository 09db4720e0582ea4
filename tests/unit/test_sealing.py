"""Sealed decisions (docs/audit.md "Sealed decisions", domain/core/seal.py): what the public may not
see of a decision is stored encrypted under the match's seal key; everything else stays as it was."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nacl.secret import SecretBox

from contracts.audit import AuditBundle, StoredEnvelope
from contracts.codecs import codec, encode
from contracts.envelope import EventEnvelope
from contracts.games.kings_corner import RoundDealt
from domain import records
from domain.audit import audit
from domain.core import match as match_layer
from domain.core import seal
from domain.core.audit import envelope_hash, genesis_hash
from domain.games import registry
from services.common.natsio import Stored
from services.common.reader import FoldedMatch, SealKeyMissing, UnreadableLog
from tests.support.bundles import clear_values, played_match

SEED = b"\x07" * 32  # played_match's server seed
KC = registry.get("kings-corner")
CODEC = codec("kings-corner")


def kc_match(seed: int = 1) -> tuple[AuditBundle, list[tuple[str | None, Any, tuple[Any, ...]]]]:
    return played_match("kings-corner", seed=seed, sealed=True)


def envelopes(bundle: AuditBundle) -> list[EventEnvelope[Any]]:
    return [CODEC.decode_envelope(s.data.encode()) for s in bundle.envelopes]


def rechained(bundle: AuditBundle, k: int, edit: Any) -> AuditBundle:
    """The bundle with stored envelope ``k`` edited (as JSON) and the chain rebuilt after it: a
    forgery the hash chain alone does not catch."""
    datas = [json.loads(s.data) for s in bundle.envelopes]
    edit(datas[k])
    prev = genesis_hash(bundle.match_id)
    stored = []
    for i, data in enumerate(datas):
        data["prev_hash"] = prev
        text = json.dumps(data, separators=(",", ":"))
        stored.append(StoredEnvelope(stream_seq=i + 1, data=text))
        prev = envelope_hash(text.encode())
    return msgspec.structs.replace(bundle, envelopes=tuple(stored), head_hash=prev)


def first_sealed(bundle: AuditBundle) -> int:
    return next(i for i, e in enumerate(envelopes(bundle)) if e.sealed)


def test_every_sealed_decision_opens_to_its_full_events_and_command() -> None:
    bundle, decisions = kc_match()
    key = seal.seal_key(SEED)
    sealed = 0
    for env, (_, command, events) in zip(envelopes(bundle), decisions, strict=True):
        opened = seal.open_envelope(env, key)
        assert opened.events == tuple(events)
        assert opened.command == msgspec.json.decode(encode(command))
        if env.sealed:
            sealed += 1
            assert env.command is None, "a sealed decision's command is sealed too"
    assert 0 < sealed < len(decisions)


def test_the_seal_is_exactly_what_docs_audit_md_specifies() -> None:
    """An outside verifier's steps, with nothing of gamehall but the bytes."""
    bundle, decisions = kc_match()
    k = first_sealed(bundle)
    raw = json.loads(bundle.envelopes[k].data)
    key = hashlib.sha256(b"gamehall/seal/v1\n" + SEED).digest()
    nonce = hashlib.sha256(f"{raw['match_id']}\n{raw['seq']}".encode()).digest()[:24]
    plaintext = SecretBox(key).decrypt(base64.b64decode(raw["sealed"], validate=True), nonce)
    _, command, events = decisions[k]
    assert json.loads(plaintext) == {
        "type": "sealed_decision.v1",
        "command": json.loads(encode(command)),
        "events": json.loads(encode(list(events))),
    }
    assert plaintext == encode(
        {"type": "sealed_decision.v1", "command": msgspec.to_builtins(command), "events": list(events)}
    )


def test_the_public_events_of_a_sealed_decision_are_its_redaction_for_a_spectator() -> None:
    bundle, decisions = kc_match()
    for env, (_, _, events) in zip(envelopes(bundle), decisions, strict=True):
        spectator = tuple(e for e in (match_layer.redact(KC, x, None) for x in events) if e is not None)
        assert env.events == spectator


def test_no_card_of_a_hand_or_of_the_deck_is_in_the_clear() -> None:
    bundle, decisions = kc_match()
    for stored, (_, _, events) in zip(bundle.envelopes, decisions, strict=True):
        for event in events:
            if isinstance(event, RoundDealt):
                secret = set(event.stock) | {c for hand in event.hands for c in hand}
                clear = clear_values(json.loads(stored.data))
                assert secret and not clear & secret, sorted(clear & secret)[:5]
                assert stored.data.count('"order":[]') == 1  # the deck order only sealed


def test_a_decision_with_nothing_hidden_is_stored_as_before() -> None:
    bundle, decisions = kc_match()
    public = [i for i, e in enumerate(envelopes(bundle)) if not e.sealed]
    assert public and public[0] == 0  # the creation at least
    for i in public:
        raw = json.loads(bundle.envelopes[i].data)
        assert "sealed" not in raw
        seat, command, events = decisions[i]
        assert raw["events"] == msgspec.json.decode(encode(list(events)))
        assert raw["command"] == msgspec.json.decode(encode(command))


def test_a_game_without_hidden_information_is_never_sealed() -> None:
    bundle, decisions = played_match("ugolki", seed=2, sealed=True)
    unsealed, _ = played_match("ugolki", seed=2)
    assert bundle.envelopes == unsealed.envelopes
    assert all("sealed" not in json.loads(s.data) for s in bundle.envelopes)


def test_a_wrong_key_a_changed_box_or_a_moved_box_does_not_open() -> None:
    bundle, _ = kc_match()
    envs = envelopes(bundle)
    k = first_sealed(bundle)
    env = envs[k]
    with pytest.raises(seal.SealBroken, match="do not open"):
        seal.open_envelope(env, seal.seal_key(b"\x08" * 32))
    box = bytearray(base64.b64decode(str(env.sealed)))
    box[20] ^= 1
    changed = msgspec.structs.replace(env, sealed=base64.b64encode(bytes(box)).decode())
    with pytest.raises(seal.SealBroken, match="do not open"):
        seal.open_envelope(changed, seal.seal_key(SEED))
    moved = msgspec.structs.replace(env, seq=env.seq + 1)  # another decision's nonce
    with pytest.raises(seal.SealBroken):
        seal.open_envelope(moved, seal.seal_key(SEED))
    with pytest.raises(seal.SealBroken, match="not base64"):
        seal.open_envelope(msgspec.structs.replace(env, sealed="not base64!"), seal.seal_key(SEED))
    with pytest.raises(seal.SealKeyMissing):
        seal.open_envelope(env, None)
    assert seal.open_envelope(envs[0], None) is envs[0]  # nothing sealed: nothing to open


def test_is_sealed_data_reads_only_the_sealed_field() -> None:
    bundle, _ = kc_match()
    flags = [seal.is_sealed_data(s.data.encode()) for s in bundle.envelopes]
    assert flags == [bool(e.sealed) for e in envelopes(bundle)]
    assert not seal.is_sealed_data(b"not json")


def test_a_finished_sealed_match_audits_clean_with_every_seal_opened() -> None:
    bundle, decisions = kc_match()
    report = audit(bundle)
    assert report.ok, report.problems
    assert report.finished and report.redecided == len(decisions)
    assert report.sealed == report.opened > 0
    assert not any("in the clear" in n for n in report.notes)


def test_a_running_sealed_match_verifies_its_chain_and_says_what_is_not_openable_yet() -> None:
    bundle, _ = kc_match()
    running = msgspec.structs.replace(
        bundle,
        envelopes=bundle.envelopes[:-1],
        head_hash=envelope_hash(bundle.envelopes[-2].data.encode()),
    )
    report = audit(running)
    assert report.ok, report.problems
    assert not report.finished and report.opened == 0 and report.sealed > 0
    assert any("not openable yet" in n for n in report.notes), report.notes
    assert any("[sealed, not opened]" in line for line in report.listing)


def test_one_flipped_byte_of_a_sealed_box_breaks_the_chain() -> None:
    bundle, _ = kc_match()
    k = first_sealed(bundle)
    data = bundle.envelopes[k].data
    at = data.index('"sealed":"') + len('"sealed":"') + 5
    flipped = data[:at] + ("A" if data[at] != "A" else "B") + data[at + 1 :]
    envs = list(bundle.envelopes)
    envs[k] = msgspec.structs.replace(envs[k], data=flipped)
    report = audit(msgspec.structs.replace(bundle, envelopes=tuple(envs)))
    assert not report.ok
    assert any(f"envelope #{k + 2}" in p and "hash chain broken" in p for p in report.problems), report.problems


def test_a_changed_box_with_a_rebuilt_chain_does_not_open() -> None:
    bundle, _ = kc_match()
    k = first_sealed(bundle)

    def change(data: dict[str, Any]) -> None:
        box = bytearray(base64.b64decode(data["sealed"]))
        box[-1] ^= 0x40
        data["sealed"] = base64.b64encode(bytes(box)).decode()

    report = audit(rechained(bundle, k, change))
    assert not report.ok
    assert any(f"envelope #{k + 1}" in p and "do not open" in p for p in report.problems), report.problems


def test_falsified_public_events_are_named() -> None:
    """The clear part must be the spectator's redaction of what is sealed: a forger who shows the
    public another seat than the one that drew is caught even with the chain rebuilt."""
    bundle, _ = kc_match()
    envs = envelopes(bundle)
    k = next(i for i, e in enumerate(envs) if e.sealed and any(x.__struct_config__.tag == "kc_cards_drawn.v1" for x in e.events))
    j = next(n for n, x in enumerate(envs[k].events) if x.__struct_config__.tag == "kc_cards_drawn.v1")
    seats = KC.seat_names(2)

    def falsify(data: dict[str, Any]) -> None:
        event = data["events"][j]
        event["seat"] = seats[1] if event["seat"] == seats[0] else seats[0]

    report = audit(rechained(bundle, k, falsify))
    assert not report.ok
    assert any(
        f"envelope #{k + 1}" in p and f"public event {j + 1} (kc_cards_drawn.v1): seat" in p for p in report.problems
    ), report.problems


def test_a_sealed_decision_showing_its_command_in_the_clear_is_refused() -> None:
    bundle, decisions = kc_match()
    k = first_sealed(bundle)

    def show(data: dict[str, Any]) -> None:
        data["command"] = msgspec.to_builtins(decisions[k][1])

    report = audit(rechained(bundle, k, show))
    assert any("command in the clear" in p for p in report.problems), report.problems


def test_the_record_of_a_finished_sealed_match_holds_every_deal_and_replays() -> None:
    bundle, decisions = kc_match()
    record = json.loads(json.dumps(records.record_of_bundle(bundle)))
    unsealed, _ = played_match("kings-corner", seed=1)
    assert record == json.loads(json.dumps(records.record_of_bundle(unsealed)))
    replayed = records.replay(record)
    assert isinstance(replayed, records.Replayed) and replayed.finished


def test_the_seal_key_and_nonce_are_derived_as_documented() -> None:
    assert seal.seal_key(SEED) == hashlib.sha256(b"gamehall/seal/v1\n" + SEED).digest()
    assert seal.seal_nonce("m-1", 12) == hashlib.sha256(b"m-1\n12").digest()[:24]
    assert len({seal.seal_nonce("m-1", n) for n in range(1, 500)}) == 499


def stored_items(bundle: AuditBundle) -> list[Stored]:
    return [Stored(stream_seq=s.stream_seq, data=s.data.encode()) for s in bundle.envelopes]


def test_a_reader_opens_with_the_key_folds_public_events_without_it_or_says_the_key_is_missing() -> None:
    bundle, decisions = kc_match()
    running = stored_items(bundle)[:-1]
    k = first_sealed(bundle)
    full = FoldedMatch(match_id=bundle.match_id, game="kings-corner", seal_key=seal.seal_key(SEED))
    spectator = FoldedMatch(match_id=bundle.match_id, game="kings-corner", public=True)
    for item in running:
        full.apply(item)
        spectator.apply(item)
    assert full.envelopes[k].events == tuple(decisions[k][2])
    assert spectator.envelopes[k].events != tuple(decisions[k][2]) and spectator.unopened > 0
    assert full.state is not None and spectator.state is not None
    seat = full.state.created.seats[0]
    assert view_of(full, seat)["game_view"]["hand"] and "??" not in view_of(full, seat)["game_view"]["hand"]
    assert view_of(full, None) == view_of(spectator, None)
    seat_reader = FoldedMatch(match_id=bundle.match_id, game="kings-corner")
    with pytest.raises(SealKeyMissing):
        for item in running:
            seat_reader.apply(item)
    wrong = FoldedMatch(match_id=bundle.match_id, game="kings-corner", seal_key=seal.seal_key(b"\x01" * 32))
    with pytest.raises(UnreadableLog, match="do not open"):
        for item in running:
            wrong.apply(item)


def view_of(folded: FoldedMatch, seat: str | None) -> dict[str, Any]:
    assert folded.state is not None
    view = match_layer.view(folded.decider, folded.state, seat, folded.match_id, folded.seq)
    return msgspec.to_builtins(view)  # type: ignore[no-any-return]


def test_gamehall_audit_opens_a_sealed_bundle_and_fails_on_a_changed_box(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from services.cli.main import app

    bundle, _ = kc_match()
    good = tmp_path / "match.json"
    good.write_bytes(encode(bundle))
    result = CliRunner().invoke(app, ["audit", "--file", str(good), "--quiet", "--allow-unfinished"])
    assert result.exit_code == 0, result.output
    sealed = sum(1 for e in envelopes(bundle) if e.sealed)
    assert f"sealed decisions: {sealed}/{sealed} opened" in result.output

    k = first_sealed(bundle)

    def change(data: dict[str, Any]) -> None:
        box = bytearray(base64.b64decode(data["sealed"]))
        box[0] ^= 1  # the Poly1305 tag
        data["sealed"] = base64.b64encode(bytes(box)).decode()

    bad = tmp_path / "changed.json"
    bad.write_bytes(encode(rechained(bundle, k, change)))
    result = CliRunner().invoke(app, ["audit", "--file", str(bad), "--quiet"])
    assert result.exit_code == 1
    assert f"AUDIT FAILED: envelope #{k + 1} (seq {k + 1}): sealed events:" in result.output


def test_a_box_without_the_command_is_found_once_opened() -> None:
    """A forger who seals a decision without its command (so nothing would be re-decided) is named."""
    bundle, decisions = kc_match()
    k = first_sealed(bundle)
    env = envelopes(bundle)[k]
    nonce = seal.seal_nonce(env.match_id, env.seq)
    plaintext = encode({"type": "sealed_decision.v1", "command": None, "events": list(decisions[k][2])})
    box = SecretBox(seal.seal_key(SEED)).encrypt(plaintext, nonce).ciphertext

    def forge(data: dict[str, Any]) -> None:
        data["sealed"] = base64.b64encode(box).decode()

    report = audit(rechained(bundle, k, forge))
    assert any(f"envelope #{k + 1}" in p and "no recorded command" in p for p in report.problems), report.problems
