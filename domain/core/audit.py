"""The hash chain over stored envelope bytes (ARCHITECTURE §5)."""

from __future__ import annotations

import hashlib


def genesis_hash(match_id: str) -> str:
    return hashlib.sha256(match_id.encode()).hexdigest()


def envelope_hash(stored: bytes) -> str:
    return hashlib.sha256(stored).hexdigest()
