"""rng_v1 (ARCHITECTURE §4), checked against an independent re-implementation from the text."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from domain.core import rng

SERVER_SEED = bytes(range(32))


def ref_key(server_seed: bytes, client_seeds: list[str]) -> bytes:
    return hashlib.sha256(b"|".join([server_seed] + [c.encode() for c in client_seeds])).digest()


def ref_words(key: bytes, label: bytes, count: int) -> list[int]:
    out: list[int] = []
    i = 0
    while len(out) < count:
        block = hmac.new(key, label + i.to_bytes(8, "big"), hashlib.sha256).digest()
        out.extend(int.from_bytes(block[k : k + 8], "big") for k in range(0, 32, 8))
        i += 1
    return out[:count]


def ref_shuffle(key: bytes, label: bytes, items: list[str]) -> list[str]:
    words = iter(ref_words(key, label, 10_000))
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:
            x = next(words)
            if x < 2**64 - (2**64 % n):
                j = x % n
                break
        items[i], items[j] = items[j], items[i]
    return items


def test_commitment_is_sha256_hex_of_the_seed() -> None:
    assert rng.commitment(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_key_joins_server_seed_and_client_seeds_in_seat_order_with_bars() -> None:
    assert (
        rng.derive_key(SERVER_SEED, ["alice", "", "bob"])
        == hashlib.sha256(SERVER_SEED + b"|alice||bob").digest()
    )
    assert rng.derive_key(SERVER_SEED, ["a", "b"]) != rng.derive_key(SERVER_SEED, ["b", "a"])
    # UTF-8 encoding of client seeds
    assert rng.derive_key(SERVER_SEED, ["é"]) == hashlib.sha256(SERVER_SEED + b"|\xc3\xa9").digest()


def test_stream_words_are_big_endian_u64_of_hmac_blocks() -> None:
    key = ref_key(SERVER_SEED, ["x", "y"])
    stream = rng.Stream(key, b"deal:1")
    got = [stream.next_word() for _ in range(9)]  # crosses two block boundaries
    assert got == ref_words(key, b"deal:1", 9)
    block0 = hmac.new(key, b"deal:1" + bytes(8), hashlib.sha256).digest()
    assert got[0] == int.from_bytes(block0[:8], "big")
    block2 = hmac.new(key, b"deal:1" + (2).to_bytes(8, "big"), hashlib.sha256).digest()
    assert got[8] == int.from_bytes(block2[:8], "big")


def test_labels_are_independent_streams() -> None:
    key = ref_key(SERVER_SEED, [])
    a = rng.Stream(key, b"deal:1")
    b = rng.Stream(key, b"deal:2")
    assert [a.next_word() for _ in range(4)] != [b.next_word() for _ in range(4)]
    # drawing from one label never shifts another
    fresh = rng.Stream(key, b"deal:2")
    assert rng.permutation(key, b"deal:2", 20) == rng.permutation(key, b"deal:2", 20)
    _ = [rng.Stream(key, b"deal:1").next_word() for _ in range(100)]
    assert fresh.next_word() == ref_words(key, b"deal:2", 1)[0]


class ScriptedStream(rng.Stream):
    def __init__(self, words: list[int]) -> None:
        super().__init__(b"k", b"l")
        self.words = list(words)

    def next_word(self) -> int:
        return self.words.pop(0)


def test_randbelow_rejection_boundary() -> None:
    n = 3
    limit = 2**64 - (2**64 % n)  # 2**64 % 3 == 1, so limit = 2**64 - 1
    assert limit == 2**64 - 1
    # the largest accepted word
    assert ScriptedStream([limit - 1]).randbelow(n) == (limit - 1) % n
    # the first rejected word is skipped and the next one is used
    s = ScriptedStream([limit, 7])
    assert s.randbelow(n) == 7 % 3
    assert s.words == []
    # n a power of two never rejects
    assert ScriptedStream([2**64 - 1]).randbelow(4) == 3


def test_randbelow_rejects_about_half_the_words_for_n_just_above_2_63() -> None:
    n = 2**63 + 1
    limit = 2**64 - (2**64 % n)
    assert limit == 2**63 + 1
    key = ref_key(SERVER_SEED, [])
    words = ref_words(key, b"big", 64)
    expected = []
    it = iter(words)
    for _ in range(10):
        while True:
            x = next(it)
            if x < limit:
                expected.append(x % n)
                break
    stream = rng.Stream(key, b"big")
    assert [stream.randbelow(n) for _ in range(10)] == expected
    assert any(w >= limit for w in words[:20])  # the vector really exercises a rejection


def test_randbelow_bad_bounds() -> None:
    s = rng.Stream(b"k", b"l")
    with pytest.raises(ValueError):
        s.randbelow(0)
    with pytest.raises(ValueError):
        s.randbelow(2**64 + 1)
    assert s.randbelow(1) == 0


def test_shuffle_is_fisher_yates_from_the_end() -> None:
    key = ref_key(SERVER_SEED, ["c1", "c2"])
    deck = [f"c{i}" for i in range(52)]
    assert list(rng.shuffle(key, b"deal:3", deck)) == ref_shuffle(key, b"deal:3", deck)
    perm = rng.permutation(key, b"deal:3", 52)
    assert sorted(perm) == list(range(52))
    assert [deck[i] for i in perm] == ref_shuffle(key, b"deal:3", deck)


def test_hand_checkable_small_shuffle() -> None:
    """A 3-card shuffle written out step by step from the words of the stream."""
    key = ref_key(b"\x00" * 32, [""])
    w = ref_words(key, b"t", 8)
    items = ["a", "b", "c"]
    # i = 2: j = randbelow(3); i = 1: j = randbelow(2)  (rejection is astronomically unlikely here)
    assert w[0] < 2**64 - (2**64 % 3) and w[1] < 2**64
    j2 = w[0] % 3
    items[2], items[j2] = items[j2], items[2]
    j1 = w[1] % 2
    items[1], items[j1] = items[j1], items[1]
    assert list(rng.shuffle(key, b"t", ["a", "b", "c"])) == items


def test_shuffle_of_empty_and_single() -> None:
    assert rng.shuffle(b"k", b"l", []) == ()
    assert rng.shuffle(b"k", b"l", ["x"]) == ("x",)


def test_randbelow_takes_the_whole_word_range_and_names_its_bounds() -> None:
    """rng_v1: 1 <= n <= 2**64; n = 2**64 takes a word as it is."""
    import pytest

    from domain.core.rng import Stream

    stream = Stream(b"\x01" * 32, b"deal:1")
    first = Stream(b"\x01" * 32, b"deal:1").next_word()
    assert stream.randbelow(2**64) == first
    for bad in (0, 2**64 + 1):
        with pytest.raises(ValueError, match=r"randbelow needs 1 <= n <= 2\*\*64"):
            Stream(b"\x01" * 32, b"deal:1").randbelow(bad)
