"""Signed match certificates (issue 14): the key ring, signatures, rotation, and the audit of
tampered bundles — truncated with the head re-pointed, a decision changed and the chain
rebuilt, the certificate's outcome edited."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec
import pytest

from contracts.audit import AuditBundle, StoredEnvelope
from contracts.certificate import SignedCertificate, certificate_decoder
from domain.audit import audit
from domain.core.audit import envelope_hash, genesis_hash
from domain.core.match import ruleset_hash
from services.common.certificates import KeyRing, verifier
from tests.support.bundles import certify, played_match

NOW = 1_800_000_000_000


@pytest.fixture
def ring(tmp_path: Path) -> KeyRing:
    return KeyRing(tmp_path / "keys")


@pytest.fixture(scope="module")
def finished() -> AuditBundle:
    bundle, _ = played_match("ugolki", seed=3)
    return bundle


def test_the_ring_makes_one_private_key_readable_only_by_its_owner(ring: KeyRing) -> None:
    key, _ = ring.current(NOW)
    again, _ = ring.current(NOW + 5)
    assert again.key_id == key.key_id and [k.key_id for k in ring.public().keys] == [key.key_id]
    mode = stat.S_IMODE(os.stat(ring.folder / f"{key.key_id}.key").st_mode)
    assert mode == 0o600
    seed = (ring.folder / f"{key.key_id}.key").read_text().strip()
    public = (ring.folder / "public.json").read_text()
    assert key.public_key in public and seed not in public


def test_a_certified_bundle_audits_as_finished_and_certified(ring: KeyRing, finished: AuditBundle) -> None:
    bundle = certify(ring, finished)
    report = audit(bundle, verifier(ring.public()))
    assert report.ok, report.problems
    assert report.certified_by == bundle.certificate.key_id  # type: ignore[union-attr]


def test_without_keys_the_signature_is_not_claimed(ring: KeyRing, finished: AuditBundle) -> None:
    report = audit(certify(ring, finished))
    assert report.ok and report.certified_by is None
    assert any("signature not checked" in n for n in report.notes)


def test_removed_last_envelopes_with_the_head_repointed_fail_naming_the_certificate(
    ring: KeyRing, finished: AuditBundle
) -> None:
    bundle = certify(ring, finished)
    cut = bundle.envelopes[:-2]
    forged = msgspec.structs.replace(
        bundle, envelopes=cut, head_hash=envelope_hash(cut[-1].data.encode())
    )
    report = audit(forged, verifier(ring.public()))
    assert not report.ok
    assert any(
        f"certificate (key {bundle.certificate.key_id}): covers {len(bundle.envelopes)} envelopes but the bundle "  # type: ignore[union-attr]
        f"holds {len(cut)} (envelopes were removed from its end)" in p
        for p in report.problems
    ), report.problems


def test_a_decision_changed_and_the_chain_rebuilt_fails_naming_the_certificate(
    ring: KeyRing, finished: AuditBundle
) -> None:
    bundle = certify(ring, finished)
    # Rebuild the whole chain with one envelope's timestamp changed: every hash is consistent
    # and every decision re-decides, but the log is not the one that was certified.
    envs = [msgspec.json.decode(s.data) for s in bundle.envelopes]
    envs[5]["recorded_at"] += 1
    prev = genesis_hash(bundle.match_id)
    stored = []
    for i, env in enumerate(envs):
        env["prev_hash"] = prev
        data = msgspec.json.encode(env)
        stored.append(StoredEnvelope(stream_seq=i + 1, data=data.decode()))
        prev = envelope_hash(data)
    rebuilt = msgspec.structs.replace(bundle, envelopes=tuple(stored), head_hash=prev)
    rebuilt = msgspec.structs.replace(rebuilt, certificate=bundle.certificate)
    assert audit(msgspec.structs.replace(rebuilt, certificate=None)).ok  # the log alone looks fine
    report = audit(rebuilt, verifier(ring.public()))
    assert not report.ok
    assert any("does not match the certified head_hash" in p for p in report.problems), report.problems


def test_an_edited_certificate_outcome_fails_its_signature(ring: KeyRing, finished: AuditBundle) -> None:
    bundle = certify(ring, finished)
    signed = bundle.certificate
    assert signed is not None
    cert = certificate_decoder.decode(signed.certificate.encode())
    flipped = msgspec.structs.replace(cert, outcome=msgspec.structs.replace(cert.outcome, reason="forged"))
    forged = msgspec.structs.replace(
        bundle,
        certificate=SignedCertificate(
            certificate=msgspec.json.encode(flipped).decode(), key_id=signed.key_id, signature=signed.signature
        ),
    )
    report = audit(forged, verifier(ring.public()))
    assert not report.ok
    assert f"certificate (key {signed.key_id}): the certificate's signature does not verify with key {signed.key_id}" in report.problems
    assert any("certifies the outcome" in p for p in report.problems)


def test_rotation_keeps_old_certificates_verifiable_and_signs_with_the_new_key(
    ring: KeyRing, finished: AuditBundle
) -> None:
    old = certify(ring, finished, at=NOW)
    fresh = ring.rotate(NOW + 1000)
    new = certify(ring, finished, at=NOW + 2000)
    keys = ring.public()
    assert new.certificate.key_id == fresh.key_id != old.certificate.key_id  # type: ignore[union-attr]
    assert audit(old, verifier(keys)).certified_by == old.certificate.key_id  # type: ignore[union-attr]
    assert audit(new, verifier(keys)).certified_by == fresh.key_id


def test_a_retired_key_cannot_sign_after_its_retirement(ring: KeyRing, finished: AuditBundle) -> None:
    old_key, signing = ring.current(NOW)
    ring.rotate(NOW + 1000)
    late = certify(KeyRing(ring.folder), finished, at=NOW + 5000)
    cert = certificate_decoder.decode(late.certificate.certificate.encode())  # type: ignore[union-attr]
    data = msgspec.json.encode(cert)
    backdated = msgspec.structs.replace(
        late, certificate=SignedCertificate(certificate=data.decode(), key_id=old_key.key_id, signature=signing.sign(data).signature.hex())
    )
    report = audit(backdated, verifier(ring.public()))
    assert f"key {old_key.key_id} was not valid when the certificate says it was signed ({NOW + 5000})" in " ".join(report.problems)


def test_an_unknown_key_is_named(ring: KeyRing, finished: AuditBundle, tmp_path: Path) -> None:
    other = KeyRing(tmp_path / "other")
    bundle = certify(other, finished)
    report = audit(bundle, verifier(ring.public()))
    assert any("which is not among the public keys" in p for p in report.problems)


def test_ruleset_hash_of_the_certificate_is_the_recorded_one(ring: KeyRing, finished: AuditBundle) -> None:
    bundle = certify(ring, finished)
    cert = certificate_decoder.decode(bundle.certificate.certificate.encode())  # type: ignore[union-attr]
    created = msgspec.json.decode(bundle.envelopes[0].data)["events"][0]
    assert cert.ruleset_hash == ruleset_hash(created["ruleset"])
