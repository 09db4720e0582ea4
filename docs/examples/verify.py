"""An independent verifier of gamehall audit bundles, written from docs/audit.md alone.

It imports nothing of gamehall: the standard library and PyNaCl (for Ed25519 and the sealed
decisions) only.  It checks what an outsider can check without the rules of the game:

* the bundle's shape and every envelope's match, game, rules version and ``seq``;
* the hash chain (``prev_hash`` of envelope 1 is sha256 of the match id, of envelope n the
  sha256 of envelope n-1's stored bytes) and the head hash;
* the match's creation first, nothing after its end, times that never go back;
* the certificate: its Ed25519 signature over its exact bytes with a published key valid when it
  was signed, and that it covers this bundle (envelopes, head hash, match, game, rules version,
  ruleset hash, outcome);
* for games with chance: the revealed server seed against the commitment and, once it is
  revealed, every shuffle, deal and draw of the card games recomputed from rng_v1 and the deals'
  rules of docs/audit.md "Chance: rng_v1" (the sealed decisions opened with the seal key of
  "Sealed decisions", their clear events checked against the spectator's redaction of the
  opened ones): Kings in the Corner, King, 1000, Farkle Flip and Kings Cup.

    python docs/examples/verify.py match.json [--keys keys.json] [--json]

Exit 0: everything checks; 1: something does not (each problem named); 3: what was checked holds
but something could not be checked (no certificate, an unrevealed seed, no PyNaCl to open the
sealed deals), each named.  ``--json`` adds ``chance``: what was recomputed, per kind of event.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import hmac
import json
import re
import sys
from collections.abc import Iterator
from typing import Any

# ---------------------------------------------------------------- rng_v1 (docs/audit.md)


def rng_key(server_seed: bytes, client_seeds: list[str]) -> bytes:
    """sha256(server_seed || "|" || client_seed_1 || "|" || ... || "|" || client_seed_n): the
    seed's raw bytes, then for each of the n seats in seat order a "|" byte and that seat's client
    seed in UTF-8 (an empty seed still adds its "|")."""
    data = server_seed
    for seed in client_seeds:
        data += b"|" + seed.encode()
    return hashlib.sha256(data).digest()


def words(key: bytes, label: str) -> Iterator[int]:
    """The label's stream: blocks HMAC-SHA256(key, label || i as 8 bytes big-endian), i = 0, 1, ...,
    each read as four big-endian 64-bit words."""
    i = 0
    while True:
        block = hmac.new(key, label.encode() + i.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(block[k : k + 8], "big")
        i += 1


def randbelow(stream: Iterator[int], n: int) -> int:
    """0..n-1 from the next word below 2**64 - (2**64 mod n); a word at or above it is dropped."""
    limit = 2**64 - (2**64 % n)
    while True:
        w = next(stream)
        if w < limit:
            return w % n


def permutation(key: bytes, label: str, n: int) -> list[int]:
    """Fisher-Yates from the top: for i = n-1 down to 1, j = randbelow(i + 1), swap items i and j."""
    items = list(range(n))
    stream = words(key, label)
    for i in range(n - 1, 0, -1):
        j = randbelow(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffled(key: bytes, label: str, deck: list[str]) -> list[str]:
    """The deck shuffled under ``label``: position k (0 = the top) holds deck[perm[k]]."""
    return [deck[p] for p in permutation(key, label, len(deck))]


def drawn_below(key: bytes, label: str, n: int) -> int:
    """One draw 0..n-1: the first accepted word of the label's own stream."""
    return randbelow(words(key, label), n)


# ---------------------------------------------------------------- canonical decks (docs/audit.md)

SUITS = ("C", "D", "H", "S")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def pack(ranks: tuple[str, ...], copy: int = 1, without: frozenset[str] = frozenset()) -> list[str]:
    """Suits C, D, H, S; within a suit the ranks in the order of RANKS; the second pack's cards
    carry a "2" (QS2)."""
    suffix = "" if copy == 1 else str(copy)
    return [r + s + suffix for s in SUITS for r in RANKS if r in ranks and r + s not in without]


def kings_corner_deck(ruleset: dict[str, Any]) -> list[str]:
    deck = pack(RANKS) + ["RJ", "BJ"][: ruleset.get("jokers", 0)]
    return deck + pack(RANKS, copy=2) if ruleset.get("decks", 1) == 2 else deck


