"""The laws every registered game obeys (ARCHITECTURE §3, §9), checked on random playouts.

For every game in ``domain.games.registry.GAMES`` (its default preset) and for several Ugolki
presets, a seeded random match is played through the match layer (``domain.core.match``):

* every legal command is accepted; commands of a seat that is not to move, garbage and a sample
  of other commands are refused with a code the game declares (``decide`` never raises);
* folding the whole log equals the incrementally built state;
* the same seed and commands give byte-identical event logs (``msgspec.json.encode``);
* events, commands, views and the ruleset round-trip through ``contracts.codecs.codec(game)``;
* for games with hidden information no view or redacted event shows a seat another seat's hidden
  cards (when the game module exports ``HIDDEN(state, seat) -> frozenset[str]``);
* random playouts end within ``meta.max_decisions``.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import MATCH_REJECTION_CODES, CreateMatch
from domain.core import match
from domain.core import rng as rng_v1
from domain.games.registry import GAMES
from tests.support.redaction import strings

UGOLKI_PRESETS = [
    "halma-8x8-1234",
    "halma-8x8-1234-diag",
    "halma-10x10-12345",
    "kosynka-universal",
    "kosye",
    "kostrov",
    "ugolki-50",
    "shashki-online-12",
    "club-any-direction-40",
]
CASES = [(name, game.default_preset) for name, game in sorted(GAMES.items())] + [
    ("ugolki", preset) for preset in UGOLKI_PRESETS if preset != GAMES["ugolki"].default_preset
]
# Decisions one test playout may take; bounds above it are checked only when the match ends.
BUDGET = 400


class NotAStruct:
    """A command of no game at all."""


def _game_module(game_name: str) -> Any:
    return importlib.import_module(f"domain.games.{game_name.replace('-', '_')}")


def hidden_function(game_name: str) -> Any:
    return getattr(_game_module(game_name), "HIDDEN", None)


def create_command(game: Any, preset: str, server_seed: bytes | None) -> CreateMatch:
    meta = game
    seats = meta.seat_names(meta.min_seats)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(meta.presets[preset].ruleset),
        seats=seats,
        players=tuple(f"player {s}" for s in seats),
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng_v1.commitment(server_seed) if server_seed is not None else "",
    )


def replay(game: Any, preset: str, server_seed: bytes | None, script: list[tuple[str, Any]]) -> list[Any]:
    """Decide the same commands again from scratch; returns the events of every decision."""
    created = match.decide(game, None, None, create_command(game, preset, server_seed))
    assert not isinstance(created, Rejected), created
    state = match.evolve(game, None, created[0], server_seed)
    log: list[Any] = [tuple(created)]
    for seat, cmd in script:
        events = match.decide(game, state, seat, cmd, server_seed)
        assert not isinstance(events, Rejected), events
        for event in events:
            state = match.evolve(game, state, event, server_seed)
        log.append(tuple(events))
    return log


def other_commands(game: Any, state: Any, legal_elsewhere: list[Any], r: random.Random) -> list[Any]:
    """A sample of commands that are probably not legal now."""
    out: list[Any] = [NotAStruct(), None]
    out += r.sample(legal_elsewhere, min(3, len(legal_elsewhere)))
    if game.name == "ugolki":
        from contracts.games.ugolki import MovePiece

        names = sorted(state.geo.index)
        out += [MovePiece(path=(r.choice(names), r.choice(names))) for _ in range(4)]
        out += [MovePiece(path=("z0", "a1")), MovePiece(path=())]
    return out


def check_other_commands(game: Any, state: Any, seat: str, r: random.Random, history: list[Any]) -> None:
    codes = set(game.rejection_codes)
    legal = game.legal_commands(state, seat)
    for cmd in other_commands(game, state, history, r):
        result = game.decide(state, seat, cmd)
        if isinstance(result, Rejected):
            assert result.code in codes, f"undeclared code {result.code!r} for {cmd!r}"
        else:
            # Accepted: it must be (equivalent to) a legal command.
            assert cmd is not None and not isinstance(cmd, NotAStruct), f"garbage accepted: {result}"
            if game.name == "ugolki":
                pairs = {(c.path[0], c.path[-1]) for c in legal}
                assert (cmd.path[0], cmd.path[-1]) in pairs or len(cmd.path) == 1
            else:
                # A game whose legal list names one command per class of equivalent ones maps
                # any accepted command to its representative (``CANONICAL(state, cmd)``).
                canon = getattr(_game_module(game.name), "CANONICAL", None)
                shown = canon(state, cmd) if canon is not None else cmd
                assert shown in legal, f"accepted but not among the legal commands: {cmd!r}"


def playout(game: Any, preset: str, server_seed: bytes | None, seed: int) -> None:
    meta = game
    r = random.Random(seed)
    codec_ = codec(meta.name)
    hidden = hidden_function(meta.name) if meta.hidden_info else None
    created = match.decide(game, None, None, create_command(game, preset, server_seed))
    assert not isinstance(created, Rejected), created
    state = match.evolve(game, None, created[0], server_seed)
    log: list[Any] = [tuple(created)]
    script: list[tuple[str, Any]] = []
    seats = state.created.seats
    seen_commands: list[Any] = []
    limit = min(meta.max_decisions, BUDGET)
    ruleset = state.ruleset
    assert msgspec.convert(msgspec.to_builtins(ruleset), meta.ruleset_type) == ruleset
    while state.outcome is None and len(script) < limit:
        movers = match.to_move(game, state)
        assert movers, "a running match must have a seat to move"
        seat = r.choice(movers)
        gs = state.game_state
        legal = game.legal_commands(gs, seat)
        assert legal, f"{seat} is to move but has no legal command"
        # Legal commands are accepted.
        for cmd in r.sample(legal, min(3, len(legal))):
            assert not isinstance(game.decide(gs, seat, cmd), Rejected), cmd
            assert codec_.decode_inner_command(msgspec.to_builtins(cmd)) == cmd
        # Seats not to move are refused; other commands are refused with a declared code.
        for other in seats:
            if other not in movers:
                for cmd in game.legal_commands(gs, other)[:2]:
                    refused = game.decide(gs, other, cmd)
                    assert isinstance(refused, Rejected), (other, cmd)
                    assert refused.code in meta.rejection_codes or refused.code in MATCH_REJECTION_CODES
        check_other_commands(game, gs, seat, r, seen_commands)
        cmd = r.choice(legal)
        seen_commands.append(cmd)
        events = match.decide(game, state, seat, cmd, server_seed)
        assert not isinstance(events, Rejected), (cmd, events)
        for event in events:
            state = match.evolve(game, state, event, server_seed)
            assert codec_.event_decoder.decode(msgspec.json.encode(event)) == event
        log.append(tuple(events))
        script.append((seat, cmd))
        gs = state.game_state
        view = game.view(gs, seat)
        assert msgspec.json.decode(msgspec.json.encode(view), type=meta.view_type) == view
        if hidden is not None:
            for viewer in (*seats, None):
                others = frozenset().union(*(hidden(gs, s) for s in seats if s != viewer))
                seen = strings(game.view(gs, viewer))
                for event in events:
                    red = match.redact(game, event, viewer)
                    if red is not None:
                        seen |= strings(red)
                assert not seen & others, f"{viewer} sees hidden {sorted(seen & others)}"
    if state.outcome is not None:
        assert len(script) <= meta.max_decisions
        assert len(state.outcome.ranks) == len(seats)
    elif meta.max_decisions <= BUDGET:
        # A game that declares no finite bound for this preset is capped, not failed.
        assert not _bounded(game, ruleset), f"no end within {meta.max_decisions} decisions"
    # Fold equals the incremental state.
    folded = None
    for events in log:
        for event in events:
            folded = match.evolve(game, folded, event, server_seed)
    assert folded == state
    # Same seed + commands -> byte-identical log; stored envelopes round-trip.
    again = replay(game, preset, server_seed, script)
    assert [msgspec.json.encode(list(e)) for e in again] == [msgspec.json.encode(list(e)) for e in log]
    for seq, events in enumerate(log[:5] + log[-5:], start=1):
        env = EventEnvelope(
            match_id="m",
            game=meta.name,
            rules_version=meta.rules_version,
            seq=seq,
            command_id="c",
            correlation_id="c",
            recorded_at=0,
            prev_hash="0" * 64,
            events=events,
        )
        assert codec_.decode_envelope(msgspec.json.encode(env)) == env


def _bounded(game: Any, ruleset: Any) -> bool:
    """Whether a playout of this ruleset must end within the game's bound."""
    if game.name == "ugolki":
        return bool(ruleset.long_game != "none")
    return True


