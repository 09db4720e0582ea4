"""Golden logs of Kings in the Corner under rules version kings-corner-1 (domain/games/kings_corner/v1):
stored envelopes of fixed-seed matches over several presets and seat counts, played by the
computer players of that version through the match layer (the first deal with client seeds;
a match still running after its cap ends with a resignation, which under kings-corner-1 ends it for
everyone), each with its final state, its final views and its transcript hashed.

kings-corner-1 is frozen: matches stored under it must fold, view and audit as they did.  Its
package keeps only what differs from the current one and imports the rest, so a change of the
current package that reaches kings-corner-1 fails here.  The tests check that

- the same seeds and computer players decide the same envelopes, byte for byte (decide, the
  deals, the computer players, the legal moves they choose from);
- the stored envelopes audit (every decision re-decided under kings-corner-1, every deal
  re-derived) and fold to the same final state, outcome and views;
- at every decision, every seat's and the spectator's match view (legal moves with their labels)
  and redacted events, and every seat's hidden cards, hash to the same transcript.

Regenerate (only when kings-corner-1's behaviour is meant to change, which it never is):
    .venv/bin/python -m tests.golden.kings_corner_1.test_golden_kings_corner_1
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest

from contracts.audit import AuditBundle, StoredEnvelope
from contracts.codecs import codec, encode
from contracts.envelope import EventEnvelope, Rejected
from contracts.games.kings_corner import Ready
from contracts.match import CreateMatch, Resign, ServerSeedRevealed
from domain.audit import audit, decode_bundle
from domain.core import match as match_layer
from domain.core.audit import envelope_hash, genesis_hash
from domain.core.matchlog import fold_envelopes
from domain.core.rng import commitment
from domain.games import registry

HERE = Path(__file__).parent
GOLDEN = HERE / "matches.json"
GAME = "kings-corner"
VERSION = "kings-corner-1"
V1 = registry.get(GAME, VERSION)


class Match(NamedTuple):
    preset: str
    seats: int
    bot: str
    cap: int  # decisions before a seat resigns, if the match has not ended by then


MATCHES = (
    Match("cardgames-zone", 2, "heuristic", 400),
    Match("pagat-kings-penalty", 3, "random", 260),
    Match("classic-chips", 4, "heuristic", 260),
    Match("classic-pool", 3, "heuristic", 260),
    Match("corner-ace-bonus", 2, "heuristic", 400),
    Match("robinson", 2, "heuristic", 200),
    Match("freeman-jokers", 3, "heuristic", 220),
    Match("family-draw-first", 2, "random", 400),
    Match("draw-till-play", 4, "heuristic", 200),
    Match("s3-mandatory-kings", 2, "heuristic", 200),
)


def _id(m: Match) -> str:
    return f"{m.preset}-{m.seats}p"


class Played(NamedTuple):
    bundle: AuditBundle
    state: match_layer.MatchState
    transcript: str  # sha256 of every decision's views, redacted events and hidden cards


def _envelope(match_id: str, seq: int, prev: str, seat: str | None, command: Any, events: Any) -> bytes:
    return encode(
        EventEnvelope(
            match_id=match_id,
            game=GAME,
            rules_version=VERSION,
            seq=seq,
            command_id=f"c{seq}",
            correlation_id=f"c{seq}",
            recorded_at=1_700_000_000_000 + seq,
            prev_hash=prev,
            seat=seat,
            command=msgspec.to_builtins(command),
            events=events,
        )
    )


def _seen(state: match_layer.MatchState, events: tuple[Any, ...], match_id: str, seq: int) -> bytes:
    """What every viewer sees after one decision: its match view, its redacted events, its hidden cards."""
    seen = []
    for viewer in (*state.created.seats, None):
        redacted = [e for e in (match_layer.redact(V1, e, viewer) for e in events) if e is not None]
        hidden = sorted(V1.hidden(state.game_state, viewer)) if viewer is not None else []
        seen.append([match_layer.view(V1, state, viewer, match_id, seq), redacted, hidden])
    return msgspec.json.encode(seen)


def play(m: Match) -> Played:
    """One golden match, decided and folded by kings-corner-1 through the match layer."""
    match_id = f"kc1-golden-{_id(m)}"
    seed = hashlib.sha256(f"kings-corner-1 golden {_id(m)}".encode()).digest()
    ruleset = match_layer.resolve_ruleset(V1, m.preset, {}, m.seats)
    assert not isinstance(ruleset, Rejected), ruleset
    seats = V1.seat_names(m.seats)
    rng = random.Random(_id(m))
    bot = V1.bots[m.bot]
    state: match_layer.MatchState | None = None
    envelopes: list[StoredEnvelope] = []
    prev = genesis_hash(match_id)
    transcript = hashlib.sha256()

    def decide(seat: str | None, command: Any) -> None:
        nonlocal state, prev
        events = match_layer.decide(V1, state, seat, command, seed)
        assert not isinstance(events, Rejected), (m, seat, command, events)
        for event in events:
            state = match_layer.evolve(V1, state, event, seed)
        data = _envelope(match_id, len(envelopes) + 1, prev, seat, command, events)
        envelopes.append(StoredEnvelope(stream_seq=len(envelopes) + 1, data=data.decode()))
        prev = envelope_hash(data)
        assert state is not None
        transcript.update(_seen(state, events, match_id, len(envelopes)))

    decide(
        None,
        CreateMatch(
            preset=m.preset,
            ruleset=msgspec.to_builtins(ruleset),
            seats=seats,
            players=tuple(f"player {s}" for s in seats),
            token_hashes=tuple("0" * 64 for _ in seats),
            seed_commitment=commitment(seed),
        ),
    )
    while state is not None and state.outcome is None and len(envelopes) <= m.cap:
        seat = match_layer.to_move(V1, state)[0]
        command = bot(state.game_state, seat, rng)
        if isinstance(command, Ready) and state.game_state.round_no == 0:
            command = Ready(client_seed=f"client {seat}")
        decide(seat, command)
    assert state is not None
    if state.outcome is None:
        mover = match_layer.to_move(V1, state)[0]
        decide(next(s for s in seats if s != mover), Resign())
    assert state.outcome is not None
    bundle = AuditBundle(
        match_id=match_id,
        game=GAME,
        rules_version=VERSION,
        exported_at=0,
        head_hash=prev,
        envelopes=tuple(envelopes),
    )
    return Played(bundle, state, transcript.hexdigest())


def final_state_hash(state: Any) -> str:
    """sha256 of the final game state, the fields kings-corner-1 knows (in the golden file); a
    field the state struct has beyond them belongs to later rules and stays empty (but for
    ``decisions_1202``, the flag by which kings-corner-1 and -2 keep their rules)."""
    fields = _golden()["state_fields"]
    data = msgspec.to_builtins(state)
    assert data["decisions_1202"] is False
    later = set(data) - set(fields) - {"decisions_1202"}
    assert not any(data[f] for f in later), sorted(later)
    return hashlib.sha256(msgspec.json.encode({f: data[f] for f in fields})).hexdigest()


def presets_hash() -> str:
    """sha256 of kings-corner-1's presets: names in order, rulesets and descriptions (a stored match's
    preset must stay known to the audit's re-decision of its creation)."""
    presets = [[name, p.ruleset, p.description] for name, p in V1.presets.items()]
    return hashlib.sha256(msgspec.json.encode([presets, V1.default_preset])).hexdigest()


