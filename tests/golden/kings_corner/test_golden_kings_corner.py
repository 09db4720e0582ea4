"""Golden Kings in the Corner transcripts: for every preset, a fixed-seed match (the heuristic
computer players; one seat resigns in three-seat matches) with, at every decision, the decided
events, the answers (code and detail) to a few random commands, and every seat's and the
spectator's view (legal moves included).  The committed file holds each transcript's sha256,
its length, the outcome and the final spectator view; any change of rules, texts or views shows here.

Regenerate (only when a rule, a text or a view changes on purpose, and say so in the commit):
    .venv/bin/python -m tests.golden.kings_corner.test_golden_kings_corner
Write one transcript to compare by hand:
    .venv/bin/python -m tests.golden.kings_corner.test_golden_kings_corner --dump cardgames-zone
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    DrawCard,
    EndTurn,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
)
from domain.core import cards
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS

HERE = Path(__file__).parent
GOLDEN = HERE / "transcripts.json"
SEED = hashlib.sha256(b"kings-corner golden").digest()
MAX_DECISIONS = 160  # per match: enough for a round or two, short enough for mutation testing
ALL_CARDS = cards.deck("52", copies=2, jokers=2)


def _probe(r: random.Random, hand: tuple[str, ...]) -> Any:
    slot, other = r.choice(SLOTS), r.choice(SLOTS)
    card = r.choice(hand) if hand and r.random() < 0.7 else r.choice(ALL_CARDS)
    return r.choice(
        [
            PlayCard(card=card, slot=slot),  # type: ignore[arg-type]
            PlayCard(card=card, slot=slot, as_card=r.choice(ALL_CARDS)),  # type: ignore[arg-type]
            PlayRun(cards=(card, r.choice(hand or ALL_CARDS)), slot=slot),  # type: ignore[arg-type]
            MovePile(from_slot=slot, to_slot=other),  # type: ignore[arg-type]
            MoveKingPile(from_slot=slot, to_slot=other),  # type: ignore[arg-type]
            DrawCard(),
            EndTurn(),
            Ready(),
        ]
    )


def transcript(preset: str) -> tuple[list[bytes], Any]:
    """The lines of one preset's transcript and the final state."""
    ruleset = PRESETS[preset]
    n = min(ruleset.max_players, 3)
    seats = GAME.seat_names(n)
    state = GAME.initial_state(ruleset, seats, SEED)
    r = random.Random(preset)
    bot = GAME.bots["heuristic"]
    lines: list[bytes] = []
    decisions = 0
    while GAME.outcome(state) is None and decisions < MAX_DECISIONS:
        movers = sorted(GAME.to_move(state))
        seat = movers[0]
        i = seats.index(seat)
        hand = state.hands[i] if state.hands else ()
        probes = []
        for _ in range(3):
            who = r.choice(seats)
            got = GAME.decide(state, who, _probe(r, hand))
            probes.append([got.code, got.detail] if isinstance(got, Rejected) else len(got))
        if n == 3 and decisions == 60 and GAME.resign is not None:
            who, events = seats[-1], GAME.resign(state, seats[-1])
            command: Any = {"resign": who}
        else:
            who, command = seat, bot(state, seat, r)
            if isinstance(command, Ready) and state.round_no == 0:
                command = Ready(client_seed=f"client {seat}")
            events = GAME.decide(state, seat, command)
        assert not isinstance(events, Rejected), (preset, command, events)
        for event in events:
            state = GAME.evolve(state, event)
        views = {str(v): GAME.view(state, v) for v in (*seats, None)}
        lines.append(msgspec.json.encode([who, command, events, probes, views]))
        decisions += 1
    return lines, state


def summary(preset: str) -> dict[str, Any]:
    lines, state = transcript(preset)
    digest = hashlib.sha256(b"\n".join(lines)).hexdigest()
    return json.loads(
        msgspec.json.encode(
            {
                "decisions": len(lines),
                "sha256": digest,
                "outcome": GAME.outcome(state),
                "final_view": GAME.view(state, None),
            }
        )
    )


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


def test_the_golden_file_covers_every_preset_of_this_rules_version() -> None:
    golden = _golden()
    assert golden["rules_version"] == GAME.rules_version
    assert set(golden["presets"]) == set(PRESETS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_golden_transcript(preset: str) -> None:
    expected = _golden()["presets"][preset]
    got = summary(preset)
    assert got["decisions"] == expected["decisions"]
    assert got["outcome"] == expected["outcome"]
    assert got["final_view"] == expected["final_view"]
    assert got["sha256"] == expected["sha256"], f"{preset}: the transcript changed (see --dump)"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        for line in transcript(sys.argv[2])[0]:
            print(line.decode())
    else:
        out = {"rules_version": GAME.rules_version, "presets": {p: summary(p) for p in sorted(PRESETS)}}
        GOLDEN.write_text(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        print(GOLDEN.name, {p: v["decisions"] for p, v in out["presets"].items()})
