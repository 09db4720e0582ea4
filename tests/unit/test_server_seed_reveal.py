"""The server seed is revealed when the match ends (ARCHITECTURE §4), however a card game ends
through the match layer: by a resignation or by the game's own abandonment rule."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.match import ClaimAbandon, MatchEnded, Resign, ServerSeedRevealed, TimeControl
from domain.core import match as match_layer
from domain.games import registry
from tests.unit.test_clocks import Match

KC = registry.get("kings-corner")
KING = registry.get("king")


def test_a_resignation_reveals_the_seed_on_the_referees_path() -> None:
    """King has no resignation rule of its own: the match ends, the seed is revealed."""
    m = Match(KING, tc=TimeControl(base_s=600))
    assert m.seed is not None
    seat = match_layer.to_move(KING, m.state)[0]
    events = m.decide(seat, Resign(), 1_700_000_001_000)
    assert not isinstance(events, Rejected), events
    assert isinstance(events[-2], MatchEnded)
    assert events[-1] == ServerSeedRevealed(server_seed=m.seed.hex())


def test_a_resignation_by_the_games_rule_reveals_the_seed() -> None:
    """kings-corner.md Decision D3: with two seats the resignation ends the match."""
    m = Match(KC, tc=TimeControl(base_s=600), seats=2)
    assert m.seed is not None
    events = m.decide("p1", Resign(), 1_700_000_001_000)
    assert not isinstance(events, Rejected), events
    assert m.state.outcome is not None
    assert events[-1] == ServerSeedRevealed(server_seed=m.seed.hex())


def test_an_abandonment_that_ends_the_game_reveals_the_seed() -> None:
    """Kings in the Corner's abandonment rule is its resignation (D3): with two seats the match
    ends, and its seed is revealed with it."""
    m = Match(KC, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=2)
    assert m.seed is not None
    seat = match_layer.to_move(KC, m.state)[0]
    due = match_layer.abandon_deadline(m.state, seat)
    assert due is not None
    events = m.decide(None, ClaimAbandon(seat=seat, deadline=due, at=due), due)
    assert not isinstance(events, Rejected), events
    assert m.state.outcome is not None
    assert events[-1] == ServerSeedRevealed(server_seed=m.seed.hex())