@pytest.mark.parametrize(("game_name", "preset"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), server_seed=st.binary(min_size=32, max_size=32))
def test_laws_hold_on_random_playouts(game_name: str, preset: str, seed: int, server_seed: bytes) -> None:
    game = GAMES[game_name]
    playout(game, preset, server_seed if game.chance else None, seed)


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_decide_never_raises_on_garbage(game_name: str) -> None:
    game = GAMES[game_name]
    meta = game
    seats = meta.seat_names(meta.min_seats)
    state = game.initial_state(
        meta.presets[meta.default_preset].ruleset, seats, b"\x00" * 32 if meta.chance else None
    )
    for seat in (*seats, "nobody"):
        for garbage in (None, 42, "move", NotAStruct(), ()):
            result = game.decide(state, seat, garbage)
            assert isinstance(result, Rejected), (seat, garbage, result)
            assert result.code in meta.rejection_codes


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_preset_round_trips_and_starts(game_name: str) -> None:
    game = GAMES[game_name]
    meta = game
    assert meta.default_preset in meta.presets
    for name, preset in meta.presets.items():
        ruleset = preset.ruleset
        assert msgspec.convert(msgspec.to_builtins(ruleset), meta.ruleset_type) == ruleset, name
        seats = meta.seat_names(meta.min_seats)
        state = game.initial_state(ruleset, seats, b"\x01" * 32 if meta.chance else None)
        assert game.outcome(state) is None
        assert preset.description, f"{name} has no description"
