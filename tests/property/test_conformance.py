"""The conformance suite: the laws every registered game obeys, on every preset (ARCHITECTURE §3, §9).

It reads only the registry and the Decider record: no game is named here.  For every preset of
every game, a seeded random match is played through the match layer and at sampled decisions:

* every legal command is accepted; random commands built from the command types (with the
  strings the position shows), garbage, and commands of seats not to move are refused with a code
  the game declares, or, when accepted, are of a kind a legal command has and (in games without
  chance) lead to the position a legal command leads to;
* folding the whole log equals the incrementally built state, and the one fold of stored
  envelopes (``domain.core.matchlog``) gives it too;
* the same seed and commands give a byte-identical log;
* events, commands, views, envelopes and the ruleset round-trip through the codecs;
* no view or redacted event shows a seat what another seat hides (``Decider.hidden``), nor the
  server seed before the end; every chance event re-derives from the seed (``verify_chance``);
* every seat's redacted events fold into its information state, with the same view and the same
  legal commands as the full state;
* the match ends within ``max_decisions`` (playouts are capped at ``PLAYOUT_CAP`` decisions; a game
  whose bound is above the cap is checked only when its playout ends).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import MATCH_REJECTION_CODES, CreateMatch
from domain import records
from domain.core import match
from domain.core import rng as rng_v1
from domain.core.matchlog import fold_envelopes
from domain.games.registry import GAMES
from tests.support.redaction import strings

# Decisions one playout may take; a bound above it is checked only when the playout ends sooner.
PLAYOUT_CAP = 1200
# Every decision among the first FULL_CHECKS is checked in full, then every CHECK_EVERY-th.
FULL_CHECKS = 12
CHECK_EVERY = 9


def playable_seat_counts(game: Any, ruleset: Any) -> list[int]:
    return [n for n in range(game.min_seats, game.max_seats + 1) if game.validate(ruleset, n) is None]


CASES = [
    pytest.param(name, preset, id=f"{name}:{preset}")
    for name, game in sorted(GAMES.items())
    for preset in game.presets
]


class NotAStruct:
    """A command of no game at all."""


def create_command(game: Any, preset: str, n: int, server_seed: bytes | None) -> CreateMatch:
    seats = game.seat_names(n)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(game.presets[preset].ruleset),
        seats=seats,
        players=tuple(f"player {s}" for s in seats),
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng_v1.commitment(server_seed) if server_seed is not None else "",
    )


def arbitrary(t: mi.Type, r: random.Random, words: list[str], depth: int = 0) -> Any:
    """A random value of a msgspec type: strings from ``words`` (what the position shows) or junk."""
    if isinstance(t, mi.UnionType):
        return arbitrary(r.choice(t.types), r, words, depth)
    if isinstance(t, mi.StructType):
        return t.cls(**{f.name: arbitrary(f.type, r, words, depth + 1) for f in t.fields})
    if isinstance(t, mi.LiteralType):
        return r.choice(t.values)
    if isinstance(t, mi.StrType):
        return r.choice(words) if words and r.random() < 0.85 else r.choice(["", "zz9", "x" * 300, "a1-"])
    if isinstance(t, mi.BoolType):
        return r.random() < 0.5
    if isinstance(t, mi.IntType):
        return r.choice([-1, 0, 1, 2, 3, 7, 10**6])
    if isinstance(t, mi.NoneType):
        return None
    if isinstance(t, (mi.VarTupleType, mi.ListType, mi.SetType, mi.FrozenSetType)):
        if depth > 3:
            return ()
        return tuple(arbitrary(t.item_type, r, words, depth + 1) for _ in range(r.choice([0, 1, 2, 2, 3, 5])))
    if isinstance(t, mi.TupleType):
        return tuple(arbitrary(x, r, words, depth + 1) for x in t.item_types)
    return None


def other_commands(game: Any, gs: Any, seat: str, history: list[Any], r: random.Random) -> list[Any]:
    """A sample of commands that are mostly not legal now."""
    legal = game.legal_commands(gs, seat)
    words = sorted(strings(game.view(gs, seat)) | set().union(*(strings(c) for c in legal[:20])))
    command_type = mi.type_info(game.command_type)
    out: list[Any] = [NotAStruct(), None, 42, "move", ()]
    out += r.sample(history, min(3, len(history)))
    out += [arbitrary(command_type, r, words) for _ in range(6)]
    return out


def position_after(game: Any, gs: Any, events: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a decision changes that matters for play: who moves next and what each seat may do."""
    after = gs
    for event in events:
        after = game.evolve(after, event)
    seats = sorted(game.to_move(after))
    return (seats, game.outcome(after), [game.legal_commands(after, s) for s in seats])