def king_deck(ruleset: dict[str, Any]) -> list[str]:
    cut = {"none": frozenset(), "black_sevens": frozenset({"7C", "7S"}), "black_aces": frozenset({"AC", "AS"})}
    return pack(("A", "7", "8", "9", "10", "J", "Q", "K"), without=cut[ruleset.get("deck", "none")])


def thousand_deck() -> list[str]:
    return pack(("A", "9", "10", "J", "Q", "K"))


def farkle_flip_deck(ruleset: dict[str, Any]) -> list[str]:
    counts = ruleset.get("deck_composition") or {}
    return [kind for kind in ("1", "2", "3", "4", "5", "6", "F") for _ in range(counts.get(kind, 0))]


def kings_cup_deck() -> list[str]:
    return pack(RANKS)


_CARD = re.compile(r"^(10|[2-9AJQK])[CDHS][2-9]?$")


def is_joker(card: str) -> bool:
    return card[:2] in ("RJ", "BJ")


def is_king(card: str) -> bool:
    m = _CARD.match(card)
    return m is not None and m.group(1) == "K"


# ---------------------------------------------------------------- the checks


class Report:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.unchecked: list[str] = []
        self.checked: list[str] = []
        self.chance: dict[str, Any] | None = None

    def fail(self, text: str) -> None:
        self.problems.append(text)

    def ok(self, text: str) -> None:
        self.checked.append(text)

    def skip(self, text: str) -> None:
        self.unchecked.append(text)


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8 (how the ruleset hash is taken)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def check_chain(bundle: dict[str, Any], report: Report) -> list[dict[str, Any]]:
    envelopes = bundle.get("envelopes")
    if bundle.get("type") != "audit_bundle.v1" or not isinstance(envelopes, list) or not envelopes:
        report.fail("not an audit bundle (type audit_bundle.v1 with envelopes)")
        return []
    decoded: list[dict[str, Any]] = []
    prev = hashlib.sha256(str(bundle.get("match_id", "")).encode()).hexdigest()
    for i, item in enumerate(envelopes, start=1):
        data = item.get("data") if isinstance(item, dict) else None
        if not isinstance(data, str):
            report.fail(f"envelope #{i}: no stored data")
            return decoded
        try:
            env = json.loads(data)
        except ValueError:
            report.fail(f"envelope #{i}: its data is not JSON")
            return decoded
        if env.get("prev_hash") != prev:
            report.fail(f"envelope #{i}: prev_hash does not link to the envelope before it (the log was changed)")
        for field in ("match_id", "game", "rules_version"):
            if env.get(field) != bundle.get(field):
                report.fail(f"envelope #{i}: {field} {env.get(field)!r} is not the bundle's {bundle.get(field)!r}")
        if env.get("seq") != i:
            report.fail(f"envelope #{i}: seq {env.get('seq')!r}, expected {i}")
        prev = hashlib.sha256(data.encode()).hexdigest()
        decoded.append(env)
    if bundle.get("head_hash") != prev:
        report.fail("head_hash is not the sha256 of the last envelope")
    if not report.problems:
        report.ok(f"hash chain of {len(decoded)} envelopes and head hash")
    return decoded


def events(env: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in env.get("events") or [] if isinstance(e, dict)]


