"""Build audit bundles in memory, chained exactly as the referee stores envelopes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from contracts.audit import AuditBundle, StoredEnvelope
from contracts.certificate import MatchCertificate
from contracts.codecs import encode
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import CreateMatch, Outcome
from domain.core import match as match_layer
from domain.core import seal
from domain.core.audit import envelope_hash, genesis_hash
from domain.games import registry
from services.common.certificates import KeyRing, sign


def stored(
    match_id: str,
    game: str,
    seq: int,
    prev_hash: str,
    seat: str | None,
    command: Any,
    events: tuple[Any, ...],
    seal_key: bytes | None = None,
) -> bytes:
    """Decision ``seq`` encoded as the referee stores it: its decided command and events, sealed
    under ``seal_key`` when they hide something (``domain/core/seal.py``)."""
    decider = registry.get(game)
    env = EventEnvelope(
        match_id=match_id,
        game=game,
        rules_version=decider.rules_version,
        seq=seq,
        command_id=f"c{seq}",
        correlation_id=f"c{seq}",
        recorded_at=1_700_000_000_000 + seq,
        prev_hash=prev_hash,
        seat=seat,
        command=msgspec.to_builtins(command),
        events=events,
    )
    if seal_key is not None:
        env = seal.seal_envelope(decider, env, seal_key)
    return encode(env)


def chain(
    match_id: str,
    game: str,
    decisions: list[tuple[str | None, Any, tuple[Any, ...]]],
    seal_key: bytes | None = None,
) -> AuditBundle:
    """With ``seal_key``, decisions that hide something are sealed as the referee seals them."""
    prev = genesis_hash(match_id)
    envelopes = []
    for seq, (seat, command, events) in enumerate(decisions, start=1):
        data = stored(match_id, game, seq, prev, seat, command, events, seal_key)
        envelopes.append(StoredEnvelope(stream_seq=seq, data=data.decode()))
        prev = envelope_hash(data)
    return AuditBundle(
        match_id=match_id,
        game=game,
        rules_version=registry.get(game).rules_version,
        exported_at=0,
        head_hash=prev,
        envelopes=tuple(envelopes),
    )


def played_match(
    game: str = "ugolki",
    seed: int = 1,
    max_moves: int = 400,
    preset: str | None = None,
    server_seed: bytes | None = None,
    first: Sequence[tuple[str, Any]] = (),
    seat_count: int | None = None,
    sealed: bool = False,
    overrides: dict[str, Any] | None = None,
) -> tuple[AuditBundle, list[tuple[str | None, Any, tuple[Any, ...]]]]:
    """A complete match played by the random computer player, as decisions and as a bundle
    (after the ``first`` commands, each ``(seat, command)``); with ``sealed`` the bundle's
    decisions that hide something are sealed under the key of the server seed, as stored;
    ``overrides``: ruleset parameters over the preset's, as a person writes them."""
    decider = registry.get(game)
    preset = preset or decider.default_preset
    ruleset = match_layer.resolve_ruleset(decider, preset, overrides or {})
    assert not isinstance(ruleset, Rejected), ruleset
    seats = decider.seat_names(seat_count or match_layer.default_seats_of(decider, preset))
    from domain.core.rng import commitment

    seed_bytes = server_seed if server_seed is not None else (b"\x07" * 32 if decider.chance else None)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=seats,
        players=seats,
        token_hashes=tuple("0" * 64 for _ in seats),
        seed_commitment=commitment(seed_bytes) if seed_bytes else "",
    )
    decisions: list[tuple[str | None, Any, tuple[Any, ...]]] = []
    state = None
    rng = random.Random(seed)
    events = match_layer.decide(decider, None, None, create, seed_bytes)
    assert not isinstance(events, Rejected), events
    decisions.append((None, create, events))
    for e in events:
        state = match_layer.evolve(decider, state, e, seed_bytes)
    bot = (decider.bots or {})["random"]
    given = list(first)
    while state.outcome is None and len(decisions) < max_moves:
        if given:
            seat, command = given.pop(0)
        else:
            seat = match_layer.to_move(decider, state)[0]
            command = bot(state.game_state, seat, rng)
        events = match_layer.decide(decider, state, seat, command, seed_bytes)
        assert not isinstance(events, Rejected), events
        decisions.append((seat, command, events))
        for e in events:
            state = match_layer.evolve(decider, state, e, seed_bytes)
    key = seal.seal_key(seed_bytes) if sealed and seed_bytes else None
    return chain("m-" + str(seed), game, decisions, key), decisions


def edited_last(bundle: AuditBundle, edit: Callable[[dict[str, Any]], None]) -> AuditBundle:
    """The bundle with its last stored envelope edited in place (as JSON) and the head hash
    rebuilt over the edit: a forgery only the audit's re-decision can catch."""
    data = json.loads(bundle.envelopes[-1].data)
    edit(data)
    text = json.dumps(data, separators=(",", ":"))
    last = StoredEnvelope(stream_seq=bundle.envelopes[-1].stream_seq, data=text)
    return msgspec.structs.replace(
        bundle, head_hash=envelope_hash(text.encode()), envelopes=(*bundle.envelopes[:-1], last)
    )


def claimed_at(bundle: AuditBundle, at: int) -> AuditBundle:
    """The bundle with its last decision (a platform claim) moved to ``at``: its stamp, its
    command's and its events' ``at``."""

    def move(data: dict[str, Any]) -> None:
        data["recorded_at"] = data["command"]["at"] = at
        for event in data["events"]:
            if "at" in event:
                event["at"] = at

    return edited_last(bundle, move)


def clear_values(obj: Any) -> set[str]:
    """Every string value of a stored envelope decoded as plain JSON, the sealed box left out
    (what any reader of the match stream sees in clear)."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(set(), *(clear_values(v) for k, v in obj.items() if k != "sealed"))
    if isinstance(obj, list):
        return set().union(set(), *(clear_values(v) for v in obj))
    return set()


def certify(ring: KeyRing, bundle: AuditBundle, at: int = 1_800_000_000_000) -> AuditBundle:
    """What the referee does when a match ends: sign what the log holds and its outcome."""
    from domain.audit import audit

    report = audit(bundle)
    assert report.ok and report.finished, report.problems
    first = msgspec.json.decode(bundle.envelopes[0].data)
    created = first["events"][0]
    cert = MatchCertificate(
        match_id=bundle.match_id,
        game=bundle.game,
        rules_version=bundle.rules_version,
        ruleset_hash=created["ruleset_hash"],
        envelopes=len(bundle.envelopes),
        head_hash=envelope_hash(bundle.envelopes[-1].data.encode()),
        outcome=msgspec.convert(report.outcome, type=Outcome),
        signed_at=at,
    )
    return msgspec.structs.replace(bundle, certificate=sign(ring, cert))