def summary(played: Played) -> dict[str, Any]:
    state = played.state
    out: dict[str, Any] = json.loads(
        msgspec.json.encode(
            {
                "decisions": len(played.bundle.envelopes),
                "head_hash": played.bundle.head_hash,
                "transcript_sha256": played.transcript,
                "final_state_sha256": final_state_hash(state.game_state),
                "outcome": state.outcome,
                "final_views_sha256": hashlib.sha256(
                    msgspec.json.encode(
                        [
                            match_layer.view(V1, state, v, played.bundle.match_id, 0)
                            for v in (*state.created.seats, None)
                        ]
                    )
                ).hexdigest(),
                "final_view": match_layer.view(V1, state, None, played.bundle.match_id, 0),
                "bundle": played.bundle,
            }
        )
    )
    return out


@functools.cache
def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


def test_the_golden_file_is_of_kings_corner_1_and_holds_every_match() -> None:
    golden = _golden()
    assert golden["rules_version"] == VERSION == V1.rules_version
    assert set(golden["matches"]) == {_id(m) for m in MATCHES}
    assert len({m.preset for m in MATCHES}) == len(MATCHES) and {m.seats for m in MATCHES} == {2, 3, 4}


def test_the_presets_of_kings_corner_1_stay_as_recorded() -> None:
    assert presets_hash() == _golden()["presets_sha256"]