def check_shape(envs: list[dict[str, Any]], report: Report) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The creation first, nothing after the end, times in order.  Returns (created, outcome)."""
    created = next((e for e in events(envs[0]) if e.get("type") == "match_created.v1"), None) if envs else None
    if created is None:
        report.fail("envelope #1 does not create the match (match_created.v1)")
        return None, None
    outcome = None
    last_time = 0
    for i, env in enumerate(envs, start=1):
        if outcome is not None:
            report.fail(f"envelope #{i}: a decision after the match ended")
        at = env.get("recorded_at")
        if not isinstance(at, int) or at < last_time:
            report.fail(f"envelope #{i}: recorded_at goes back in time")
        else:
            last_time = at
        seat = env.get("seat")
        if seat is not None and seat not in created.get("seats", []):
            report.fail(f"envelope #{i}: seat {seat!r} is not a seat of the match")
        for e in events(env):
            if e.get("type") == "match_ended.v1":
                outcome = e.get("outcome")
        if i > 1 and any(e.get("type") == "match_created.v1" for e in events(env)):
            report.fail(f"envelope #{i}: a second creation")
    if created.get("ruleset_hash") != hashlib.sha256(canonical(created.get("ruleset"))).hexdigest():
        report.fail("envelope #1: ruleset_hash is not the sha256 of the ruleset (sorted keys, no spaces)")
    report.ok("creation first, seats of the match, times in order, nothing after the end")
    return created, outcome


def check_certificate(
    bundle: dict[str, Any],
    created: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
    keys: dict[str, Any] | None,
    report: Report,
) -> None:
    signed = bundle.get("certificate")
    if signed is None:
        report.skip("certificate: the bundle has none (an unfinished or uncertified match)")
        return
    if keys is None:
        report.skip("certificate: no public keys given (--keys keys.json, from GET /api/keys)")
        return
    try:
        from nacl.exceptions import BadSignatureError
        from nacl.signing import VerifyKey
    except ImportError:
        report.skip("certificate: PyNaCl is not installed")
        return
    by_id = {k.get("key_id"): k for k in keys.get("keys", [])}
    key = by_id.get(signed.get("key_id"))
    if key is None:
        report.fail(f"certificate: signed by key {signed.get('key_id')!r}, which is not among the public keys")
        return
    try:
        VerifyKey(bytes.fromhex(key["public_key"])).verify(
            signed["certificate"].encode(), bytes.fromhex(signed["signature"])
        )
    except (BadSignatureError, ValueError, KeyError, TypeError):
        report.fail(f"certificate: the signature does not verify with key {key.get('key_id')}")
        return
    cert = json.loads(signed["certificate"])
    at = cert.get("signed_at", -1)
    if at < key.get("valid_from", 0) or (key.get("retired_at") is not None and at > key["retired_at"]):
        report.fail(f"certificate: key {key.get('key_id')} was not valid at {at}")
    envs = bundle["envelopes"]
    expect = {
        "type": "match_certificate.v1",
        "match_id": bundle.get("match_id"),
        "game": bundle.get("game"),
        "rules_version": bundle.get("rules_version"),
        "envelopes": len(envs),
        "head_hash": hashlib.sha256(envs[-1]["data"].encode()).hexdigest(),
    }
    for field, value in expect.items():
        if cert.get(field) != value:
            report.fail(f"certificate: {field} is {cert.get(field)!r}, the bundle gives {value!r}")
    if created is not None and cert.get("ruleset_hash") != created.get("ruleset_hash"):
        report.fail("certificate: ruleset_hash is not the one the match was created with")
    if outcome is None:
        report.fail("certificate: the log does not end the match (no match_ended.v1)")
    elif cert.get("outcome") != outcome:
        report.fail("certificate: its outcome is not the one the log ends with")
    if not any(p.startswith("certificate") for p in report.problems):
        report.ok(f"certificate signed by {key.get('key_id')} covers this bundle and its outcome")


# ---------------------------------------------------------------- chance


def revealed_seed(envs: list[dict[str, Any]]) -> bytes | None:
    for env in envs:
        for e in events(env):
            if e.get("type") == "server_seed_revealed.v1":
                try:
                    return bytes.fromhex(str(e.get("server_seed")))
                except ValueError:
                    return b""
    return None


def where(env: dict[str, Any]) -> str:
    return f"envelope #{env.get('seq')} (seq {env.get('seq')})"


HIDDEN = "??"


def _blank(cards: list[Any], keep: Any = None) -> list[Any]:
    return [c if keep is not None and c == keep else HIDDEN for c in cards]


def spectator(event: dict[str, Any]) -> dict[str, Any] | None:
    """What a spectator sees of an event (docs/audit.md "The spectator's redaction"); None for an
    event a spectator does not see at all."""
    kind = event.get("type")
    e = dict(event)
    if kind == "kc_king_penalty_charged.v1":
        return None
    if kind in ("kc_round_dealt.v1", "thousand_deal_dealt.v1"):
        e["order"] = []
    if kind == "kc_round_dealt.v1":
        e["stock"] = _blank(e["stock"])
    if kind in ("kc_round_dealt.v1", "king_dealt.v1", "thousand_deal_dealt.v1"):
        e["hands"] = [_blank(h) for h in e["hands"]]
    if kind == "king_dealt.v1":
        e["pending"] = [_blank(h) for h in e["pending"]]
    if kind in ("king_dealt.v1", "thousand_deal_dealt.v1", "thousand_redeal.v1"):
        e["talon"] = _blank(e["talon"])
    if kind == "king_rest_dealt.v1":
        e["cards"] = [_blank(h, keep=e.get("shown")) for h in e["cards"]]
    if kind in ("kc_cards_drawn.v1", "king_discarded.v1", "thousand_hand_shown.v1") or (
        kind == "thousand_talon_revealed.v1" and not e.get("public")
    ) or (kind == "thousand_cards_given.v1" and not e.get("face_up")):
        e["cards"] = _blank(e["cards"])
    if kind == "ff_game_dealt.v1":
        e["deck"] = _blank(e["deck"])
    if kind in ("ff_pile_reshuffled.v1", "ff_pile_order_given.v1", "kcup_dealt.v1"):
        e["order"] = _blank(e["order"])
    return e


def open_sealed(envs: list[dict[str, Any]], seed: bytes, report: Report) -> tuple[list[dict[str, Any]], int] | None:
    """Every envelope with its sealed decision opened (docs/audit.md "Sealed decisions"): its
    command and full events in place of the clear ones.  None when PyNaCl is not installed."""
    try:
        from nacl.exceptions import CryptoError
        from nacl.secret import SecretBox
    except ImportError:
        return None
    box = SecretBox(hashlib.sha256(b"gamehall/seal/v1\n" + seed).digest())
    out: list[dict[str, Any]] = []
    opened = 0
    for env in envs:
        if "sealed" not in env:
            out.append(env)
            continue
        nonce = hashlib.sha256(f"{env.get('match_id')}\n{env.get('seq')}".encode()).digest()[:24]
        try:
            plain = json.loads(box.decrypt(base64.b64decode(str(env["sealed"]), validate=True), nonce))
        except (binascii.Error, CryptoError, ValueError):
            report.fail(f"{where(env)}: its sealed decision does not open with the match's seal key")
            out.append(env)
            continue
        if not isinstance(plain, dict) or plain.get("type") != "sealed_decision.v1":
            report.fail(f"{where(env)}: its sealed part is not a sealed_decision.v1")
            out.append(env)
            continue
        if env.get("command") is not None:
            report.fail(f"{where(env)}: a sealed decision carries its command in the clear")
        full = [e for e in plain.get("events") or [] if isinstance(e, dict)]
        try:
            seen = [s for s in map(spectator, full) if s is not None]
        except (KeyError, TypeError):
            seen = None
        if seen != env.get("events"):
            report.fail(f"{where(env)}: its clear events are not a spectator's view of its sealed events")
        out.append({**env, "command": plain.get("command"), "events": full})
        opened += 1
    return out, opened


def first_difference(got: Any, want: Any, path: str = "") -> tuple[str, str]:
    """Where two values first differ, and how: ("[3][0]", "is 'QS', rng_v1 gives '4H'")."""
    if isinstance(got, list) and isinstance(want, list):
        for k, (a, b) in enumerate(zip(got, want, strict=False)):
            if a != b:
                return first_difference(a, b, f"{path}[{k}]")
        return path, f"has {len(got)} items, rng_v1 gives {len(want)}"
    return path, f"is {got!r}, rng_v1 gives {want!r}"


def next_of(seats: list[int], after: int, n: int) -> int:
    """The first seat of ``seats`` after seat ``after``, going up in seat order and round."""
    return next((after + step) % n for step in range(1, n + 1) if (after + step) % n in seats)


def round_robin(order: list[str], playing: list[int], dealer: int, size: int, n: int) -> tuple[list[list[str]], int]:
    """``size`` rounds of one card to each playing seat, from the top of ``order``, starting with
    the playing seat after the dealer; a seat that does not play gets [].  Returns the hands (in
    seat order) and the number of cards dealt."""
    seq = [next_of(playing, dealer, n)]
    while len(seq) < len(playing):
        seq.append(next_of(playing, seq[-1], n))
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(size):
        for i in seq:
            hands[i].append(order[pos])
            pos += 1
    return hands, pos


class Chance:
    """The chance of one card game, recomputed event by event in log order.  A subclass names
    its client-seed event (``ready``), its first chance event (``first_deal``) and a method per
    event type it checks (``handlers``)."""

    ready = ""
    first_deal = ""
    handlers: dict[str, str] = {}

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        self.seats: list[str] = list(created.get("seats") or [])
        self.n = len(self.seats)
        self.ruleset: dict[str, Any] = created.get("ruleset") or {}
        self.report = report
        self.key = b""
        self.at = ""
        self.counts: dict[str, int] = {}

    def client_seeds(self, envs: list[dict[str, Any]]) -> list[str]:
        """Per seat in seat order, the client seed of its ready event before the first deal ("" if
        it sent none); a ready event after the first deal must carry "" (it takes no part)."""
        seeds = [""] * self.n
        dealt = False
        for env in envs:
            for e in events(env):
                if e.get("type") == self.first_deal:
                    dealt = True
                elif e.get("type") == self.ready:
                    if dealt and e.get("client_seed"):
                        self.report.fail(f"{where(env)}: {self.ready} client_seed after the first deal")
                    elif not dealt and e.get("seat") in self.seats:
                        seeds[self.seats.index(e["seat"])] = str(e.get("client_seed", ""))
        return seeds

    def run(self, envs: list[dict[str, Any]], seed: bytes) -> dict[str, Any]:
        seeds = self.client_seeds(envs)
        self.key = rng_key(seed, seeds)
        for env in envs:
            self.at = where(env)
            for e in events(env):
                name = self.handlers.get(str(e.get("type")))
                if name is not None:
                    self.counts[e["type"]] = self.counts.get(e["type"], 0) + 1
                    try:
                        getattr(self, name)(e)
                    except (IndexError, KeyError, TypeError, ValueError, StopIteration):
                        self.report.fail(f"{self.at}: {e['type']}: malformed, or not dealt as docs/audit.md says")
        return {"client_seeds": seeds, "events": self.counts}

    def fail(self, e: dict[str, Any], field: str, text: str) -> None:
        self.report.fail(f"{self.at}: {e.get('type')} {field}: {text}")

    def same(self, e: dict[str, Any], field: str, want: Any) -> bool:
        """The event's ``field`` is ``want`` (what rng_v1 gives), or a problem naming where not."""
        got = e.get(field)
        if got == want:
            return True
        path, how = first_difference(got, want)
        self.report.fail(f"{self.at}: {e.get('type')} {field}{path} {how}")
        return False


