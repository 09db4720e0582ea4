"""The referee's signing keys and match certificates (Ed25519, PyNaCl).

Keys live in a folder (``GAMEHALL_SIGNING_KEYS``, default ``<data dir>/keys``): one private key
file per key (``<key_id>.key``, hex seed, mode 0600) and ``public.json``, every key's public part
with its validity.  The newest key that is not retired signs; ``rotate`` retires it and makes a
new one, and retired keys stay in ``public.json`` so every certificate they signed still
verifies.  Referees publish each public key on ``certificate.keys.<key_id>``, so a gateway on
another machine serves them at ``GET /api/keys``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

import msgspec
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.certificate import (
    KeySet,
    MatchCertificate,
    PublicKey,
    SignedCertificate,
    keyset_decoder,
    public_key_decoder,
    signed_decoder,
)

PUBLIC_FILE = "public.json"


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    os.chmod(path, 0o600)


class KeyRing:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def public(self) -> KeySet:
        try:
            return keyset_decoder.decode((self.folder / PUBLIC_FILE).read_bytes())
        except FileNotFoundError:
            return KeySet(keys=())

    def stamp(self) -> tuple[int, int] | None:
        """The public file's modification time and size (None before the first key): a change
        means a key was made or retired."""
        try:
            info = (self.folder / PUBLIC_FILE).stat()
        except FileNotFoundError:
            return None
        return info.st_mtime_ns, info.st_size

    def _save(self, keys: KeySet) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / (PUBLIC_FILE + ".tmp")
        tmp.write_bytes(msgspec.json.format(msgspec.json.encode(keys)))
        tmp.replace(self.folder / PUBLIC_FILE)

    def _new_key(self, now_ms: int) -> PublicKey:
        signing = SigningKey.generate()
        key_id = f"k{now_ms // 1000}-{secrets.token_hex(3)}"
        self.folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.folder, 0o700)
        _write_private(self.folder / f"{key_id}.key", bytes(signing).hex())
        return PublicKey(key_id=key_id, public_key=bytes(signing.verify_key).hex(), valid_from=now_ms)

    def current(self, now_ms: int) -> tuple[PublicKey, SigningKey]:
        """The key that signs now, made on first use."""
        keys = self.public()
        live = [k for k in keys.keys if k.retired_at is None]
        if not live:
            fresh = self._new_key(now_ms)
            self._save(KeySet(keys=(*keys.keys, fresh)))
            live = [fresh]
        key = max(live, key=lambda k: k.valid_from)
        seed = bytes.fromhex((self.folder / f"{key.key_id}.key").read_text().strip())
        return key, SigningKey(seed)

    def rotate(self, now_ms: int) -> PublicKey:
        """Retire every live key and make a new one; the old ones keep verifying what they signed."""
        keys = self.public()
        retired = tuple(
            msgspec.structs.replace(k, retired_at=now_ms) if k.retired_at is None else k for k in keys.keys
        )
        fresh = self._new_key(now_ms)
        self._save(KeySet(keys=(*retired, fresh)))
        return fresh


def sign(ring: KeyRing, certificate: MatchCertificate) -> SignedCertificate:
    key, signing = ring.current(certificate.signed_at)
    data = msgspec.json.encode(certificate)
    return SignedCertificate(
        certificate=data.decode(), key_id=key.key_id, signature=signing.sign(data).signature.hex()
    )


def verifier(keys: KeySet) -> Callable[[SignedCertificate, MatchCertificate], str | None]:
    """A signature check against a published key set: None when the signature is good and the
    key was valid when the certificate was signed, else what is wrong."""
    by_id = {k.key_id: k for k in keys.keys}

    def check(signed: SignedCertificate, cert: MatchCertificate) -> str | None:
        key = by_id.get(signed.key_id)
        if key is None:
            known = ", ".join(sorted(by_id)) or "none"
            return f"the certificate is signed by key {signed.key_id!r}, which is not among the public keys ({known})"
        if key.algorithm != "ed25519":
            return f"key {key.key_id} uses {key.algorithm!r}, not ed25519"
        try:
            VerifyKey(bytes.fromhex(key.public_key)).verify(
                signed.certificate.encode(), bytes.fromhex(signed.signature)
            )
        except (BadSignatureError, ValueError):
            return f"the certificate's signature does not verify with key {key.key_id}"
        if cert.signed_at < key.valid_from or (key.retired_at is not None and cert.signed_at > key.retired_at):
            return f"key {key.key_id} was not valid when the certificate says it was signed ({cert.signed_at})"
        return None

    return check


async def load_certificate(js: JetStreamContext, game: str, match_id: str) -> SignedCertificate | None:
    """The stored certificate of a match (the first one stored is the one that stands)."""
    subject = subjects.certificate_subject(game, match_id)
    try:
        msg = await js.get_msg(subjects.CERTIFICATE_STREAM, subject=subject, next=True, seq=1)
    except NotFoundError:
        return None
    return signed_decoder.decode(msg.data or b"")


async def published_keys(js: JetStreamContext) -> KeySet:
    """Every public key the referees have published (the last record of each key wins)."""
    try:
        info = await js.stream_info(subjects.CERTIFICATE_STREAM, subjects_filter=subjects.PUBLIC_KEY_SUBJECTS)
    except NotFoundError:
        return KeySet(keys=())
    keys = []
    for subject in sorted((info.state.subjects or {}).keys()):
        msg = await js.get_last_msg(subjects.CERTIFICATE_STREAM, subject)
        keys.append(public_key_decoder.decode(msg.data or b""))
    return KeySet(keys=tuple(sorted(keys, key=lambda k: k.valid_from)))
