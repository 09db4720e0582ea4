"""docs/examples/verify.py, the verifier written from docs/audit.md alone (it imports no project
code), on certified bundles of every game and on each kind of tampering: the chain, the
certificate, and every deal of the card games recomputed from rng_v1 (docs/audit.md "Chance:
rng_v1")."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from nacl.secret import SecretBox

from contracts.certificate import MatchCertificate
from contracts.envelope import Rejected
from contracts.games import farkle_flip, king, kings_corner, kings_cup, thousand
from contracts.match import Resign
from domain.core import cards, rng, seal
from domain.core import match as match_layer
from domain.games import registry
from domain.games.farkle_flip.rules import deck as farkle_flip_deck
from domain.games.king.scoring import deck as king_deck
from domain.games.kings_corner.deal import full_deck as kings_corner_deck
from domain.games.thousand.rules import DECK as THOUSAND_DECK
from services.common.certificates import KeyRing, sign
from tests.support.bundles import certify, chain, played_match

SEED = b"\x07" * 32  # played_match's server seed of a game with chance

ROOT = Path(__file__).resolve().parents[2]
VERIFY = ROOT / "docs" / "examples" / "verify.py"
GAMES = sorted(registry.GAMES)
# Each card game's Ready command, and its sealed deal event with the field a forger changes.
READY: dict[str, Any] = {
    "kings-corner": kings_corner.Ready,
    "king": king.Ready,
    "thousand": thousand.Ready,
    "farkle-flip": farkle_flip.Ready,
    "kings-cup": kings_cup.Ready,
}
DEALS = {
    "kings-corner": ("kc_round_dealt.v1", "hands"),
    "king": ("king_dealt.v1", "hands"),
    "thousand": ("thousand_deal_dealt.v1", "hands"),
    "farkle-flip": ("ff_game_dealt.v1", "deck"),
    "kings-cup": ("kcup_dealt.v1", "order"),
}
CARD_GAMES = sorted(DEALS)


def run(tmp: Path, bundle: dict[str, Any], keys: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
    path = tmp / "match.json"
    path.write_text(json.dumps(bundle))
    args = [sys.executable, str(VERIFY), str(path), "--json"]
    if keys is not None:
        (tmp / "keys.json").write_text(json.dumps(keys))
        args += ["--keys", str(tmp / "keys.json")]
    # The verifier runs with nothing of the project on its path.
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=tmp, env={"PATH": "/usr/bin:/bin"})
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def ring(tmp_path_factory: pytest.TempPathFactory) -> KeyRing:
    return KeyRing(tmp_path_factory.mktemp("keys"))


# Certified bundles, per key ring: a ring made again (its module fixture set up anew when the
# tests run in another order) signs its own bundles.
_CERTIFIED: dict[int, tuple[KeyRing, dict[tuple[str, int, str], dict[str, Any]]]] = {}


def _cache(ring: KeyRing) -> dict[tuple[str, int, str], dict[str, Any]]:
    held = _CERTIFIED.get(id(ring))
    if held is None or held[0] is not ring:
        held = _CERTIFIED[id(ring)] = (ring, {})
    return held[1]


def certified(ring: KeyRing, game: str, seed: int = 1, client_seed: str = "") -> dict[str, Any]:
    """A random match, ended by a resignation when random play has not ended it (1000); with
    ``client_seed``, the first seat sends it with its Ready."""
    cache = _cache(ring)
    cached = cache.get((game, seed, client_seed))
    if cached is not None:
        return json.loads(json.dumps(cached))
    decider = registry.get(game)
    first: list[tuple[str, Any]] = []
    if client_seed:
        seat = decider.seat_names(match_layer.default_seats_of(decider, decider.default_preset))[0]
        first.append((seat, READY[game](client_seed=client_seed)))
    bundle, decisions = played_match(game, seed=seed, max_moves=3000, sealed=True, first=first)
    state = None
    for _seat, _command, events in decisions:
        for e in events:
            state = match_layer.evolve(decider, state, e, SEED)
    assert state is not None
    if state.outcome is None:
        seat = state.created.seats[0]
        events = match_layer.decide(decider, state, seat, Resign(), SEED)
        assert not isinstance(events, Rejected), events
        decisions.append((seat, Resign(), tuple(events)))
        bundle = chain("m-" + str(seed), game, decisions, seal.seal_key(SEED) if decider.chance else None)
    cache[(game, seed, client_seed)] = json.loads(json.dumps(msgspec.to_builtins(certify(ring, bundle))))
    return json.loads(json.dumps(cache[(game, seed, client_seed)]))


def keys_of(ring: KeyRing) -> dict[str, Any]:
    return msgspec.to_builtins(ring.public())


def test_the_verifier_imports_no_project_code() -> None:
    text = VERIFY.read_text()
    for name in ("contracts", "domain", "services", "gamehall", "msgspec"):
        assert f"import {name}" not in text and f"from {name}" not in text


@pytest.mark.parametrize("game", GAMES)
def test_an_honest_certified_bundle_verifies(game: str, ring: KeyRing, tmp_path: Path) -> None:
    code, answer = run(tmp_path, certified(ring, game), keys_of(ring))
    assert code == 0 and answer["ok"], answer
    assert any("certificate signed by" in line for line in answer["checked"])
    if game in DEALS:  # every deal recomputed, the sealed ones opened
        assert any(line.startswith("every shuffle, deal and draw follows") for line in answer["checked"])
        chance = answer["chance"]
        assert chance["game"] == game and chance["sealed_opened"] > 0
        assert chance["events"][DEALS[game][0]] >= 1
    else:
        assert answer["chance"] is None


def _tamper(bundle: dict[str, Any], how: str, other: dict[str, Any]) -> dict[str, Any]:
    b = json.loads(json.dumps(bundle))
    envs = b["envelopes"]
    if how == "edited byte":
        i = len(envs) // 2
        data = envs[i]["data"]
        k = data.index('"recorded_at":') + len('"recorded_at":')
        envs[i]["data"] = data[:k] + ("9" if data[k] != "9" else "8") + data[k + 1 :]
    elif how == "truncated":
        b["envelopes"] = envs[:-1]
        b["head_hash"] = json.loads(envs[-1]["data"])["prev_hash"]
    elif how == "swapped":
        envs[2]["data"], envs[3]["data"] = envs[3]["data"], envs[2]["data"]
    elif how == "edited outcome":
        cert = json.loads(b["certificate"]["certificate"])
        cert["outcome"]["ranks"] = list(reversed(cert["outcome"]["ranks"])) + [1]
        b["certificate"]["certificate"] = json.dumps(cert, separators=(",", ":"))
    elif how == "another match's certificate":
        b["certificate"] = other["certificate"]
    elif how == "no certificate":
        del b["certificate"]
    return b


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("edited byte", 1),
        ("truncated", 1),
        ("swapped", 1),
        ("edited outcome", 1),
        ("another match's certificate", 1),
        ("no certificate", 3),
    ],
)
@pytest.mark.parametrize("game", ["ugolki", "king", "kings-corner"])
def test_every_kind_of_tampering_is_caught(game: str, how: str, code: int, ring: KeyRing, tmp_path: Path) -> None:
    honest = certified(ring, game, seed=1)
    other = certified(ring, game, seed=2)
    got, answer = run(tmp_path, _tamper(honest, how, other), keys_of(ring))
    assert got == code, answer
    assert not answer["ok"]


def test_a_key_not_published_is_refused(ring: KeyRing, tmp_path: Path) -> None:
    other = KeyRing(tmp_path / "other")
    code, answer = run(tmp_path, certified(ring, "ugolki"), msgspec.to_builtins(other.public()))
    assert code == 1 and any("not among the public keys" in p for p in answer["problems"]), answer


# ---------------------------------------------------------------- the deals (docs/audit.md "Chance: rng_v1")


def verifier_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_example", VERIFY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seal_box() -> SecretBox:
    return SecretBox(seal.seal_key(SEED))


def _nonce(env: dict[str, Any]) -> bytes:
    return hashlib.sha256(f"{env['match_id']}\n{env['seq']}".encode()).digest()[:24]


def edited(
    ring: KeyRing,
    bundle: dict[str, Any],
    seq: int,
    edit: Callable[[dict[str, Any], list[dict[str, Any]]], None],
    clear: bool = False,
) -> dict[str, Any]:
    """The bundle with decision ``seq`` edited by ``edit(command, events)`` (its sealed part
    opened and sealed again with the match's seal key when it is sealed), the chain and the head
    hash rebuilt and the certificate signed again over the new head: only a check of what the
    decision holds can tell.  With ``clear`` the clear events of a sealed decision are edited."""
    b = json.loads(json.dumps(bundle))
    envs = [json.loads(item["data"]) for item in b["envelopes"]]
    env = envs[seq - 1]
    if "sealed" in env and not clear:
        opened = json.loads(_seal_box().decrypt(base64.b64decode(env["sealed"]), _nonce(env)))
        edit(opened["command"], opened["events"])
        plain = json.dumps(opened, separators=(",", ":"), ensure_ascii=False).encode()
        env["sealed"] = base64.b64encode(_seal_box().encrypt(plain, _nonce(env)).ciphertext).decode()
    else:
        edit(env["command"], env["events"])
    b["envelopes"][seq - 1]["data"] = json.dumps(env, separators=(",", ":"), ensure_ascii=False)
    for i in range(seq, len(envs)):
        envs[i]["prev_hash"] = hashlib.sha256(b["envelopes"][i - 1]["data"].encode()).hexdigest()
        b["envelopes"][i]["data"] = json.dumps(envs[i], separators=(",", ":"), ensure_ascii=False)
    b["head_hash"] = hashlib.sha256(b["envelopes"][-1]["data"].encode()).hexdigest()
    cert = msgspec.json.decode(b["certificate"]["certificate"], type=MatchCertificate)
    resigned = sign(ring, msgspec.structs.replace(cert, head_hash=b["head_hash"]))
    b["certificate"] = msgspec.to_builtins(resigned)
    return b


def opened_events(bundle: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]]]]:
    """(seq, full events) of every decision, the sealed ones opened."""
    out = []
    for item in bundle["envelopes"]:
        env = json.loads(item["data"])
        events = env["events"]
        if "sealed" in env:
            events = json.loads(_seal_box().decrypt(base64.b64decode(env["sealed"]), _nonce(env)))["events"]
        out.append((env["seq"], events))
    return out


def first_deal(bundle: dict[str, Any], game: str) -> tuple[int, dict[str, Any]]:
    kind = DEALS[game][0]
    return next((seq, e) for seq, events in opened_events(bundle) for e in events if e["type"] == kind)


def _swap_two_cards(deal: dict[str, Any], field: str, public: int) -> str:
    """Swap two different hidden cards of the deal's ``field``; returns the index path changed."""
    value = deal[field]
    if field == "hands":  # the first card of the first two seats dealt a hand
        a, b = [i for i, hand in enumerate(value) if hand][:2]
        value[a][0], value[b][0] = value[b][0], value[a][0]
        return f"[{a}][0]"
    k = next(k for k in range(public + 1, len(value)) if value[k] != value[public])
    value[public], value[k] = value[k], value[public]
    return f"[{public}]"


@pytest.mark.parametrize("game", CARD_GAMES)
def test_a_forged_deal_is_caught_by_the_deal_check_alone(game: str, ring: KeyRing, tmp_path: Path) -> None:
    honest = certified(ring, game)
    seq, deal = first_deal(honest, game)
    kind, field = DEALS[game]
    public = len(deal["seats"]) if game == "farkle-flip" else 0  # Farkle Flip's first n cards are dealt face up
    path: list[str] = []

    def forge(_command: Any, events: list[dict[str, Any]]) -> None:
        event = next(e for e in events if e["type"] == kind)
        path.append(_swap_two_cards(event, field, public))

    forged = edited(ring, honest, seq, forge)
    assert "sealed" in json.loads(forged["envelopes"][seq - 1]["data"])  # the deal is sealed
    code, answer = run(tmp_path, forged, keys_of(ring))
    assert code == 1, answer
    # the chain, the head hash and the certificate all hold: only the recomputed deal fails
    assert any("certificate signed by" in line for line in answer["checked"]), answer
    problems = answer["problems"]
    assert problems and all(p.startswith(f"envelope #{seq} (seq {seq}): {kind} {field}") for p in problems), problems
    assert problems[0].startswith(f"envelope #{seq} (seq {seq}): {kind} {field}{path[0]} is ")
    assert "rng_v1 gives" in problems[0]


@pytest.mark.parametrize("game", CARD_GAMES)
def test_client_seeds_enter_the_key_and_a_changed_one_is_caught(game: str, ring: KeyRing, tmp_path: Path) -> None:
    honest = certified(ring, game, client_seed="alice ✓")
    code, answer = run(tmp_path, honest, keys_of(ring))
    assert code == 0, answer
    seeds = answer["chance"]["client_seeds"]
    assert seeds[0] == "alice ✓" and set(seeds[1:]) == {""}
    ready = next(
        seq for seq, events in opened_events(honest) for e in events if e.get("client_seed") == "alice ✓"
    )
    deal_seq, _deal = first_deal(honest, game)

    def other_seed(command: dict[str, Any], events: list[dict[str, Any]]) -> None:
        command["client_seed"] = "mallory"
        for e in events:
            if e.get("client_seed") == "alice ✓":
                e["client_seed"] = "mallory"

    code, answer = run(tmp_path, edited(ring, honest, ready, other_seed), keys_of(ring))
    assert code == 1, answer
    assert answer["chance"]["client_seeds"][0] == "mallory"
    kind = DEALS[game][0]
    assert any(p.startswith(f"envelope #{deal_seq} (seq {deal_seq}): {kind} ") for p in answer["problems"]), answer


def test_a_client_seed_after_the_first_deal_is_refused(ring: KeyRing, tmp_path: Path) -> None:
    """King records a Ready before every deal; only those before the first deal may carry a seed."""
    honest = certified(ring, "king")
    deal_seq, _deal = first_deal(honest, "king")
    later = next(
        seq
        for seq, events in opened_events(honest)
        if seq > deal_seq and any(e["type"] == "king_seat_ready.v1" for e in events)
    )

    def late_seed(command: dict[str, Any], events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["type"] == "king_seat_ready.v1":
                e["client_seed"] = "late"

    code, answer = run(tmp_path, edited(ring, honest, later, late_seed), keys_of(ring))
    assert code == 1
    assert any("king_seat_ready.v1 client_seed after the first deal" in p for p in answer["problems"]), answer


def test_the_verifiers_rng_is_domain_rng_v1() -> None:
    """docs/examples/verify.py's key, words, randbelow and permutation against domain/core/rng.py."""
    v = verifier_module()
    for seed, seeds in ((b"\x07" * 32, ["", ""]), (bytes(range(32)), ["alice ✓", "", "bob"]), (b"\xff" * 32, [""])):
        key = v.rng_key(seed, seeds)
        assert key == rng.derive_key(seed, seeds)
        for label in ("deal:1", "deal:12", "dealer", "cup", "reshuffle:3"):
            for n in (1, 2, 3, 24, 32, 52, 106, 1000):
                assert v.permutation(key, label, n) == list(rng.permutation(key, label.encode(), n))
            # n just above 2**63 rejects about half the words: the rejection path is exercised
            for n in (1, 3, 4, 2**63 + 1, 2**64 - 1, 2**64):
                assert v.drawn_below(key, label, n) == rng.Stream(key, label.encode()).randbelow(n)
    stream = v.words(b"k" * 32, "deal:1")  # four words per HMAC-SHA256 block: two blocks
    words = [next(stream) for _ in range(8)]
    ref = rng.Stream(b"k" * 32, b"deal:1")
    assert words == [ref.next_word() for _ in range(8)]


def test_the_verifiers_decks_are_the_games_canonical_decks() -> None:
    v = verifier_module()
    for decks, jokers in ((1, 0), (1, 2), (2, 0), (2, 2)):
        ruleset = kings_corner.KingsCornerRuleset(decks=decks, jokers=jokers)
        assert v.kings_corner_deck(msgspec.to_builtins(ruleset)) == list(kings_corner_deck(ruleset))
    for cut in ("none", "black_sevens", "black_aces"):
        assert v.king_deck({"deck": cut}) == list(king_deck(msgspec.convert({"deck": cut}, king.KingRuleset)))
    assert v.thousand_deck() == list(THOUSAND_DECK)
    assert v.kings_cup_deck() == list(cards.deck("52"))
    ff = registry.get("farkle-flip")
    ruleset = match_layer.resolve_ruleset(ff, ff.default_preset, {})
    assert v.farkle_flip_deck(msgspec.to_builtins(ruleset)) == list(farkle_flip_deck(ruleset))


@pytest.mark.parametrize("game", ["kings-corner", "thousand"])
def test_clear_events_that_are_not_the_spectators_view_are_caught(game: str, ring: KeyRing, tmp_path: Path) -> None:
    honest = certified(ring, game)
    seq, deal = first_deal(honest, game)
    other = next(s for s in deal["seats"] if s != deal["dealer"])

    def public_dealer(_command: Any, events: list[dict[str, Any]]) -> None:
        next(e for e in events if e["type"] == DEALS[game][0])["dealer"] = other

    code, answer = run(tmp_path, edited(ring, honest, seq, public_dealer, clear=True), keys_of(ring))
    assert code == 1
    assert answer["problems"] == [
        f"envelope #{seq} (seq {seq}): its clear events are not a spectator's view of its sealed events"
    ], answer
