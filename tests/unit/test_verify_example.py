"""docs/examples/verify.py, the verifier written from docs/audit.md alone (it imports no project
code), on certified bundles of every game and on each kind of tampering."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.match import Resign
from domain.core import match as match_layer
from domain.core import seal
from domain.games import registry
from services.common.certificates import KeyRing
from tests.support.bundles import certify, chain, played_match

SEED = b"\x07" * 32  # played_match's server seed of a game with chance

ROOT = Path(__file__).resolve().parents[2]
VERIFY = ROOT / "docs" / "examples" / "verify.py"
GAMES = sorted(registry.GAMES)


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


def certified(ring: KeyRing, game: str, seed: int = 1) -> dict[str, Any]:
    """A random match, ended by a resignation when random play has not ended it (1000)."""
    bundle, decisions = played_match(game, seed=seed, max_moves=3000, sealed=True)
    decider = registry.get(game)
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
    return msgspec.to_builtins(certify(ring, bundle))


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
