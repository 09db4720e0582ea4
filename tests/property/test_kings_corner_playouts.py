"""Kings in the Corner beyond the conformance suite (tests/property/test_conformance.py, which
checks every law on every preset): the stock stays secret from every seat (the suite checks the
hands through ``Decider.hidden``), and matches between the computer players end.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts.codecs import codec
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
    RoundDealt,
)
from contracts.match import CreateMatch, Resign
from domain.core import cards, match, rng
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS
from domain.games.kings_corner.state import KCState
from tests.support.redaction import strings

CODEC = codec("kings-corner")


ALL_CARDS = cards.deck("52", copies=2, jokers=2)


def random_command(r: random.Random) -> Any:
    """Any command at all, mostly illegal: it must be decided or refused with a declared code."""
    slot = r.choice(SLOTS)
    other = r.choice(SLOTS)
    card = r.choice(ALL_CARDS)
    return r.choice(
        [
            PlayCard(card=card, slot=slot, as_card=r.choice([None, r.choice(ALL_CARDS)])),  # type: ignore[arg-type]
            PlayRun(cards=tuple(r.sample(ALL_CARDS, r.randint(0, 3))), slot=slot),  # type: ignore[arg-type]
            MovePile(from_slot=slot, to_slot=other),  # type: ignore[arg-type]
            MoveKingPile(from_slot=slot, to_slot=other),  # type: ignore[arg-type]
            DrawCard(),
            EndTurn(),
            Ready(client_seed=r.choice(["", "x" * 300])),
        ]
    )


def secret_stock(state: KCState, known: set[str]) -> frozenset[str]:
    return frozenset(state.stock) - known


def create(preset: str, n: int, server_seed: bytes) -> CreateMatch:
    seats = GAME.seat_names(n)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(PRESETS[preset]),
        seats=seats,
        players=tuple(f"player {s}" for s in seats),
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng.commitment(server_seed),
    )


def playout(
    preset: str,
    n: int,
    server_seed: bytes,
    rng_seed: int,
    bot: str = "random",
    check: bool = True,
    resign_at: int | None = None,
) -> tuple[list[tuple[Any, ...]], match.MatchState]:
    """A whole match by ``bot``; with ``resign_at``, the last seat resigns at that decision (D3)."""
    r = random.Random(rng_seed)
    created = match.decide(GAME, None, None, create(preset, n, server_seed))
    assert not isinstance(created, Rejected), created
    state = match.evolve(GAME, None, created[0], server_seed)
    log: list[tuple[Any, ...]] = [tuple(created)]
    seats = state.created.seats
    known_public: set[str] = set()  # stock cards everyone saw (set-up kings/jokers put at the bottom)
    bots = GAME.bots
    assert bots is not None
    while state.outcome is None:
        assert len(log) <= GAME.max_decisions
        movers = match.to_move(GAME, state)
        assert movers, "a running match must have someone to move"
        seat = r.choice(movers)
        game_state: KCState = state.game_state
        legal = GAME.legal_commands(game_state, seat)
        assert legal, f"{seat} is to move but has no legal command"
        if check:
            for cmd in r.sample(legal, min(3, len(legal))):
                assert not isinstance(GAME.decide(game_state, seat, cmd), Rejected), cmd
            for _ in range(3):
                other = random_command(r)
                result = GAME.decide(game_state, r.choice(seats), other)
                if isinstance(result, Rejected):
                    assert result.code in GAME.rejection_codes, result
        cmd = bots[bot](game_state, seat, r)
        if len(log) == resign_at:
            seat, cmd = seats[-1], Resign()
        events = match.decide(GAME, state, seat, cmd, server_seed)
        assert not isinstance(events, Rejected), (cmd, events)
        for event in events:
            state = match.evolve(GAME, state, event, server_seed)
            if isinstance(event, RoundDealt):
                known_public = {s.card for s in event.setup if s.to == "stock_bottom"}
        log.append(tuple(events))
        if check:
            _check_hidden(state, events, seats, server_seed, known_public)
    return log, state


def _check_hidden(
    state: match.MatchState, events: tuple[Any, ...], seats: tuple[str, ...], seed: bytes, known: set[str]
) -> None:
    gs: KCState = state.game_state
    stock = secret_stock(gs, known)
    finished = state.outcome is not None
    for viewer in (*seats, None):
        others = frozenset().union(*(GAME.hidden(gs, s) for s in seats if s != viewer))
        seen = strings(GAME.view(gs, viewer))
        for event in events:
            red = match.redact(GAME, event, viewer)
            if red is not None:
                seen |= strings(red)
        # a joker's declared identity (V17) is public by rule, although it names a real card
        declared = {face for _, face in gs.declared}
        leak = (seen - declared) & (others | stock)
        assert not leak, f"{viewer} sees hidden cards {sorted(leak)}"
        if not finished:
            assert seed.hex() not in seen


SMALL = ["cardgames-zone", "family-draw-first", "classic-chips", "cz-draw-when-needed", "becker-four-card"]


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(SMALL),
    n=st.integers(2, 4),
    server_seed=st.binary(min_size=32, max_size=32),
    rng_seed=st.integers(0, 2**32),
    bot=st.sampled_from(["random", "heuristic"]),
)
def test_the_stock_stays_secret_and_matches_end(preset: str, n: int, server_seed: bytes, rng_seed: int, bot: str) -> None:
    _, final = playout(preset, n, server_seed, rng_seed, bot)
    assert final.outcome is not None and len(final.outcome.ranks) == n