class KingsCorner(Chance):
    ready = "kc_seat_ready.v1"
    first_deal = "kc_round_dealt.v1"
    handlers = {"kc_round_dealt.v1": "dealt", "kc_cards_drawn.v1": "drawn"}

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        super().__init__(created, report)
        self.round_no = 0
        self.dealer = -1
        self.playing = list(range(self.n))
        self.stock: list[str] = []

    def dealt(self, e: dict[str, Any]) -> None:
        self.round_no += 1
        self.same(e, "round_no", self.round_no)
        self.same(e, "seats", self.seats)
        order = shuffled(self.key, f"deal:{self.round_no}", kings_corner_deck(self.ruleset))
        self.same(e, "order", order)
        # the seats still playing are the ones dealt a hand
        playing = [i for i, hand in enumerate(e.get("hands") or []) if hand and i < self.n]
        if not playing:
            self.fail(e, "hands", "no seat is dealt a hand")
            return
        back = [self.seats[i] for i in playing if i not in self.playing]
        if back:
            self.fail(e, "hands", f"{back} dealt in again after being out")
        self.playing = playing
        if self.round_no == 1:
            self.dealer = playing[drawn_below(self.key, "dealer", len(playing))]
        else:
            self.dealer = next_of(playing, self.dealer, self.n)
        self.same(e, "dealer", self.seats[self.dealer])
        hands, pos = round_robin(order, playing, self.dealer, self.ruleset.get("hand_size", 7), self.n)
        self.same(e, "hands", hands)
        self.same(e, "hand_sizes", [len(h) for h in hands])
        self.same(e, "first_seat", self.seats[next_of(playing, self.dealer, self.n)])
        cross = order[pos : pos + 4]
        self.same(e, "cross", cross)
        auto = self.ruleset.get("setup_cross_kings") == "auto_corner_refill_from_stock"
        layout, stock, steps = kings_corner_set_up(cross, order[pos + 4 :], auto)
        self.same(e, "setup", steps)
        self.same(e, "layout", layout)
        self.same(e, "stock", stock)
        self.same(e, "stock_size", len(stock))
        self.stock = stock

    def drawn(self, e: dict[str, Any]) -> None:
        count = e.get("count")
        top = self.stock[:count]
        self.same(e, "cards", top)
        if count != len(e.get("cards") or []):
            self.fail(e, "count", f"is {count!r} for {len(e.get('cards') or [])} cards")
        self.stock = self.stock[count:]


