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
from contracts.match import (
    AcceptDraw,
    ClaimAbandon,
    ClaimTimeout,
    CreateMatch,
    DeclineDraw,
    ExpireIdle,
    MatchCreated,
    MatchEnded,
    OfferDraw,
    Resign,
)
from domain.core import match as match_layer
from domain.core import seal
from domain.core.decider import Decider, RecordAdapter
from domain.core.match.claims import ABANDON, TIMEOUT, claimed
from domain.core.rng import commitment
from domain.games import registry

FORMAT = "gamehall-record/1"
Game = Decider[Any, Any, Any, Any, Any]

# The match-level actions of every game's record (records.md R1; draw offers so that a match
# drawn by agreement replays to its result): the command each stands for.
SEAT_ACTIONS: dict[str, Any] = {
    "resign": Resign(),
    "offer_draw": OfferDraw(),
    "accept_draw": AcceptDraw(),
    "decline_draw": DeclineDraw(),
}
# ``["timeout", s]`` and ``["abandon", s]``: the claim's rule, applied as live play applies it.
CLAIM_ACTIONS = {"timeout": TIMEOUT, "abandon": ABANDON}
CLAIM_NAMES = {ClaimTimeout: "timeout", ClaimAbandon: "abandon"}
# Actions with no seat: ``["deal"]`` (R2, the next deal entry) and ``["expire"]`` (the match
# ended idle: the abandonment rule of docs/audit.md, with no clock).
DEAL, EXPIRE = "deal", "expire"


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


def _result_of(record: Mapping[str, Any]) -> tuple[list[int], str] | None:
    """The record's own ``result`` (R4), or None when it carries none."""
    result = record.get("result")
    if result is None:
        return None
    if (
        not isinstance(result, Mapping)
        or not isinstance(result.get("ranks"), list)
        or not all(isinstance(r, int) and not isinstance(r, bool) for r in result["ranks"])
        or not isinstance(result.get("reason"), str)
    ):
        raise MalformedRecord('result: must be {"ranks": [per seat], "reason": "..."}')
    return list(result["ranks"]), result["reason"]


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
    preset = game.canonical_preset(_need(record, "preset", str, "a preset name"))
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
    claimed_result = _result_of(record)
    # R2: a record lists every deal as ["deal"], or none (then each is dealt when it is due).
    explicit = any(isinstance(a, list) and a[:1] == [DEAL] for a in actions)
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
        while not explicit and state.outcome is None and used < len(deals) and adapter.wants_deal(state.game_state):
            state = deal_next(state)
        return state

    def deal_next(state: match_layer.MatchState) -> match_layer.MatchState:
        nonlocal used
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
        if action == [DEAL]:
            if state.outcome is not None or used >= len(deals) or not adapter.wants_deal(state.game_state):
                why = "no deal entry is left" if used >= len(deals) else "no deal is due here"
                return Illegal(i, "deal_not_due", f"a deal action where {why}")
            state = deal_next(state)
            continue
        decided: tuple[Any, ...] | Rejected | None
        if action == [EXPIRE]:
            decided = match_layer.decide(game, state, None, ExpireIdle(last_decision_at=0, at=1, limit_ms=1))
        else:
            decided = _seat_action(game, adapter, state, seats, i, action)
        if decided is None:
            continue
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
    if claimed_result is not None:
        verdict = (list(outcome.ranks), game.record_reasons.get(outcome.reason, outcome.reason)) if outcome else None
        if verdict != claimed_result:
            said = f"ranks {verdict[0]}, reason {verdict[1]!r}" if verdict else "the game is not finished"
            return Illegal(
                len(actions),
                "result_differs",
                f"the record's result is ranks {claimed_result[0]}, reason {claimed_result[1]!r}; the rules give {said}",
            )
    return Replayed(
        game=name,
        players=tuple(players),
        finished=outcome is not None,
        deals=tuple(points),
        totals=tuple(rows[-1]) if rows else (0,) * n,
        ranks=outcome.ranks if outcome is not None else None,
        reason=game.record_reasons.get(outcome.reason, outcome.reason) if outcome is not None else None,
        draw=bool(outcome.draw) if outcome is not None else False,
        state=state,
    )


