"""rate_sequence: the group recomputation scoring runs after a ruling equals rating the matches
one by one with rate_match (docs/ranked.md "Disputes")."""

from __future__ import annotations

from contracts.integration import MatchFinished
from contracts.match import Outcome
from domain.rating.ranked import RatingState, rate_match, rate_sequence


def _m(i: int, players: tuple[str, ...], ranks: tuple[int, ...]) -> MatchFinished:
    return MatchFinished(
        match_id=f"m{i}",
        game="ugolki",
        preset="classic",
        rules_version="1",
        seats=tuple(f"s{j}" for j in range(len(players))),
        players=players,
        outcome=Outcome(ranks=ranks),
        moves=1,
        finished_at=1_000_000 + i * 90_000_000,
        last_seq=i,
        ranked=True,
    )


def test_rate_sequence_is_rate_match_in_order() -> None:
    matches = [
        _m(0, ("ann", "bob"), (1, 2)),
        _m(1, ("bob", "cid"), (1, 1)),
        _m(2, ("cid", "ann"), (2, 1)),
        _m(3, ("ann", "bob"), (2, 1)),
    ]
    produced, states, last = rate_sequence([(m, "s1", "classic") for m in matches])
    want: dict[str, RatingState] = {}
    for m in matches:
        applied, new = rate_match(m, "s1", "classic", {p: want.get(p) for p in m.players})
        want.update(new)
        assert applied == produced[matches.index(m)]
    assert states == want
    assert last == {"ann": "m3", "bob": "m3", "cid": "m2"}
    assert states["ann"].games == 3 and states["cid"].games == 2