SLOTS = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")


def kings_corner_set_up(
    cross: list[str], rest: list[str], auto: bool
) -> tuple[list[list[str]], list[str], list[dict[str, str]]]:
    """The cross N E S W, then its clean-up (docs/audit.md): while a cross slot, looked at in the
    order N, E, S, W, holds a joker (or, with auto set-up, a king), that card leaves (a king for
    the first empty corner NE, SE, SW, NW; a joker, or a king with every corner taken, for the
    bottom of the stock) and the top of the stock takes its place."""
    stock = list(rest)
    layout: list[list[str]] = [[c] for c in cross] + [[] for _ in range(4)]
    steps: list[dict[str, str]] = []
    for _ in range(10 * (len(rest) + 4)):
        slot = next((s for s in range(4) if is_joker(layout[s][0]) or (auto and is_king(layout[s][0]))), None)
        if slot is None or not stock:
            break
        card = layout[slot][0]
        corner = next((c for c in range(4, 8) if not layout[c]), None)
        if is_joker(card) or corner is None:
            stock.append(card)
            to = "stock_bottom"
        else:
            layout[corner] = [card]
            to = SLOTS[corner]
        refill = stock.pop(0)
        layout[slot] = [refill]
        steps.append({"card": card, "slot": SLOTS[slot], "to": to, "refill": refill})
    return layout, stock, steps


