"""A computer player answers a draw offer by the game's evaluation (issue 14): in Ugolki by the
race home (rules/ugolki.md §7, the tempo number): behind accepts, level or ahead declines."""

from __future__ import annotations

import dataclasses

import msgspec

from contracts.match import CreateMatch
from domain.core import match as match_layer
from domain.core.matchlog import Folded, fold_decision
from domain.games import registry
from domain.games.ugolki.tempo import tempo_to_go
from services.common.players import PublicFold, draw_answer

UGOLKI = registry.get("ugolki")


def test_ugolki_bot_accepts_only_when_behind_in_the_race_section_7() -> None:
    ruleset = match_layer.resolve_ruleset(UGOLKI, UGOLKI.default_preset, {})
    create = CreateMatch(
        preset=UGOLKI.default_preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=("white", "black"),
        players=("a", "b"),
        token_hashes=("a" * 64, "b" * 64),
    )
    folded = fold_decision(UGOLKI, Folded(), 1, match_layer.decide(UGOLKI, None, None, create))
    fold = PublicFold("ugolki")
    fold.state, fold.seq = folded.state, folded.seq
    assert draw_answer(fold, "white") == {"type": "decline_draw.v1"}  # level
    assert draw_answer(fold, "black") == {"type": "decline_draw.v1"}
    state = folded.state
    assert state is not None

    def after(move):
        return UGOLKI.evolve(state.game_state, UGOLKI.decide(state.game_state, "white", move)[-1])

    best = min(UGOLKI.legal_commands(state.game_state, "white"), key=lambda m: tempo_to_go(after(m), 0))
    folded = fold_decision(UGOLKI, folded, 2, match_layer.decide(UGOLKI, state, "white", best))
    fold.state, fold.seq = folded.state, folded.seq
    gs = folded.state.game_state
    assert tempo_to_go(gs, 1) > tempo_to_go(gs, 0)  # white is ahead now
    assert draw_answer(fold, "black") == {"type": "accept_draw.v1"}
    assert draw_answer(fold, "white") == {"type": "decline_draw.v1"}


def test_other_games_decline_and_play_on() -> None:
    fold = PublicFold("kings-corner")
    assert draw_answer(fold, "p1") == {"type": "decline_draw.v1"}


def test_the_answer_is_the_games_own_decider_draw_answer() -> None:
    """services know no game: the fold's Decider decides (a game that accepts every offer here)."""
    assert UGOLKI.draw_answer is not None
    fold = PublicFold("kings-corner")
    assert fold.decider.draw_answer is None
    folded = fold_decision(
        fold.decider,
        Folded(),
        1,
        match_layer.decide(
            fold.decider,
            None,
            None,
            CreateMatch(
                preset=fold.decider.default_preset,
                ruleset=msgspec.to_builtins(
                    match_layer.resolve_ruleset(fold.decider, fold.decider.default_preset, {})
                ),
                seats=("p1", "p2"),
                players=("a", "b"),
                token_hashes=("a" * 64, "b" * 64),
                seed_commitment="0" * 64,
            ),
        ),
    )
    fold.state, fold.seq = folded.state, folded.seq
    assert draw_answer(fold, "p1") == {"type": "decline_draw.v1"}
    asked = []
    fold.decider = dataclasses.replace(
        fold.decider, draw_answer=lambda state, seat: asked.append(seat) or True
    )
    assert draw_answer(fold, "p1") == {"type": "accept_draw.v1"}
    assert asked == ["p1"]
