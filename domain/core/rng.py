"""rng_v1: provably fair, reproducible chance (ARCHITECTURE §4).

key    = sha256(b"|".join([server_seed] + [client_seed.encode() for each seat in seat order]))
stream = HMAC-SHA256(key, label + i.to_bytes(8, "big")) for i = 0, 1, 2, ... read as big-endian u64 words
randbelow(n): next word x; accept when x < 2**64 - (2**64 % n), return x % n
shuffle: Fisher-Yates, for i from n-1 down to 1: j = randbelow(i + 1), swap items i and j

Each purpose has its own label (e.g. b"deal:3"), so one draw never shifts another.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def derive_key(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    return hashlib.sha256(b"|".join([server_seed, *(s.encode() for s in client_seeds)])).digest()


class Stream:
    """The word stream for one purpose label."""

    __slots__ = ("_key", "_label", "_block", "_buf", "_pos")

    def __init__(self, key: bytes, label: bytes) -> None:
        self._key = key
        self._label = label
        self._block = 0
        self._buf = b""
        self._pos = 0

    def next_word(self) -> int:
        if self._pos + 8 > len(self._buf):
            self._buf = hmac.new(
                self._key, self._label + self._block.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._block += 1
            self._pos = 0
        word = int.from_bytes(self._buf[self._pos : self._pos + 8], "big")
        self._pos += 8
        return word

    def randbelow(self, n: int) -> int:
        if not 1 <= n <= _TWO64:
            raise ValueError("randbelow needs 1 <= n <= 2**64")
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self.next_word()
            if x < limit:
                return x % n


def permutation(key: bytes, label: bytes, n: int) -> tuple[int, ...]:
    """The rng_v1 shuffle of 0..n-1 under one label."""
    items = list(range(n))
    stream = Stream(key, label)
    for i in range(n - 1, 0, -1):
        j = stream.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def shuffle(key: bytes, label: bytes, items: Sequence[T]) -> tuple[T, ...]:
    return tuple(items[i] for i in permutation(key, label, len(items)))
