"""ARCHITECTURE §3: a game is declared once, by its Decider record, and declares every field."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from contracts.codecs import codec
from contracts.games.registry import CONTRACTS
from domain.core.decider import Decider
from domain.core.match import default_seats
from domain.games import registry

GAMES = sorted(registry.GAMES)


def test_the_domain_and_the_codec_registries_list_the_same_contracts() -> None:
    assert set(CONTRACTS) == set(registry.GAMES)
    for name, game in registry.GAMES.items():
        assert game.contract is CONTRACTS[name]
        assert registry.get(name, game.rules_version) is game


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_every_field(name: str) -> None:
    game = registry.get(name)
    for field in dataclasses.fields(Decider):
        # view_in: only a game whose view has sentences (Ugolki's warnings, King's contract);
        # phases: a card game's table (then decide, legal_commands and to_move come from it);
        # draw_answer, perft, position, notations, preset_aliases, live_problem, record_reasons, ruleset_form,
        # ranked_clock (a table helper's): what a game may not have
        optional = (
            "verify_chance",
            "record",
            "resign",
            "timeout",
            "abandon",
            "view_in",
            "phases",
            "draw_answer",
            "perft",
            "families",
            "position",
            "notations",
            "preset_aliases",
            "perft_paths",
            "live_problem",
            "record_reasons",
            "ruleset_form",
            "ranked_clock",
        )
        if field.name not in optional:
            assert getattr(game, field.name) not in (None, "", {}, ()), field.name
    assert game.title and game.title != game.name
    assert game.rules_version.startswith(name)
    assert 1 <= game.min_seats <= game.max_seats
    for n in range(game.min_seats, game.max_seats + 1):
        seats = game.seat_names(n)
        assert len(seats) == n == len(set(seats))
    assert game.default_preset in game.presets
    for preset_name, preset in game.presets.items():
        assert isinstance(preset.ruleset, game.ruleset_type), preset_name
        assert preset.description.strip(), preset_name
        assert any(
            game.validate(preset.ruleset, n) is None for n in range(game.min_seats, game.max_seats + 1)
        ), f"{preset_name} is playable by no seat count"
    assert game.default_bot in game.bots
    assert (game.verify_chance is not None) == game.chance
    assert "malformed" in game.rejection_codes and len(set(game.rejection_codes)) == len(game.rejection_codes)
    assert game.max_decisions > 0
    for part in (game.command_type, game.event_type, game.view_type):
        assert part is not None
    assert codec(name).game == name


@pytest.mark.parametrize("name", GAMES)
def test_describe_labels_every_legal_command_of_the_first_position(name: str) -> None:
    game = registry.get(name)
    preset = game.presets[game.default_preset].ruleset
    seats = game.seat_names(default_seats(game))
    state = game.initial_state(preset, seats, b"\x01" * 32 if game.chance else None)
    labels = [game.describe(c) for s in seats for c in game.legal_commands(state, s)]
    assert labels and all(isinstance(label, str) and label for label in labels)
    assert msgspec.json.encode(game.view(state, seats[0]))


@pytest.mark.parametrize("name", GAMES)
def test_a_view_lists_the_viewers_legal_moves_as_label_and_command(name: str) -> None:
    """Views carry legal moves as {label, command}: the command is exactly what the API takes."""
    from contracts.match import CreateMatch
    from domain.core import match as match_layer
    from domain.core.rng import commitment

    game = registry.get(name)
    seats = game.seat_names(match_layer.default_seats(game))
    seed = b"\x02" * 32 if game.chance else None
    created = match_layer.decide(
        game,
        None,
        None,
        CreateMatch(
            preset=game.default_preset,
            ruleset=msgspec.to_builtins(game.presets[game.default_preset].ruleset),
            seats=seats,
            players=seats,
            token_hashes=tuple("0" * 64 for _ in seats),
            seed_commitment=commitment(seed) if seed else "",
        ),
    )
    assert not isinstance(created, tuple) or len(created) == 1
    state = match_layer.evolve(game, None, created[0], seed)  # type: ignore[index]
    movers = match_layer.to_move(game, state)
    for seat in (*seats, None):
        view = match_layer.view(game, state, seat, "m", 1)
        plain = msgspec.to_builtins(view)
        if seat in movers:
            legal = game.legal_commands(state.game_state, seat)
            assert [m["label"] for m in plain["legal_moves"]] == [game.describe(c) for c in legal]
            commands = [codec(name).decode_inner_command(m["command"]) for m in plain["legal_moves"]]
            assert commands == list(legal)
        else:
            assert not plain["legal_moves"]
