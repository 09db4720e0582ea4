"""Read a match from its log and fold it (gateway views, exports, the CLI).

Sealed decisions (``domain/core/seal.py``) are opened with the match's seal key when the reader
has it: the gateway fetches it from ``GH_SEALS`` (``seal_key``), anyone derives it from the server
seed revealed at the end (``load_match`` does).  Without the key a fold of public events is what a
spectator sees (``public=True``: the CLI's and the disputes' facts); a reader that serves a seat's
cards asks for every decision opened and gets ``SealKeyMissing`` rather than a wrong view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from contracts import subjects
from contracts.codecs import codec
from contracts.envelope import EventEnvelope
from domain.core import match as match_layer
from domain.core import seal
from domain.core.matchlog import Folded, fold_envelope
from domain.games import registry
from services.common.natsio import EventStore, Stored


class UnreadableLog(ValueError):
    """A match's stored log holds a message that does not decode as an envelope of its game (or a
    sealed one that does not open with the match's seal key)."""


SealKeyMissing = seal.SealKeyMissing


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
    # Envelopes as folded: sealed ones opened (full events) when ``seal_key`` is known.
    envelopes: list[EventEnvelope[Any]] = field(default_factory=list)
    # The match state before each of ``envelopes`` (the log's lines in words start from it).
    befores: list[match_layer.MatchState | None] = field(default_factory=list)
    # The match's seal key (None: not known to this reader).  With ``public`` a sealed envelope
    # that cannot be opened is folded from its public events (a spectator's information state)
    # and counted in ``unopened``; without it, it is ``SealKeyMissing``.
    seal_key: bytes | None = None
    public: bool = False
    unopened: int = 0

    @property
    def decider(self) -> registry.Game:
        """The decider of the rules version the match was recorded under (the current rules
        before the first envelope is folded)."""
        return registry.get(self.game, self.rules_version)

    def decode(self, item: Stored) -> EventEnvelope[Any]:
        try:
            return codec(self.game).decode_envelope(item.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise UnreadableLog(
                f"stored message {item.stream_seq} of match {self.match_id!r} is not a {self.game} envelope: {exc}"
            ) from exc

    def apply(self, item: Stored, envelope: EventEnvelope[Any] | None = None) -> EventEnvelope[Any]:
        """Fold one stored message (``envelope``: it decoded already)."""
        if envelope is None:
            envelope = self.decode(item)
        if envelope.sealed:
            if self.seal_key is None and self.public:
                self.unopened += 1
            else:
                try:  # SealKeyMissing without a key
                    envelope = seal.open_envelope(envelope, self.seal_key)
                except seal.SealBroken as exc:
                    raise UnreadableLog(str(exc)) from exc
        if self.rules_version is None:
            self.rules_version = envelope.rules_version
        game = self.decider
        # Views never need the server seed: chance outcomes are recorded in events.
        before = self.state
        folded = fold_envelope(game, Folded(state=self.state, seq=self.seq), envelope)
        self.state, self.seq = folded.state, folded.seq
        self.befores.append(before)
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


async def load_match(
    store: EventStore,
    match_id: str,
    game: str | None = None,
    seal_key: bytes | None = None,
    public: bool = True,
) -> FoldedMatch | None:
    """The match folded from its whole log.  Sealed decisions are opened with ``seal_key`` or,
    for a finished match, the key derived from its revealed server seed; otherwise (a running
    match, a reader without the key) folded from their public events with ``public``, or
    ``SealKeyMissing`` without it."""
    game = game or await find_game(store, match_id)
    if game is None or game not in registry.GAMES:
        return None
    stored = await store.load(subjects.match_subject(game, match_id))
    if not stored:
        return None
    folded = FoldedMatch(match_id=match_id, game=game, seal_key=seal_key, public=public)
    envelopes = [folded.decode(item) for item in stored]
    if folded.seal_key is None and any(e.sealed for e in envelopes):
        folded.seal_key = seal.revealed_key(envelopes)
    for item, envelope in zip(stored, envelopes, strict=True):
        folded.apply(item, envelope)
    return folded