def check_commands(game: Any, gs: Any, seat: str, movers: tuple[str, ...], seats: tuple[str, ...],
                   history: list[Any], r: random.Random) -> None:
    codes = set(game.rejection_codes)
    c = codec(game.name)
    legal = game.legal_commands(gs, seat)
    assert legal, f"{seat} is to move but has no legal command"
    assert len(set(map(msgspec.json.encode, legal))) == len(legal), "legal commands repeat"
    for cmd in r.sample(legal, min(4, len(legal))):
        assert not isinstance(game.decide(gs, seat, cmd), Rejected), cmd
        assert c.decode_inner_command(msgspec.to_builtins(cmd)) == cmd
        assert isinstance(game.describe(cmd), str) and game.describe(cmd)
    for other in seats:
        if other not in movers:
            assert game.legal_commands(gs, other) == (), f"{other} is not to move but has legal commands"
            for cmd in legal[:2]:
                refused = game.decide(gs, other, cmd)
                assert isinstance(refused, Rejected), (other, cmd)
                assert refused.code in codes or refused.code in MATCH_REJECTION_CODES
    legal_positions = None
    for cmd in other_commands(game, gs, seat, history, r):
        try:
            result = game.decide(gs, seat, cmd)
        except Exception as exc:  # pragma: no cover - the failure message names the command
            raise AssertionError(f"decide raised {exc!r} on {cmd!r}") from exc
        if isinstance(result, Rejected):
            assert result.code in codes, f"undeclared code {result.code!r} for {cmd!r}"
            assert isinstance(result.detail, str) and result.detail
            continue
        assert not isinstance(cmd, (NotAStruct, type(None), int, str, tuple)), f"garbage accepted: {cmd!r}"
        if cmd in legal:
            continue
        # Accepted although not listed: a command of a listed kind (a free parameter such as a client
        # seed, or another spelling of a listed move) ...
        assert type(cmd) in {type(x) for x in legal}, f"accepted {cmd!r}, of a kind no legal command has"
        if game.chance:
            continue  # ... whose effect may differ by what chance then gives
        # ... and, without chance, with the effect of a listed command.
        if legal_positions is None:
            legal_positions = [position_after(game, gs, tuple(game.decide(gs, seat, x))) for x in legal]
        assert position_after(game, gs, tuple(result)) in legal_positions, f"accepted {cmd!r}: no legal move does that"


def check_hidden(game: Any, state: match.MatchState, events: tuple[Any, ...], server_seed: bytes | None) -> None:
    gs = state.game_state
    seats = state.created.seats
    for viewer in (*seats, None):
        others = frozenset().union(*(game.hidden(gs, s) for s in seats if s != viewer))
        # A viewer's legal moves are not counted here: they name what the viewer could do (a joker's
        # every possible declaration names cards another seat may hold), and the playout checks
        # that they follow from the viewer's information state alone (legal_commands of the
        # folded redacted events equal the referee's), so they cannot carry a hidden card.
        shown_view = msgspec.structs.replace(match.view(game, state, viewer, "m", 1), legal_moves=())
        seen = strings(game.view(gs, viewer)) | strings(shown_view)
        for event in events:
            shown = match.redact(game, event, viewer)
            if shown is not None:
                seen |= strings(shown)
        assert not seen & others, f"{viewer} sees hidden {sorted(seen & others)[:8]}"
        if server_seed is not None and state.outcome is None:
            assert server_seed.hex() not in seen, f"{viewer} sees the server seed"


def envelope(game: Any, seq: int, events: tuple[Any, ...]) -> EventEnvelope[Any]:
    return EventEnvelope(
        match_id="m",
        game=game.name,
        rules_version=game.rules_version,
        seq=seq,
        command_id=f"c{seq}",
        correlation_id=f"c{seq}",
        recorded_at=0,
        prev_hash="0" * 64,
        events=events,
    )


def replay(game: Any, create: CreateMatch, server_seed: bytes | None, script: list[tuple[str, Any]]) -> list[Any]:
    """Decide the same commands again from scratch; the events of every decision."""
    created = match.decide(game, None, None, create)
    assert not isinstance(created, Rejected), created
    state = match.evolve(game, None, created[0], server_seed)
    log: list[Any] = [tuple(created)]
    for seat, cmd in script:
        events = match.decide(game, state, seat, cmd, server_seed)
        assert not isinstance(events, Rejected), events
        for event in events:
            state = match.evolve(game, state, event, server_seed)
        log.append(tuple(events))
    return log


