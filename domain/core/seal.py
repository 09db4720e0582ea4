"""Sealed decisions: what the public may not see of a decision, encrypted in the shared log.

A decision whose events hold something a spectator may not see (a hand, a deck order, a card
drawn face down: the game's redaction for viewer None differs from the event, or drops it) is
stored **sealed** (docs/audit.md "Sealed decisions"): the envelope's ``events`` are those
redactions (what every reader without the key folds: a spectator's information state), its
``command`` is None (a command may name hidden cards: a discard, a gift), and ``sealed`` is the
base64 of an XSalsa20-Poly1305 box (NaCl ``secretbox``) of the ``SealedDecision`` -- the command
and the full events, JSON as the codecs encode them -- under the match's **seal key**.  A decision
with nothing hidden is stored as it always was (no ``sealed`` field).

The seal key is derived one way from the match's server seed, ``sha256(b"gamehall/seal/v1\\n" +
server_seed)``: the referee, which keeps the seed, derives it; the gateway is given only the key
(it cannot predict later shuffles from it); everybody can derive it once the seed is revealed at
the end.  The nonce is ``sha256(f"{match_id}\\n{seq}")[:24]``, unique per key because ``seq`` is
unique in a match, so a box moved to another envelope does not open.  The hash chain covers the
stored bytes, ``sealed`` included: a changed box breaks the chain and no longer opens.

Pure: the cipher is deterministic given key and nonce (PyNaCl, libsodium).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec
from nacl.exceptions import CryptoError
from nacl.secret import SecretBox

from contracts.codecs import codec, encode
from contracts.envelope import EventEnvelope, SealedDecision
from contracts.match import ServerSeedRevealed
from domain.core import match as match_layer
from domain.core.decider import Decider

SEAL_KEY_CONTEXT = b"gamehall/seal/v1\n"
KEY_BYTES = 32
NONCE_BYTES = 24

Game = Decider[Any, Any, Any, Any, Any]


class SealError(ValueError):
    """A sealed envelope that cannot be opened."""

    code = "unreadable_match"


class SealBroken(SealError):
    """The box does not open with the key (another key, or changed bytes), or what it holds is
    not the command and events of a decision of this game."""


class SealKeyMissing(SealError):
    """A sealed envelope and no seal key to open it with (not stored, not yet revealed)."""

    code = "unavailable"


def seal_key(server_seed: bytes) -> bytes:
    """The match's seal key: ``sha256(b"gamehall/seal/v1\\n" + server_seed)`` (32 bytes)."""
    return hashlib.sha256(SEAL_KEY_CONTEXT + server_seed).digest()


def seal_nonce(match_id: str, seq: int) -> bytes:
    """The nonce of decision ``seq``: the first 24 bytes of ``sha256(f"{match_id}\\n{seq}")``."""
    return hashlib.sha256(f"{match_id}\n{seq}".encode()).digest()[:NONCE_BYTES]


def public_events(game: Game, events: Sequence[Any]) -> tuple[Any, ...]:
    """What a spectator (viewer None) sees of a decision's events: each redacted, dropped ones left out."""
    out = []
    for event in events:
        shown = match_layer.redact(game, event, None)
        if shown is not None:
            out.append(shown)
    return tuple(out)


def hides_something(game: Game, events: Sequence[Any]) -> bool:
    """Whether the public may not see all of ``events`` (the decision is then sealed)."""
    if not game.hidden_info:
        return False
    return public_events(game, events) != tuple(events)


def seal_envelope(game: Game, envelope: EventEnvelope[Any], key: bytes) -> EventEnvelope[Any]:
    """``envelope`` as it is stored: sealed under ``key`` when its events hide something, else
    unchanged.  ``envelope`` holds the full events and the decided command."""
    public = public_events(game, envelope.events) if game.hidden_info else tuple(envelope.events)
    if public == tuple(envelope.events):
        return envelope
    plaintext = encode(SealedDecision(command=envelope.command, events=tuple(envelope.events)))
    box = SecretBox(key).encrypt(plaintext, seal_nonce(envelope.match_id, envelope.seq))
    return msgspec.structs.replace(
        envelope, events=public, command=None, sealed=base64.b64encode(box.ciphertext).decode()
    )


class _SealedField(msgspec.Struct):
    sealed: str = ""


_sealed_field = msgspec.json.Decoder(_SealedField)


def is_sealed_data(data: bytes) -> bool:
    """Whether stored envelope bytes are sealed (a partial decode; False for bytes that are no
    envelope at all: their reader reports those)."""
    try:
        return bool(_sealed_field.decode(data).sealed)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False


def open_sealed(envelope: EventEnvelope[Any], key: bytes) -> SealedDecision[Any]:
    """The command and full events sealed in ``envelope`` (raises ``SealBroken``)."""
    where = f"decision {envelope.seq} of match {envelope.match_id!r}"
    try:
        box = base64.b64decode(str(envelope.sealed), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SealBroken(f"{where}: its sealed field is not base64 ({exc})") from exc
    try:
        plaintext = SecretBox(key).decrypt(box, seal_nonce(envelope.match_id, envelope.seq))
    except (CryptoError, ValueError) as exc:
        raise SealBroken(
            f"{where}: its sealed events do not open with the match's seal key (changed, or sealed under another key)"
        ) from exc
    try:
        return codec(envelope.game).decode_sealed(plaintext)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SealBroken(f"{where}: its sealed events are not a {envelope.game} decision: {exc}") from exc


def open_envelope(envelope: EventEnvelope[Any], key: bytes | None) -> EventEnvelope[Any]:
    """``envelope`` with its full events and command (itself when it is not sealed).  Raises
    ``SealKeyMissing`` without a key, ``SealBroken`` when the box does not open with ``key``."""
    if not envelope.sealed:
        return envelope
    if key is None:
        raise SealKeyMissing(
            f"decision {envelope.seq} of match {envelope.match_id!r} is sealed and its seal key is not available"
        )
    opened = open_sealed(envelope, key)
    return msgspec.structs.replace(envelope, events=opened.events, command=opened.command)


def revealed_key(envelopes: Sequence[EventEnvelope[Any]]) -> bytes | None:
    """The seal key derived from a server seed revealed in the public events of ``envelopes``
    (a finished match), or None."""
    for envelope in reversed(envelopes):
        for event in envelope.events:
            if isinstance(event, ServerSeedRevealed):
                try:
                    return seal_key(bytes.fromhex(event.server_seed))
                except ValueError:
                    return None
    return None
