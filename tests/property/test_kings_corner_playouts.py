"""Random Kings in the Corner matches through the match layer (ARCHITECTURE §9 property suite).

Every decision of a random playout is checked: legal commands are accepted, no view or redacted
event shows a seat another seat's hand or the stock, fold equals the incremental state, the same
seeds give byte-identical logs, every chance event re-derives from rng_v1, events round-trip
through the codec, and the match ends within the game's bound.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest
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
from contracts.match import CreateMatch, Resign, Resigned
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


def audit(log: list[tuple[Any, ...]], server_seed: bytes) -> None:
    """Fold the whole log with the revealed seed and re-derive every chance event."""
    assert GAME.verify_chance is not None
    state = None
    for events in log:
        for event in events:
            if state is not None and not match.is_match_event(event):
                problem = GAME.verify_chance(state.game_state, event)
                assert problem is None, problem
            state = match.evolve(GAME, state, event, server_seed)


SMALL = ["cardgames-zone", "family-draw-first", "classic-chips", "cz-draw-when-needed", "becker-four-card"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(SMALL),
    n=st.integers(2, 4),
    server_seed=st.binary(min_size=32, max_size=32),
    rng_seed=st.integers(0, 2**32),
    bot=st.sampled_from(["random", "heuristic"]),
)
def test_random_matches_keep_hands_hidden_and_audit(
    preset: str, n: int, server_seed: bytes, rng_seed: int, bot: str
) -> None:
    log, final = playout(preset, n, server_seed, rng_seed, bot)
    assert final.outcome is not None and len(final.outcome.ranks) == n
    # fold equals the incremental state
    folded = None
    for events in log:
        for event in events:
            folded = match.evolve(GAME, folded, event, server_seed)
    assert folded == final
    audit(log, server_seed)
    # codec round trip of every stored event
    for events in log:
        for event in events:
            assert CODEC.event_decoder.decode(msgspec.json.encode(event)) == event


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), server_seed=st.binary(min_size=32, max_size=32))
def test_every_preset_plays_to_the_end(preset: str, server_seed: bytes) -> None:
    rules = PRESETS[preset]
    n = min(rules.max_players, 4)
    log, final = playout(preset, n, server_seed, 7, "heuristic", check=False)
    assert final.outcome is not None
    audit(log, server_seed)


def test_same_seeds_give_byte_identical_logs() -> None:
    seed = bytes(range(32))
    a, _ = playout("pagat-classic", 3, seed, 11, check=False)
    b, _ = playout("pagat-classic", 3, seed, 11, check=False)
    assert msgspec.json.encode(a) == msgspec.json.encode(b)
    c, _ = playout("pagat-classic", 3, bytes(32), 11, check=False)
    assert msgspec.json.encode(a) != msgspec.json.encode(c)


def test_two_decks_and_jokers_keep_hands_hidden() -> None:
    for preset, n in (("cz-two-decks", 8), ("freeman-jokers", 3), ("draw-till-play", 3)):
        log, final = playout(preset, n, hashlib.sha256(preset.encode()).digest(), 3, "heuristic")
        assert final.outcome is not None
        audit(log, hashlib.sha256(preset.encode()).digest())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_presets_redacted_events_fold_into_each_seats_information_state(preset: str) -> None:
    """Every preset (penalty3 and becker folds raised on '??'): the events redacted for a seat
    fold, and give that seat the view and legal commands of the full state (E23, D1); one seat
    resigns during the match (D3)."""
    n = min(PRESETS[preset].max_players, 3)
    seed = hashlib.sha256(b"info:" + preset.encode()).digest()
    log, final = playout(preset, n, seed, 5, "heuristic", check=False, resign_at=40)
    assert final.outcome is not None
    seats = final.created.seats
    if any(isinstance(e, Resigned) for events in log for e in events):
        assert final.outcome.ranks[-1] == n  # D3: the seat that resigned is ranked last
    full = None
    folds: dict[str | None, Any] = {}
    for events in log:
        for event in events:
            full = match.evolve(GAME, full, event, seed)
            for viewer in (*seats, None):
                shown = match.redact(GAME, event, viewer)
                if shown is not None:
                    folds[viewer] = match.evolve(GAME, folds.get(viewer), shown, None)
        assert full is not None
        for viewer in (*seats, None):
            mine = folds[viewer]
            assert match.view(GAME, mine, viewer, "m", 0) == match.view(GAME, full, viewer, "m", 0), viewer
            if viewer is not None and full.outcome is None:
                assert GAME.legal_commands(mine.game_state, viewer) == GAME.legal_commands(full.game_state, viewer)
