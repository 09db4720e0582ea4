"""Sealed logs for every game with hidden information, on every preset (docs/audit.md "Sealed
decisions"): a seeded random match is played through the match layer and stored as the referee
stores it (``domain.core.seal.seal_envelope``, encoded, chained), and over the whole playout:

* the clear part of every stored envelope (its bytes decoded by a plain JSON decoder, the
  ``sealed`` box left out) holds no card of any hand and nothing else a decision's events hide
  from a spectator, and a decision is sealed exactly when its events hide something;
* the public events fold into the spectator's information state: the same spectator view, seats
  to move, outcome, end sentence and match-list row as the full state (what every reader without
  the key -- scoring's match list, the disputes, listings -- folds);
* the stored log opened with the seal key folds to the incremental state, and opens with the key
  derived from the revealed seed once the match is over.

No game is named here: the registry says which games hide something.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from contracts.codecs import codec
from contracts.envelope import Rejected
from domain.core import match, seal
from domain.core.audit import envelope_hash, genesis_hash
from domain.core.matchlog import Folded, fold_envelope, fold_envelopes
from domain.core.words import LANGS
from domain.games.registry import GAMES
from services.common.matchlist import Lane, row_values
from tests.property.test_conformance import create_command, playable_seat_counts
from tests.support.bundles import clear_values
from tests.support.bundles import stored as stored_decision
from tests.support.redaction import strings

PLAYOUT_CAP = 600  # decisions per playout (enough for several deals of every card game)

CASES = [
    pytest.param(name, preset, i, id=f"{name}:{preset}")
    for name, game in sorted(GAMES.items())
    if game.hidden_info
    for i, preset in enumerate(game.presets)
]


def hidden_now(game: Any, state: match.MatchState) -> set[str]:
    """What some seat holds that another may not see (every hand)."""
    return set().union(set(), *(game.hidden(state.game_state, s) for s in state.created.seats))


def test_every_game_with_hidden_information_is_checked() -> None:
    assert {name for name, game in GAMES.items() if game.hidden_info} == {c.values[0] for c in CASES} != set()


@pytest.mark.parametrize(("game_name", "preset", "index"), CASES)
def test_a_sealed_log_shows_a_spectator_exactly_what_it_may_see(game_name: str, preset: str, index: int) -> None:
    game = GAMES[game_name]
    counts = playable_seat_counts(game, game.presets[preset].ruleset)
    n = counts[index % len(counts)]
    r = random.Random(f"{game_name}:{preset}")
    server_seed = r.randbytes(32)
    key = seal.seal_key(server_seed)
    cdc = codec(game_name)
    match_id = f"m-{game_name}-{index}"
    create = create_command(game, preset, n, server_seed)

    state: match.MatchState | None = None
    public: match.MatchState | None = None
    stored: list[bytes] = []
    prev = genesis_hash(match_id)
    seat: str | None = None
    command: Any = create
    sealed = 0
    while True:
        events = match.decide(game, state, seat, command, server_seed)
        assert not isinstance(events, Rejected), (command, events)
        for event in events:
            state = match.evolve(game, state, event, server_seed)
        assert state is not None
        seq = len(stored) + 1
        data = stored_decision(match_id, game_name, seq, prev, seat, command, tuple(events), key)
        stored.append(data)
        prev = envelope_hash(data)

        # What a reader without the key finds in the clear.
        raw = json.loads(data)
        back = cdc.decode_envelope(data)
        spectator = seal.public_events(game, events)
        hides = spectator != tuple(events)
        assert ("sealed" in raw) == hides, "sealed exactly when the events hide something"
        assert back.events == spectator
        if hides:
            sealed += 1
            assert raw["command"] is None
        blanked: set[str] = set()
        if hides:  # what the full decision names that neither its public events nor a spectator's view show
            shown_after = strings(match.view(game, state, None, match_id, seq))
            blanked = (strings(events) | strings(command)) - strings(spectator) - shown_after
        leaked = clear_values(raw) & (hidden_now(game, state) | blanked) - {""}
        assert not leaked, f"decision {seq}: in the clear: {sorted(leaked)[:8]}"

        # The public events fold into the spectator's information state.
        public = fold_envelope(game, Folded(state=public, seq=seq - 1), back).state
        assert public is not None
        assert match.view(game, public, None, match_id, seq) == match.view(
            game, state, None, match_id, seq
        )
        assert match.to_move(game, public) == match.to_move(game, state)

        if state.outcome is not None or len(stored) > PLAYOUT_CAP:
            break
        seat = r.choice(match.to_move(game, state))
        command = r.choice(game.legal_commands(state.game_state, seat))

    assert sealed > 0, "a game with hidden information seals some decisions"
    if state.outcome is not None:
        assert public.outcome == state.outcome
        for lang in LANGS:
            assert match.outcome_text(game, public, lang) == match.outcome_text(game, state, lang)
    rows = [
        row_values(match_id, Lane(game=game_name, rules_version=game.rules_version, folded=Folded(state=s, seq=len(stored))), 0, 0)
        for s in (public, state)
    ]
    assert rows[0] == rows[1], "the match list row is the same from the public events"

    # Opened with the key, the stored log folds to the incremental state.
    envelopes = [cdc.decode_envelope(d) for d in stored]
    opened = [seal.open_envelope(e, key) for e in envelopes]
    assert fold_envelopes(game, opened, server_seed).state == state
    assert fold_envelopes(game, envelopes).state == public
    if state.outcome is not None:
        assert seal.revealed_key(envelopes) == key