@pytest.fixture(scope="module")
def replayed() -> dict[str, dict[str, Any]]:
    return {_id(m): summary(play(m)) for m in MATCHES}


@pytest.mark.parametrize("match", MATCHES, ids=_id)
def test_the_same_seeds_decide_the_same_envelopes_views_and_states(
    match: Match, replayed: dict[str, dict[str, Any]]
) -> None:
    expected, got = _golden()["matches"][_id(match)], replayed[_id(match)]
    assert got["decisions"] == expected["decisions"]
    for i, (mine, stored) in enumerate(
        zip(got["bundle"]["envelopes"], expected["bundle"]["envelopes"], strict=True)
    ):
        assert mine == stored, f"{_id(match)}: decision {i + 1} differs"
    assert got["outcome"] == expected["outcome"]
    assert got["final_view"] == expected["final_view"]
    assert got["final_state_sha256"] == expected["final_state_sha256"]
    assert got["final_views_sha256"] == expected["final_views_sha256"]
    assert got["transcript_sha256"] == expected["transcript_sha256"], f"{_id(match)}: a view changed"


@pytest.mark.parametrize("match", MATCHES, ids=_id)
def test_the_stored_envelopes_audit_and_fold_to_the_same_end(match: Match) -> None:
    expected = _golden()["matches"][_id(match)]
    bundle = decode_bundle(json.dumps(expected["bundle"]).encode())
    report = audit(bundle)
    assert report.ok, report.problems
    decode = codec(GAME).decode_envelope
    envelopes = [decode(s.data.encode()) for s in bundle.envelopes]
    revealed = next(e for e in envelopes[-1].events if isinstance(e, ServerSeedRevealed))
    folded = fold_envelopes(V1, envelopes, bytes.fromhex(revealed.server_seed))
    state = folded.state
    assert state is not None and state.outcome is not None
    assert type(state.game_state).__module__.startswith("domain.games.kings_corner")
    assert final_state_hash(state.game_state) == expected["final_state_sha256"]
    views = [match_layer.view(V1, state, v, bundle.match_id, 0) for v in (*state.created.seats, None)]
    assert hashlib.sha256(msgspec.json.encode(views)).hexdigest() == expected["final_views_sha256"]
    assert json.loads(msgspec.json.encode(state.outcome)) == expected["outcome"]


if __name__ == "__main__":
    # The state fields of kings-corner-1 (its state struct as recorded); later fields stay empty.
    out: dict[str, Any] = {
        "rules_version": VERSION,
        "state_fields": _golden()["state_fields"],
        "presets_sha256": presets_hash(),
    }
    out["matches"] = {_id(m): summary(play(m)) for m in MATCHES}
    GOLDEN.write_text(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    print(GOLDEN.name, {k: v["decisions"] for k, v in out["matches"].items()}, file=sys.stderr)
