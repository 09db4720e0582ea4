"""Golden Ugolki logs: recorded matches replay to the committed outcome and final views.

Regenerate (only when the rules version changes on purpose):
    .venv/bin/python -m tests.golden.ugolki.test_golden_ugolki
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from contracts.codecs import codec
from domain.core.decider import fold
from domain.games.ugolki import GAME
from domain.games.ugolki.rules import PRESETS

HERE = Path(__file__).parent
MATCHES = [
    ("halma-8x8-1234", "search", "greedy", 7),
    ("halma-8x8-1234-diag", "greedy", "search", 8),
    ("ugolki-50", "greedy", "random", 9),
    ("kosynka-universal", "search", "search", 10),
]


def record(preset: str, white: str, black: str, seed: int) -> dict[str, Any]:
    bots = GAME.bots
    assert bots is not None
    rng = random.Random(seed)
    state = start = GAME.initial_state(PRESETS[preset], ("white", "black"), None)
    events: list[Any] = []
    while GAME.outcome(state) is None and len(events) < 400:
        seat = next(iter(GAME.to_move(state)))
        decided = GAME.decide(state, seat, bots[white if seat == "white" else black](state, seat, rng))
        assert isinstance(decided, tuple)
        for event in decided:
            events.append(event)
            state = GAME.evolve(state, event)
    assert fold(GAME, start, events) == state
    return {
        "game": "ugolki",
        "rules_version": GAME.rules_version,
        "preset": preset,
        "ruleset": msgspec.to_builtins(PRESETS[preset]),
        "players": [white, black],
        "seed": seed,
        "events": msgspec.to_builtins(events),
        "outcome": msgspec.to_builtins(GAME.outcome(state)),
        "final_view": {seat: msgspec.to_builtins(GAME.view(state, seat)) for seat in ("white", "black")},
    }


def plain(obj: Any) -> Any:
    """What the JSON file holds (lists, not tuples)."""
    return json.loads(msgspec.json.encode(obj))


def path_of(preset: str, seed: int) -> Path:
    return HERE / f"{preset}-{seed}.json"


@pytest.mark.parametrize(("preset", "white", "black", "seed"), MATCHES)
def test_golden_log_replays_to_the_committed_result(preset: str, white: str, black: str, seed: int) -> None:
    golden = json.loads(path_of(preset, seed).read_text())
    assert golden["rules_version"] == GAME.rules_version
    ruleset = msgspec.convert(golden["ruleset"], GAME.ruleset_type)
    decoder = codec("ugolki").event_decoder
    events = [decoder.decode(msgspec.json.encode(e)) for e in golden["events"]]
    state = fold(GAME, GAME.initial_state(ruleset, ("white", "black"), None), events)
    assert plain(GAME.outcome(state)) == golden["outcome"]
    for seat in ("white", "black"):
        assert plain(GAME.view(state, seat)) == golden["final_view"][seat]
    # Every recorded decision is still accepted: replaying the moves through decide gives the same log.
    state = GAME.initial_state(ruleset, ("white", "black"), None)
    replayed: list[Any] = []
    for event in events:
        if type(event).__name__ == "PieceMoved":
            decided = GAME.decide(state, event.seat, GAME.command_type(path=event.path))
            assert isinstance(decided, tuple), decided
            replayed.extend(decided)
        state = GAME.evolve(state, event)
    assert replayed == events


if __name__ == "__main__":
    for preset, white, black, seed in MATCHES:
        data = record(preset, white, black, seed)
        path_of(preset, seed).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        print(path_of(preset, seed).name, data["outcome"])