def playout(game: Any, preset: str, n: int, server_seed: bytes | None, seed: int) -> None:
    r = random.Random(seed)
    c = codec(game.name)
    create = create_command(game, preset, n, server_seed)
    created = match.decide(game, None, None, create)
    assert not isinstance(created, Rejected), created
    state = match.evolve(game, None, created[0], server_seed)
    seats = state.created.seats
    ruleset = state.ruleset
    assert msgspec.convert(msgspec.to_builtins(ruleset), game.ruleset_type) == ruleset
    log: list[tuple[Any, ...]] = [tuple(created)]
    script: list[tuple[str, Any]] = []
    mine: dict[str, match.MatchState | None] = {}
    for s in seats:
        mine[s] = match.evolve(game, None, match.redact(game, created[0], s), None)
    limit = min(game.max_decisions, PLAYOUT_CAP)
    while state.outcome is None and len(script) < limit:
        movers = match.to_move(game, state)
        assert movers, "a running match must have a seat to move"
        seat = r.choice(movers)
        gs = state.game_state
        full = len(script) < FULL_CHECKS or len(script) % CHECK_EVERY == 0
        if full:
            check_commands(game, gs, seat, movers, seats, [cmd for _, cmd in script[-50:]], r)
        legal = game.legal_commands(gs, seat)
        cmd = r.choice(legal)
        events = match.decide(game, state, seat, cmd, server_seed)
        assert not isinstance(events, Rejected), (cmd, events)
        for event in events:
            if game.verify_chance is not None and not match.is_match_event(event):
                assert game.verify_chance(state.game_state, event) is None, event
            state = match.evolve(game, state, event, server_seed)
            assert c.event_decoder.decode(msgspec.json.encode(event)) == event
            for s in seats:
                shown = match.redact(game, event, s)
                if shown is not None:
                    assert c.event_decoder.decode(msgspec.json.encode(shown)) == shown
                    mine[s] = match.evolve(game, mine[s], shown, None)
        log.append(tuple(events))
        script.append((seat, cmd))
        if full or state.outcome is not None:
            check_hidden(game, state, tuple(events), server_seed)
            for s in seats:
                info = mine[s]
                assert info is not None
                assert match.view(game, info, s, "m", 0) == match.view(game, state, s, "m", 0), s
                assert game.legal_commands(info.game_state, s) == game.legal_commands(state.game_state, s), s
                shown_view = game.view(state.game_state, s)
                assert msgspec.json.decode(msgspec.json.encode(shown_view), type=game.view_type) == shown_view
    if state.outcome is not None:
        assert len(script) <= game.max_decisions
        assert len(state.outcome.ranks) == len(seats)
        assert match.to_move(game, state) == ()
    else:
        assert game.max_decisions > PLAYOUT_CAP, f"no end within the bound of {game.max_decisions} decisions"
    # Fold equals the incremental state, through the one fold of stored envelopes too.
    envelopes = [envelope(game, seq, events) for seq, events in enumerate(log, start=1)]
    assert fold_envelopes(game, envelopes, server_seed).state == state
    # Same seed + commands -> byte-identical log; stored envelopes round-trip.
    again = replay(game, create, server_seed, script)
    assert [msgspec.json.encode(list(e)) for e in again] == [msgspec.json.encode(list(e)) for e in log]
    for env in envelopes[:3] + envelopes[-3:]:
        assert c.decode_envelope(msgspec.json.encode(env)) == env
    # A record of the match referees to the recorded outcome (rules/records.md).
    if game.record is not None:
        played = [(seat, cmd, events) for (seat, cmd), events in zip(script, log[1:], strict=True)]
        decisions = [(None, create, log[0]), *played]
        record = msgspec.json.decode(msgspec.json.encode(records.to_record(decisions)))
        replayed = records.replay(record)
        assert isinstance(replayed, records.Replayed), replayed
        assert replayed.state is not None
        assert game.view(replayed.state.game_state, None) == game.view(state.game_state, None), "replay differs"
        assert replayed.finished == (state.outcome is not None)
        if state.outcome is not None:
            assert (replayed.ranks, replayed.reason) == (state.outcome.ranks, state.outcome.reason)


@pytest.mark.parametrize(("game_name", "preset"), CASES)
@settings(
    max_examples=1,
    derandomize=True,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a failing playout is reported as it is, not shrunk
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_laws_hold_on_a_random_playout_of_every_preset(game_name: str, preset: str, data: st.DataObject) -> None:
    game = GAMES[game_name]
    counts = playable_seat_counts(game, game.presets[preset].ruleset)
    n = data.draw(st.sampled_from(counts[:4]), label="seats")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    server_seed = data.draw(st.binary(min_size=32, max_size=32), label="server_seed") if game.chance else None
    playout(game, preset, n, server_seed, seed)


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_decide_never_raises_on_garbage(game_name: str) -> None:
    game = GAMES[game_name]
    seats = game.seat_names(game.min_seats)
    ruleset = game.presets[game.default_preset].ruleset
    state = game.initial_state(ruleset, seats, b"\x00" * 32 if game.chance else None)
    for seat in (*seats, "nobody"):
        for garbage in (None, 42, "move", NotAStruct(), ()):
            result = game.decide(state, seat, garbage)
            assert isinstance(result, Rejected), (seat, garbage, result)
            assert result.code in game.rejection_codes


@pytest.mark.parametrize(("game_name", "preset"), CASES)
def test_every_preset_round_trips_and_starts(game_name: str, preset: str) -> None:
    game = GAMES[game_name]
    ruleset = game.presets[preset].ruleset
    assert msgspec.convert(msgspec.to_builtins(ruleset), game.ruleset_type) == ruleset
    counts = playable_seat_counts(game, ruleset)
    assert counts, f"{preset} is playable by no seat count"
    for n in (counts[0], counts[-1]):
        state = game.initial_state(ruleset, game.seat_names(n), b"\x01" * 32 if game.chance else None)
        assert game.outcome(state) is None
        assert game.to_move(state)
