"""Read a match from its log and fold it (gateway views, exports, the CLI)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from contracts import subjects
from contracts.codecs import codec
from contracts.envelope import EventEnvelope
from domain.core import match as match_layer
from domain.core.matchlog import Folded, fold_envelope
from domain.games import registry
from services.common.natsio import EventStore, Stored


class UnreadableLog(ValueError):
    """A match's stored log holds a message that does not decode as an envelope of its game."""


@dataclass
class FoldedMatch:
    match_id: str
    game: str
    # The rules version the match was recorded under (its first envelope's): its decider folds it.
    rules_version: str | None = None
    state: match_layer.MatchState | None = None
    seq: int = 0
    last_stream_seq: int = 0
    stored: list[Stored] = field(default_factory=list)
    envelopes: list[EventEnvelope[Any]] = field(default_factory=list)

    @property
    def decider(self) -> registry.Game:
        """The decider of the rules version the match was recorded under (the current rules
        before the first envelope is folded)."""
        return registry.get(self.game, self.rules_version)

    def apply(self, item: Stored) -> EventEnvelope[Any]:
        try:
            envelope = codec(self.game).decode_envelope(item.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise UnreadableLog(
                f"stored message {item.stream_seq} of match {self.match_id!r} is not a {self.game} envelope: {exc}"
            ) from exc
        if self.rules_version is None:
            self.rules_version = envelope.rules_version
        game = self.decider
        # Views never need the server seed: chance outcomes are recorded in events.
        folded = fold_envelope(game, Folded(state=self.state, seq=self.seq), envelope)
        self.state, self.seq = folded.state, folded.seq
        self.last_stream_seq = item.stream_seq
        self.stored.append(item)
        self.envelopes.append(envelope)
        return envelope

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.outcome is not None


async def find_game(store: EventStore, match_id: str) -> str | None:
    subject = await store.find_match_subject(match_id)
    return subjects.game_from_subject(subject) if subject else None


async def load_match(store: EventStore, match_id: str, game: str | None = None) -> FoldedMatch | None:
    game = game or await find_game(store, match_id)
    if game is None or game not in registry.GAMES:
        return None
    stored = await store.load(subjects.match_subject(game, match_id))
    if not stored:
        return None
    folded = FoldedMatch(match_id=match_id, game=game)
    for item in stored:
        folded.apply(item)
    return folded