class King(Chance):
    ready = "king_seat_ready.v1"
    first_deal = "king_dealt.v1"
    handlers = {
        "king_dealt.v1": "dealt",
        "king_declared.v1": "declared",
        "king_rest_dealt.v1": "rest_dealt",
        "king_talon_shown.v1": "talon_shown",
        "king_discarded.v1": "discarded",
    }

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        super().__init__(created, report)
        self.deal_no = 0
        self.dealer = -1
        self.dealt_to: list[list[str]] = []
        self.pending: list[list[str]] = []
        self.talon: list[str] = []
        self.last_card: str | None = None

    def dealt(self, e: dict[str, Any]) -> None:
        self.deal_no += 1
        self.same(e, "deal_no", self.deal_no)
        self.same(e, "seats", self.seats)
        if self.deal_no == 1:
            self.dealer = drawn_below(self.key, "dealer", self.n)
        else:
            self.dealer = (self.dealer + 1) % self.n
        self.same(e, "dealer", self.seats[self.dealer])
        sit_out = bool(self.ruleset.get("sitOutDealer"))
        playing = [i for i in range(self.n) if not (sit_out and i == self.dealer)]
        order = shuffled(self.key, f"deal:{self.deal_no}", king_deck(self.ruleset))
        hands, pos = round_robin(order, playing, self.dealer, self.ruleset.get("handSize", 8), self.n)
        self.dealt_to = hands
        self.talon = order[pos:]
        peek = self.ruleset.get("hvPeek")
        if e.get("game") in ("HV", "TR") and isinstance(peek, int) and not isinstance(peek, bool):
            held, self.pending = [h[:peek] for h in hands], [h[peek:] for h in hands]
        else:
            held, self.pending = hands, [[] for _ in hands]
        self.same(e, "hands", held)
        self.same(e, "pending", self.pending)
        self.same(e, "talon", self.talon)

    def declared(self, e: dict[str, Any]) -> None:
        self.last_card = e.get("last_card")
        if self.last_card is not None and e.get("seat") in self.seats:
            self.same(e, "last_card", self.dealt_to[self.seats.index(e["seat"])][-1])

    def rest_dealt(self, e: dict[str, Any]) -> None:
        self.same(e, "seats", self.seats)
        self.same(e, "cards", self.pending)
        self.same(e, "shown", self.last_card)
        self.pending = [[] for _ in self.pending]

    def talon_shown(self, e: dict[str, Any]) -> None:
        self.same(e, "cards", self.talon)

    def discarded(self, e: dict[str, Any]) -> None:
        own = self.dealt_to[self.seats.index(e["seat"])] + self.talon
        for card in e.get("cards") or []:
            if card not in own:
                self.fail(e, "cards", f"{card!r} was neither dealt to {e['seat']} nor in the talon")


