"""Portable game records (rules/records.md): referee a record with the rules code of live play, and
write a finished match as a record.

A record is plain JSON data.  ``replay(record)`` decides every action through the match layer, the
same ``decide`` live play uses; the game's ``RecordAdapter`` (``Decider.record``) turns a record's
actions into commands and its deal entries into the game's chance events.  ``to_record`` is the
inverse: the decisions of a stored match as a record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from contracts.audit import AuditBundle
from contracts.codecs import codec
from contracts.envelope import Rejected
from contracts.match import CreateMatch, MatchCreated, MatchEnded, Resign
from domain.core import match as match_layer
from domain.core import seal
from domain.core.decider import Decider, RecordAdapter
from domain.core.rng import commitment
from domain.games import registry

FORMAT = "gamehall-record/1"
Game = Decider[Any, Any, Any, Any, Any]


class MalformedRecord(ValueError):
    """The record cannot be read; the message names the field (exit 2)."""


@dataclass(frozen=True)
class Illegal:
    """An action the rules refuse (exit 1)."""

    index: int
    code: str
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"ok": False, "index": self.index, "code": self.code, "detail": self.detail}


@dataclass(frozen=True)
class Replayed:
    """A record refereed to its end (exit 0)."""

    game: str
    players: tuple[str, ...]
    finished: bool
    deals: tuple[dict[str, list[int]], ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...] | None
    reason: str | None
    draw: bool = False
    state: match_layer.MatchState | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": True,
            "finished": self.finished,
            "deals": list(self.deals),
            "totals": list(self.totals),
            "ranks": list(self.ranks) if self.ranks is not None else None,
            "reason": self.reason,
        }


def _need(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in record:
        raise MalformedRecord(f"{key}: missing ({what})")
    value = record[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise MalformedRecord(f"{key}: must be {what}")
    return value


def _adapter(game: Game) -> RecordAdapter[Any, Any, Any]:
    if game.record is None:
        raise MalformedRecord(f"game: {game.name} does not read game records yet")
    return game.record


def replay(record: Any) -> Replayed | Illegal:
    """Referee a record.  Raises ``MalformedRecord`` naming the field when it cannot be read."""
    if not isinstance(record, Mapping):
        raise MalformedRecord("the record must be a JSON object")
    fmt = record.get("format")
    if fmt != FORMAT:
        raise MalformedRecord(f"format: must be {FORMAT!r}, got {fmt!r}")
    name = _need(record, "game", str, "a game name")
    game = registry.GAMES.get(name)
    if game is None:
        raise MalformedRecord(f"game: unknown game {name!r}; known: {', '.join(sorted(registry.GAMES))}")
    adapter = _adapter(game)
    preset = _need(record, "preset", str, "a preset name")
    if preset not in game.presets:
        raise MalformedRecord(f"preset: {name} has no preset {preset!r}; known: {', '.join(game.presets)}")
    overrides = record.get("overrides") or {}
    if not isinstance(overrides, Mapping):
        raise MalformedRecord("overrides: must be an object of ruleset parameters")
    players = _need(record, "players", list, "a list of player names")
    if not all(isinstance(p, str) for p in players):
        raise MalformedRecord("players: must be a list of player names")
    n = len(players)
    ruleset = match_layer.resolve_ruleset(game, preset, dict(overrides), n)
    if isinstance(ruleset, Rejected):
        where = "players" if ruleset.code == "invalid_seats" else "overrides"
        raise MalformedRecord(f"{where}: {ruleset.detail}")
    first_dealer = record.get("first_dealer", 0)
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < n:
        raise MalformedRecord(f"first_dealer: must be a seat index 0..{n - 1}")
    deals = record.get("deals") or []
    if not isinstance(deals, list) or not all(isinstance(d, Mapping) for d in deals):
        raise MalformedRecord("deals: must be a list of objects")
    actions = record.get("actions") or []
    if not isinstance(actions, list):
        raise MalformedRecord("actions: must be a list")
    seats = game.seat_names(n)
    created = match_layer.decide(
        game,
        None,
        None,
        CreateMatch(
            preset=preset,
            ruleset=msgspec.to_builtins(ruleset),
            seats=seats,
            players=tuple(players),
            token_hashes=tuple("0" * 64 for _ in seats),
            # Chance comes from the record's deals; no server seed is ever drawn from.
            seed_commitment=commitment(bytes(32)) if game.chance else "",
        ),
    )
    if isinstance(created, Rejected):
        raise MalformedRecord(f"players: {created.detail}")
    state = match_layer.evolve(game, None, created[0])
    used = 0

    def deal_what_is_due(state: match_layer.MatchState) -> match_layer.MatchState:
        nonlocal used
        while state.outcome is None and used < len(deals) and adapter.wants_deal(state.game_state):
            entry = dict(deals[used])
            if used == 0:
                entry.setdefault("first_dealer", first_dealer)
            events = adapter.deal(state.game_state, entry) if adapter.deal is not None else None
            if events is None or isinstance(events, Rejected):
                detail = events.detail if isinstance(events, Rejected) else "this game has no deals"
                raise MalformedRecord(f"deals[{used}]: {detail}")
            for event in events:
                state = match_layer.evolve(game, state, event)
            used += 1
        return state

    for i, action in enumerate(actions):
        state = deal_what_is_due(state)
        if not isinstance(action, list) or len(action) < 2 or not isinstance(action[0], str):
            raise MalformedRecord(f"actions[{i}]: must be [name, seat, arguments...]")
        s = action[1]
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
            raise MalformedRecord(f"actions[{i}]: the seat must be an index 0..{n - 1}")
        seat = seats[s]
        command = adapter.parse_action(state.game_state, seat, action)
        if isinstance(command, Rejected):
            return Illegal(i, command.code, command.detail)
        if adapter.ignored(command):
            continue
        decided = match_layer.decide(game, state, seat, command)
        if isinstance(decided, Rejected):
            return Illegal(i, decided.code, decided.detail)
        for event in decided:
            state = match_layer.evolve(game, state, event)
    state = deal_what_is_due(state)
    rows = adapter.scores(state.game_state)
    points: list[dict[str, list[int]]] = []
    before = (0,) * n
    for row in rows:
        points.append({"points": [a - b for a, b in zip(row, before, strict=True)], "totals": list(row)})
        before = row
    outcome = state.outcome
    return Replayed(
        game=name,
        players=tuple(players),
        finished=outcome is not None,
        deals=tuple(points),
        totals=tuple(rows[-1]) if rows else (0,) * n,
        ranks=outcome.ranks if outcome is not None else None,
        reason=outcome.reason if outcome is not None else None,
        draw=bool(outcome.draw) if outcome is not None else False,
        state=state,
    )


def to_record(decisions: Sequence[tuple[str | None, Any, Sequence[Any]]]) -> dict[str, Any]:
    """A record of a match from its decisions ``(seat, command, events)`` in order, the first being
    the match's creation.  Draw offers are not part of a record: a match ended by agreement
    exports its moves, and its replay ends unfinished."""
    if not decisions or not decisions[0][2] or not isinstance(decisions[0][2][0], MatchCreated):
        raise ValueError("the first decision must create the match")
    created: MatchCreated = decisions[0][2][0]
    game = registry.get(created.game, created.rules_version)
    adapter = _adapter(game)
    base = msgspec.to_builtins(game.presets[created.preset].ruleset) if created.preset in game.presets else {}
    overrides = {k: v for k, v in created.ruleset.items() if base.get(k, object()) != v}
    state = match_layer.evolve(game, None, created)
    deals: list[dict[str, Any]] = []
    actions: list[list[Any]] = []
    first_dealer = 0
    left_before_deal: str | None = None  # a seat that resigned while the table waited for a deal
    for seat, command, events in decisions[1:]:
        if seat is not None and command is not None:
            if isinstance(command, Resign) or not isinstance(command, match_layer.MATCH_COMMAND_TYPES):
                actions.append(adapter.format_action(state.game_state, seat, command))
            if isinstance(command, Resign) and adapter.wants_deal(state.game_state):
                left_before_deal = seat
        for event in events:
            entry = None if match_layer.is_match_event(event) else adapter.deal_entry(event)
            if entry is not None and left_before_deal is not None:
                # A record deals as soon as a deal is due, so its replay would deal this seat in.
                raise ValueError(
                    f"{left_before_deal} resigned before deal {len(deals) + 1} was dealt, which a game "
                    "record cannot say (docs/audit.md, Game records): the audit bundle is this match's evidence"
                )
            if entry is not None:
                entry = dict(entry)
                dealer = entry.pop("first_dealer", None)
                if not deals and isinstance(dealer, int):
                    first_dealer = dealer
                deals.append(entry)
            state = match_layer.evolve(game, state, event)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": created.game,
        "preset": created.preset,
        "players": list(created.players),
        "actions": actions,
    }
    if overrides:
        record["overrides"] = overrides
    if game.chance:
        record["first_dealer"] = first_dealer
        record["deals"] = deals
    return record


def record_of_bundle(bundle: AuditBundle) -> dict[str, Any]:
    """The record of a finished match from its audit bundle (``gamehall export MATCH_ID --record``).

    Raises ``ValueError`` for a match that is not finished: a card game's record lists every deal,
    hands a running match still hides.  Sealed decisions are opened with the key of the revealed
    server seed (``domain/core/seal.py``; ``SealBroken``, a ``ValueError``, when one does not open)."""
    c = codec(bundle.game)
    decisions: list[tuple[str | None, Any, Sequence[Any]]] = []
    envelopes = [c.decode_envelope(stored.data.encode()) for stored in bundle.envelopes]
    key = seal.revealed_key(envelopes)
    for env in envelopes:
        if env.sealed:
            if key is None:
                raise ValueError("the match is not finished; only a finished match is exported as a record")
            env = seal.open_envelope(env, key)
        command = c.decode_inner_command(env.command) if env.command is not None else None
        if isinstance(command, Rejected):
            raise ValueError(f"decision {env.seq}: its command cannot be read: {command.detail}")
        decisions.append((env.seat, command, env.events))
    if not any(isinstance(e, MatchEnded) for _, _, events in decisions for e in events):
        raise ValueError("the match is not finished; only a finished match is exported as a record")
    return to_record(decisions)
