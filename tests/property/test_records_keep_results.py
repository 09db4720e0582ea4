"""Records keep the official result (rules/records.md R1, R2, R4), for every registered game with
a record adapter: a match that ends by resignation, a timeout, an abandonment, an idle expiry or
an agreed draw, at any point (mid-deal or between deals), exports as a record whose replay is
finished with the live match's ranks and reason, and the record's own ``result`` agrees.  An
edited ``result`` is refused with ``result_differs``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from contracts.envelope import Rejected
from contracts.match import AcceptDraw, ClaimAbandon, ClaimTimeout, ExpireIdle, MatchEnded, OfferDraw, Resign
from domain import records
from domain.core import match as match_layer
from domain.core.match.claims import ABANDON, TIMEOUT, claimed
from domain.games import registry
from tests.support.bundles import played_match

SEED = b"\x07" * 32
GAMES = sorted(name for name, game in registry.GAMES.items() if game.record is not None)
ENDINGS = ("resign", "timeout", "abandon", "expire", "draw")


def _running_prefix(game: str, cut: int) -> tuple[list[Any], match_layer.MatchState]:
    """The decisions of a random match up to ``cut`` decisions (before it ended) and the state."""
    _, decisions = played_match(game, seed=cut, max_moves=cut, server_seed=SEED if registry.GAMES[game].chance else None)
    decisions = [d for d in decisions if not any(isinstance(e, MatchEnded) for e in d[2])]
    decider = registry.GAMES[game]
    state = None
    for _, _, events in decisions:
        for event in events:
            state = match_layer.evolve(decider, state, event, SEED if decider.chance else None)
    assert state is not None and state.outcome is None
    return decisions, state


def _ending(game: str, state: match_layer.MatchState, how: str, seat: str) -> list[Any]:
    """The decisions that end the match ``how``, as live play records them (claims without clocks:
    the claim's rule is what is exported and replayed)."""
    decider = registry.GAMES[game]
    seed = SEED if decider.chance else None
    if how == "resign":
        return [(seat, Resign(), match_layer.decide(decider, state, seat, Resign(), seed))]
    if how in ("timeout", "abandon"):
        claim, command = (TIMEOUT, ClaimTimeout) if how == "timeout" else (ABANDON, ClaimAbandon)
        return [(None, command(seat=seat, deadline=0, at=0), claimed(decider, state, seat, claim, seed))]
    if how == "expire":
        expire = ExpireIdle(last_decision_at=0, at=1, limit_ms=1)
        return [(None, expire, match_layer.decide(decider, state, None, expire, seed))]
    offered = match_layer.decide(decider, state, seat, OfferDraw(), seed)
    assert not isinstance(offered, Rejected), offered
    after = state
    for event in offered:
        after = match_layer.evolve(decider, after, event, seed)
    other = next(s for s in state.created.seats if s != seat)
    return [(seat, OfferDraw(), offered), (other, AcceptDraw(), match_layer.decide(decider, after, other, AcceptDraw(), seed))]


@pytest.mark.parametrize("how", ENDINGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_match_ended_any_way_replays_to_its_live_result(game: str, how: str) -> None:
    rng = random.Random(f"{game}/{how}")
    checked = 0
    for cut in rng.sample(range(3, 120), 4):
        decisions, state = _running_prefix(game, cut)
        movers = match_layer.to_move(registry.GAMES[game], state) if how in ("timeout", "abandon") else ()
        seat = rng.choice(movers or state.created.seats)
        ending = _ending(game, state, how, seat)
        if any(isinstance(events, Rejected) for _, _, events in ending):
            continue  # e.g. a game whose rules refuse a draw offer here
        record = records.to_record(decisions + ending)
        ended = next((e for _, _, events in ending for e in events if isinstance(e, MatchEnded)), None)
        if ended is None:  # the game's own rule plays on (an automatic move for the seat)
            answer = records.replay(record)
            assert isinstance(answer, records.Replayed) and not answer.finished and "result" not in record
            checked += 1
            continue
        # the live reason under the name the game's records give it (Decider.record_reasons)
        reason = registry.GAMES[game].record_reasons.get(ended.outcome.reason, ended.outcome.reason)
        assert record["result"] == {"ranks": list(ended.outcome.ranks), "reason": reason}
        answer = records.replay(record)
        assert isinstance(answer, records.Replayed), (cut, answer)
        assert answer.finished and answer.ranks == ended.outcome.ranks and answer.reason == reason
        edited = dict(record, result={"ranks": list(reversed(ended.outcome.ranks)) + [9], "reason": "x"})
        refused = records.replay(edited)
        assert isinstance(refused, records.Illegal) and refused.code == "result_differs"
        checked += 1
    assert checked > 0
