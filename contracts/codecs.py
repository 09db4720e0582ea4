"""Encoders and decoders: bytes -> decode -> upcast -> current type.

Malformed bytes never raise out of here: ``decode_command`` returns ``Rejected("malformed")``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from contracts.disputes import DisputeEvent
from contracts.envelope import Accepted, CommandEnvelope, EventEnvelope, Rejected, Reply, SealedDecision
from contracts.games.registry import CONTRACTS
from contracts.integration import IntegrationEvent
from contracts.match import MatchCommand, MatchEvent
from contracts.seasons import SeasonRecord

encoder = msgspec.json.Encoder()
encode = encoder.encode


@dataclass(frozen=True)
class GameCodec:
    game: str
    envelope_decoder: msgspec.json.Decoder[Any]
    command_decoder: msgspec.json.Decoder[Any]
    inner_command_decoder: msgspec.json.Decoder[Any]
    event_decoder: msgspec.json.Decoder[Any]
    upcast: Any
    sealed_decoder: msgspec.json.Decoder[Any] | None = None

    def decode_sealed(self, data: bytes) -> SealedDecision[Any]:
        """The opened plaintext of a sealed envelope -> its command and full events (current types;
        raises on bytes that are not one, like ``decode_envelope``)."""
        assert self.sealed_decoder is not None
        sealed: SealedDecision[Any] = self.sealed_decoder.decode(data)
        if self.upcast is not None:
            sealed = msgspec.structs.replace(sealed, events=tuple(self.upcast(e) for e in sealed.events))
        return sealed

    def decode_envelope(self, data: bytes) -> EventEnvelope[Any]:
        """Stored bytes -> envelope of current event types (raises on corrupt data: a bug or tampering)."""
        env: EventEnvelope[Any] = self.envelope_decoder.decode(data)
        if self.upcast is not None:
            env = msgspec.structs.replace(env, events=tuple(self.upcast(e) for e in env.events))
        return env

    def decode_command(self, data: bytes) -> CommandEnvelope[Any] | Rejected:
        try:
            env: CommandEnvelope[Any] = self.command_decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return Rejected(code="malformed", detail=str(exc))
        if env.game != self.game:
            return Rejected(code="malformed", detail=f"command for game {env.game!r} sent to {self.game!r}")
        return env

    def decode_inner_command(self, obj: Any) -> Any:
        """A command given as builtins (e.g. from a JSON HTTP body) -> struct, or Rejected."""
        try:
            return msgspec.convert(obj, self.inner_command_decoder.type)
        except (msgspec.ValidationError, TypeError) as exc:
            return Rejected(code="malformed", detail=str(exc))


@cache
def codec(game: str) -> GameCodec:
    contract = CONTRACTS.get(game)
    if contract is None:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(sorted(CONTRACTS))}")
    events = contract.event_type | MatchEvent
    commands = contract.command_type | MatchCommand
    return GameCodec(
        game=game,
        envelope_decoder=msgspec.json.Decoder(EventEnvelope[events]),  # type: ignore[valid-type]
        command_decoder=msgspec.json.Decoder(CommandEnvelope[commands]),  # type: ignore[valid-type]
        inner_command_decoder=msgspec.json.Decoder(commands),
        event_decoder=msgspec.json.Decoder(events),
        upcast=contract.upcast,
        sealed_decoder=msgspec.json.Decoder(SealedDecision[events]),  # type: ignore[valid-type]
    )


reply_decoder: msgspec.json.Decoder[Reply] = msgspec.json.Decoder(Reply)
integration_decoder: msgspec.json.Decoder[IntegrationEvent] = msgspec.json.Decoder(IntegrationEvent)
dispute_decoder: msgspec.json.Decoder[DisputeEvent] = msgspec.json.Decoder(DisputeEvent)
season_decoder: msgspec.json.Decoder[SeasonRecord] = msgspec.json.Decoder(SeasonRecord)


def decode_reply(data: bytes) -> Accepted | Rejected:
    return reply_decoder.decode(data)
