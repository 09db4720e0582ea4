"""K16 (rules/king.md, Decisions of 2026-12-01; §12.3 ABANDON): an abandoned King match keeps
its finished deals, has no ranks and skips the zero-sum check; it is never rated.  A match left
idle for the platform's limit (docs/audit.md "Abandoned matches") is King's ABANDON: it must not
rank the idle seats last as it does for games without such a rule."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.integration import MatchFinished
from contracts.match import CreateMatch, ExpireIdle, MatchAbandoned, MatchEnded, Outcome
from domain.core import match as match_layer
from domain.core import rng
from domain.games import registry
from domain.rating.ranked import rateable

KING = registry.get("king")
HOUR = 3_600_000
SEATS = ("p1", "p2", "p3", "p4")
SEED = b"\x07" * 32


def _apply(state: Any, events: Any) -> Any:
    assert not isinstance(events, Rejected), events
    for e in events:
        state = match_layer.evolve(KING, state, e, server_seed=SEED)
    return state


def _created(preset: str = "king-4p-classic") -> Any:
    ruleset = match_layer.resolve_ruleset(KING, preset, {})
    assert not isinstance(ruleset, Rejected), ruleset
    cmd = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=SEATS,
        players=("ann", "bob", "cid", "dan"),
        token_hashes=tuple(c * 64 for c in "abcd"),
        ranked=True,
        seed_commitment=rng.commitment(SEED),
    )
    return _apply(None, match_layer.decide(KING, None, None, cmd, SEED))


def _play_until_one_deal_is_scored(state: Any) -> Any:
    """Every seat plays its first legal command until the first deal is on the score sheet and
    the second deal has begun."""
    for _ in range(200):
        g = state.game_state
        if len(g.sheet) == 1 and g.phase != "finished" and g.plays:
            return state
        seat = sorted(KING.to_move(g))[0]
        command = KING.legal_commands(g, seat)[0]
        state = _apply(state, match_layer.decide(KING, state, seat, command, SEED))
    raise AssertionError("the first deal did not finish")


def _expire(state: Any) -> tuple[Any, ...]:
    events = match_layer.decide(
        KING, state, None, ExpireIdle(last_decision_at=0, at=72 * HOUR, limit_ms=72 * HOUR), SEED
    )
    assert not isinstance(events, Rejected), events
    return tuple(events)


def test_k16_an_idle_king_match_is_abandoned_without_ranks_and_keeps_its_finished_deals() -> None:
    state = _play_until_one_deal_is_scored(_created())
    totals = state.game_state.totals
    assert any(t != 0 for t in totals)  # the first deal (NT) cost somebody points
    idle = tuple(sorted(KING.to_move(state.game_state)))
    assert len(idle) == 1  # one seat was to play: other games would rank it last

    events = _expire(state)
    assert events[0] == MatchAbandoned(idle_seats=idle, idle_ms=72 * HOUR)
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert len(ended) == 1
    outcome = ended[0].outcome
    assert outcome.ranks == ()  # no ranks: nobody is last for being idle
    assert outcome.scores == tuple(float(t) for t in totals)  # the finished deals are kept
    assert not outcome.draw
    assert outcome.reason == f"aborted: {idle[0]} abandoned"  # no zero-sum report

    after = _apply(state, events)
    assert after.outcome == outcome
    assert after.game_state.sheet == state.game_state.sheet


def test_k16_an_abandoned_ranked_king_match_is_never_rated() -> None:
    state = _play_until_one_deal_is_scored(_created())
    outcome = next(e for e in _expire(state) if isinstance(e, MatchEnded)).outcome
    finished = MatchFinished(
        match_id="m1",
        game="king",
        preset="king-4p-classic",
        rules_version=KING.rules_version,
        seats=SEATS,
        players=("ann", "bob", "cid", "dan"),
        outcome=outcome,
        moves=40,
        finished_at=0,
        last_seq=41,
        ranked=True,
    )
    assert not rateable(finished)
    # The same ranked match ending normally would be rated: rateable is not false for another reason.
    played = msgspec.structs.replace(finished, outcome=Outcome(ranks=(1, 2, 3, 4)))
    assert rateable(played)


def test_k16_abandoned_before_the_first_deal_has_no_ranks_and_zero_totals() -> None:
    """Nobody ready yet (every seat to move): still no ranks; the classic preset has no compensation, so the totals are 0."""
    outcome = next(e for e in _expire(_created()) if isinstance(e, MatchEnded)).outcome
    assert outcome == Outcome(ranks=(), scores=(0.0,) * 4, reason=outcome.reason)


def test_an_idle_match_of_a_game_without_an_abandonment_rule_still_ranks_the_idle_seat_last() -> None:
    """docs/audit.md: the platform rule is unchanged for a game whose abandonment rule is not an
    outcome of its own (Ugolki: the idle seat loses)."""
    ugolki = registry.get("ugolki")
    state = None
    cmd = match_layer.resolve_ruleset(ugolki, "halma-8x8-1234", {})
    assert not isinstance(cmd, Rejected)
    create = CreateMatch(
        preset="halma-8x8-1234",
        ruleset=msgspec.to_builtins(cmd),
        seats=("white", "black"),
        players=("ann", "bob"),
        token_hashes=("a" * 64, "b" * 64),
    )
    for e in match_layer.decide(ugolki, None, None, create):  # type: ignore[union-attr]
        state = match_layer.evolve(ugolki, state, e)
    expire = ExpireIdle(last_decision_at=0, at=72 * HOUR, limit_ms=72 * HOUR)
    events = match_layer.decide(ugolki, state, None, expire)
    assert not isinstance(events, Rejected)
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.outcome == Outcome(ranks=(2, 1), reason="abandoned")


def test_k16_an_aborted_match_says_so_in_words_and_names_no_winner() -> None:
    """K16: no ranks, the finished deals kept. The sentence must not claim that every deal was
    played or that anybody shares first place."""
    state = _play_until_one_deal_is_scored(_created())
    idle = sorted(KING.to_move(state.game_state))[0]
    after = _apply(state, _expire(state))
    names = match_layer.seat_names_in_words(after)
    totals = ", ".join(f"{names[s]} {t}" for s, t in zip(SEATS, after.game_state.totals, strict=True))
    text = match_layer.outcome_text(KING, after)
    assert text is not None and text.startswith("Game over: the match was aborted when ")
    assert f"when {names[idle]} abandoned it, after 1 of " in text
    assert text.endswith(f"; nobody is ranked (totals: {totals}).")
    assert "all " not in text and "share first place" not in text and "wins" not in text
    ru = match_layer.outcome_text(KING, after, "ru")
    assert ru is not None
    assert ru.startswith(f"Игра окончена: партия прервана: игрок {names[idle]} её покинул после 1 из ")
    assert ru.endswith(f"; места не присуждаются (итоги: {totals}).")