def _seat_action(
    game: Game, adapter: RecordAdapter[Any, Any, Any], state: match_layer.MatchState, seats: tuple[str, ...], i: int, action: Any
) -> tuple[Any, ...] | Rejected | None:
    """The events of one ``[name, seat, arguments...]`` action (None: one that changes nothing)."""
    n = len(seats)
    if not isinstance(action, list) or len(action) < 2 or not isinstance(action[0], str):
        raise MalformedRecord(f"actions[{i}]: must be [name, seat, arguments...], [\"deal\"] or [\"expire\"]")
    s = action[1]
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
        raise MalformedRecord(f"actions[{i}]: the seat must be an index 0..{n - 1}")
    seat, name = seats[s], action[0]
    if name in CLAIM_ACTIONS and len(action) == 2:
        if state.outcome is not None:
            return Rejected(code="match_over", detail="the match is over")
        return claimed(game, state, seat, CLAIM_ACTIONS[name], None)
    command = SEAT_ACTIONS[name] if name in SEAT_ACTIONS and len(action) == 2 else None
    if command is None:
        command = adapter.parse_action(state.game_state, seat, action)
        if isinstance(command, Rejected):
            return command
        if adapter.ignored(command):
            return None
    return match_layer.decide(game, state, seat, command)


def _match_action(state: match_layer.MatchState, seat: str | None, command: Any) -> list[Any] | None:
    """The record action of a match-level command (None: one a record does not list)."""
    seats = state.created.seats
    for name, kind in SEAT_ACTIONS.items():
        if isinstance(command, type(kind)) and seat in seats:
            return [name, seats.index(seat)]
    if type(command) in CLAIM_NAMES and command.seat in seats:
        return [CLAIM_NAMES[type(command)], seats.index(command.seat)]
    if isinstance(command, ExpireIdle):
        return [EXPIRE]
    return None


def to_record(decisions: Sequence[tuple[str | None, Any, Sequence[Any]]]) -> dict[str, Any]:
    """A record of a match from its decisions ``(seat, command, events)`` in order, the first being
    the match's creation.  Match-level commands become the actions of ``SEAT_ACTIONS``,
    ``CLAIM_ACTIONS`` and ``["expire"]``; a finished match carries its ``result`` (R4), and its
    deals are explicit ``["deal"]`` actions when a match-level action came while one was due (R2)."""
    if not decisions or not decisions[0][2] or not isinstance(decisions[0][2][0], MatchCreated):
        raise ValueError("the first decision must create the match")
    created: MatchCreated = decisions[0][2][0]
    game = registry.get(created.game, created.rules_version)
    adapter = _adapter(game)
    base = (
        match_layer.written_ruleset(game, game.presets[created.preset].ruleset) if created.preset in game.presets else {}
    )
    # In the form the rules file writes the parameters (Decider.ruleset_form, e.g. "fixed_rounds:5").
    written = match_layer.written_ruleset(game, created.ruleset)
    overrides = {k: v for k, v in written.items() if base.get(k, object()) != v}
    state = match_layer.evolve(game, None, created)
    deals: list[dict[str, Any]] = []
    actions: list[list[Any]] = []
    first_dealer = 0
    # R2: deals are listed as ["deal"] actions only when something happened while a deal was due
    # (a resignation, a claim, a draw offer before it), which a record dealing at once cannot say.
    explicit = False
    for seat, command, events in decisions[1:]:
        if command is not None and isinstance(command, match_layer.MATCH_COMMAND_TYPES):
            action = _match_action(state, seat, command)
            if action is not None:
                actions.append(action)
                explicit = explicit or adapter.wants_deal(state.game_state)
        elif seat is not None and command is not None:
            actions.append(adapter.format_action(state.game_state, seat, command))
        for event in events:
            entry = None if match_layer.is_match_event(event) else adapter.deal_entry(event)
            if entry is not None:
                entry = dict(entry)
                dealer = entry.pop("first_dealer", None)
                if not deals and isinstance(dealer, int):
                    first_dealer = dealer
                deals.append(entry)
                actions.append([DEAL])
            state = match_layer.evolve(game, state, event)
    if not explicit:
        actions = [a for a in actions if a != [DEAL]]
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
    if state.outcome is not None:
        reason = game.record_reasons.get(state.outcome.reason, state.outcome.reason)
        record["result"] = {"ranks": list(state.outcome.ranks), "reason": reason}
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