class Thousand(Chance):
    ready = "thousand_seat_ready.v1"
    first_deal = "thousand_deal_dealt.v1"
    handlers = {
        "thousand_deal_dealt.v1": "dealt",
        "thousand_deal_scored.v1": "scored",
        "thousand_hand_shown.v1": "hand_shown",
        "thousand_talon_revealed.v1": "talon_revealed",
        "thousand_redeal.v1": "redeal",
        "thousand_cards_given.v1": "given",
    }

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        super().__init__(created, report)
        self.shuffle = 0
        self.dealer = -1
        self.passes = False  # a deal was scored since the last dealing: the deal passes left
        self.hands: list[list[str]] = []
        self.talon: list[str] = []

    def dealt(self, e: dict[str, Any]) -> None:
        self.shuffle += 1
        self.same(e, "shuffle", self.shuffle)
        self.same(e, "seats", self.seats)
        if self.shuffle == 1:
            self.dealer = drawn_below(self.key, "dealer", self.n)
        elif self.passes:
            self.dealer = (self.dealer + 1) % self.n
        self.passes = False
        self.same(e, "dealer", self.seats[self.dealer])
        sitout = self.dealer if self.ruleset.get("sitout_4p") else -1
        self.same(e, "sitout", self.seats[sitout] if sitout >= 0 else None)
        playing: list[int] = []
        j = self.dealer
        while len(playing) < 3:
            j = (j + 1) % self.n
            if j != sitout:
                playing.append(j)
        order = shuffled(self.key, f"deal:{self.shuffle}", thousand_deck())
        self.same(e, "order", order)
        self.hands, pos = round_robin(order, playing, self.dealer, 7, self.n)
        self.talon = order[pos : pos + 3]
        self.same(e, "hands", self.hands)
        self.same(e, "talon", self.talon)

    def scored(self, e: dict[str, Any]) -> None:
        self.passes = True

    def hand_shown(self, e: dict[str, Any]) -> None:
        self.same(e, "cards", self.hands[self.seats.index(e["seat"])])

    def talon_revealed(self, e: dict[str, Any]) -> None:
        self.same(e, "cards", self.talon)

    def redeal(self, e: dict[str, Any]) -> None:
        if e.get("seat") is None:
            self.same(e, "talon", self.talon)

    def given(self, e: dict[str, Any]) -> None:
        own = self.hands[self.seats.index(e["declarer"])] + self.talon
        for card in e.get("cards") or []:
            if card not in own:
                self.fail(e, "cards", f"{card!r} was neither dealt to {e['declarer']} nor in the talon")


class FarkleFlip(Chance):
    ready = "ff_seat_ready.v1"
    first_deal = "ff_game_dealt.v1"
    handlers = {
        "ff_game_dealt.v1": "dealt",
        "ff_card_drawn.v1": "drawn",
        "ff_pile_reshuffled.v1": "reshuffled",
        "ff_pile_order_given.v1": "order_given",
    }

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        super().__init__(created, report)
        self.draw_pile: list[str] = []
        self.reshuffles = 0
        self.given: list[str] | None = None

    def dealt(self, e: dict[str, Any]) -> None:
        dealer = drawn_below(self.key, "dealer", self.n)
        self.same(e, "dealer", self.seats[dealer])
        self.same(e, "seats", self.seats)
        deck = shuffled(self.key, "deck", farkle_flip_deck(self.ruleset))
        self.same(e, "deck", deck)
        dealt = [""] * self.n
        for k in range(self.n):
            dealt[(dealer + 1 + k) % self.n] = deck[k]
        self.same(e, "dealt", dealt)
        self.same(e, "first_seat", self.seats[(dealer + 1) % self.n])
        self.same(e, "draw_size", len(deck) - self.n)
        self.draw_pile = deck[self.n :]

    def drawn(self, e: dict[str, Any]) -> None:
        if not self.draw_pile:
            self.fail(e, "card", "the draw pile is empty")
            return
        self.same(e, "card", self.draw_pile[0])
        self.draw_pile = self.draw_pile[1:]

    def reshuffled(self, e: dict[str, Any]) -> None:
        self.reshuffles += 1
        self.same(e, "reshuffle_no", self.reshuffles)
        if self.draw_pile:
            self.fail(e, "order", f"a reshuffle with {len(self.draw_pile)} cards still to draw")
        cards = sorted(str(c) for c in e.get("order") or [])
        deck = farkle_flip_deck(self.ruleset)
        if any(cards.count(kind) > deck.count(kind) for kind in set(cards)):
            self.fail(e, "order", "holds more cards of a kind than the deck")
        if self.given is not None:  # a game record's order, not rng_v1
            order, self.given = self.given, None
        else:
            order = shuffled(self.key, f"reshuffle:{self.reshuffles}", cards)
        self.same(e, "order", order)
        self.same(e, "size", len(order))
        self.draw_pile = order

    def order_given(self, e: dict[str, Any]) -> None:
        self.given = list(e.get("order") or [])
        self.report.skip(f"{self.at}: ff_pile_order_given.v1: a reshuffle order given by a game record, not drawn")


