"""Signed match certificates: what the referee attests when a match ends (issue 14).

A certificate pins a finished match: how many envelopes its log holds, the hash of the last one
(which, through the hash chain, pins every byte before it), the rules it was played under and its
outcome.  The referee signs the certificate's exact JSON bytes with an Ed25519 key; anyone can
check the signature with the public key published at ``GET /api/keys`` (docs/audit.md).
"""

from __future__ import annotations

import msgspec

from contracts.match import Outcome


class MatchCertificate(msgspec.Struct, frozen=True, kw_only=True, tag="match_certificate.v1"):
    match_id: str
    game: str
    rules_version: str
    ruleset_hash: str  # sha256 of the canonical ruleset recorded in MatchCreated
    envelopes: int  # envelopes in the log, the last one ending the match
    head_hash: str  # sha256 of the last envelope's stored bytes
    outcome: Outcome
    signed_at: int  # unix ms


class SignedCertificate(msgspec.Struct, frozen=True, kw_only=True, tag="signed_certificate.v1"):
    certificate: str  # the exact signed bytes: the JSON of a MatchCertificate, as UTF-8 text
    key_id: str
    signature: str  # hex Ed25519 signature of the UTF-8 bytes of ``certificate``


class PublicKey(msgspec.Struct, frozen=True, kw_only=True, tag="public_key.v1"):
    key_id: str
    algorithm: str = "ed25519"
    public_key: str  # hex, 32 bytes
    valid_from: int  # unix ms: certificates signed from then on
    retired_at: int | None = None  # unix ms: no certificate signed after it (still verifies older ones)


class KeySet(msgspec.Struct, frozen=True, kw_only=True):
    keys: tuple[PublicKey, ...]


certificate_decoder = msgspec.json.Decoder(MatchCertificate)
signed_decoder = msgspec.json.Decoder(SignedCertificate)
keyset_decoder = msgspec.json.Decoder(KeySet)
public_key_decoder = msgspec.json.Decoder(PublicKey)
