"""The hash chain over stored envelope bytes (ARCHITECTURE §5)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def genesis_hash(match_id: str) -> str:
    return hashlib.sha256(match_id.encode()).hexdigest()


def envelope_hash(stored: bytes) -> str:
    return hashlib.sha256(stored).hexdigest()


def chain_breaks(match_id: str, stored: Sequence[bytes], prev_hashes: Sequence[str]) -> list[int]:
    """Indexes i where envelope i's recorded prev_hash does not match the bytes before it."""
    expected = genesis_hash(match_id)
    broken = []
    for i, (data, recorded) in enumerate(zip(stored, prev_hashes, strict=True)):
        if recorded != expected:
            broken.append(i)
        expected = envelope_hash(data)
    return broken