class KingsCup(Chance):
    ready = "kcup_seat_ready.v1"
    first_deal = "kcup_dealt.v1"
    handlers = {"kcup_dealt.v1": "dealt", "kcup_card_drawn.v1": "drawn"}

    def __init__(self, created: dict[str, Any], report: Report) -> None:
        super().__init__(created, report)
        self.cup: list[str] = []

    def dealt(self, e: dict[str, Any]) -> None:
        self.cup = shuffled(self.key, "cup", kings_cup_deck())
        self.same(e, "order", self.cup)
        self.same(e, "size", len(self.cup))
        self.same(e, "first_seat", self.seats[drawn_below(self.key, "first", self.n)])

    def drawn(self, e: dict[str, Any]) -> None:
        if not self.cup:
            self.fail(e, "card", "no card is left around the cup")
            return
        self.same(e, "card", self.cup[0])
        self.cup = self.cup[1:]


CHANCE: dict[str, type[Chance]] = {
    "kings-corner": KingsCorner,
    "king": King,
    "thousand": Thousand,
    "farkle-flip": FarkleFlip,
    "kings-cup": KingsCup,
}


def check_chance(envs: list[dict[str, Any]], created: dict[str, Any], report: Report) -> dict[str, Any] | None:
    """The seed against its commitment, then every draw of the game recomputed.  Returns what was
    checked (for --json), or None when nothing of chance was recomputed."""
    commitment = created.get("seed_commitment") or ""
    if not commitment:
        report.ok("no chance in this game (no seed commitment)")
        return None
    seed = revealed_seed(envs)
    if seed is None:
        report.skip("chance: the server seed is not revealed yet (an unfinished match)")
        return None
    if hashlib.sha256(seed).hexdigest() != commitment:
        report.fail("chance: the revealed server seed does not match the commitment")
        return None
    report.ok("the revealed server seed matches the commitment")
    game = str(created.get("game"))
    checker = CHANCE.get(game)
    if checker is None:
        report.skip(f"chance: docs/audit.md gives no deals for the game {game!r}")
        return None
    opened = open_sealed(envs, seed, report)
    if opened is None:
        report.skip("chance: PyNaCl is not installed, so the sealed deals cannot be opened")
        return None
    full, count = opened
    before = len(report.problems)
    summary = {"game": game, "sealed_opened": count, **checker(created, report).run(full, seed)}
    if len(report.problems) == before:
        what = ", ".join(f"{n} {t}" for t, n in summary["events"].items())
        report.ok(f"every shuffle, deal and draw follows from rng_v1 ({count} sealed decisions opened; {what})")
    return summary


# ---------------------------------------------------------------- main


def verify(bundle: dict[str, Any], keys: dict[str, Any] | None) -> Report:
    report = Report()
    envs = check_chain(bundle, report)
    if not envs:
        return report
    created, outcome = check_shape(envs, report)
    if created is not None:
        report.chance = check_chance(envs, created, report)
    check_certificate(bundle, created, outcome, keys, report)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bundle")
    ap.add_argument("--keys", help="the public keys (GET /api/keys, gamehall keys --json)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    with open(a.bundle, encoding="utf-8") as f:
        bundle = json.load(f)
    keys = None
    if a.keys:
        with open(a.keys, encoding="utf-8") as f:
            keys = json.load(f)
    report = verify(bundle, keys)
    code = 1 if report.problems else 3 if report.unchecked else 0
    if a.json:
        answer = {"ok": code == 0, "problems": report.problems, "checked": report.checked, "unchecked": report.unchecked}
        print(json.dumps({**answer, "chance": report.chance}))
    else:
        for line in report.checked:
            print(f"ok: {line}")
        for line in report.unchecked:
            print(f"NOT CHECKED: {line}")
        for line in report.problems:
            print(f"FAILED: {line}")
        print("OK" if code == 0 else "VERIFY FAILED" if code == 1 else "OK AS FAR AS CHECKED")
    return code


if __name__ == "__main__":
    sys.exit(main())
