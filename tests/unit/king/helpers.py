"""Building King states for rule tests: scripted deals (a record's ``deals``) and plain values."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import KingRuleset, Ready
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.evolve import evolve
from domain.games.king.phases import decide
from domain.games.king.rules import PRESETS
from domain.games.king.state import Contract, KingState


def rules(preset: str = "king-4p-classic", **overrides: Any) -> KingRuleset:
    return msgspec.structs.replace(PRESETS[preset], **overrides)


def one_deal(game: str, preset: str = "king-4p-classic", **overrides: Any) -> KingRuleset:
    """A ruleset whose match is the single deal ``game`` (not zero-sum, so it validates)."""
    base: dict[str, Any] = {"games": (game,), "hv_count": 0, "games_after": (), "zero_sum": False}
    if game in ("HV", "TR", "AU", "OT"):
        base.update(games=(), trump_deal=game, hv_count=1)
    base.update(overrides)
    r = rules(preset, **base)
    problem = r.validate()
    assert problem is None, problem
    return r


def scripted(
    r: KingRuleset, deals: list[list[list[str]]], first_dealer: int, talons: list[list[str]] | None = None
) -> KingState:
    """A match of ``r`` whose deals are given (seat order, each hand in dealing order), after
    every seat is ready: the first deal is dealt."""
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, None)
    s = msgspec.structs.replace(
        s,
        scripted=tuple(tuple(tuple(h) for h in d) for d in deals),
        scripted_talons=tuple(tuple(t) for t in (talons or [])),
        scripted_first_dealer=first_dealer,
    )
    for seat in seats:
        s = act(s, seat, Ready())
    return s


def act(s: KingState, seat: str, cmd: Any) -> KingState:
    events = decide(s, seat, cmd)
    assert not isinstance(events, Rejected), (seat, cmd, events)
    for e in events:
        s = evolve(s, e)
    return s


def rejected(s: KingState, seat: str, cmd: Any) -> str:
    events = decide(s, seat, cmd)
    assert isinstance(events, Rejected), events
    return events.code


def contract(game: str, r: KingRuleset | None = None, **kw: Any) -> Contract:
    r = r or rules()
    return Contract(
        game=game,
        sign=-1 if game.startswith("N") else 1,
        hearts_lead_ban=game in r.hearts_lead_ban,
        king_discard=game in r.king_discard,
        **kw,
    )


# A deal of the whole 32-card pack to four seats (8 each), used where the cards do not matter.
DEAL4 = [
    ["10C", "8C", "9C", "JC", "7D", "8D", "7S", "9S"],
    ["KH", "9D", "8S", "10D", "JD", "QD", "KD", "AD"],
    ["AC", "QC", "7H", "8H", "9H", "10H", "JH", "QH"],
    ["7C", "KC", "AH", "10S", "JS", "QS", "KS", "AS"],
]
